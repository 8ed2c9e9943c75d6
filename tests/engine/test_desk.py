"""The referee desk: rulings on one card in a made-up position."""

from __future__ import annotations

import pytest

from engine import Card, Color, EngineError, Game, HouseRules
from engine.core.desk import Ruling, position, rule_on, table_position


def ruling(card: str, top: str, color: Color | None = None, stack: int = 0) -> Ruling:
    return rule_on(Card.parse(card), position(Card.parse(top), color, stack))


def test_matching_colour_number_and_wild() -> None:
    assert ruling("R3", "R5").allowed
    assert ruling("B5", "R5").allowed
    assert ruling("WCR", "R5").allowed
    refused = ruling("G3", "R5")
    assert not refused.allowed and refused.rule == "match"
    assert "Play a Red card, a 5, or a wild" in refused.message


def test_stacking_last_and_sum() -> None:
    assert ruling("W+6", "R+4", stack=6).allowed
    too_small = ruling("R+2", "R+4", stack=6)
    assert not too_small.allowed and too_small.rule == "stack"
    assert "+4 or more" in too_small.message
    summed = rule_on(
        Card.parse("W+6"), position(Card.parse("R+4"), None, 10, HouseRules(stack="sum"))
    )
    assert not summed.allowed and "+10 or more" in summed.message


def test_roulette_on_a_stack_names_its_own_rule() -> None:
    assert ruling("WCR", "W+6", Color.GREEN, stack=6).rule == "roulette"


def test_a_wild_on_top_needs_its_colour() -> None:
    with pytest.raises(EngineError) as info:
        position(Card.parse("W+6"))
    assert info.value.rule == "wild-color"
    assert ruling("G2", "W+6", Color.GREEN).allowed


@pytest.mark.parametrize(("top", "stack"), [("R5", 2), ("W+10", 4)])
def test_impossible_stacks_are_refused(top: str, stack: int) -> None:
    with pytest.raises(EngineError):
        position(Card.parse(top), Color.RED, stack)


def test_a_tables_position_is_its_top_colour_stack_and_house_rules() -> None:
    game = Game.from_record(
        "players: Ann, Bob, Cy\nrules: stack=sum\nstart: R5\nAnn: R+4\nBob: W+6 G\n"
    )
    desk = table_position(game.state)
    assert desk is not None
    assert (desk.top, desk.color, desk.stack_total, desk.rules) == (
        Card.parse("W+6"),
        Color.GREEN,
        10,
        game.state.rules,
    )
    refused = rule_on(Card.parse("G+4"), desk)
    assert not refused.allowed and "+10 or more" in refused.message


def test_a_table_with_no_card_to_rule_on_has_no_desk_position() -> None:
    assert table_position(Game(["Ann", "Bob"]).state) is None  # no start card yet
    game = Game.from_record("players: Ann, Bob\nstart: R5\nAnn: R3\n")
    assert table_position(game.state) is not None
