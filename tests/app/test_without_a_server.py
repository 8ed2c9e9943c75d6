"""The app as a browser's Python (Pyodide) can run it, for the standalone app (issue 28):
no compression over a network there is none of, no rate limits, and none of what such a
Python lacks: brotli (Flask-Compress needs it), psycopg (PostgreSQL's driver) and threads
(the limits' memory storage starts one). Nor does its start import what only a later page
or the limits need (a phone's start is its imports, in WebAssembly)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.app.helpers import Tabletop

ROOT = Path(__file__).resolve().parents[2]

STARTED = """
import json, sys, threading
LATER = (  # what a later page, a seating, an import or the limits need
    "limits", "markdown", "segno", "confusable_homoglyphs", "engine.tools.lab",
    "companion.lab_charts",
)
started = []  # a browser's Python can't start a thread: record any that starts
original = threading.Thread.start
def start(thread):
    started.append(thread.name)
    original(thread)
threading.Thread.start = start
from companion import create_app
app = create_app({
    "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1],
    "SECRET_KEY": "x",
    "COMPRESS_RESPONSES": False,
    "RATELIMIT_ENABLED": False,
})
page = app.test_client().get("/new", headers={"Accept-Encoding": "gzip"})
print(json.dumps({
    "status": page.status_code,
    "encoding": page.headers.get("Content-Encoding"),
    "loaded": sorted(m for m in ("flask_compress", "brotli", "psycopg") if m in sys.modules),
    "threads started": started,
    "imported for later": sorted(m for m in LATER if m in sys.modules),
}))
"""


def started(tmp_path: Path) -> dict[str, Any]:
    """What a new process that started the app and showed /new loaded and started."""
    # A process of its own: this one has loaded everything already.
    ran = subprocess.run(
        [sys.executable, "-c", STARTED, str(tmp_path / "table.db")],
        cwd=ROOT,
        env={"COMPANION_INSTANCE": str(tmp_path / "instance"), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return said


def test_the_app_starts_without_brotli_psycopg_or_a_thread(tmp_path: Path) -> None:
    said = started(tmp_path)
    assert (said["status"], said["encoding"], said["loaded"]) == (200, None, [])
    assert said["threads started"] == []


def test_a_start_with_limits_off_imports_only_what_its_first_page_needs(tmp_path: Path) -> None:
    # The rules page's Markdown, the share page's QR codes, the lab's simulator and
    # charts load with their pages; Unicode's look-alikes with a seating or an import.
    assert started(tmp_path)["imported for later"] == []


def test_a_table_is_refereed_with_limits_and_compression_off(app_with: Any) -> None:
    app = app_with(COMPRESS_RESPONSES="off", RATELIMIT_ENABLED=False)
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob"))
    editor.play_lines(match_id, "start: R5", "Ann: R3")
    page = editor.client.get(f"/m/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "Content-Encoding" not in page.headers
    assert "Ann" in page.get_data(as_text=True)


def test_compression_stays_on_by_default(app_with: Any) -> None:
    app = app_with()
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob"))
    page = editor.client.get(f"/m/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
