"""The 168-card No Mercy deck: colours, faces, cards and their codes.

A `Card` is a kind of card (there are 68 kinds: 16 faces
in each of 4 colours, and 4 wilds), not a physical card: the
deck holds several of most kinds. Cards are interned, so `Card.parse("R5")
is Card.parse("r5")` and identity comparison is enough (and fast).

A card's code (`str(card)`: R5, W+6) is notation and never translated; its name
(`card.name`: "Red 5") is said in the current language each time it is asked for.
"""

from __future__ import annotations

import enum
from typing import ClassVar, Final

from .errors import NotationError
from .i18n import N_, NP_, _, pgettext


class Color(enum.Enum):
    """A card colour, written with its letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    # Members are singletons compared by identity: hash them the same way, in C (Enum's
    # own hash of the member's name is a Python call, and the legality cache hashes
    # a colour at every turn).
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        """The colour's name in the current language: 'Red'."""
        return _(_COLOR_TITLES[self])

    @property
    def letter(self) -> str:
        """The colour's letter on a key, a tab and the top card, in the current language
        ("R"; German "Ro": "G" would be both Gelb and Grün); never the record's letter,
        which is `value`."""
        return pgettext(*_COLOR_LETTERS[self])

    @property
    def adjective(self) -> str:
        """The colour as a word before "cards", in the current language: 'red'."""
        return _(_COLOR_ADJECTIVES[self])

    @classmethod
    def parse(cls, text: str) -> Color:
        color = _COLOR_BY_TEXT.get(text.strip().upper())
        if color is None:
            raise NotationError(
                _(
                    "'{text}' is not a colour: write R (red), Y (yellow), G (green) or B (blue).",
                    text=text,
                )
            )
        return color

    def __str__(self) -> str:
        return self.value


_COLOR_BY_TEXT: Final = {c.value: c for c in Color} | {c.name: c for c in Color}
_COLOR_TITLES: Final = {
    Color.RED: N_("Red"),
    Color.YELLOW: N_("Yellow"),
    Color.GREEN: N_("Green"),
    Color.BLUE: N_("Blue"),
}
# Each language picks letters its four colours and the wilds do not share.
_COLOR_LETTERS: Final = {
    Color.RED: NP_("card letter", "R"),
    Color.YELLOW: NP_("card letter", "Y"),
    Color.GREEN: NP_("card letter", "G"),
    Color.BLUE: NP_("card letter", "B"),
}
_WILD_LETTER: Final = NP_("card letter", "W")
_COLOR_ADJECTIVES: Final = {
    Color.RED: N_("red"),
    Color.YELLOW: N_("yellow"),
    Color.GREEN: N_("green"),
    Color.BLUE: N_("blue"),
}


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
    SKIP = ("S", N_("Skip"), 20, 0, False, 3)
    REVERSE = ("R", N_("Reverse"), 20, 0, False, 3)
    DRAW2 = ("+2", N_("Draw 2"), 20, 2, False, 3)
    DRAW4 = ("+4", N_("Draw 4"), 20, 4, False, 2)
    DISCARD_ALL = ("DA", N_("Discard All"), 20, 0, False, 3)
    SKIP_EVERYONE = ("SE", N_("Skip Everyone"), 20, 0, False, 2)
    WILD_REVERSE_DRAW4 = ("R+4", N_("Wild Reverse Draw 4"), 50, 4, True, 8)
    WILD_DRAW6 = ("+6", N_("Wild Draw 6"), 50, 6, True, 4)
    WILD_DRAW10 = ("+10", N_("Wild Draw 10"), 50, 10, True, 4)
    WILD_ROULETTE = ("CR", N_("Wild Colour Roulette"), 50, 0, True, 8)

    __hash__ = object.__hash__  # as Color's: identity, in C

    def __init__(
        self, code: str, title: str, points: int, draw: int, wild: bool, copies: int
    ) -> None:
        self.code = code
        self._title = title  # English, marked: `title` says it in the current language
        self.points = points
        self.draw = draw
        self.wild = wild
        self.copies = copies
        # The number on a number card, None for an action or wild card.
        self.number = int(code) if code.isdigit() else None

    @property
    def title(self) -> str:
        """What is printed on the card, in the current language: 'Draw 2', '7'."""
        return self._title if self.number is not None else _(self._title)


COLOR_FACES: Final = tuple(f for f in Face if not f.wild)
WILD_FACES: Final = tuple(f for f in Face if f.wild)


