"""Every example record of the engine, played through the web forms, ends where the
engine's replay of the record ends; every refused line is refused there, on the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import EngineError, HouseRules
from engine.tools.cli import check_text
from tests.app.helpers import RECORDS, Tabletop, expectation, header_key, record_lines

FILES = sorted(RECORDS.glob("*.rec"))


def expressible(text: str) -> bool:
    """The record's own header (players, dealer, rules) fits the new-match form."""
    lines = record_lines(text)
    names = [n.strip() for n in lines[0][1].partition(":")[2].split(",")]
    if not 2 <= len(names) <= 6 or any(len(n) > 20 for n in names):
        return False
    for _, body in lines[1:]:
        key = header_key(body)
        if key not in ("dealer", "rules"):
            break
        if key == "rules":
            try:
                HouseRules.parse(body.partition(":")[2])
            except EngineError:
                return False
    return True


OK = [f for f in FILES if expectation(f.read_text()).ok and expressible(f.read_text())]
REFUSED = [f for f in FILES if not expectation(f.read_text()).ok and expressible(f.read_text())]


def test_the_examples_are_all_played() -> None:
    assert len(FILES) >= 67
    assert len(OK) + len(REFUSED) == len(FILES)  # every example fits the form


@pytest.mark.parametrize("path", OK, ids=[f.stem for f in OK])
def test_legal_record_ends_in_the_engines_state(tabletop: Tabletop, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    code, want = check_text(text)
    assert code == 0

    played = tabletop.play_record(text)

    assert played.refused_at is None, tabletop.problem(played.page)
    assert played.page.status == 303
    assert tabletop.state(played.match_id) == want
    exported = tabletop.export(played.match_id)
    assert check_text(exported) == (0, want)
    assert played.page.version == len(played.posted)


@pytest.mark.parametrize("path", REFUSED, ids=[f.stem for f in REFUSED])
def test_refused_record_is_refused_at_its_line(tabletop: Tabletop, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    wanted = expectation(text)
    code, doc = check_text(text)
    assert code == 1

    played = tabletop.play_record(text)

    assert played.refused_at == wanted.line, tabletop.problem(played.page)
    page = played.page
    assert page.status == 422
    assert wanted.rule in page.rule_links(), tabletop.problem(page)
    assert page.refusal is not None and doc["error"]["message"] in page.refusal.text
    # Nothing recorded: the table is as it was before the refused line.
    before = len(played.posted) - 1
    assert page.version == before
    assert len(tabletop.logged(played.match_id)) == before
    assert tabletop.state(played.match_id) == doc["state"]
    assert tabletop.table(played.match_id).version == before
