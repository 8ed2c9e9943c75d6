"""Seating, dealing, whose turn it is, matching [setup] [turn] [match] [draw]."""

from __future__ import annotations

import pytest

from engine import Game, HouseRules, IllegalActionError, OutOfTurnError
from tests.engine.conftest import game, play, refuse


def test_a_fresh_deal() -> None:
    state = Game(["Ann", "Bob", "Cy"]).to_json()
    assert state["hand"] == 1 and state["status"] == "playing"
    assert state["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7}
    assert state["draw_pile"] == 168 - 21 and state["discard_pile"] == 0
    assert state["top"] is None and state["color"] is None and state["stack"] is None
    assert state["dealer"] == "Cy" and state["turn"] == "Ann"
    assert state["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0}


def test_the_start_card() -> None:
    state = game("start: G3").to_json()
    assert (state["top"], state["color"], state["turn"]) == ("G3", "G", "Ann")
    assert (state["draw_pile"], state["discard_pile"]) == (146, 1)


@pytest.mark.parametrize("card", ["R7", "B0"])
def test_a_start_7_or_0_has_no_effect(card: str) -> None:
    state = game(f"start: {card}").to_json()
    assert state["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7} and state["turn"] == "Ann"


@pytest.mark.parametrize("card", ["RS", "GR", "B+2", "Y+4", "RDA", "GSE", "W+6", "WCR", "WR+4"])
def test_the_start_card_must_be_a_number(card: str) -> None:
    with pytest.raises(IllegalActionError, match="number card") as info:
        game(f"start: {card}")
    assert info.value.rule == "setup"


@pytest.mark.parametrize(
    ("players", "first"),
    [(("Ann", "Bob"), "Ann"), (("Ann", "Bob", "Cy", "Dee", "Eve", "Flo"), "Ann")],
)
def test_two_to_six_players(players: tuple[str, ...], first: str) -> None:
    assert game("start: R5", players=players).turn == first


@pytest.mark.parametrize(
    "names", [["Ann"], [], ["A", "B", "C", "D", "E", "F", "G"], ["Ann", "ANN"]]
)
def test_bad_seating(names: list[str]) -> None:
    with pytest.raises(IllegalActionError) as info:
        Game(names)
    assert info.value.rule == "setup"


def test_the_player_after_the_dealer_starts() -> None:
    assert game("start: R5", dealer="Ann").turn == "Bob"
    assert game("dealer: Bob", "start: R5").turn == "Cy"
    state = play("""
        players: Ann, Bob, Cy
        dealer: Cy
        start: R5
    """)
    assert state["turn"] == "Ann"


def test_the_dealer_is_set_before_the_start_card() -> None:
    error = refuse("""
        players: Ann, Bob, Cy
        start: R5
        dealer: Ann
    """)
    assert (error["line"], error["rule"]) == (3, "setup")


def test_players_come_once() -> None:
    error = refuse("""
        players: Ann, Bob
        players: Ann, Bob
    """)
    assert (error["line"], error["rule"]) == (2, "setup")


def test_a_second_start_card_is_refused() -> None:
    with pytest.raises(IllegalActionError) as info:
        game("start: R5", "start: G5")
    assert info.value.rule == "setup"


def test_nothing_before_the_start_card() -> None:
    for line in ("Ann: R5", "Ann: draw 1, R5", "Ann: uno", "Bob: catch Ann"):
        with pytest.raises(IllegalActionError, match="start:") as info:
            game().apply(line)
        assert info.value.rule == "setup"


def test_hand_1_header_at_the_top_is_allowed() -> None:
    state = play("""
        players: Ann, Bob
        hand: 1
        start: R5
    """)
    assert state["hand"] == 1


def test_turns_go_clockwise() -> None:
    g = game("start: R5", "Ann: R3", "Bob: B3", "Cy: B9")
    assert g.turn == "Ann"
    assert g.to_json()["next"] == "Bob"


def test_only_the_player_whose_turn_it_is_acts() -> None:
    g = game("start: R5")
    for line in ("Bob: R3", "Cy: draw 1, R3"):
        with pytest.raises(OutOfTurnError, match="Ann's turn") as info:
            g.apply(line)
        assert info.value.rule == "turn"
    g.apply("Ann: R+2")
    with pytest.raises(OutOfTurnError):
        g.apply("Cy: take")


@pytest.mark.parametrize("card", ["R1", "RS", "RR", "R+2", "R+4", "RDA", "RSE", "B5", "G5"])
def test_colour_or_number_matches(card: str) -> None:
    game("start: R5").apply(f"Ann: {card}")


@pytest.mark.parametrize("card", ["W+6 G", "W+10 B", "WR+4 Y", "WCR"])
def test_wilds_always_match(card: str) -> None:
    game("start: R5").apply(f"Ann: {card}")


@pytest.mark.parametrize("card", ["B6", "GS", "Y+2", "BDA", "G7 swap Bob"])
def test_no_match(card: str) -> None:
    with pytest.raises(IllegalActionError, match="match the colour") as info:
        game("start: R5").apply(f"Ann: {card}")
    assert info.value.rule == "match"


def test_symbols_match_across_colours() -> None:
    g = game("start: R5", "Ann: RS", "Cy: GS", "Bob: GDA", "Cy: YDA")
    assert g.to_json()["color"] == "Y"


def test_a_wild_colour_is_matched_not_the_wild() -> None:
    g = game("start: R5", "Ann: WCR", "Bob: roulette B 2")
    with pytest.raises(IllegalActionError):
        g.apply("Cy: R3")
    g.apply("Cy: B3")


def test_draw_until_playable_then_play() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Ann: draw 3, R9
        Bob: draw 1, W+6 G
    """)
    assert state["hands"] == {"Ann": 9, "Bob": 7, "Cy": 7}
    assert state["turn"] == "Cy" and state["stack"] == {"total": 6, "last": 6}


def test_the_card_played_after_a_draw_must_match() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: draw 2, G9
    """)
    assert (error["line"], error["rule"]) == (3, "match")


def test_draw_without_a_play_is_refused_officially() -> None:
    with pytest.raises(IllegalActionError, match="draw 2, CARD") as info:
        game("start: R5").apply("Ann: draw 2")
    assert info.value.rule == "draw"
    with pytest.raises(IllegalActionError) as info:
        game("start: R5").apply("Ann: draw 0, R3")
    assert info.value.rule == "draw"


def test_draw_one_house_rule() -> None:
    g = game("start: R5", "Ann: draw 1", rules=HouseRules(draw="one"))
    assert g.turn == "Bob" and g.to_json()["hands"]["Ann"] == 8
    assert g.legal_actions().can_pass
    g.apply("Bob: draw 1, R3")
    with pytest.raises(IllegalActionError, match="exactly one") as info:
        g.apply("Cy: draw 2, R4")
    assert info.value.rule == "draw"


def test_hand_2_passes_the_deal_left() -> None:
    g = game("start: R5", "Ann: has 1", "Ann: R3", "Bob: reveals 1", "Cy: reveals 1")
    g.apply("hand: 2")
    state = g.to_json()
    assert (state["hand"], state["dealer"], state["turn"]) == (2, "Ann", "Bob")
    assert state["top"] is None and state["status"] == "playing"
    assert state["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7}
    g.apply("dealer: Bob")  # the table may still name another dealer before the start card
    g.apply("start: G3")
    assert g.turn == "Cy"


def test_the_next_dealer_is_named_once_the_hand_is_scored() -> None:
    g = game("start: R5", "Ann: has 1", "Ann: R3")
    assert g.state.dealer == 2 and g.state.next_dealer == 0  # Cy dealt; the deal wraps round
    assert g.legal_actions().next_dealer is None  # still revealing
    g.apply("Bob: reveals 1")
    g.apply("Cy: reveals 1")
    assert g.legal_actions().next_dealer == "Ann"
    g.apply("hand: 2")
    assert g.players[g.state.dealer] == "Ann"
    assert g.legal_actions().next_dealer is None  # playing
    assert g.players[g.state.next_dealer] == "Bob"


def test_the_next_dealer_goes_round_the_table() -> None:
    g = game(players=("Ann", "Bob"))
    dealers = []
    for hand in range(2, 6):
        g.apply("start: R5")
        g.apply(f"{g.turn}: has 1")
        g.apply(f"{g.turn}: R3")
        g.apply(f"{g.legal_actions().revealers[0]}: reveals 1")
        dealers.append(g.legal_actions().next_dealer)
        g.apply(f"hand: {hand}")
        assert g.players[g.state.dealer] == dealers[-1]
    assert dealers == ["Ann", "Bob", "Ann", "Bob"]


def test_nobody_deals_next_once_the_match_is_over() -> None:
    g = game(
        "start: R5",
        "Ann: has 1",
        "Ann: R3",
        "Bob: reveals 1",
        "Cy: reveals 1",
        rules=HouseRules(target=1),
    )
    assert g.state.status == "match_over"
    assert g.legal_actions().next_dealer is None


def test_hand_header_while_the_hand_is_on() -> None:
    with pytest.raises(IllegalActionError) as info:
        game("start: R5", "Ann: R3").apply("hand: 2")
    assert info.value.rule == "hand-over"


def test_rules_are_for_the_whole_match() -> None:
    g = game("start: R5", "Ann: has 1", "Ann: R3", "Bob: reveals 1", "Cy: reveals 1", "hand: 2")
    with pytest.raises(IllegalActionError) as info:
        g.apply("rules: stack=sum")
    assert info.value.rule == "setup"
