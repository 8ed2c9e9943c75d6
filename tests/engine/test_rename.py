"""Renaming a player in a record: every place a line names them, nothing else."""

from __future__ import annotations

from engine import Game
from engine.rename import rename_in_log, renamed_seating


def test_every_line_that_names_the_player_is_rewritten_and_still_replays() -> None:
    players = ["Ann", "Bob", "Cy"]
    lines = [
        "start: R5",
        "Ann: has 4",
        "Ann: R7 swap bob",
        "Cy: catch Bob",
        "Bob: draw 2, G7 swap Ann",
    ]
    renamed = rename_in_log(players, lines, "BOB", "Robert")
    assert renamed == [
        "start: R5",
        "Ann: has 4",
        "Ann: R7 swap Robert",
        "Cy: catch Robert",
        "Robert: draw 2, G7 swap Ann",
    ]
    seating = renamed_seating(players, "Bob", "Robert")
    assert seating == ["Ann", "Robert", "Cy"]
    before, after = Game(players), Game(seating)
    for old, new in zip(lines[:3], renamed[:3], strict=True):
        before.apply(old)
        after.apply(new)
    assert after.state.players == tuple(seating)
    assert after.state.hands == before.state.hands
    assert after.state.turn == before.state.turn
