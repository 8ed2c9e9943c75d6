"""The 168-card deck: kinds, copies, points, draw values and card codes."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import ALL_CARDS, DECK_SIZE, Card, Color, Face, NotationError, full_deck

COLORED = [c for c in ALL_CARDS if not c.wild]
WILDS = [c for c in ALL_CARDS if c.wild]


def test_deck_has_168_cards_of_68_kinds() -> None:
    # 16 coloured faces in 4 colours, and 4 wilds (cards.py's docstring says 64 kinds).
    assert DECK_SIZE == 168
    assert len(full_deck()) == 168
    assert len(ALL_CARDS) == 4 * 16 + 4 == len(set(ALL_CARDS))
    assert Counter(full_deck()) == {card: card.copies for card in ALL_CARDS}


@pytest.mark.parametrize("color", list(Color))
def test_copies_per_colour(color: Color) -> None:
    deck = Counter(c for c in full_deck() if c.color is color)
    assert sum(deck.values()) == 36
    for n in range(10):
        assert deck[Card.parse(f"{color}{n}")] == 2
    for face, copies in (("S", 3), ("R", 3), ("+2", 3), ("+4", 2), ("DA", 3), ("SE", 2)):
        assert deck[Card.parse(f"{color}{face}")] == copies


def test_wild_copies() -> None:
    deck = Counter(full_deck())
    assert deck[Card.parse("WR+4")] == 8
    assert deck[Card.parse("W+6")] == 4
    assert deck[Card.parse("W+10")] == 4
    assert deck[Card.parse("WCR")] == 8
    assert sum(deck[c] for c in WILDS) == 24


def test_there_is_no_plain_wild_and_no_wild_draw_4() -> None:
    for code in ("W", "W+4", "WW", "W+2"):
        with pytest.raises(NotationError):
            Card.parse(code)


def test_points() -> None:
    for card in ALL_CARDS:
        if card.number is not None:
            assert card.points == card.number
        elif card.wild:
            assert card.points == 50
        else:
            assert card.points == 20
    assert sum(c.points for c in full_deck()) == 4 * 2 * 45 + 4 * 16 * 20 + 24 * 50


@pytest.mark.parametrize(
    ("code", "draw"),
    [
        ("R+2", 2),
        ("B+4", 4),
        ("WR+4", 4),
        ("W+6", 6),
        ("W+10", 10),
        ("WCR", 0),
        ("G5", 0),
        ("YS", 0),
        ("RR", 0),
        ("BDA", 0),
        ("GSE", 0),
    ],
)
def test_draw_values(code: str, draw: int) -> None:
    assert Card.parse(code).draw == draw


def test_only_draw_cards_have_a_draw_value() -> None:
    drawing = {str(c) for c in ALL_CARDS if c.draw}
    assert drawing == {f"{c}+2" for c in "RYGB"} | {f"{c}+4" for c in "RYGB"} | {
        "WR+4",
        "W+6",
        "W+10",
    }


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_code_round_trip(card: Card) -> None:
    code = str(card)
    assert Card.parse(code) is card
    assert Card.parse(code.lower()) is card
    assert Card.parse(f"  {code} ") is card
    assert repr(card) == f"Card.parse({code!r})"


def test_card_codes() -> None:
    codes = {str(c) for c in ALL_CARDS}
    assert {"R0", "Y9", "GS", "BR", "R+2", "Y+4", "GDA", "BSE"} <= codes
    assert {"WR+4", "W+6", "W+10", "WCR"} <= codes
    assert all(
        c.wild == s.startswith("W") for c, s in zip(ALL_CARDS, map(str, ALL_CARDS), strict=True)
    )


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("R5", "Red 5"),
        ("y0", "Yellow 0"),
        ("GS", "Green Skip"),
        ("BR", "Blue Reverse"),
        ("R+2", "Red Draw 2"),
        ("Y+4", "Yellow Draw 4"),
        ("GDA", "Green Discard All"),
        ("BSE", "Blue Skip Everyone"),
        ("WR+4", "Wild Reverse Draw 4"),
        ("W+6", "Wild Draw 6"),
        ("W+10", "Wild Draw 10"),
        ("wcr", "Wild Colour Roulette"),
    ],
)
def test_names(code: str, name: str) -> None:
    assert Card.parse(code).name == name


@pytest.mark.parametrize(
    "code", ["", "R", "R10", "X5", "W5", "WR", "R+6", "R+10", "RCR", "WDA", "W+10B", "5R", "RED5"]
)
def test_bad_codes_are_refused(code: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(code)
    assert info.value.rule == "syntax"
    assert "R5" in info.value.message  # says how to write a card


def test_cards_are_interned_and_immutable() -> None:
    card = Card(Color.RED, Face.N5)
    assert card is Card.parse("R5") is Card.parse("r5")
    assert Card(None, Face.WILD_DRAW6) is Card.parse("W+6")
    with pytest.raises(AttributeError):
        card.points = 99  # type: ignore[misc]
    with pytest.raises(ValueError):
        Card(None, Face.N5)
    with pytest.raises(ValueError):
        Card(Color.RED, Face.WILD_DRAW10)


def test_colours() -> None:
    assert [str(c) for c in Color] == ["R", "Y", "G", "B"]
    assert Color.parse("g") is Color.GREEN
    assert Color.parse("blue") is Color.BLUE
    with pytest.raises(NotationError):
        Color.parse("P")
