"""House rules: the official defaults, every option, and the `rules:` header text."""

from __future__ import annotations

import pytest

from engine import OFFICIAL, OPTIONS, HouseRules, NotationError
from tests.engine.conftest import game, play, refuse


def test_defaults_are_the_official_sheet() -> None:
    rules = HouseRules()
    assert rules == OFFICIAL and str(rules) == "official"
    assert (rules.stack, rules.draw, rules.mercy, rules.final_draw) == ("last", "until", 25, False)
    assert (rules.seven, rules.zero, rules.target, rules.scoring) == (True, True, 1000, "high")
    assert str(rules) == "official"
    assert HouseRules.parse("") == HouseRules.parse("official") == OFFICIAL


def test_every_option_is_documented() -> None:
    assert list(OPTIONS) == [
        "stack",
        "draw",
        "mercy",
        "final_draw",
        "seven",
        "zero",
        "target",
        "scoring",
    ]
    assert len(OFFICIAL.describe()) == 8
    assert all(
        line.startswith(f"{name}=") for name, line in zip(OPTIONS, OFFICIAL.describe(), strict=True)
    )


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("stack=sum", "stack", "sum"),
        ("stack=last", "stack", "last"),
        ("draw=one", "draw", "one"),
        ("draw=until", "draw", "until"),
        ("mercy=30", "mercy", 30),
        ("mercy=8", "mercy", 8),
        ("mercy=100", "mercy", 100),
        ("mercy=off", "mercy", None),
        ("final_draw=on", "final_draw", True),
        ("final_draw=off", "final_draw", False),
        ("seven=off", "seven", False),
        ("seven=on", "seven", True),
        ("zero=off", "zero", False),
        ("zero=on", "zero", True),
        ("target=500", "target", 500),
        ("target=1", "target", 1),
        ("scoring=low", "scoring", "low"),
        ("scoring=high", "scoring", "high"),
    ],
)
def test_each_option(text: str, field: str, value: object) -> None:
    rules = HouseRules.parse(text)
    assert getattr(rules, field) == value
    assert HouseRules.parse(str(rules)) == rules
    assert HouseRules.parse(text.upper()) == rules  # words are case-insensitive


@pytest.mark.parametrize(
    "text",
    [
        "stack=sum",
        "stack=sum, mercy=30",
        "draw=one, mercy=off, final_draw=on",
        "seven=off, zero=off, target=300, scoring=low",
        "stack=sum, draw=one, mercy=12, final_draw=on, seven=off, zero=off, target=2, scoring=low",
    ],
)
def test_print_parse_round_trip(text: str) -> None:
    rules = HouseRules.parse(text)
    assert str(rules) == text
    assert HouseRules.parse(str(rules)) == rules


def test_separators_and_defaults_in_the_text() -> None:
    assert HouseRules.parse("mercy=30 stack=sum") == HouseRules(stack="sum", mercy=30)
    assert str(HouseRules.parse("mercy=30,stack=sum")) == "stack=sum, mercy=30"
    assert str(HouseRules.parse("stack=last, mercy=25")) == "official"


@pytest.mark.parametrize(
    "text",
    [
        "stack=max",
        "draw=two",
        "draw=",
        "mercy=7",
        "mercy=101",
        "mercy=lots",
        "mercy=on",
        "final_draw=yes",
        "seven=no",
        "zero=1",
        "target=0",
        "target=-5",
        "target=many",
        "scoring=middle",
        "colour=red",
        "stack",
        "=sum",
        "stack=sum, stack=last",
    ],
)
def test_unknown_options_and_values_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as info:
        HouseRules.parse(text)
    assert info.value.rule == "syntax"


def test_unknown_option_message_lists_the_options() -> None:
    with pytest.raises(NotationError, match="stack, draw, mercy"):
        HouseRules.parse("colour=red")
    with pytest.raises(NotationError, match="sum"):
        HouseRules.parse("stack=max")


def test_rules_header_in_a_record() -> None:
    state = play("""
        players: Ann, Bob
        rules: stack=sum, mercy=30
        start: R5
    """)
    assert state["rules"] == "stack=sum, mercy=30"
    error = refuse("""
        players: Ann, Bob
        rules: stack=huge
    """)
    assert (error["line"], error["rule"]) == (2, "syntax")


def test_rules_come_before_the_first_start_card() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        rules: stack=sum
    """)
    assert (error["line"], error["rule"]) == (3, "setup")


def test_game_with_rules_records_them() -> None:
    g = game("start: R5", rules=HouseRules(mercy=None))
    assert g.rules.mercy is None
    assert "rules: mercy=off\n" in g.record()
