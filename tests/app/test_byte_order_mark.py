"""A record saved with a byte-order mark, as Notepad saves UTF-8 (issue 13, finding 9),
imports like the same record without one: uploaded, pasted, and checked by the command
line."""

from __future__ import annotations

import codecs
import subprocess
import sys
from pathlib import Path

from tests.app.helpers import Tabletop
from tests.app.test_transfer import LONG_MATCH, import_file, import_text, new_id

ROOT = Path(__file__).resolve().parents[2]


def test_an_uploaded_record_with_a_byte_order_mark_imports(tabletop: Tabletop) -> None:
    page = import_file(tabletop, codecs.BOM_UTF8 + LONG_MATCH.encode(), "notepad.rec")
    match_id = new_id(tabletop, page)
    plain = new_id(tabletop, import_file(tabletop, LONG_MATCH))
    assert tabletop.state(match_id) == tabletop.state(plain)
    # The export is the record without the mark.
    exported = tabletop.client.get(f"/m/{match_id}/record.txt").get_data()
    assert not exported.startswith(codecs.BOM_UTF8) and exported.startswith(b"players: Ann")


def test_a_pasted_record_with_a_byte_order_mark_imports(tabletop: Tabletop) -> None:
    match_id = new_id(tabletop, import_text(tabletop, "\ufeff" + LONG_MATCH))
    assert tabletop.state(match_id)["players"] == ["Ann", "Bob", "Cy", "Dee"]


def test_a_refused_line_keeps_its_number_after_the_mark(tabletop: Tabletop) -> None:
    page = import_file(tabletop, codecs.BOM_UTF8 + b"players: Ann, Bob\nstart: R5\nBob: R3\n")
    assert page.status == 422 and "Line 3 [turn]" in page.text


def test_the_command_line_reads_a_record_with_a_byte_order_mark(tmp_path: Path) -> None:
    saved = tmp_path / "notepad.rec"
    saved.write_bytes(codecs.BOM_UTF8 + LONG_MATCH.encode())
    for command in ("check", "explain"):
        done = subprocess.run(
            [sys.executable, "-m", "engine", command, str(saved)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
