"""Reshuffles: when the draw pile runs out, the discard pile (but its top card) and
every set-aside hand become the new draw pile; 168 cards at every moment."""

from __future__ import annotations

import pytest

from engine import CardCountError, HouseRules
from tests.engine.conftest import game, total_cards

BIG = HouseRules(mercy=100)


def drained(*lines: str):  # type: ignore[no-untyped-def]
    """Cy knocked out with 100 cards, Bob holding 52: 8 cards left in the draw pile."""
    return game(
        "start: R5", "Cy: has 100", "Bob: has 50", "Ann: R+2", "Bob: take", *lines, rules=BIG
    )


def test_setting_up_the_drain() -> None:
    state = drained().to_json()
    assert (state["draw_pile"], state["discard_pile"], state["set_aside"]) == (8, 2, 100)
    assert state["hands"] == {"Ann": 6, "Bob": 52, "Cy": 0}


def test_set_aside_cards_come_back_when_the_pile_runs_out() -> None:
    g = drained("Ann: has 14", "Ann: W+10 B")
    assert g.to_json()["draw_pile"] == 0
    g.apply("Bob: take")
    state = g.to_json()
    assert state["hands"]["Bob"] == 62
    assert state["set_aside"] == 0 and state["discard_pile"] == 1
    assert state["draw_pile"] == 2 + 100 - 10
    assert state["reshuffles"] == 1
    assert any("100 set-aside" in event for event in state["events"])
    assert total_cards(state) == 168


def test_a_draw_takes_the_last_cards_then_the_reshuffled_ones() -> None:
    g = drained("Ann: has 10", "Ann: W+10 B")
    assert g.to_json()["draw_pile"] == 4
    g.apply("Bob: take")
    state = g.to_json()
    assert state["hands"]["Bob"] == 52 + 10
    assert state["draw_pile"] == 4 + 2 + 100 - 10
    assert total_cards(state) == 168


@pytest.mark.parametrize("count", [1, 8, 9, 50, 93])
def test_has_n_across_a_reshuffle(count: int) -> None:
    g = drained()
    before = g.to_json()["hands"]["Ann"]
    g.apply(f"Ann: has {before + count}")
    state = g.to_json()
    assert state["hands"]["Ann"] == before + count
    assert total_cards(state) == 168
    assert state["reshuffles"] == (1 if count > 8 else 0)


def test_draw_then_play_across_a_reshuffle() -> None:
    g = drained("Ann: has 10")  # 4 left in the pile
    g.apply("Ann: draw 6, R9")
    state = g.to_json()
    assert state["hands"]["Ann"] == 10 + 6 - 1
    assert state["draw_pile"] == 4 + 1 + 100 - 6  # discard pile: R5, R+2 -> 1 goes back
    assert state["top"] == "R9" and total_cards(state) == 168


def test_no_more_than_the_drawable_cards() -> None:
    g = drained()
    drawable = 8 + 1 + 100
    with pytest.raises(CardCountError):
        g.apply(f"Ann: draw {drawable + 1}, R3")
    with pytest.raises(CardCountError):
        g.apply(f"Ann: has {6 + drawable + 1}")
    g.apply(f"Ann: has {6 + drawable}")
    assert g.to_json()["draw_pile"] == 0


def test_a_short_take_when_every_card_is_held() -> None:
    g = drained("Ann: has 99", "Bob: has 68")  # every drawable card is in a hand
    assert g.state.drawable == 0
    g.apply("Ann: W+10 B")
    # Ann's correction already reshuffled (the pile held R5 under R+2): only the
    # R+2 under the W+10 can still be drawn
    g.apply("Bob: take")
    state = g.to_json()
    assert state["hands"]["Bob"] == 69
    assert total_cards(state) == 168
    assert any("Only 1 of 10" in event for event in state["events"])


def test_a_new_hand_puts_every_card_back() -> None:
    g = drained("Ann: has 1", "Ann: R3", "Bob: reveals 100")
    state = g.to_json()
    assert state["status"] == "hand_over"
    g.apply("hand: 2")
    state = g.to_json()
    assert state["draw_pile"] == 168 - 21 and state["set_aside"] == 0 and state["out"] == []
