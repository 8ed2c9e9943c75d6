"""The 168-card No Mercy deck: colours, faces, cards and their codes.

A `Card` is a kind of card (there are 68 kinds: 16 faces
in each of 4 colours, and 4 wilds), not a physical card: the
deck holds several of most kinds. Cards are interned, so `Card.parse("R5")
is Card.parse("r5")` and identity comparison is enough (and fast).
"""

from __future__ import annotations

import enum
from typing import ClassVar, Final

from engine.errors import NotationError


class Color(enum.Enum):
    """A card colour, written with its letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Color:
        color = _COLOR_BY_TEXT.get(text.strip().upper())
        if color is None:
            raise NotationError(
                f"'{text}' is not a colour: write R (red), Y (yellow), G (green) or B (blue)."
            )
        return color

    def __str__(self) -> str:
        return self.value


_COLOR_BY_TEXT: Final = {c.value: c for c in Color} | {c.name: c for c in Color}


class Face(enum.Enum):
    """What is printed on a card, whatever its colour.

    Each value is (code, name, points, draw value, is wild, copies per colour
    or, for wilds, copies in the deck).
    """

    N0 = ("0", "0", 0, 0, False, 2)
    N1 = ("1", "1", 1, 0, False, 2)
    N2 = ("2", "2", 2, 0, False, 2)
    N3 = ("3", "3", 3, 0, False, 2)
    N4 = ("4", "4", 4, 0, False, 2)
    N5 = ("5", "5", 5, 0, False, 2)
    N6 = ("6", "6", 6, 0, False, 2)
    N7 = ("7", "7", 7, 0, False, 2)
    N8 = ("8", "8", 8, 0, False, 2)
    N9 = ("9", "9", 9, 0, False, 2)
    SKIP = ("S", "Skip", 20, 0, False, 3)
    REVERSE = ("R", "Reverse", 20, 0, False, 3)
    DRAW2 = ("+2", "Draw 2", 20, 2, False, 3)
    DRAW4 = ("+4", "Draw 4", 20, 4, False, 2)
    DISCARD_ALL = ("DA", "Discard All", 20, 0, False, 3)
    SKIP_EVERYONE = ("SE", "Skip Everyone", 20, 0, False, 2)
    WILD_REVERSE_DRAW4 = ("R+4", "Wild Reverse Draw 4", 50, 4, True, 8)
    WILD_DRAW6 = ("+6", "Wild Draw 6", 50, 6, True, 4)
    WILD_DRAW10 = ("+10", "Wild Draw 10", 50, 10, True, 4)
    WILD_ROULETTE = ("CR", "Wild Colour Roulette", 50, 0, True, 8)

    def __init__(
        self, code: str, title: str, points: int, draw: int, wild: bool, copies: int
    ) -> None:
        self.code = code
        self.title = title
        self.points = points
        self.draw = draw
        self.wild = wild
        self.copies = copies

    @property
    def number(self) -> int | None:
        """The number on a number card, None for an action or wild card."""
        return int(self.code) if self.code.isdigit() else None


NUMBER_FACES: Final = tuple(f for f in Face if f.number is not None)
COLOR_FACES: Final = tuple(f for f in Face if not f.wild)
WILD_FACES: Final = tuple(f for f in Face if f.wild)


class Card:
    """One kind of card: a colour and a face, or a wild face (no colour).

    Immutable and interned: build with `Card(color, face)` or `Card.parse`.
    """

    __slots__ = ("_code", "color", "draw", "face", "points", "wild")
    _interned: ClassVar[dict[tuple[Color | None, Face], Card]] = {}

    color: Color | None
    face: Face
    draw: int
    points: int
    wild: bool
    _code: str

    def __new__(cls, color: Color | None, face: Face) -> Card:
        key = (color, face)
        card = cls._interned.get(key)
        if card is not None:
            return card
        if face.wild != (color is None):
            what = "a wild card has no colour" if face.wild else "a coloured card needs a colour"
            raise ValueError(f"Card({color}, {face.name}): {what}")
        card = object.__new__(cls)
        for name, value in (
            ("color", color),
            ("face", face),
            ("_code", ("W" if color is None else color.value) + face.code),
            ("draw", face.draw),
            ("points", face.points),
            ("wild", face.wild),
        ):
            object.__setattr__(card, name, value)
        cls._interned[key] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Color | None, Face]]:
        return (Card, (self.color, self.face))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code such as `R5`, `g+2`, `WR+4` or `WCR`."""
        card = _CARD_BY_CODE.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"'{text}' is not a card: write a colour letter and a face (R5, G+2, BSE, "
                "YDA) or a wild (W+6, W+10, WR+4, WCR)."
            )
        return card

    @property
    def name(self) -> str:
        """The card as players say it: 'Red 5', 'Wild Reverse Draw 4'."""
        if self.color is None:
            return self.face.title
        return f"{self.color.title} {self.face.title}"

    @property
    def number(self) -> int | None:
        return self.face.number

    @property
    def copies(self) -> int:
        """How many cards of this kind the deck holds."""
        return self.face.copies

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"


ALL_CARDS: Final[tuple[Card, ...]] = tuple(
    [Card(color, face) for color in Color for face in COLOR_FACES]
    + [Card(None, face) for face in WILD_FACES]
)
_CARD_BY_CODE: Final = {str(card): card for card in ALL_CARDS}

DECK_SIZE: Final = sum(card.copies for card in ALL_CARDS)
HAND_SIZE: Final = 7
CARDS_PER_COLOR: Final = sum(face.copies for face in COLOR_FACES)

assert DECK_SIZE == 168, DECK_SIZE


def full_deck() -> list[Card]:
    """Every physical card of the deck, in a fixed order (shuffle it yourself)."""
    return [card for card in ALL_CARDS for _ in range(card.copies)]
