"""What the table screen says and draws: no counts where none are kept, notices by
kind, icons of the app's own (no emoji, no symbol font)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.helpers import Tabletop

ROOT = Path(__file__).resolve().parents[2]
SHOWN = sorted(
    [
        *ROOT.joinpath("templates").rglob("*.html"),
        *ROOT.joinpath("companion").rglob("*.py"),
        *ROOT.joinpath("static").glob("*.js"),
    ]
)
# Arrows, dingbats, geometric shapes, emoji: characters a phone may draw as an empty box.
SYMBOLS = re.compile("[\u2190-\u2bff\U0001f000-\U0001ffff]")


def test_a_quick_score_table_shows_no_card_counts(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick")
    page = tabletop.table(match_id)
    seats = page.doc.one(cls="seats")
    assert seats.find(cls="count") is None and seats.find("meter") is None
    assert "plays first" not in page.doc.one(cls="status").text
    assert "Enter the hand's result" in page.doc.one(cls="status").text


def test_the_last_line_is_styled_by_kind(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Bob: has 20", "Ann: W+6 B", "Bob: take")
    knockout = page.doc.one("section", cls="recorded")
    assert "warning" in knockout.classes and "knocked out" in knockout.text
    assert knockout.find("svg") is not None  # its icon: not told by colour alone
    page = tabletop.undo(started)
    undone = page.doc.one("section", cls="recorded")
    assert "warning" not in undone.classes and "Undone" in undone.text
    assert undone.find("svg") is not None


@pytest.mark.parametrize("path", SHOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_symbol_needs_an_emoji_font(path: Path) -> None:
    found = [
        (number, line.strip())
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SYMBOLS.search(line)
    ]
    assert found == [], f"draw it in static/icons.svg instead: {found}"
