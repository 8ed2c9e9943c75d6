"""The Mercy rule [mercy]: 25 cards (or the house limit) and a player is out of the hand."""

from __future__ import annotations

import pytest

from engine import Card, HouseRules, IllegalActionError
from tests.engine.conftest import game, play, refuse, total_cards


def test_knocked_out_in_the_middle_of_a_take() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Bob: has 20
        Ann: W+10 B
        Bob: take
    """)
    assert state["out"] == ["Bob"]
    assert state["hands"]["Bob"] == 0 and state["set_aside"] == 25  # 5 of the 10 drawn
    assert state["draw_pile"] == 146 - 13 - 5
    assert state["turn"] == "Cy"


def test_knocked_out_by_a_correction() -> None:
    g = game("start: R5", "Ann: has 25")
    state = g.to_json()
    assert state["out"] == ["Ann"] and state["set_aside"] == 25
    assert state["turn"] == "Bob"  # it was Ann's turn: it moves on
    assert any("knocked out" in event for event in state["events"])


def test_knocked_out_at_the_end_of_a_draw() -> None:
    g = game("start: R5", "Ann: has 20", "Ann: draw 5")
    assert g.to_json()["out"] == ["Ann"] and g.turn == "Bob"


@pytest.mark.parametrize("line", ["Ann: draw 6", "Ann: draw 5, R3", "Ann: draw 7, R3"])
def test_nothing_is_drawn_or_played_after_the_knockout(line: str) -> None:
    g = game("start: R5", "Ann: has 20")
    with pytest.raises(IllegalActionError, match="draw 5") as info:
        g.apply(line)
    assert info.value.rule == "mercy"


def test_roulette_knockout() -> None:
    g = game("start: R5", "Bob: has 22", "Ann: WCR", "Bob: roulette B 3")
    state = g.to_json()
    assert state["out"] == ["Bob"] and state["color"] == "B" and state["turn"] == "Cy"
    with pytest.raises(IllegalActionError, match="roulette G 3"):
        game("start: R5", "Bob: has 22", "Ann: WCR").apply("Bob: roulette G 4")


def test_knocked_out_players_are_skipped() -> None:
    g = game("start: R5", "Bob: has 25", "Ann: R3")
    assert g.turn == "Cy"
    g.apply("Cy: R4")
    assert g.turn == "Ann"


def test_knocked_out_players_do_nothing() -> None:
    g = game("start: R5", "Bob: has 25")
    for line in ("Bob: R3", "Bob: has 3"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "mercy"
    assert g.legal_actions().refusal(Card.parse("R3"), "Bob").rule == "mercy"  # type: ignore[union-attr]


def test_last_player_left_wins_the_hand() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Bob: has 25
        Cy: has 24
        Ann: R+2
        Cy: take
    """)
    assert state["out"] == ["Bob", "Cy"]
    assert state["status"] == "hand_over"  # nobody left to reveal
    assert state["hand_winner"] == "Ann" and state["scores"]["Ann"] == 500
    assert state["turn"] is None and total_cards(state) == 168


def test_mercy_house_limit() -> None:
    g = game("start: R5", "Bob: has 25", "Cy: has 29", rules=HouseRules(mercy=30))
    assert g.to_json()["out"] == []
    g.apply("Cy: has 30")
    assert g.to_json()["out"] == ["Cy"]


def test_mercy_off() -> None:
    state = play("""
        players: Ann, Bob
        rules: mercy=off
        start: R5
        Bob: has 60
        Ann: W+10 B
        Bob: take
    """)
    assert state["out"] == [] and state["hands"]["Bob"] == 70


def test_mercy_off_allows_drawing_without_a_limit() -> None:
    g = game("start: R5", "Ann: has 40", rules=HouseRules(mercy=None))
    g.apply("Ann: draw 20, R3")
    assert g.to_json()["hands"]["Ann"] == 59


def test_draw_ending_without_a_play_is_only_for_mercy() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: has 20
        Ann: draw 4
    """)
    assert (error["line"], error["rule"]) == (4, "draw")
