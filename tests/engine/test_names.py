"""A player's name: what a record carries, what the new-match form accepts."""

from __future__ import annotations

import pytest

from engine import (
    MAX_NAME_LENGTH,
    TYPED_NAME_LENGTH,
    Game,
    IllegalActionError,
    NotationError,
    clean_name,
    name_key,
    name_problems,
    notation,
    tidy_name,
)

TOO_LONG = "A name can't be longer than 20 characters."
FORBIDDEN = "A name can't contain : , or #."
SAME = "Two players can't have the same name."


def test_the_lengths_a_record_and_a_form_allow() -> None:
    assert (MAX_NAME_LENGTH, TYPED_NAME_LENGTH) == (40, 20)


def test_tidy_name_makes_runs_of_whitespace_single_spaces() -> None:
    assert tidy_name("  Mary \t  Ann \n") == "Mary Ann"
    assert tidy_name("   ") == ""


def test_the_same_name_ignores_case_and_spacing() -> None:
    assert name_key(" mary  ANN ") == name_key("Mary Ann")
    assert name_key("Ann") != name_key("Anna")


def test_clean_name_is_still_importable_from_notation() -> None:
    assert notation.clean_name is clean_name
    assert notation.MAX_NAME_LENGTH == MAX_NAME_LENGTH


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("  ", "empty"),
        ("A" * 41, "longer than 40"),
        ("Start", "header word"),
        ("B:b", "can't contain"),
        ("Bob #1", "can't contain"),
    ],
)
def test_clean_name_refuses_what_a_record_cannot_carry(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        clean_name(text)
    assert clean_name(" Mary   Ann ") == "Mary Ann"
    assert clean_name("A" * 40) == "A" * 40


def test_a_list_of_good_names_has_no_problems() -> None:
    assert name_problems(["Ann", "Bob", "Cy"]) == [None, None, None]


def test_empty_seats_have_no_problem() -> None:
    assert name_problems(["Ann", "", "   ", "Bob", ""]) == [None] * 5


def test_a_typed_name_is_at_most_20_characters() -> None:
    assert name_problems(["A" * 20, "B" * 21]) == [None, TOO_LONG]
    assert name_problems(["B" * 21], max_length=30) == [None]
    # Never more than a record carries, whatever the form asks.
    assert name_problems(["C" * 41], max_length=60) == [
        "A name can't be longer than 40 characters."
    ]


def test_length_is_counted_after_tidying() -> None:
    assert name_problems(["  " + "A" * 10 + "    " + "B" * 9 + "  "]) == [None]


@pytest.mark.parametrize("name", ["B:b", "Bob, Jr", "Bob #1"])
def test_a_name_cannot_contain_the_record_separators(name: str) -> None:
    assert name_problems(["Ann", name]) == [None, FORBIDDEN]


@pytest.mark.parametrize("name", ["start", "Players", "HAND"])
def test_a_name_cannot_be_a_header_word(name: str) -> None:
    assert name_problems([name]) == [
        f"A player can't be called '{name}': it is a header word "
        "(players, dealer, rules, start, hand)."
    ]


def test_duplicates_are_found_ignoring_case_and_spacing_on_every_copy() -> None:
    assert name_problems(["Mary Ann", "Bob", " mary   ANN", "MARY ANN "]) == [
        SAME,
        None,
        SAME,
        SAME,
    ]


def test_one_problem_per_name_the_first_in_precedence() -> None:
    long_bad = "A:" + "a" * 25
    assert name_problems([long_bad, long_bad]) == [TOO_LONG, TOO_LONG]
    assert name_problems(["B#b", "b#B"]) == [FORBIDDEN, FORBIDDEN]
    assert name_problems(["dealer", "Dealer"])[0] is not None
    assert SAME not in name_problems(["dealer", "Dealer"])


def test_the_seating_compares_names_the_same_way() -> None:
    with pytest.raises(IllegalActionError, match="Two players are called") as info:
        Game(["Mary Ann", "Bob", "mary  ann"])
    assert info.value.rule == "setup"
    assert name_problems(["Mary Ann", "Bob", "mary  ann"]) == [SAME, None, SAME]
    assert Game(["Ann", " Bob "]).players == ("Ann", "Bob")