class Card:
    """One kind of card: a colour and a face, or a wild face (no colour).

    Immutable and interned: build with `Card(color, face)` or `Card.parse`.
    """

    __slots__ = ("_code", "color", "draw", "face", "number", "points", "wild")
    _interned: ClassVar[dict[tuple[Color | None, Face], Card]] = {}

    color: Color | None
    face: Face
    draw: int
    number: int | None  # the number on a number card, None for an action or wild card
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
            ("number", face.number),
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
                _(
                    "'{text}' is not a card: write a colour letter and a face (R5, G+2, BSE, "
                    "YDA) or a wild (W+6, W+10, WR+4, WCR).",
                    text=text,
                )
            )
        return card

    @property
    def name(self) -> str:
        """The card as players say it, in the current language: 'Red 5', 'Wild Reverse
        Draw 4'. One template per colour and kind, so a language can agree its words."""
        if self.color is None:
            return self.face.title
        number = self.number
        if number is not None:
            return _(_CARD_NAMES[self.color, None], number=number)
        return _(_CARD_NAMES[self.color, self.face])

    @property
    def letter(self) -> str:
        """The letter its face shows, in the current language (Color.letter; the wilds'
        own)."""
        return self.color.letter if self.color is not None else pgettext(*_WILD_LETTER)

    @property
    def copies(self) -> int:
        """How many cards of this kind the deck holds."""
        return self.face.copies

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"


# The name of each coloured kind of card (wilds are named by their face alone).
_CARD_NAMES: Final[dict[tuple[Color, Face | None], str]] = {
    (Color.RED, None): N_("Red {number}"),
    (Color.RED, Face.SKIP): N_("Red Skip"),
    (Color.RED, Face.REVERSE): N_("Red Reverse"),
    (Color.RED, Face.DRAW2): N_("Red Draw 2"),
    (Color.RED, Face.DRAW4): N_("Red Draw 4"),
    (Color.RED, Face.DISCARD_ALL): N_("Red Discard All"),
    (Color.RED, Face.SKIP_EVERYONE): N_("Red Skip Everyone"),
    (Color.YELLOW, None): N_("Yellow {number}"),
    (Color.YELLOW, Face.SKIP): N_("Yellow Skip"),
    (Color.YELLOW, Face.REVERSE): N_("Yellow Reverse"),
    (Color.YELLOW, Face.DRAW2): N_("Yellow Draw 2"),
    (Color.YELLOW, Face.DRAW4): N_("Yellow Draw 4"),
    (Color.YELLOW, Face.DISCARD_ALL): N_("Yellow Discard All"),
    (Color.YELLOW, Face.SKIP_EVERYONE): N_("Yellow Skip Everyone"),
    (Color.GREEN, None): N_("Green {number}"),
    (Color.GREEN, Face.SKIP): N_("Green Skip"),
    (Color.GREEN, Face.REVERSE): N_("Green Reverse"),
    (Color.GREEN, Face.DRAW2): N_("Green Draw 2"),
    (Color.GREEN, Face.DRAW4): N_("Green Draw 4"),
    (Color.GREEN, Face.DISCARD_ALL): N_("Green Discard All"),
    (Color.GREEN, Face.SKIP_EVERYONE): N_("Green Skip Everyone"),
    (Color.BLUE, None): N_("Blue {number}"),
    (Color.BLUE, Face.SKIP): N_("Blue Skip"),
    (Color.BLUE, Face.REVERSE): N_("Blue Reverse"),
    (Color.BLUE, Face.DRAW2): N_("Blue Draw 2"),
    (Color.BLUE, Face.DRAW4): N_("Blue Draw 4"),
    (Color.BLUE, Face.DISCARD_ALL): N_("Blue Discard All"),
    (Color.BLUE, Face.SKIP_EVERYONE): N_("Blue Skip Everyone"),
}

ALL_CARDS: Final[tuple[Card, ...]] = tuple(
    [Card(color, face) for color in Color for face in COLOR_FACES]
    + [Card(None, face) for face in WILD_FACES]
)
_CARD_BY_CODE: Final = {str(card): card for card in ALL_CARDS}

DECK_SIZE: Final = sum(card.copies for card in ALL_CARDS)
HAND_SIZE: Final = 7

assert DECK_SIZE == 168, DECK_SIZE


def full_deck() -> list[Card]:
    """Every physical card of the deck, in a fixed order (shuffle it yourself)."""
    return [card for card in ALL_CARDS for _copy in range(card.copies)]
