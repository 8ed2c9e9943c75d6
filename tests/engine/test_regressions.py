"""Regression tests, one per bug found by the property tests, named after the bug."""

from __future__ import annotations

from engine import Game

from .conftest import play, refuse


def test_no_count_correction_is_offered_when_no_card_can_be_drawn() -> None:
    g = Game.from_record("players: Ann, Bob\nrules: mercy=off\nstart: R0\nAnn: draw 153\n")
    for line in g.legal_actions().actions():
        assert g.is_legal(line), str(line)


def test_a_correction_before_the_start_card_leaves_the_start_card_in_the_pile() -> None:
    error = refuse("""
        players: Ann, Bob
        rules: mercy=off
        Ann: has 161
    """)
    assert error["rule"] == "cards" and "has 160 or fewer" in error["message"]


def test_a_correction_before_the_start_card_never_reshuffles() -> None:
    error = refuse("""
        players: Ann, Bob, Cy
        Ann: has 25
        Bob: has 137
    """)
    assert error["rule"] == "cards"


def test_dealer_after_a_knockout_skips_the_knocked_out_player() -> None:
    state = play("""
        players: Ann, Bob, Cy
        Bob: has 25
        dealer: Ann
        start: R5
        Cy: R6
    """)
    assert state["turn"] == "Ann"


def test_quick_knockout_never_makes_the_draw_pile_negative() -> None:
    state = play("""
        players: Ann, Bob, Cy, Dee, Eve, Fay
        rules: mercy=30
        Ann: has 29
        Bob: has 29
        Cy: has 29
        Dee: has 29
        Eve: has 29
        Fay: out
    """)
    assert state["draw_pile"] >= 0
    assert state["draw_pile"] + state["set_aside"] + sum(state["hands"].values()) == 168


def test_an_uno_notice_after_a_swap_names_only_who_holds_one_card() -> None:
    g = Game.from_record("players: Ann, Bob, Cy\nstart: R5\nAnn: has 2\nAnn: R7 swap Bob\n")
    assert g.to_json()["hands"]["Bob"] == 1
    assert [str(e) for e in g.events] == [
        "Bob has one card: UNO! (anyone may catch them until the next turn)"
    ]
