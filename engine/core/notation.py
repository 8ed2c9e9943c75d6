"""Table-record lines as value objects that parse from and print to text.

`parse_line("Ann: W+6 B", players)` gives `ActionLine("Ann", Play(W+6, BLUE))`
and `str()` of it gives the line back in canonical form. NOTATION.md is the
contract; this module accepts what it says (and a little more: colour names,
commas between revealed cards). The record is a file format and stays English:
printing a line never goes through engine.i18n; only the refusals of a line that
can't be read are translated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from .cards import Card, Color
from .errors import NotationError
from .i18n import N_, _

# A name's rules live in engine.names; records parse names, so they stay importable here.
from .names import HEADER_KEYS as HEADER_KEYS
from .names import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from .names import clean_name as clean_name
from .names import name_key
from .rules import HouseRules

# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand, with the follow-up the card needs."""

    card: Card
    color: Color | None = None  # a wild's chosen colour
    swap: str | None = None  # a 7's swap partner
    discard: int = 0  # a Discard All's further cards of its colour

    def __str__(self) -> str:
        text = str(self.card)
        if self.color is not None:
            text += f" {self.color}"
        if self.swap is not None:
            text += f" swap {self.swap}"
        if self.discard:
            text += f" discard {self.discard}"
        return text


@dataclass(frozen=True, slots=True)
class Draw:
    """Drew `count` cards, then played `play` (the last card drawn) or none."""

    count: int
    play: Play | None = None

    def __str__(self) -> str:
        return f"draw {self.count}" + (f", {self.play}" if self.play else "")


@dataclass(frozen=True, slots=True)
class Take:
    """Took the pending stack."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Roulette:
    """The roulette victim named `color` and revealed `count` cards."""

    color: Color
    count: int

    def __str__(self) -> str:
        return f"roulette {self.color} {self.count}"


@dataclass(frozen=True, slots=True)
class CallUno:
    def __str__(self) -> str:
        return "uno"


@dataclass(frozen=True, slots=True)
class Catch:
    """The speaker caught `target` holding one card without calling UNO."""

    target: str

    def __str__(self) -> str:
        return f"catch {self.target}"


@dataclass(frozen=True, slots=True)
class Correct:
    """`has N`: the table counted `count` cards in the speaker's hand."""

    count: int

    def __str__(self) -> str:
        return f"has {self.count}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """After a hand: a loser's cards, or just their point value."""

    cards: tuple[Card, ...] | None = None
    points: int | None = None

    def __post_init__(self) -> None:
        if (self.cards is None) == (self.points is None):
            raise ValueError("Reveal needs either cards or points")

    def __str__(self) -> str:
        if self.cards is None:
            return f"reveals {self.points}"
        return " ".join(["reveals", *map(str, self.cards)])


@dataclass(frozen=True, slots=True)
class Wins:
    """Quick score (an extension): the speaker won a hand that was not recorded play by play."""

    def __str__(self) -> str:
        return "wins"


@dataclass(frozen=True, slots=True)
class Out:
    """Quick score (an extension): the speaker was knocked out of an unrecorded hand."""

    def __str__(self) -> str:
        return "out"


Action = Play | Draw | Take | Roulette | CallUno | Catch | Correct | Reveal | Wins | Out

# ---------------------------------------------------------------- lines


@dataclass(frozen=True, slots=True)
class PlayersLine:
    names: tuple[str, ...]

    def __str__(self) -> str:
        return "players: " + ", ".join(self.names)


@dataclass(frozen=True, slots=True)
class DealerLine:
    name: str

    def __str__(self) -> str:
        return f"dealer: {self.name}"


@dataclass(frozen=True, slots=True)
class RulesLine:
    rules: HouseRules

    def __str__(self) -> str:
        return f"rules: {self.rules}"


@dataclass(frozen=True, slots=True)
class StartLine:
    card: Card

    def __str__(self) -> str:
        return f"start: {self.card}"


@dataclass(frozen=True, slots=True)
class HandLine:
    number: int

    def __str__(self) -> str:
        return f"hand: {self.number}"


@dataclass(frozen=True, slots=True)
class RenameLine:
    """From here on, `old` is called `new` (a group renamed its player): the log keeps
    every earlier line as it was written."""

    old: str
    new: str

    def __str__(self) -> str:
        return f"rename: {self.old}, {self.new}"

    @staticmethod
    def written(text: str) -> bool:
        """Is the line's text a rename line? (No player is named after a header key.)"""
        who, sep, _rest = strip_comment(text).partition(":")
        return bool(sep) and " ".join(who.split()).lower() == "rename"


