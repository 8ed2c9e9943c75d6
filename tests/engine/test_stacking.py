"""Stacking Draw cards [stack]: answer with an equal or higher card, or take it all."""

from __future__ import annotations

import pytest

from engine import Card, HouseRules, IllegalActionError
from tests.engine.conftest import game, play, refuse

SUM = HouseRules(stack="sum")


def test_a_draw_card_starts_a_stack() -> None:
    g = game("start: R5", "Ann: R+2")
    state = g.to_json()
    assert state["stack"] == {"total": 2, "last": 2}
    assert (state["turn"], state["facing"]) == ("Bob", "stack")


@pytest.mark.parametrize(
    ("first", "answer"),
    [
        ("R+2", "G+2"),
        ("R+2", "B+4"),
        ("R+2", "W+10 Y"),
        ("R+4", "WR+4 B"),
        ("R+4", "Y+4"),
        ("R+4", "W+6 G"),
        ("W+6 G", "W+6 B"),
        ("W+10 G", "W+10 R"),
    ],
)
def test_equal_or_higher_answers_whatever_its_colour(first: str, answer: str) -> None:
    g = game("start: R5", f"Ann: {first}", f"Bob: {answer}")
    # a Wild Reverse Draw 4 turns the stack back on Ann
    assert g.to_json()["turn"] == ("Ann" if answer.startswith("WR+4") else "Cy")
    assert g.state.stack_total == g.state.stack_last + int(first.split()[0].split("+")[1])


@pytest.mark.parametrize(
    ("first", "answer"),
    [("R+4", "R+2"), ("W+6 R", "R+4"), ("W+6 R", "WR+4 R"), ("W+10 R", "W+6 R")],
)
def test_a_smaller_card_is_refused(first: str, answer: str) -> None:
    g = game("start: R5", f"Ann: {first}")
    with pytest.raises(IllegalActionError) as info:
        g.apply(f"Bob: {answer}")
    assert info.value.rule == "stack"
    assert "take" in info.value.message


def test_the_bar_is_the_last_card_not_the_total() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Ann: R+2
        Bob: W+10 G
        Cy: W+10 B
        Ann: W+10 Y
    """)
    assert state["stack"] == {"total": 32, "last": 10}
    assert state["turn"] == "Bob"


@pytest.mark.parametrize("card", ["RS", "RR", "RSE", "RDA", "R3", "R7 swap Cy", "R0"])
def test_only_draw_cards_answer_a_stack(card: str) -> None:
    g = game("start: R5", "Ann: R+2")
    with pytest.raises(IllegalActionError) as info:
        g.apply(f"Bob: {card}")
    assert info.value.rule == "stack"


def test_roulette_cannot_answer_a_stack_by_its_own_rule() -> None:
    # RULINGS [roulette]: "It is not a Draw card: it cannot start, join or answer a stack".
    g = game("start: R5", "Ann: R+2")
    with pytest.raises(IllegalActionError) as info:
        g.apply("Bob: WCR")
    assert info.value.rule == "roulette"
    assert "not a Draw card" in info.value.message


def test_no_drawing_while_facing_a_stack() -> None:
    g = game("start: R5", "Ann: R+2")
    with pytest.raises(IllegalActionError) as info:
        g.apply("Bob: draw 1, R+2")
    assert info.value.rule == "stack"


def test_take_the_whole_stack_and_lose_the_turn() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Ann: R+2
        Bob: B+4
        Cy: take
    """)
    assert state["hands"] == {"Ann": 6, "Bob": 6, "Cy": 13}
    assert state["stack"] is None
    assert (state["turn"], state["facing"]) == ("Ann", "play")
    assert state["draw_pile"] == 146 - 6


def test_take_without_a_stack_is_refused() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: take
    """)
    assert (error["line"], error["rule"]) == (3, "stack")


def test_after_taking_normal_matching_applies_to_the_draw_card() -> None:
    g = game("start: R5", "Ann: R+2", "Bob: take")
    assert g.legal_actions().facing == "play"
    g.apply("Cy: G+2")  # same symbol: starts a new stack on Ann
    assert g.to_json()["stack"] == {"total": 2, "last": 2}
    g.undo()
    g.apply("Cy: R9")  # same colour
    g.undo()
    with pytest.raises(IllegalActionError) as info:
        g.apply("Cy: G+4")
    assert info.value.rule == "match"


def test_stack_sum_needs_the_total() -> None:
    g = game("start: R5", "Ann: R+2", "Bob: B+4", rules=SUM)
    assert g.legal_actions().refusal(Card.parse("W+6")) is None  # 6 reaches 6
    for card in ("R+4", "WR+4"):
        refusal = g.legal_actions().refusal(Card.parse(card))
        assert refusal is not None and refusal.rule == "stack"
    g.apply("Cy: W+6 G")
    assert g.state.stack_total == 12
    assert g.legal_actions().cards == frozenset()  # nothing reaches 12: take it
    assert g.legal_actions().can_take


def test_stack_sum_refusal_says_the_total_is_needed() -> None:
    g = game("start: R5", "Ann: R+2", "Bob: B+4", rules=SUM)
    with pytest.raises(IllegalActionError, match=r"\+6 or more"):
        g.apply("Cy: R+4")


def test_stacking_onto_a_player_who_is_then_knocked_out() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Cy: has 20
        Ann: R+2
        Bob: W+6 R
        Cy: take
    """)
    assert state["out"] == ["Cy"]
    assert state["hands"]["Cy"] == 0 and state["set_aside"] == 25
    assert state["turn"] == "Ann"
    assert state["stack"] is None


def test_stack_needs_the_last_card_under_the_official_rule() -> None:
    g = game("start: R5", "Ann: R+2")
    assert g.legal_actions().stack_needs == 2
    g.apply("Bob: B+4")
    assert g.legal_actions().stack_needs == 4  # the last card, not the total of 6
    g.apply("Cy: W+10 G")
    assert g.legal_actions().stack_needs == 10


def test_stack_needs_the_whole_total_under_stack_sum() -> None:
    g = game("start: R5", "Ann: R+2", rules=SUM)
    assert g.legal_actions().stack_needs == 2
    g.apply("Bob: B+4")
    assert g.legal_actions().stack_needs == 6
    g.apply("Cy: W+6 G")
    assert g.legal_actions().stack_needs == 12


def test_stack_needs_is_what_the_referee_accepts() -> None:
    for rules in (HouseRules(), SUM):
        g = game("start: R5", "Ann: R+2", "Bob: B+4", rules=rules)
        needs = g.legal_actions().stack_needs
        assert needs is not None
        assert {card.draw for card in g.legal_actions().cards} == {
            v for v in (2, 4, 6, 10) if v >= needs
        }


@pytest.mark.parametrize(
    "lines",
    [
        (),  # before the start card
        ("start: R5",),
        ("start: R5", "Ann: R+2", "Bob: take"),  # taken: normal matching again
        ("start: R5", "Ann: WCR"),  # a roulette is not a stack
        ("start: R5", "Ann: has 1", "Ann: R+2"),  # won with a last Draw card
    ],
)
def test_stack_needs_nothing_when_not_facing_a_stack(lines: tuple[str, ...]) -> None:
    assert game(*lines).legal_actions().stack_needs is None
