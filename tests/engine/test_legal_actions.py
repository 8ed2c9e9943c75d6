"""Game.legal_actions(): what the app offers must be exactly what the referee accepts."""

from __future__ import annotations

import pytest

from engine import ALL_CARDS, Card, EngineError, Game, HouseRules, Legal
from tests.engine.conftest import game

POSITIONS = {
    "before the start card": ((), {}),
    "start": (("start: R5",), {}),
    "after a wild": (("start: R5", "Ann: W+6 G", "Bob: take"), {}),
    "facing +2": (("start: R5", "Ann: R+2"), {}),
    "facing +4 +6": (("start: R5", "Ann: R+4", "Bob: W+6 B"), {}),
    "sum facing 6": (("start: R5", "Ann: R+2", "Bob: B+4"), {"rules": HouseRules(stack="sum")}),
    "sum facing 12": (
        ("start: R5", "Ann: R+2", "Bob: B+4", "Cy: W+6 Y"),
        {"rules": HouseRules(stack="sum")},
    ),
    "after a take": (("start: Y5", "Ann: Y+2", "Bob: take"), {}),
    "facing roulette": (("start: R5", "Ann: WCR"), {}),
    "after roulette": (("start: R5", "Ann: WCR", "Bob: roulette B 2"), {}),
    "both R9 played": (("start: R5", "Ann: R9", "Bob: R9"), {}),
    "one card left": (("start: G5", "Ann: has 1"), {}),
    "seven off": (("start: R7",), {"rules": HouseRules(seven=False)}),
    "two players WR+4": (("start: B5", "Ann: WR+4 R"), {"players": ("Ann", "Bob")}),
    "Bob knocked out": (("start: R5", "Bob: has 25", "Ann: R+2"), {}),
    "hand won": (("start: R5", "Ann: has 1", "Ann: R3"), {}),
    "hand scored": (("start: R5", "Ann: has 1", "Ann: R3", "Bob: reveals 1", "Cy: reveals 2"), {}),
}


def position(name: str) -> Game:
    lines, kwargs = POSITIONS[name]
    return game(*lines, **kwargs)


def play_text(g: Game, card: Card) -> str:
    """The card as the player whose turn it is would play it, with its follow-ups."""
    s = g.state
    text = str(card)
    if card.wild and card.face.code != "CR":
        text += " G"
    if card.number == 7 and s.rules.seven and s.hands[s.turn] > 1:
        text += f" swap {g.legal_actions().swap_targets[0]}"
    return f"{s.players[s.turn]}: {text}"


def try_line(g: Game, text: str) -> EngineError | None:
    """Apply and take back: None if accepted, else the refusal."""
    try:
        g.apply(text)
    except EngineError as error:
        return error
    g.undo()
    return None


@pytest.mark.parametrize("name", POSITIONS)
def test_cards_are_exactly_what_apply_accepts(name: str) -> None:
    g = position(name)
    before = g.to_json()
    legal = g.legal_actions()
    accepted = set()
    for card in ALL_CARDS:
        error = try_line(g, play_text(g, card))
        refusal = legal.refusal(card)
        if error is None:
            accepted.add(card)
            assert refusal is None, (card, refusal)
        else:
            assert refusal is not None, (card, error)
            assert (type(refusal), refusal.rule) == (type(error), error.rule), card
            assert refusal.message == error.message
    assert accepted == legal.cards, name
    assert g.to_json() == before


@pytest.mark.parametrize("name", POSITIONS)
def test_every_sampled_action_is_accepted(name: str) -> None:
    g = position(name)
    for line in g.legal_actions().actions():
        assert try_line(g, str(line)) is None, str(line)