# A record's own key: letters, digits, - and _ (a token a phone makes, URL-safe base64),
# long enough that nobody guesses one (16 characters: 96 bits).
RECORD_KEY: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True, slots=True)
class RecordLine:
    """`record: KEY`, a record's first line if it has one (an extension of NOTATION.md):
    the key its maker gave it, so that a server it is sent to twice keeps one match.
    Before the players are seated no player can be named, so it reads as nothing else."""

    key: str

    def __str__(self) -> str:
        return f"record: {self.key}"

    @classmethod
    def parse(cls, text: str) -> RecordLine | None:
        """The line as a record's key line; None if it is not one (blank, a comment, or
        another line)."""
        who, sep, rest = strip_comment(text).partition(":")
        if not sep or " ".join(who.split()).lower() != "record":
            return None
        return cls(record_key(rest.strip()))


def record_key(key: str) -> str:
    """`key` if it can be a record's key (RECORD_KEY); else a NotationError that says so."""
    if not RECORD_KEY.fullmatch(key):
        raise NotationError(
            _(
                "'record: {key}' must give the record's key: 16 to 64 letters, digits, '-' or '_'.",
                key=key,
            )
        )
    return key


@dataclass(frozen=True, slots=True)
class ActionLine:
    player: str
    action: Action

    def __str__(self) -> str:
        return f"{self.player}: {self.action}"


Header = PlayersLine | DealerLine | RulesLine | StartLine | HandLine | RenameLine
Line = Header | ActionLine

# ---------------------------------------------------------------- parsing


def strip_comment(text: str) -> str:
    return text.split("#", 1)[0].strip()


def parse_line(text: str, players: Sequence[str] = ()) -> Line | None:
    """Parse one record line; None for a blank or comment-only line.

    `players` are the names already seated: they resolve `Ann:`, `swap Bob`
    and `catch Cy` case-insensitively to the names as first written.
    """
    return _parse_line(text, tuple(players))


# A table says the same few thousand lines again and again (a simulator's every line, a
# match rebuilt from its record), and a line is an immutable value: each text is parsed
# once per seating. A refusal is raised afresh each time, in the language of the moment.
@lru_cache(maxsize=8192)
def _parse_line(text: str, players: tuple[str, ...]) -> Line | None:
    body = strip_comment(text)
    if not body:
        return None
    who, sep, rest = body.partition(":")
    if not sep:
        raise NotationError(
            _(
                "'{line}' has no colon: write a header (players: Ann, Bob) or a player's "
                "action (Ann: R5).",
                line=body,
            )
        )
    key, rest = " ".join(who.split()), rest.strip()
    header = key.lower()
    if header == "players":
        return PlayersLine(parse_names(rest))
    if header == "dealer":
        return DealerLine(find_player(rest, players))
    if header == "rules":
        return RulesLine(HouseRules.parse(rest))
    if header == "start":
        return StartLine(Card.parse(rest))
    if header == "rename":
        return _parse_rename(rest, players)
    if header == "hand":
        return HandLine(parse_count(rest, "hand"))
    if header == "record" and not any(name_key(name) == name_key(header) for name in players):
        raise NotationError(
            _("'record: {key}' is a record's key: its first line, before 'players:'.", key=rest)
        )
    player = find_player(key, players)
    return ActionLine(player, parse_action(rest, players))


def parse_names(text: str) -> tuple[str, ...]:
    """The names of a `players:` header, separated by commas."""
    return tuple(clean_name(part) for part in text.split(","))


def _parse_rename(text: str, players: Sequence[str]) -> RenameLine:
    """`rename: Bob, Robert`: a seated player, then the name they have from now on."""
    parts = text.split(",")
    if len(parts) != 2:
        raise NotationError(
            _(
                "'rename: {text}' must name a player and their new name, separated by a "
                "comma (rename: Bob, Robert).",
                text=text,
            )
        )
    return RenameLine(find_player(parts[0].strip(), players), clean_name(parts[1]))


def find_player(text: str, players: Sequence[str]) -> str:
    if text in players:  # as written: apart even in a seating stored before the name rules
        return text
    wanted = name_key(text)
    for name in players:
        if name_key(name) == wanted:
            return name
    if not players:
        raise NotationError(
            _(
                "'{text}' is not known yet: a record starts by seating the players "
                "(players: Ann, Bob, Cy).",
                text=text,
            )
        )
    raise NotationError(
        _(
            "There is no player '{text}' at this table ({players}).",
            text=text,
            players=", ".join(players),
        )
    )


