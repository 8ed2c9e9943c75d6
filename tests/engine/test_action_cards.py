"""Action cards: Skip, Reverse, Skip Everyone, Wild Reverse Draw 4, Discard All,
Colour Roulette, the 7 swap, the 0 pass and a wild's colour."""

from __future__ import annotations

import pytest

from engine import Card, CardCountError, HouseRules, IllegalActionError, OutOfTurnError
from tests.engine.conftest import game, play, refuse

FOUR = ("Ann", "Bob", "Cy", "Dee")


# ---------------------------------------------------------------- skip, reverse


def test_skip() -> None:
    assert game("start: R5", "Ann: RS").turn == "Cy"
    assert game("start: R5", "Ann: RS", players=FOUR).turn == "Cy"
    assert game("start: R5", "Ann: RS", players=("Ann", "Bob")).turn == "Ann"


def test_skip_passes_over_knocked_out_players() -> None:
    g = game("start: R5", "Bob: has 25", "Ann: RS", players=FOUR)
    assert g.turn == "Dee"  # Cy is skipped, Bob is out


def test_reverse() -> None:
    g = game("start: R5", "Ann: RR")
    assert (g.turn, g.to_json()["direction"]) == ("Cy", "counterclockwise")
    g.apply("Cy: R3")
    assert g.turn == "Bob"
    g.apply("Bob: RR")
    assert (g.turn, g.to_json()["direction"]) == ("Cy", "clockwise")


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    g = game("start: R5", "Ann: RR", players=("Ann", "Bob"))
    assert g.turn == "Ann"
    g = game("start: R5", "Dee: has 25", "Cy: has 25", "Ann: RR", players=FOUR)
    assert g.turn == "Ann"  # two players still in the hand


def test_skip_everyone() -> None:
    g = game("start: R5", "Ann: RSE", players=FOUR)
    assert (g.turn, g.to_json()["facing"]) == ("Ann", "play")
    g.apply("Ann: R2")
    assert g.turn == "Bob"


# ---------------------------------------------------------------- wild reverse draw 4


def test_wild_reverse_draw_4_with_three_players() -> None:
    g = game("start: R5", "Ann: WR+4 B")
    state = g.to_json()
    assert (state["turn"], state["facing"], state["direction"]) == (
        "Cy",
        "stack",
        "counterclockwise",
    )
    assert state["color"] == "B" and state["stack"] == {"total": 4, "last": 4}


def test_wild_reverse_draw_4_with_two_players_faces_its_player() -> None:
    g = game("start: R5", "Ann: WR+4 B", players=("Ann", "Bob"))
    assert (g.turn, g.legal_actions().facing) == ("Ann", "stack")
    g.apply("Ann: W+6 R")  # stacks it back
    assert (g.turn, g.state.stack_total) == ("Bob", 10)


def test_wild_reverse_draw_4_when_two_are_left_of_three() -> None:
    g = game("start: R5", "Cy: has 25", "Ann: WR+4 B")
    assert g.turn == "Ann"


# ---------------------------------------------------------------- discard all


def test_discard_all_takes_cards_of_its_colour() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Ann: RDA discard 4
    """)
    assert state["hands"]["Ann"] == 2
    assert state["discard_pile"] == 6 and state["top"] == "RDA" and state["color"] == "R"
    assert state["turn"] == "Bob"


def test_discard_all_on_its_symbol() -> None:
    state = play("""
        players: Ann, Bob, Cy
        start: R5
        Ann: RDA
        Bob: GDA discard 1
    """)
    assert (state["color"], state["hands"]["Bob"], state["turn"]) == ("G", 5, "Cy")


def test_discard_all_can_not_take_more_than_the_hand() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: RDA discard 7
    """)
    assert (error["line"], error["rule"]) == (3, "discard-all")
    assert "has N" in error["message"]


def test_max_discard_is_every_other_card_held() -> None:
    g = game("start: R5", "Ann: has 5")
    assert g.legal_actions().max_discard() == 4
    g.apply("Ann: RDA discard 4")  # the most it allows is accepted
    assert g.state.hands[0] == 0


def test_max_discard_counts_the_cards_drawn_before_the_play() -> None:
    g = game("start: R5", "Ann: has 5")
    assert g.legal_actions().max_discard(3) == 7
    g.apply("Ann: draw 3, RDA discard 7")
    assert g.state.status == "scoring"  # all eight went: Ann won the hand
    g.undo()
    with pytest.raises(IllegalActionError) as info:
        g.apply("Ann: draw 3, RDA discard 8")
    assert info.value.rule == "discard-all"


def test_max_discard_is_never_negative() -> None:
    g = game("start: R5", "Ann: has 1")
    assert g.legal_actions().max_discard() == 0
    assert g.legal_actions().max_discard(2) == 2


