"""Quick score (a notation extension): hands entered as results, `wins` and `out`."""

from __future__ import annotations

import pytest

from engine import EngineError, Game
from engine.tools.cli import check_text

from .conftest import game


def test_a_quick_hand_scores_like_a_played_one() -> None:
    g = game("Bob: out", "Ann: wins", "Cy: reveals 35")
    state = g.to_json()
    assert state["status"] == "hand_over"
    assert state["scores"] == {"Ann": 285, "Bob": 0, "Cy": 0}
    assert state["quick"] is True


def test_the_winner_may_come_first_then_the_knockouts() -> None:
    """The screen asks for the winner first: the knockouts follow, among the reveals."""
    g = game("Ann: wins", "Bob: out", "Cy: reveals 35")
    assert g.to_json()["scores"] == {"Ann": 285, "Bob": 0, "Cy": 0}
    g = game("Cy: wins", "Ann: out", "Bob: out")  # the winner was the last one standing
    state = g.to_json()
    assert state["status"] == "hand_over" and state["scores"]["Cy"] == 500
    assert state["draw_pile"] + state["set_aside"] + sum(state["hands"].values()) == 168


def test_revealed_cards_of_a_quick_hand_are_not_counted_against_seven() -> None:
    g = game("Cy: wins", "Ann: reveals R5 W+6 W+10 B+2 G+4 R3 R4 R5 Y2", "Bob: reveals 120")
    assert g.to_json()["scores"]["Cy"] == 159 + 120


def test_the_last_player_left_wins_a_quick_hand_by_knockouts() -> None:
    g = game("Ann: out", "Bob: out")
    state = g.to_json()
    assert state["hand_winner"] == "Cy"
    assert state["scores"]["Cy"] == 500
    assert state["draw_pile"] + state["set_aside"] + sum(state["hands"].values()) == 168


def test_quick_score_plays_a_match_to_its_target() -> None:
    g = Game(["Ann", "Bob"])
    for hand in range(1, 5):
        if hand > 1:
            g.apply(f"hand: {hand}")
        g.apply("Ann: wins")
        g.apply("Bob: reveals 300")
    state = g.to_json()
    assert state["status"] == "match_over" and state["match_winner"] == "Ann"
    assert state["scores"]["Ann"] == 1200


@pytest.mark.parametrize(
    ("lines", "line", "rule"),
    [
        (("start: R5",), "Ann: wins", "setup"),
        (("start: R5",), "Ann: out", "setup"),
        (("Ann: wins",), "start: R5", "hand-over"),
        (("Ann: out",), "start: R5", "setup"),
        (("Ann: out",), "Ann: out", "mercy"),
        (("Ann: out",), "Ann: wins", "mercy"),
        (("Ann: wins",), "Bob: wins", "hand-over"),
        (("Ann: wins",), "Bob: reveals 2000", "cards"),
        (("Ann: wins",), "Ann: out", "mercy"),
        (("Ann: wins", "Bob: out"), "Bob: out", "mercy"),
        (("Ann: wins", "Bob: reveals 20"), "Bob: out", "scoring"),
        (("Ann: wins", "Bob: reveals 20", "Cy: out"), "Cy: out", "hand-over"),
    ],
)
def test_quick_lines_refused(lines: tuple[str, ...], line: str, rule: str) -> None:
    g = game(*lines)
    with pytest.raises(EngineError) as info:
        g.apply(line)
    assert info.value.rule == rule


def test_quick_lines_round_trip_through_a_record() -> None:
    g = game("Bob: out", "Ann: wins", "Cy: reveals 35", "hand: 2", "Cy: wins")
    assert Game.from_record(g.record()).to_json() == g.to_json()
    code, state = check_text(g.record())
    assert code == 0 and state["hand_winner"] == "Cy"
