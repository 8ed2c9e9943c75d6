"""engine.progress and the reveal tally: what the screens show about turns, starts,
targets and a hand's losers, from the engine."""

from __future__ import annotations

from engine import START_CARDS, HouseRules, language, next_player, reveal_tally, to_go
from tests.engine.conftest import game


def test_the_next_player_follows_the_direction_and_skips_knockouts() -> None:
    assert next_player(game("start: R5").state) == "Bob"
    assert next_player(game("start: R5", "Ann: RR").state) == "Bob"  # reversed: Cy plays
    assert next_player(game("start: R5", "Bob: has 25").state) == "Cy"  # Bob knocked out
    assert next_player(game("start: R5", "Ann: has 1", "Ann: R3").state) is None


def test_only_number_cards_start_a_hand() -> None:
    assert START_CARDS and all(card.number is not None for card in START_CARDS)
    assert not any(card.wild or card.draw for card in START_CARDS)


def test_to_go_says_the_points_left_and_none_once_reached() -> None:
    g = game("Ann: wins", "Bob: out", "Cy: reveals 35")
    assert to_go(g.state) == [1000 - 285, 1000, 1000]
    short = game("Ann: wins", "Bob: out", "Cy: reveals 35", rules=HouseRules(target=200))
    assert to_go(short.state)[0] is None


def test_the_tally_says_who_scores_a_knockout_under_each_scoring() -> None:
    high = game("Ann: wins", "Bob: out").state
    assert reveal_tally(high) == ["Bob: knocked out, 250 to Ann"]
    low = game("Ann: wins", "Bob: out", "Cy: reveals 35", rules=HouseRules(scoring="low"))
    assert reveal_tally(low.state) == ["Bob: knocked out, scores 250", "Cy: 35"]
    with language("fr"):
        assert reveal_tally(high) == ["Bob : hors jeu, 250 pour Ann"]
