"""Winning a hand, revealing, scoring and the end of the match [hand-over] [scoring]."""

from __future__ import annotations

import pytest

from engine import (
    KNOCKOUT_POINTS,
    CardCountError,
    HouseRules,
    IllegalActionError,
    RevealMismatch,
    how_scored,
    score_breakdown,
)
from tests.engine.conftest import game, play, refuse

WON = ("start: R5", "Ann: has 1", "Ann: R3")  # Ann goes out with her last card
LOW = HouseRules(scoring="low")
KNOCKED_OUT = ("start: R5", "Cy: has 25", "Ann: has 1", "Ann: R3")  # Cy out, then Ann wins


def test_last_card_wins_at_once() -> None:
    state = game(*WON).to_json()
    assert (state["status"], state["hand_winner"], state["turn"], state["facing"]) == (
        "scoring",
        "Ann",
        None,
        None,
    )
    assert game(*WON).legal_actions().revealers == ("Bob", "Cy")


@pytest.mark.parametrize(
    "last", ["R7", "R0", "R+2", "RDA", "WR+4 G", "W+10 B", "RS", "RR", "RSE", "WCR"]
)
def test_a_last_card_has_no_effect(last: str) -> None:
    state = game("start: R5", "Ann: has 1", f"Ann: {last}").to_json()
    assert state["status"] == "scoring" and state["hand_winner"] == "Ann"
    assert state["hands"] == {"Ann": 0, "Bob": 7, "Cy": 7}
    assert state["stack"] is None and state["direction"] == "clockwise"


def test_nothing_is_played_after_the_hand_is_won() -> None:
    g = game(*WON)
    for line in ("Bob: R4", "Bob: draw 1, R4", "Bob: take", "start: G3"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "hand-over"


def test_the_winner_scores_every_other_hand() -> None:
    g = game(*WON, "Bob: reveals 10")
    assert g.to_json()["status"] == "scoring"
    assert g.legal_actions().revealers == ("Cy",)
    g.apply("Cy: has 3")
    g.apply("Cy: reveals R9 YS W+6")
    state = g.to_json()
    assert state["status"] == "hand_over"
    assert state["scores"] == {"Ann": 10 + 79, "Bob": 0, "Cy": 0}
    assert state["revealed"] == {"Ann": None, "Bob": 10, "Cy": 79}
    assert state["hands_scored"] == [
        {"hand": 1, "winner": "Ann", "points": {"Ann": 89, "Bob": 0, "Cy": 0}}
    ]
    assert g.legal_actions().next_hand == 2


def test_knockouts_score_250_and_reveal_nothing() -> None:
    state = play("""
        players: Ann, Bob, Cy, Dee
        start: R5
        Dee: has 25
        Ann: has 1
        Ann: R3
        Bob: reveals 5
        Cy: reveals 6
    """)
    assert state["scores"]["Ann"] == 250 + 11
    error = refuse("""
        players: Ann, Bob, Cy
        start: R5
        Cy: has 25
        Ann: has 1
        Ann: R3
        Cy: reveals 10
    """)
    assert (error["line"], error["rule"]) == (6, "scoring")


def test_reveal_refusals() -> None:
    g = game("start: R5")
    with pytest.raises(IllegalActionError, match="isn't won") as info:
        g.apply("Bob: reveals 3")
    assert info.value.rule == "scoring"
    g = game(*WON, "Bob: reveals 10")
    for line, why in [
        ("Ann: reveals 0", "winner"),
        ("Bob: reveals 10", "already revealed"),
        ("Bob: has 3", "before revealing"),
        ("Ann: has 2", "no cards left"),
    ]:
        with pytest.raises(IllegalActionError, match=why) as info:
            g.apply(line)
        assert info.value.rule == "scoring"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("Bob: reveals R1 R2", "correct it to 2"),  # Bob holds 7 by the table's count
        ("Bob: reveals 351", "350"),  # 7 cards: at most 350 points
        ("Bob: reveals R1 R2 R3 R4 R6 R8 R5 R5", "correct it to 8"),
        ("Bob: reveals R5 R5 R1 R2 R3 R4 R6", "Red 5"),  # the start card is the third R5
    ],
)
def test_reveal_must_fit_the_hand_and_the_deck(line: str, why: str) -> None:
    g = game(*WON)
    with pytest.raises(CardCountError, match=why) as info:
        g.apply(line)
    assert info.value.rule == "cards"


def test_a_reveal_that_does_not_match_the_count_offers_the_correction() -> None:
    """In plain words, never the record's wording ("has 2"), and the line that fixes it."""
    g = game(*WON)
    with pytest.raises(RevealMismatch) as info:
        g.apply("Bob: reveals R1 R2")
    assert str(info.value) == (
        "Bob showed 2 cards, but the table counted 7 cards: if the table's count is wrong, "
        "correct it to 2, then record the cards again."
    )
    assert str(info.value.correction) == "Bob: has 2"
    g.apply(str(info.value.correction))
    g.apply("Bob: reveals R1 R2")


