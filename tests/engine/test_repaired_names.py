"""Names an earlier version stored that this one's rules refuse, repaired (issue 29):
each made a name the rules take (characters a reader can't see left out, cut to the
longest a record carries, a header word or the same player twice told apart by a
number), in the header and in every line that names it; every other line as stored."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    MAX_NAME_LENGTH,
    NotationError,
    clean_name,
    name_key,
    repaired_names,
    repaired_record,
    replay,
    written_record,
)


@pytest.mark.parametrize(
    ("stored", "repaired"),
    [
        (["Ann", "B\x07ob", "Cy"], ("Ann", "Bob", "Cy")),  # a control character
        (["Ann", "Bo\u200bb", "Cy"], ("Ann", "Bob", "Cy")),  # an invisible one
        (["Ann", "Players", "Cy"], ("Ann", "Players 2", "Cy")),  # a header word
        (["start", "Bob"], ("start 2", "Bob")),
        (["Ann", "ANN", "ＡＮＮ"], ("Ann", "ANN 2", "ＡＮＮ 3")),  # one player thrice
        (["Ann", "B" * 45], ("Ann", "B" * MAX_NAME_LENGTH)),  # too long
        (["Ann", "\u200b", "Cy"], ("Ann", "Player 2", "Cy")),  # nothing left
        (["Ann", "Bo#b"], ("Ann", "Bo b")),  # a record's separator
        (["Ann", "Bob", "Cy"], ("Ann", "Bob", "Cy")),  # names the rules take: as they are
        (["B\x07ob", "Bob", "Cy"], ("Bob 2", "Bob", "Cy")),  # a name they take is kept
        (["ANN", "Ann"], ("ANN", "Ann 2")),  # the first of one player's two names kept
    ],
)
def test_each_rule_a_stored_name_breaks_is_repaired(stored: list[str], repaired: tuple) -> None:
    assert repaired_names(stored) == repaired


def test_a_number_keeps_a_long_name_within_the_limit() -> None:
    long = "C" * MAX_NAME_LENGTH
    assert repaired_names([long, long.lower()]) == (long, "c" * (MAX_NAME_LENGTH - 2) + " 2")


def test_the_app_may_tell_more_names_apart() -> None:
    """The app's look-alike rule (Cyrillic А beside Latin A) is the caller's to give."""
    alike = lambda a, b: name_key(a.replace("\u0410", "A")) == name_key(b)  # noqa: E731
    assert repaired_names(["Ann", "\u0410nn"], alike) == ("Ann", "\u0410nn 2")


@given(st.lists(st.text(max_size=60), min_size=2, max_size=6))
def test_repaired_names_pass_the_rules_are_apart_and_stay_as_they_are(names: list[str]) -> None:
    stored = [name.replace(",", "") for name in names]  # a header's names, split at commas
    repaired = repaired_names(stored)
    assert [clean_name(name) for name in repaired] == list(repaired)
    assert len({name_key(name) for name in repaired}) == len(repaired)
    assert repaired_names(repaired) == repaired
    # A name the rules take as it is, one player's only name on the list, is kept.
    for seat, name in enumerate(stored):
        alone = sum(name_key(other) == name_key(name) for other in stored) == 1
        if alone and takes(name):
            assert repaired[seat] == name


def takes(name: str) -> bool:
    try:
        return clean_name(name) == name
    except NotationError:
        return False


STORED_LINES = [
    "start: R5",
    "Ann: R3",
    "Players: draw 1, R8",
    "B\x07ob: B8",
    "ANN: B7 swap B\x07ob",
    "Ann: catch B\x07ob  # after the swap",
    "rename: ANN, Dora",
    "Dora: draw 1",
]


def test_a_record_is_repaired_in_every_line_that_names_a_repaired_name() -> None:
    repaired = repaired_record("Ann, Players, B\x07ob, ANN", "ANN", STORED_LINES)
    assert repaired is not None
    assert repaired.players == ("Ann", "Players 2", "Bob", "ANN 2")
    assert repaired.dealer == "ANN 2"  # as written: ANN, not Ann (one player, by the rules)
    assert repaired.changed == (("Players", "Players 2"), ("B\x07ob", "Bob"), ("ANN", "ANN 2"))
    assert repaired.lines == (
        "start: R5",  # lines naming no repaired name: their text as stored
        "Ann: R3",
        "Players 2: draw 1, R8",
        "Bob: B8",
        "ANN 2: B7 swap Bob",  # "ANN" as written, not "Ann" (one player, by the rules)
        "Ann: catch Bob  # after the swap",  # its comment kept
        "rename: ANN 2, Dora",
        "Dora: draw 1",  # after the rename, the seat's name passed the rules
    )


def test_a_repaired_record_replays_where_the_stored_one_does_not() -> None:
    lines = ["start: R5", "Ann: R3", "B\x07ob: draw 1, R8", "Cy: R9"]
    stored = written_record("Ann, B\x07ob, Cy", "Cy", "", lines)
    assert replay(stored).error is not None
    repaired = repaired_record("Ann, B\x07ob, Cy", "Cy", lines)
    assert repaired is not None
    fixed = written_record(", ".join(repaired.players), repaired.dealer, "", list(repaired.lines))
    result = replay(fixed)
    assert result.error is None and result.game is not None
    assert result.game.players == ("Ann", "Bob", "Cy")


def test_a_record_whose_names_pass_needs_no_repair() -> None:
    assert repaired_record("Ann, Bob, Cy", "Cy", ["start: R5", "Ann: R3"]) is None


def test_two_seats_stored_with_one_name_are_not_repaired() -> None:
    """No line tells "Ann" from "Ann " (tidied, one name): whose play is whose is lost."""
    assert repaired_record("Ann, Ann , Cy", "Cy", ["start: R5", "Ann: R3"]) is None


def test_a_dealer_stored_otherwise_than_its_seat_is_repaired_with_it() -> None:
    repaired = repaired_record("Ann, B\x07ob, Cy", "b\x07ob", ["start: R5"])
    assert repaired is not None and repaired.dealer == "Bob"


def test_a_line_this_version_no_longer_reads_is_refused() -> None:
    with pytest.raises(NotationError):
        repaired_record("Ann, B\x07ob, Cy", "Cy", ["start: R99"])