# What a count on a line counts, and what is said when it is not a number, or too large.
Counted = Literal["hand", "drawn", "revealed", "counted", "points", "discarded"]
_NOT_A_NUMBER: Final[dict[str, str]] = {
    "hand": N_("'{text}' is not a number (hand number): write it in digits, like 3."),
    "drawn": N_("'{text}' is not a number (cards drawn): write it in digits, like 3."),
    "revealed": N_("'{text}' is not a number (cards revealed): write it in digits, like 3."),
    "counted": N_("'{text}' is not a number (cards counted): write it in digits, like 3."),
    "points": N_("'{text}' is not a number (points): write it in digits, like 3."),
    "discarded": N_("'{text}' is not a number (cards discarded): write it in digits, like 3."),
}
_TOO_LARGE: Final[dict[str, str]] = {
    "hand": N_("{text} is far too large for a hand number."),
    "drawn": N_("{text} is far too large for a number of cards drawn."),
    "revealed": N_("{text} is far too large for a number of cards revealed."),
    "counted": N_("{text} is far too large for a number of cards counted."),
    "points": N_("{text} is far too large for a number of points."),
    "discarded": N_("{text} is far too large for a number of cards discarded."),
}


def parse_count(text: str, what: Counted) -> int:
    text = text.strip()
    if not text.isdigit() or not text.isascii():
        raise NotationError(_(_NOT_A_NUMBER[what], text=text))
    if len(text) > 6:
        raise NotationError(_(_TOO_LARGE[what], text=text))
    return int(text)


def parse_action(text: str, players: Sequence[str] = ()) -> Action:
    """Parse the part of an action line after `PLAYER:`."""
    words = text.split()
    if not words:
        raise NotationError(_("The action is missing: write what the player did (R5, take, ...)."))
    verb = words[0].lower()
    if verb == "draw":
        head, comma, tail = text.partition(",")
        head_words = head.split()
        if len(head_words) != 2:
            raise NotationError(
                _(
                    "'{text}': write draw N (the number of cards drawn), then optionally "
                    "', CARD' for the card played, as in 'draw 3, G7'.",
                    text=text,
                )
            )
        count = parse_count(head_words[1], "drawn")
        if comma and not tail.strip():
            raise NotationError(
                _("'{text}': the card played after the draw is missing.", text=text)
            )
        return Draw(count, _parse_play(tail.split(), players) if comma else None)
    if verb == "take":
        _expect_alone(words, "take")
        return Take()
    if verb == "uno":
        _expect_alone(words, "uno")
        return CallUno()
    if verb == "roulette":
        if len(words) != 3:
            raise NotationError(
                _(
                    "'{text}': write roulette, the colour named and the number of cards "
                    "revealed, as in 'roulette G 3'.",
                    text=text,
                )
            )
        return Roulette(Color.parse(words[1]), parse_count(words[2], "revealed"))
    if verb == "catch":
        if len(words) < 2:
            raise NotationError(_("'catch' needs the player caught, as in 'catch Ann'."))
        return Catch(find_player(" ".join(words[1:]), players))
    if verb == "has":
        if len(words) != 2:
            raise NotationError(_("'has' needs the number of cards counted, as in 'has 9'."))
        return Correct(parse_count(words[1], "counted"))
    if verb in ("wins", "out"):
        _expect_alone(words, verb)
        return Wins() if verb == "wins" else Out()
    if verb in ("reveals", "reveal"):
        items = " ".join(words[1:]).replace(",", " ").split()
        if len(items) == 1 and items[0].isdigit():
            return Reveal(points=parse_count(items[0], "points"))
        return Reveal(cards=tuple(Card.parse(item) for item in items))
    return _parse_play(words, players)


def _expect_alone(words: list[str], verb: str) -> None:
    if len(words) != 1:
        raise NotationError(
            _("'{verb}' takes nothing after it (got '{got}').", verb=verb, got=" ".join(words))
        )


def _parse_play(words: list[str], players: Sequence[str]) -> Play:
    if not words:
        raise NotationError(_("The card played is missing."))
    try:
        card = Card.parse(words[0])
    except NotationError:
        raise NotationError(
            _(
                "'{word}' is neither a card nor an action: write a card (R5, G+2, W+6 B) "
                "or one of draw, take, roulette, uno, catch, has, reveals, wins, out.",
                word=words[0],
            )
        ) from None
    rest = words[1:]
    color: Color | None = None
    swap: str | None = None
    discard = 0
    if rest and rest[0].lower() not in ("swap", "discard"):
        color = Color.parse(rest.pop(0))
    if rest and rest[0].lower() == "swap":
        if len(rest) < 2:
            raise NotationError(_("'{code} swap' needs the player swapped with.", code=card))
        swap = find_player(" ".join(rest[1:]), players)
        rest = []
    elif rest and rest[0].lower() == "discard":
        if len(rest) != 2:
            raise NotationError(
                _(
                    "'{code} discard' needs how many more cards of its colour went with it, "
                    "as in '{code} discard 2'.",
                    code=card,
                )
            )
        discard = parse_count(rest[1], "discarded")
        rest = []
    if rest:
        raise NotationError(
            _("Unexpected '{words}' after {code}.", words=" ".join(rest), code=card)
        )
    return Play(card, color, swap, discard)
