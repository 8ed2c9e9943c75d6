"""A player's name: what a record carries, what the new-match form accepts."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    MAX_NAME_LENGTH,
    TYPED_NAME_LENGTH,
    EngineError,
    Game,
    IllegalActionError,
    NotationError,
    clean_name,
    name_key,
    name_problems,
    same_player,
    tidy_name,
)
from engine.core import notation
from engine.tools.cli import check, check_text, explain

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


@pytest.mark.parametrize("name", ["start", "Players", "HAND", "Rename"])
def test_a_name_cannot_be_a_header_word(name: str) -> None:
    assert name_problems([name]) == [
        f"A player can't be called '{name}': it is a header word "
        "(players, dealer, rules, start, hand, rename)."
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


# ---------------------------------------------------------------- Unicode (issue 13, finding 8)

ZWSP, NUL, RLO = "\u200b", "\x00", "\u202e"
E_ONE, E_TWO = "Jos\u00e9", "Jose\u0301"  # é as one character, and as e + combining acute


def test_names_are_stored_normalised_nfc() -> None:
    assert clean_name(E_TWO) == E_ONE
    assert tidy_name(f"  {E_TWO}  ") == E_ONE


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        (ZWSP, "A player's name can't contain U+200B ZERO WIDTH SPACE: it is invisible"),
        (f"A{NUL}nn", "The name 'Ann' can't contain U+0000 NULL: it is a control character"),
        (
            f"Ann{RLO}",
            "The name 'Ann' can't contain U+202E RIGHT-TO-LEFT OVERRIDE: it is invisible",
        ),
        (f"Ann{ZWSP}", "The name 'Ann' can't contain U+200B ZERO WIDTH SPACE"),
        ("Ann\u200d", "U+200D ZERO WIDTH JOINER"),
        ("Ann\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("\u115f", "U+115F HANGUL CHOSEONG FILLER"),
        ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("Ann\x1f", "U+001F UNIT SEPARATOR: it is a control character"),
        ("Ann\x7f", "U+007F DELETE"),
        ("Ann\x85", "U+0085 a control character"),
    ],
)
def test_a_name_with_a_character_no_one_can_see_is_refused(text: str, sentence: str) -> None:
    with pytest.raises(NotationError) as info:
        clean_name(text)
    assert sentence in info.value.message
    assert info.value.message.endswith("Write the name without it.")
    assert isinstance(info.value, ValueError) and info.value.rule == "syntax"
    # The sentence quotes the name without the character: an override would turn it around.
    assert RLO not in info.value.message and NUL not in info.value.message
    (problem,) = name_problems([text])
    assert problem is not None and problem.startswith("A name can't contain U+")


@pytest.mark.parametrize(
    "name", ["Анна", "Ελένη", "田中さん", "김민준", "José", "Zoë", "O'Neil", "Mary-Ann", "❤️ Ann"]
)
def test_names_in_any_script_are_accepted(name: str) -> None:
    assert clean_name(name) == name
    assert name_problems([name, "Bob"]) == [None, None]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (E_ONE, E_TWO),  # é written two ways
        ("ＡＮＮ", "Ann"),  # fullwidth letters
        ("Strasse", "STRASSE"),
        ("straße", "STRASSE"),  # case folding, not lower()
        ("Ann\ufe0f", "Ann"),  # a variation selector changes nothing a reader sees here
        ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space is a space
    ],
)
def test_names_written_differently_that_read_the_same_are_one_player(a: str, b: str) -> None:
    assert same_player(a, b) and same_player(b, a)
    assert name_problems([a, "Bob", b]) == [SAME, None, SAME]
    with pytest.raises(IllegalActionError, match="Two players are called"):
        Game([a, "Bob", b])


def test_the_six_names_of_finding_8_are_refused_by_a_record() -> None:
    records = {
        f"players: {ZWSP}, Bob": "can't contain U+200B ZERO WIDTH SPACE",
        f"players: A{NUL}nn, Bob": "can't contain U+0000 NULL",
        f"players: {RLO}Ann, Bob": "can't contain U+202E RIGHT-TO-LEFT OVERRIDE",
        f"players: Ann, Ann{ZWSP}": "can't contain U+200B ZERO WIDTH SPACE",
        f"players: {E_ONE}, {E_TWO}": "Two players are called",
    }
    for record, sentence in records.items():
        code, doc = check_text(record + "\nstart: R5\n")
        assert code != 0 and doc["error"]["line"] == 1, record
        assert sentence in doc["error"]["message"], (record, doc)
    # The engine knows no scripts: "Аnn" (Cyrillic А) beside "Ann" is the app's rule.
    assert check_text("players: \u0410nn, Ann\nstart: R5\n")[0] == 0


def test_a_record_written_with_decomposed_names_still_reads() -> None:
    """Records saved before names were normalised keep their names as typed: they load,
    every line finds its player, and the record written back is the NFC one."""
    record = f"players: {E_TWO}, Bob\ndealer: {E_TWO}\nstart: R5\nBob: R3\n{E_TWO}: R7 swap bob\n"
    game = Game.from_record(record)
    assert game.players == (E_ONE, "Bob")
    assert game.state.to_json()["dealer"] == E_ONE
    again = Game.from_record(game.record())
    assert again.record() == game.record() and E_TWO not in game.record()


def test_header_words_are_compared_like_names() -> None:
    with pytest.raises(NotationError, match="header word"):
        clean_name("ＳＴＡＲＴ")


# ---------------------------------------------------------------- a byte-order mark (finding 9)


def test_a_record_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    text = "players: Ann, Bob\nstart: R5\nAnn: R3\n"
    assert check_text("\ufeff" + text) == check_text(text)
    saved = tmp_path / "notepad.rec"
    saved.write_bytes(codecs.BOM_UTF8 + text.encode())
    assert check(str(saved)) == check_text(text)
    assert explain(str(saved))[0] == 0


# ---------------------------------------------------------------- invariants

NAME_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=12
) | st.sampled_from(["Ann", E_ONE, E_TWO, "ＡＮＮ", "straße", "Ann\u200b", " a\u0301\u0323 "])


@given(NAME_TEXT)
def test_normalising_twice_changes_nothing(text: str) -> None:
    assert tidy_name(tidy_name(text)) == tidy_name(text)
    assert name_key(name_key(text)) == name_key(text)
    assert name_key(tidy_name(text)) == name_key(text)


@given(NAME_TEXT, NAME_TEXT)
def test_the_duplicate_check_is_symmetric(a: str, b: str) -> None:
    assert same_player(a, b) == same_player(b, a)
    first, second = name_problems([a, b], max_length=MAX_NAME_LENGTH)
    assert (first == SAME) == (second == SAME)


@given(st.lists(NAME_TEXT, min_size=2, max_size=6))
def test_any_accepted_name_survives_a_record_round_trip(texts: list[str]) -> None:
    try:
        game = Game(texts)
    except EngineError:
        return
    assert all(tidy_name(text) == name for text, name in zip(texts, game.players, strict=True))
    again = Game.from_record(game.record())
    assert again.players == game.players
    assert Game.from_record("\ufeff" + game.record()).players == game.players
