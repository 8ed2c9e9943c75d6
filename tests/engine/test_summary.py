"""A match in one line for a list: its hand, whose turn, who leads and with how much."""

from __future__ import annotations

from engine import Game, summary

HAND_ONE = "players: Ann, Bob, Cy\nstart: R5\nAnn: has 1\nAnn: R3\nBob: reveals 12\n"


def test_a_match_in_its_first_hand_says_the_hand_and_whose_turn() -> None:
    game = Game.from_record("players: Ann, Bob, Cy\nstart: R5\n")
    assert summary(game.state) == "Hand 1: Ann to play."


def test_a_hand_between_two_hands_is_not_said_twice() -> None:
    """The bug: "Hand 2: Hand 2 is scored: next is hand 3." in the lists."""
    game = Game.from_record(HAND_ONE + "Cy: reveals 40\n")
    said = summary(game.state)
    assert said == "Hand 1 is scored: next is hand 2. Ann leads with 52 points."
    assert said.count("Hand 1") == 1


def test_the_leader_and_points_once_a_hand_is_scored() -> None:
    game = Game.from_record(HAND_ONE + "Cy: reveals 40\nhand: 2\nstart: B7\n")
    assert summary(game.state) == "Hand 2: Bob to play. Ann leads with 52 points."


def test_a_tie_for_the_lead_names_everyone_in_it() -> None:
    game = Game.from_record(
        "players: Ann, Bob, Cy\nrules: scoring=low\nstart: R5\nAnn: has 1\nAnn: R3\n"
        "Bob: reveals 12\nCy: reveals 40\nhand: 2\nstart: B7\nBob: has 1\nBob: B3\n"
        "Ann: reveals 12\nCy: reveals 5\n"
    )
    assert summary(game.state).endswith("Ann, Bob share the lead with 12 points.")


def test_a_finished_match_says_its_winner_and_points() -> None:
    game = Game.from_record(
        "players: Ann, Bob, Cy\nrules: scoring=low, target=30\nstart: R5\nAnn: has 1\n"
        "Ann: R3\nBob: reveals 12\nCy: reveals 40\n"
    )
    assert summary(game.state) == "Ann won the match with 0 points."
