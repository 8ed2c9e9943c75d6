"""engine.fields: a screen's fields to a line and back, and to house rules and back."""

from __future__ import annotations

import pytest

from engine import (
    KEY_ACTIONS,
    OFFICIAL,
    Card,
    Color,
    HouseRules,
    Legal,
    NotationError,
    line_fields,
    line_text,
    mercy_problem,
    parse_line,
    rule_fields,
    rules_from_fields,
)
from engine.core.fields import NotOnTheScreen, rule_kind, rule_values
from tests.engine.test_legal_actions import POSITIONS, position

PLAYERS = ["Ann", "Bob", "Cy"]
LINES = [
    "start: R5",
    "hand: 2",
    "Ann: R5",
    "Ann: W+6 G",
    "Ann: R7 swap Bob",
    "Ann: RDA discard 2",
    "Ann: RDA",
    "Ann: draw 3, G4",
    "Ann: draw 2",
    "Ann: draw 1, WCR",
    "Ann: take",
    "Ann: roulette B 4",
    "Ann: uno",
    "Bob: catch Ann",
    "Ann: has 7",
    "Ann: reveals 35",
    "Ann: reveals R5 W+6 GDA",
    "Ann: wins",
    "Ann: out",
]


@pytest.mark.parametrize("text", LINES)
def test_a_line_is_its_fields_and_back(text: str) -> None:
    line = parse_line(text, PLAYERS)
    assert parse_line(line_text(line_fields(line)) or "", PLAYERS) == line


@pytest.mark.parametrize("name", POSITIONS)
def test_every_legal_action_goes_through_the_screen(name: str) -> None:
    for line in Legal(position(name).state).actions():
        assert parse_line(line_text(line_fields(line)) or "", PLAYERS) == line


def test_header_lines_other_than_start_and_hand_are_the_new_match_forms() -> None:
    with pytest.raises(NotOnTheScreen):
        line_fields(parse_line("players: Ann, Bob", []))


def test_the_keys_post_the_records_actions() -> None:
    card = Card.parse("W+6")
    assert KEY_ACTIONS.play(card, Color.GREEN) == "W+6 G"
    assert KEY_ACTIONS.play(Card.parse("R7"), swap="Bob") == "R7 swap Bob"
    assert KEY_ACTIONS.catch("Ann") == "catch Ann"
    assert KEY_ACTIONS.start(Card.parse("R5")) == "start: R5"
    assert KEY_ACTIONS.next_hand(3) == "hand: 3"
    assert (KEY_ACTIONS.take, KEY_ACTIONS.uno, KEY_ACTIONS.out) == ("take", "uno", "out")


def test_a_reveal_with_nothing_entered_is_no_line() -> None:
    assert line_text({"player": "Ann", "cards": " , ", "points": ""}) is None


def test_the_drawn_stepper_and_counts_as_a_form_reads_them() -> None:
    fields = {"player": "Ann", "action": "RDA discard", "drawn": 2, "count": 1}
    assert line_text(fields) == "Ann: draw 2, RDA discard 1"
    assert line_text({"player": "Ann", "action": "draw", "drawn": None}) == "Ann: draw 0"


RULES = [
    OFFICIAL,
    HouseRules(stack="sum", draw="one", mercy=None, final_draw=True),
    HouseRules(seven=False, zero=False, target=500, scoring="low", mercy=30),
]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_house_rules_are_their_fields_and_back(rules: HouseRules) -> None:
    fields = rule_fields(rules)
    assert list(fields) == [
        "stack", "draw", "mercy_on", "mercy", "final_draw", "seven", "zero", "target", "scoring"
    ]  # fmt: skip
    assert rules_from_fields(fields) == rules
    # A box left unticked is not posted at all.
    posted = {name: value for name, value in fields.items() if value is not None}
    assert rules_from_fields(posted) == rules
    # The lab's rule sets: the same fields, each under its prefix.
    assert rules_from_fields(rule_fields(rules, "b-"), "b-") == rules
    assert set(rule_fields(rules, "b-")) == {f"b-{name}" for name in fields}


def test_the_choices_come_from_the_options() -> None:
    assert rule_values("stack") == ("last", "sum")
    assert rule_values("scoring")[0] == OFFICIAL.scoring
    kinds = {option: rule_kind(option) for option in ("draw", "seven", "target", "mercy")}
    assert kinds == {"draw": "choice", "seven": "switch", "target": "number", "mercy": "number"}


def test_a_mercy_rule_needs_its_limit() -> None:
    fields = rule_fields(OFFICIAL) | {"mercy": ""}
    assert mercy_problem(fields) == "Give the Mercy limit, or switch the Mercy rule off."
    with pytest.raises(ValueError, match="Mercy limit"):
        rules_from_fields(fields)
    assert rules_from_fields(fields | {"mercy_on": None}).mercy is None


def test_a_value_no_option_allows_is_refused() -> None:
    with pytest.raises(NotationError):
        rules_from_fields({"stack": "most"})
    with pytest.raises(NotationError):
        rules_from_fields({"mercy_on": "y", "mercy": "3"})