def test_only_discard_all_discards() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: R3 discard 1
    """)
    assert (error["line"], error["rule"]) == (3, "discard-all")


# ---------------------------------------------------------------- colour roulette


def test_roulette() -> None:
    g = game("start: R5", "Ann: WCR")
    state = g.to_json()
    assert (state["turn"], state["facing"], state["color"]) == ("Bob", "roulette", None)
    g.apply("Bob: roulette Y 4")
    state = g.to_json()
    assert (state["turn"], state["facing"], state["color"]) == ("Cy", "play", "Y")
    assert state["hands"]["Bob"] == 11
    g.apply("Cy: Y2")


def test_roulette_victim_must_answer_first() -> None:
    g = game("start: R5", "Ann: WCR")
    for line in ("Bob: R3", "Bob: draw 1, R3", "Bob: take"):
        with pytest.raises(IllegalActionError) as info:
            g.apply(line)
        assert info.value.rule == "roulette"
    with pytest.raises(OutOfTurnError):
        g.apply("Cy: roulette G 1")


def test_roulette_needs_a_roulette_and_at_least_one_card() -> None:
    g = game("start: R5")
    with pytest.raises(IllegalActionError) as info:
        g.apply("Ann: roulette G 2")
    assert info.value.rule == "roulette"
    g.apply("Ann: WCR")
    with pytest.raises(IllegalActionError) as info:
        g.apply("Bob: roulette G 0")
    assert info.value.rule == "roulette"
    with pytest.raises(CardCountError):
        g.apply("Bob: roulette G 148")  # 146 in the pile, 1 under the top card


def test_roulette_names_no_colour_when_played() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: WCR G
    """)
    assert error["rule"] == "wild-color"


def test_roulette_is_not_a_draw_card() -> None:
    # RULINGS [roulette]: "It is not a Draw card: it cannot start, join or answer a
    # stack" (the stacking section says so too; the more specific rule is named).
    g = game("start: R5", "Ann: R+2")
    refusal = g.legal_actions().refusal(Card.parse("WCR"))
    assert refusal is not None and refusal.rule == "roulette"
    g = game("start: R5", "Ann: WCR", "Bob: roulette R 1")
    assert g.to_json()["stack"] is None and g.turn == "Cy"  # it starts no stack


# ---------------------------------------------------------------- wild colour


@pytest.mark.parametrize("card", ["W+6", "W+10", "WR+4"])
def test_wild_needs_a_colour(card: str) -> None:
    error = refuse(f"""
        players: Ann, Bob
        start: R5
        Ann: {card}
    """)
    assert (error["line"], error["rule"]) == (3, "wild-color")
    assert f"{card} R, Y, G or B" in error["message"]


def test_coloured_cards_name_no_colour() -> None:
    error = refuse("""
        players: Ann, Bob
        start: R5
        Ann: R3 G
    """)
    assert error["rule"] == "wild-color"


def test_wild_colour_is_the_active_colour() -> None:
    g = game("start: R5", "Ann: W+6 G", "Bob: take")
    assert g.to_json()["color"] == "G"
    g.apply("Cy: G1")


# ---------------------------------------------------------------- 7 swap and 0 pass


def test_seven_swaps_with_a_chosen_player() -> None:
    state = play("""
        players: Ann, Bob, Cy, Dee
        start: R5
        Cy: has 12
        Ann: R7 swap Cy
    """)
    assert state["hands"] == {"Ann": 12, "Bob": 7, "Cy": 6, "Dee": 7}
    assert state["turn"] == "Bob"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("Ann: R7", "swap NAME"),
        ("Ann: R7 swap Ann", "themselves"),
        ("Ann: R3 swap Bob", "only a 7"),
    ],
)
def test_seven_swap_refusals(line: str, why: str) -> None:
    g = game("start: R5")
    with pytest.raises(IllegalActionError, match=why) as info:
        g.apply(line)
    assert info.value.rule == "swap"


def test_knocked_out_players_can_not_be_swapped_with() -> None:
    g = game("start: R5", "Cy: has 25")
    with pytest.raises(IllegalActionError) as info:
        g.apply("Ann: R7 swap Cy")
    assert info.value.rule == "swap"
    assert g.legal_actions().swap_targets == ("Bob",)


def test_zero_passes_hands_in_the_direction_of_play() -> None:
    state = play("""
        players: Ann, Bob, Cy, Dee
        start: R5
        Bob: has 9
        Cy: has 3
        Ann: RR
        Dee: R0
    """)
    # counterclockwise: Dee -> Cy -> Bob -> Ann -> Dee
    assert state["hands"] == {"Ann": 9, "Bob": 3, "Cy": 6, "Dee": 6}
    assert state["turn"] == "Cy"


def test_zero_skips_knocked_out_players() -> None:
    state = play("""
        players: Ann, Bob, Cy, Dee
        start: R5
        Bob: has 25
        Cy: has 3
        Ann: R0
    """)
    assert state["hands"] == {"Ann": 7, "Bob": 0, "Cy": 6, "Dee": 3}
    assert state["set_aside"] == 25


def test_seven_and_zero_off_are_plain_numbers() -> None:
    g = game("start: R5", "Ann: R7", "Bob: R0", rules=HouseRules(seven=False, zero=False))
    assert g.to_json()["hands"] == {"Ann": 6, "Bob": 6, "Cy": 7}
    assert g.legal_actions().swap_targets == ()