def test_expected_card_sets() -> None:
    codes = lambda name: {str(c) for c in position(name).legal_actions().cards}  # noqa: E731
    assert codes("facing +2") == {f"{c}+{n}" for c in "RYGB" for n in (2, 4)} | {
        "WR+4",
        "W+6",
        "W+10",
    }
    assert codes("facing +4 +6") == {"W+6", "W+10"}
    assert codes("sum facing 6") == {"W+6", "W+10"}
    assert codes("sum facing 12") == set()
    assert codes("facing roulette") == set()
    assert codes("before the start card") == set()
    assert codes("hand won") == set()
    assert "R9" not in codes("both R9 played") and "B9" in codes("both R9 played")
    start = codes("start")
    assert len(start) == 16 + 3 + 4  # every red card, the other 5s, every wild
    assert {"R0", "RSE", "B5", "G5", "Y5", "WCR", "WR+4"} <= start


def test_turn_and_facing() -> None:
    assert (
        position("before the start card").legal_actions().turn,
        position("before the start card").legal_actions().facing,
    ) == ("Ann", None)
    legal = position("facing +2").legal_actions()
    assert (legal.turn, legal.facing, legal.can_take, legal.can_draw) == (
        "Bob",
        "stack",
        True,
        False,
    )
    legal = position("start").legal_actions()
    assert (legal.turn, legal.facing, legal.can_take, legal.can_draw) == (
        "Ann",
        "play",
        False,
        True,
    )
    legal = position("facing roulette").legal_actions()
    assert (legal.turn, legal.facing, legal.roulette, legal.can_take, legal.can_draw) == (
        "Bob",
        "roulette",
        True,
        False,
        False,
    )
    legal = position("hand won").legal_actions()
    assert (legal.turn, legal.facing, legal.can_draw, legal.roulette) == (None, None, False, False)
    assert position("two players WR+4").legal_actions().turn == "Ann"
    assert position("Bob knocked out").legal_actions().turn == "Cy"


def test_refusal_for_another_player() -> None:
    legal = position("start").legal_actions()
    refusal = legal.refusal(Card.parse("R3"), "Bob")
    assert refusal is not None and refusal.rule == "turn"
    refusal = position("Bob knocked out").legal_actions().refusal(Card.parse("R3"), "Bob")
    assert refusal is not None and refusal.rule == "mercy"


def test_uno_callers() -> None:
    g = game("start: R5", "Ann: has 2", "Ann: R3")
    assert g.legal_actions().uno_callers == ("Ann",)
    g.apply("Ann: uno")
    assert g.legal_actions().uno_callers == ()
    assert position("start").legal_actions().uno_callers == ()


def test_revealers_correctable_and_next_hand() -> None:
    legal = position("hand won").legal_actions()
    assert legal.revealers == ("Bob", "Cy") == legal.correctable
    assert legal.next_hand is None
    legal = position("hand scored").legal_actions()
    assert (legal.revealers, legal.correctable, legal.next_hand) == ((), (), 2)
    g = game("start: R5", "Cy: has 25", "Ann: has 1", "Ann: R3")
    assert g.legal_actions().revealers == ("Bob",)  # knocked-out players reveal nothing
    assert position("Bob knocked out").legal_actions().correctable == ("Ann", "Cy")


def test_swap_targets_max_discard_and_room() -> None:
    assert position("start").legal_actions().swap_targets == ("Bob", "Cy")
    assert position("Bob knocked out").legal_actions().swap_targets == ("Ann",)  # Cy's turn
    assert position("seven off").legal_actions().swap_targets == ()
    assert position("start").legal_actions().max_discard() == 6
    assert position("start").legal_actions().draw_room == 18  # 25 - 7
    assert game("start: R5", rules=HouseRules(mercy=None)).legal_actions().draw_room == 146
    assert not position("start").legal_actions().can_pass
    assert game("start: R5", rules=HouseRules(draw="one")).legal_actions().can_pass


def test_legal_is_a_view_of_the_current_state() -> None:
    g = position("start")
    assert isinstance(g.legal_actions(), Legal)
    assert g.turn == g.legal_actions().turn == "Ann"
    assert g.is_legal("Ann: R3") and not g.is_legal("Bob: R3")
    assert not g.is_legal("Ann: X9") and not g.is_legal("")
    assert len(g) == 2  # is_legal changes nothing