def test_revealed_cards_count_against_the_deck() -> None:
    g = game(*WON, "Bob: has 3", "Bob: reveals W+10 W+10 W+10", "Cy: has 2")
    with pytest.raises(CardCountError, match="Wild Draw 10"):
        g.apply("Cy: reveals W+10 W+10")
    g.apply("Cy: reveals W+10 W+6")
    assert g.to_json()["scores"]["Ann"] == 250


def test_reveal_points_up_to_50_a_card() -> None:
    g = game(*WON, "Bob: reveals 350", "Cy: reveals 0")
    assert g.to_json()["scores"]["Ann"] == 350


def test_correct_the_count_before_revealing() -> None:
    g = game(*WON, "Bob: has 2", "Bob: reveals R1 R2", "Cy: reveals 7")
    assert g.to_json()["scores"]["Ann"] == 10


def test_scores_run_from_hand_to_hand() -> None:
    g = game(*WON, "Bob: reveals 10", "Cy: reveals 20", "hand: 2", "start: G3")
    g.apply("Cy: has 1")
    g.apply("Bob: G4")
    g.apply("Cy: G5")
    g.apply("Ann: reveals 1")
    g.apply("Bob: reveals 2")
    state = g.to_json()
    assert state["scores"] == {"Ann": 30, "Bob": 0, "Cy": 3}
    assert [h["winner"] for h in state["hands_scored"]] == ["Ann", "Cy"]


