"""UNO calls and catches [uno]."""

from __future__ import annotations

import pytest

from engine import CATCH_PENALTY, IllegalActionError, describe
from tests.engine.conftest import game, play, refuse


def one_card(*more: str, players: tuple[str, ...] = ("Ann", "Bob", "Cy")):  # type: ignore[no-untyped-def]
    """Ann has just played down to one card."""
    return game("start: R5", "Ann: has 2", "Ann: R3", *more, players=players)


def test_one_card_opens_the_uno_window() -> None:
    g = one_card()
    assert g.to_json()["uno"] == {"open": ["Ann"], "called": []}
    assert g.legal_actions().uno_callers == ("Ann",)
    assert any("Ann has one card" in event for event in g.to_json()["events"])


def test_catch_makes_the_player_draw_2() -> None:
    g = one_card("Cy: catch Ann")
    state = g.to_json()
    assert state["hands"]["Ann"] == 3 and state["turn"] == "Bob"
    assert state["uno"] == {"open": [], "called": []}
    assert state["draw_pile"] == 146 + 5 - 2


def test_the_catch_penalty_is_2_cards_everywhere() -> None:
    g = one_card()
    assert CATCH_PENALTY == 2 == g.legal_actions().catch_penalty
    before = g.state
    g.apply("Cy: catch Ann")
    assert g.state.hands[0] == before.hands[0] + CATCH_PENALTY
    line, _, after = list(g.steps())[-1]
    assert describe(line, before, after) == "Cy caught Ann without an UNO call: Ann draws 2."


def test_the_player_whose_turn_is_next_may_catch() -> None:
    assert one_card("Bob: catch Ann").to_json()["hands"]["Ann"] == 3


def test_calling_uno_protects() -> None:
    g = one_card("Ann: uno")
    assert g.to_json()["uno"] == {"open": [], "called": ["Ann"]}
    with pytest.raises(IllegalActionError, match="already called") as info:
        g.apply("Bob: catch Ann")
    assert info.value.rule == "uno"
    with pytest.raises(IllegalActionError, match="already called"):
        g.apply("Ann: uno")


@pytest.mark.parametrize("begins", ["Bob: R8", "Bob: draw 2, R8", "Bob: RS"])
def test_too_late_once_the_next_player_begins(begins: str) -> None:
    g = one_card(begins)
    with pytest.raises(IllegalActionError, match="Too late") as info:
        g.apply("Cy: catch Ann")
    assert info.value.rule == "uno"


def test_too_late_after_the_next_player_takes_a_stack() -> None:
    g = game("start: R5", "Ann: has 2", "Ann: R+2", "Bob: take")
    with pytest.raises(IllegalActionError, match="Too late"):
        g.apply("Cy: catch Ann")


def test_nobody_catches_themselves() -> None:
    g = one_card()
    with pytest.raises(IllegalActionError, match="uno") as info:
        g.apply("Ann: catch Ann")
    assert info.value.rule == "uno"


def test_only_one_card_hands_can_be_caught_or_call() -> None:
    g = game("start: R5")
    for line in ("Bob: catch Ann", "Ann: uno"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "uno"


def test_uno_may_be_called_late_if_nobody_caught() -> None:
    g = one_card("Bob: R8")
    g.apply("Ann: uno")
    assert g.to_json()["uno"]["called"] == ["Ann"]


def test_a_one_card_hand_from_a_swap_must_call_too() -> None:
    g = game("start: R5", "Ann: has 2", "Ann: R7 swap Bob")
    assert g.to_json()["uno"]["open"] == ["Bob"]
    g.apply("Cy: catch Bob")
    assert g.to_json()["hands"] == {"Ann": 7, "Bob": 3, "Cy": 7}


def test_a_swap_announces_only_who_holds_one_card() -> None:
    # Ann held one card for an instant before the swap gave her 7: no UNO for Ann.
    g = game("start: R5", "Ann: has 2", "Ann: R7 swap Bob")
    events = g.to_json()["events"]
    assert [e for e in events if "one card" in e] == [
        "Bob has one card: UNO! (anyone may catch them until the next turn)"
    ]


def test_a_zero_pass_hands_one_card_on() -> None:
    g = game("start: R5", "Ann: has 2", "Ann: R0")
    state = g.to_json()
    assert state["hands"] == {"Ann": 7, "Bob": 1, "Cy": 7}
    assert state["uno"]["open"] == ["Bob"]
    assert [e for e in state["events"] if "one card" in e] == [
        "Bob has one card: UNO! (anyone may catch them until the next turn)"
    ]


def test_a_call_lapses_when_the_hand_grows() -> None:
    players = ("Ann", "Bob")
    g = one_card("Ann: uno", "Bob: R+2", "Ann: take", players=players)
    assert g.to_json()["uno"] == {"open": [], "called": []}
    g.apply("Bob: R4")
    g.apply("Ann: has 2")
    g.apply("Ann: R6")  # one card again, and no call yet
    g.apply("Bob: catch Ann")
    assert g.to_json()["hands"]["Ann"] == 3


def test_correction_to_one_card_opens_no_window() -> None:
    g = game("start: R5", "Ann: has 1")
    assert g.to_json()["uno"] == {"open": [], "called": []}
    with pytest.raises(IllegalActionError, match="Too late"):
        g.apply("Bob: catch Ann")
    g.apply("Ann: uno")


def test_discard_all_down_to_one_card() -> None:
    g = game("start: R5", "Ann: has 4", "Ann: RDA discard 2")
    assert g.to_json()["uno"]["open"] == ["Ann"]


def test_the_catch_record() -> None:
    state = play("""
        players: Ann, Bob
        start: R5
        Ann: has 2
        Ann: R3
        Bob: catch Ann
        Bob: R4
    """)
    assert state["hands"] == {"Ann": 3, "Bob": 6}
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: has 2
        Ann: R3
        Ann: uno
        Bob: catch Ann
    """)
    assert (error["line"], error["rule"]) == (6, "uno")


def test_no_uno_business_after_the_hand() -> None:
    g = game("start: R5", "Ann: has 1", "Ann: R3")
    for line in ("Bob: uno", "Bob: catch Ann"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "hand-over"
