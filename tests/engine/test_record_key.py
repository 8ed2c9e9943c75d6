"""A record's own key (`record: KEY`, its first line, before the players): an extension
of the shared notation, for a record made on a phone and sent to a server, where the
same key is the same match. Before the players are seated no player can be named, so
the line reads as nothing else; a player called Record still plays."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, HouseRules, NotationError, RecordLine, replay, written_record
from engine.tools.cli import explain

KEYED = "record: k3Y-of_Anns-Phone1\nplayers: Ann, Bob\nstart: R5\nAnn: R3\n"
KEY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def test_a_keyed_record_replays_and_prints_its_key_first() -> None:
    game = Game.from_record(KEYED)
    assert game.key == "k3Y-of_Anns-Phone1"
    assert game.record() == KEYED
    assert game.state.top is not None and str(game.state.top) == "R3"


def test_a_record_without_a_key_has_none() -> None:
    game = Game.from_record("players: Ann, Bob\nstart: R5\n")
    assert game.key is None
    assert game.record() == "players: Ann, Bob\nstart: R5\n"


def test_comments_and_blank_lines_may_come_before_the_key() -> None:
    text = "# sent from Ann's phone\n\nRecord:  k3Y-of_Anns-Phone1  # its key\n"
    text += KEYED.split("\n", 1)[1]
    game = Game.from_record(text)
    assert game.key == "k3Y-of_Anns-Phone1"


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("players: Ann, Bob\nrecord: k3Y-of_Anns-Phone1\n", 2, "its first line, before 'players:'"),
        (
            "record: k3Y-of_Anns-Phone1\nrecord: k3Y-of_Anns-Phone1\nplayers: Ann, Bob\n",
            2,
            "comes once",
        ),
        ("record: only-15-chars-x\nplayers: Ann, Bob\n", 1, "16 to 64 letters"),
        ("record: two words and more!\nplayers: Ann, Bob\n", 1, "16 to 64 letters"),
        ("record: " + "k" * 65 + "\nplayers: Ann, Bob\n", 1, "16 to 64 letters"),
        ("record: k3Y-of_Anns-Phone1\n", 1, "The record is empty"),
    ],
)
def test_a_key_out_of_place_or_malformed_is_refused(text: str, line: int, says: str) -> None:
    error = replay(text).error
    assert error is not None
    assert error.line == line and error.rule == "syntax"
    assert says in error.error.message


def test_a_player_called_record_still_plays() -> None:
    game = Game.from_record("players: Record, Bob\nstart: R5\nRecord: R3\nBob: R4\n")
    assert game.key is None and game.players == ("Record", "Bob")
    assert str(game.state.top) == "R4"


def test_a_game_made_with_a_bad_key_is_refused() -> None:
    with pytest.raises(NotationError):
        Game(["Ann", "Bob"], key="no")


@given(st.text(KEY_CHARS, min_size=16, max_size=64))
def test_every_key_reads_back_as_itself(key: str) -> None:
    game = Game(["Ann", "Bob"], key=key)
    again = Game.from_record(game.record())
    assert again.key == key and again.record() == game.record()
    assert RecordLine.parse(f"record: {key}") == RecordLine(key)


def test_explain_numbers_the_lines_as_the_file_does(tmp_path: Path) -> None:
    record = tmp_path / "keyed.rec"
    record.write_text(KEYED)
    code, told = explain(str(record))
    assert code == 0
    lines = told.splitlines()
    assert lines[0] == "   2  players: Ann, Bob"  # line 1 is the key: no step of the game
    assert lines[1].startswith("   3  ") and lines[2].startswith("   4  Ann played Red 3")


def test_a_record_written_from_its_stored_parts_is_the_game_s_record() -> None:
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy", key="sent-from-Anns-phone-1")
    for line in ("start: R5", "Ann: R3"):
        game.apply(line)
    parts = ("Ann, Bob, Cy", "Cy", str(HouseRules()), ["start: R5", "Ann: R3"])
    assert written_record(*parts, key=game.key) == game.record()
    assert written_record(*parts) == game.record(key=False)
    # Parts this version refuses are written as they are: nothing is lost.
    assert written_record("Ann, Players", "Players", "stack=sometimes", []) == (
        "players: Ann, Players\ndealer: Players\nrules: stack=sometimes\n"
    )
