"""Helpers shared by the engine tests: replay a record, build a game line by line."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from engine import Game
from engine.tools.cli import check_text

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
PLAYERS = ("Ann", "Bob", "Cy")


def record(text: str) -> str:
    """A record written indented inside a test, as the file it stands for."""
    return textwrap.dedent(text).strip() + "\n"


def play(text: str) -> dict[str, Any]:
    """Replay a record that must be legal; the JSON state after its last line."""
    code, doc = check_text(record(text))
    assert code == 0, f"refused: {doc.get('error')}"
    return doc


def refuse(text: str) -> dict[str, Any]:
    """Replay a record that must be refused; the error object (line, rule, message)."""
    code, doc = check_text(record(text))
    assert code in (1, 2), f"expected a refusal, got the state {doc}"
    assert code == (2 if doc["error"]["rule"] == "syntax" else 1)
    return doc["error"]


def game(*lines: str, players: tuple[str, ...] = PLAYERS, **kwargs: Any) -> Game:
    """A game with the players seated and `lines` applied."""
    g = Game(list(players), **kwargs)
    for line in lines:
        g.apply(line)
    return g


def total_cards(state: dict[str, Any]) -> int:
    return (
        state["draw_pile"]
        + state["discard_pile"]
        + sum(state["hands"].values())
        + state["set_aside"]
    )
