"""A player renamed: a line of the log ("rename: Bob, Robert"), never a rewrite of it.

Every line before the rename stays as it was written and replays the same; from the
rename on, the player is called by the new name.
"""

from __future__ import annotations

import pytest

from engine import Game, IllegalActionError, NotationError, RenameLine, renamed, say
from engine.core.notation import parse_line
from engine.tools.stats import match_stats

PLAYED = ["start: R5", "Ann: has 4", "Ann: R7 swap bob"]


def renamed_game() -> Game:
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    for line in PLAYED:
        game.apply(line)
    game.apply("rename: bob, Robert")
    return game


def test_a_rename_line_parses_and_prints_with_the_names_as_seated() -> None:
    line = parse_line("RENAME:  bob ,  Robert ", ["Ann", "Bob"])
    assert line == RenameLine("Bob", "Robert")
    assert str(line) == "rename: Bob, Robert"


def test_from_the_rename_on_the_player_has_the_new_name_and_the_log_keeps_the_old() -> None:
    game = renamed_game()
    assert game.players == ("Ann", "Robert", "Cy")
    assert game.seating == ("Ann", "Bob", "Cy")
    assert game.record().splitlines()[:2] == ["players: Ann, Bob, Cy", "dealer: Cy"]
    assert "Ann: R7 swap Bob" in game.record() and "rename: Bob, Robert" in game.record()
    turn = game.turn
    assert turn == "Robert"
    game.apply("Robert: draw 2, R6")
    with pytest.raises(NotationError):
        game.apply("Bob: R8")
    assert Game.from_record(game.record()).to_json() == game.to_json()


def test_a_rename_changes_nothing_else_and_undo_takes_it_back() -> None:
    game = renamed_game()
    before = game.undo()
    assert before == RenameLine("Bob", "Robert")
    state = game.state
    game.apply("rename: Bob, Robert")
    after = game.state
    assert (after.hands, after.turn, after.scores, after.dealer) == (
        state.hands,
        state.turn,
        state.scores,
        state.dealer,
    )
    game.undo()
    assert game.players == ("Ann", "Bob", "Cy")


@pytest.mark.parametrize("new", ["ann", "ANN", "Cy"])
def test_a_new_name_of_another_player_at_the_table_is_refused(new: str) -> None:
    game = renamed_game()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(f"rename: Robert, {new}")
    assert refused.value.rule == "setup"
    assert "one match can't have two players of one name" in refused.value.message


def test_ones_own_name_may_change_case_but_not_stay_the_same() -> None:
    game = renamed_game()
    game.apply("rename: Robert, ROBERT")
    assert game.players[1] == "ROBERT"
    with pytest.raises(IllegalActionError, match="called ROBERT already"):
        game.apply("rename: robert, ROBERT")


@pytest.mark.parametrize("text", ["rename: Bob", "rename: Bob, Rob, Robert", "rename: Zed, Rob"])
def test_a_malformed_rename_is_a_syntax_error(text: str) -> None:
    with pytest.raises(NotationError):
        Game(["Ann", "Bob"]).apply(text)


def test_a_new_name_follows_the_name_rules() -> None:
    with pytest.raises(NotationError, match="header word"):
        Game(["Ann", "Bob"]).apply("rename: Bob, Hand")


def test_the_sentence_says_who_is_called_what() -> None:
    game = renamed_game()
    (step,) = game.last_steps(1)
    assert say(*step) == "Bob is called Robert from now on."


def test_statistics_count_the_player_across_the_rename() -> None:
    game = Game(["Ann", "Bob", "Cy"])
    for line in ["Bob: wins", "Ann: reveals 20", "Cy: out", "rename: Bob, Robert"]:
        game.apply(line)
    for line in ["hand: 2", "Ann: wins", "Robert: reveals 30", "Cy: reveals 5"]:
        game.apply(line)
    stats = match_stats(game)
    assert stats.players == ("Ann", "Robert", "Cy")
    assert [f.hands_won for f in stats.figures] == [1, 1, 0]
    assert stats.scores == (35, 270, 0)
    roster = match_stats(game, names={"Bob": "Bobby"})  # a roster's names, by the header's
    assert roster.players == ("Ann", "Bobby", "Cy")


def test_lines_judged_together_name_the_players_as_called_at_their_turn() -> None:
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    game.apply("start: R5")
    steps = game.judge_all(["ann: R7 swap bob", "rename: BOB, Robert", "robert: R6"])
    assert [str(step.line) for step in steps] == [
        "Ann: R7 swap Bob",
        "rename: Bob, Robert",
        "Robert: R6",
    ]
    assert game.players == ("Ann", "Bob", "Cy")  # judged, not done
    with pytest.raises(NotationError, match="no player 'Bob'"):
        game.judge_all(["rename: Bob, Robert", "Bob: R6"])
    assert RenameLine.written(" Rename : Bob, Robert # a group's new name")
    assert not RenameLine.written("Renamed: R5") and not RenameLine.written("# rename: a, b")


def test_a_line_restated_for_a_table_that_calls_its_players_otherwise() -> None:
    players = ["Ann", "Bob", "Cy"]
    names = {"Bob": "Robert", "Ann": "Anna"}
    for text, restated in (
        ("Bob: R7 swap Ann", "Robert: R7 swap Anna"),
        ("Cy: draw 2, G7 swap Bob", "Cy: draw 2, G7 swap Robert"),
        ("Ann: catch Bob", "Anna: catch Robert"),
        ("rename: Bob, Bobby", "rename: Robert, Bobby"),  # the new name is its own
        ("start: R5", "start: R5"),
    ):
        line = parse_line(text, players)
        assert line is not None and str(renamed(line, names)) == restated