def test_match_won_at_the_target() -> None:
    g = game(*WON, "Bob: reveals 40", rules=HouseRules(target=100), players=("Ann", "Bob"))
    assert g.to_json()["status"] == "hand_over"
    g.apply("hand: 2")
    g.apply("start: G3")
    g.apply("Ann: has 1")  # Ann dealt: Bob plays first
    g.apply("Bob: G4")
    g.apply("Ann: G5")
    g.apply("Bob: reveals 60")
    state = g.to_json()
    assert state["status"] == "match_over" and state["match_winner"] == "Ann"
    assert state["scores"] == {"Ann": 100, "Bob": 0}
    assert any("wins the match" in e for e in state["events"])
    for line in ("hand: 3", "Bob: reveals 1", "Ann: has 3"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "hand-over"


def test_default_target_is_1000() -> None:
    g = game(*WON, "Bob: reveals 350", "Cy: reveals 350")
    assert g.to_json()["status"] == "hand_over"  # 700 < 1000


def test_scoring_low() -> None:
    state = play("""
        players: Ann, Bob, Cy
        rules: scoring=low
        start: R5
        Bob: has 25
        Ann: has 1
        Ann: R3
        Cy: reveals 40
    """)
    assert state["scores"] == {"Ann": 0, "Bob": 250, "Cy": 40}
    assert state["status"] == "hand_over"


def test_scoring_low_lowest_total_wins_at_the_target() -> None:
    state = play("""
        players: Ann, Bob, Cy
        rules: scoring=low, target=30
        start: R5
        Ann: has 1
        Ann: R3
        Bob: reveals 12
        Cy: reveals 40
    """)
    assert state["status"] == "match_over" and state["match_winner"] == "Ann"


def test_knockout_win_in_two_players_is_scored_at_once() -> None:
    state = play("""
        players: Ann, Bob
        start: R5
        Bob: has 20
        Ann: W+10 B
        Bob: take
    """)
    assert (state["status"], state["hand_winner"]) == ("hand_over", "Ann")
    assert state["scores"] == {"Ann": 250, "Bob": 0}


def test_final_draw_house_rule() -> None:
    rules = HouseRules(final_draw=True)
    g = game("start: R5", "Ann: has 1", "Ann: R+2", rules=rules)
    assert g.to_json()["hands"]["Bob"] == 9
    assert g.to_json()["status"] == "scoring"
    g = game("start: R5", "Ann: has 1", "Ann: WR+4 G", rules=rules)
    assert g.to_json()["hands"] == {"Ann": 0, "Bob": 7, "Cy": 11}  # reversed: Cy draws
    g = game("start: R5", "Ann: has 1", "Ann: R7", rules=rules)
    assert g.to_json()["hands"] == {"Ann": 0, "Bob": 7, "Cy": 7}


def test_next_hand_number_must_follow() -> None:
    g = game(*WON, "Bob: reveals 1", "Cy: reveals 1")
    with pytest.raises(IllegalActionError) as info:
        g.apply("hand: 3")
    assert info.value.rule == "setup"
    with pytest.raises(IllegalActionError) as info:
        game(*WON, "Bob: reveals 1").apply("hand: 2")
    assert info.value.rule == "hand-over"


# ---------------------------------------------------------------- what the table is told


def test_knockout_points_are_250() -> None:
    assert KNOCKOUT_POINTS == 250


def test_how_scored_names_the_winner_of_the_hand() -> None:
    g = game(*WON)
    assert g.state.status == "scoring"
    assert how_scored(g.state) == "Ann scores the cards left in the other hands."
    g = game("start: R5", "Bob: has 2", "Ann: R3", "Bob: has 1", "Bob: R4")
    assert how_scored(g.state) == "Bob scores the cards left in the other hands."


def test_how_scored_adds_knockouts_when_there_were_some() -> None:
    g = game(*KNOCKED_OUT, players=("Ann", "Bob", "Cy", "Dee"))
    assert how_scored(g.state) == (
        "Ann scores the cards left in the other hands, plus 250 for each knockout."
    )


def test_how_scored_when_every_loser_was_knocked_out() -> None:
    g = game("start: R5", "Bob: has 20", "Ann: W+10 B", "Bob: take", players=("Ann", "Bob"))
    assert how_scored(g.state) == "Ann scores 250 for each player knocked out."


def test_how_scored_under_low_scoring() -> None:
    g = game(*WON, rules=LOW)
    assert how_scored(g.state) == (
        "Ann won and scores 0; the others score the cards left in their own hands. "
        "The lowest total wins the match."
    )
    g = game(*KNOCKED_OUT, rules=LOW)
    assert how_scored(g.state) == (
        "Ann won and scores 0; the others score the cards left in their own hands, and a "
        "player knocked out scores 250. The lowest total wins the match."
    )


def test_low_scoring_reveal_sentence_does_not_say_the_winner_scores_the_other_hands() -> None:
    for lines in (WON, KNOCKED_OUT):
        sentence = how_scored(game(*lines, rules=LOW).state)
        assert "other hands" not in sentence and "Ann won and scores 0" in sentence


def test_how_scored_before_the_hand_is_won_says_the_rule() -> None:
    assert how_scored(game("start: R5").state) == (
        "The winner scores the cards left in the other hands."
    )
    assert how_scored(game("start: R5", rules=LOW).state).startswith("The winner scores 0;")


def test_score_breakdown_of_the_winners_points() -> None:
    g = game(*KNOCKED_OUT, "Bob: reveals 55", players=("Ann", "Bob", "Cy", "Dee"))
    assert score_breakdown(g.state) is None  # Dee still reveals
    g.apply("Dee: reveals 0")
    assert g.state.status == "hand_over"
    assert score_breakdown(g.state) == (
        "Ann scores 305 = 55 from Bob + 0 from Dee + 250 for Cy, knocked out."
    )


def test_score_breakdown_of_a_hand_won_by_knockout() -> None:
    g = game("start: R5", "Bob: has 20", "Ann: W+10 B", "Bob: take", players=("Ann", "Bob"))
    assert score_breakdown(g.state) == "Ann scores 250 = 250 for Bob, knocked out."


def test_score_breakdown_under_low_scoring() -> None:
    g = game(*KNOCKED_OUT, "Bob: reveals 12", rules=LOW)
    assert score_breakdown(g.state) == (
        "Ann won and scores 0; the others score their own cards: Bob 12, Cy 250."
    )


def test_score_breakdown_is_of_the_last_hand_until_the_next_is_scored() -> None:
    assert score_breakdown(game().state) is None
    assert score_breakdown(game(*WON).state) is None  # won, not scored yet
    g = game(*WON, "Bob: reveals 10", "Cy: reveals 20", "hand: 2")
    assert score_breakdown(g.state) is None  # playing the next hand
    g = game(*WON, "Bob: reveals 10", "Cy: reveals 20", rules=HouseRules(target=30))
    assert g.state.status == "match_over"
    assert score_breakdown(g.state) == "Ann scores 30 = 10 from Bob + 20 from Cy."


def test_the_ranking_follows_the_scoring_rule() -> None:
    from engine import Game, HouseRules

    lines = ("Bob: wins", "Ann: reveals 30", "Cy: reveals 10")
    high = Game(["Ann", "Bob", "Cy"])
    low = Game(["Ann", "Bob", "Cy"], rules=HouseRules(scoring="low"))
    for line in lines:
        high.apply(line)
        low.apply(line)
    assert high.state.scores == (0, 40, 0) and high.state.ranking()[0] == 1  # Bob, highest
    assert low.state.scores == (30, 0, 10) and low.state.ranking() == [1, 2, 0]  # lowest first
