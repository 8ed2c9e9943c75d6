"""The state of a table between two record lines, and the events a line caused.

A `State` is a snapshot that cannot change: assigning one of its attributes raises,
its hands are a tuple and its card counts read-only mappings, so history and undo
are just a list of snapshots. The one place a state is written is a `Draft`: the
referee takes `state.copy()`, changes that draft for one line and `seal()`s it into
the next State. Players are seat indices here; names appear at the edges
(JSON, events, messages). An event holds facts only: its sentence is said in the
current language each time it is shown (`str(event)`), never stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, NoReturn

from .cards import DECK_SIZE, HAND_SIZE, Card, Color
from .i18n import _, ngettext
from .rules import HouseRules

Status = Literal["playing", "scoring", "hand_over", "match_over"]
Facing = Literal["play", "stack", "roulette"]

CLOCKWISE: Final = 1
# Counts of card kinds: a draft's own new dict, or a sealed state's read-only view of it.
# Copy one with .copy(): dict() of a view goes key by key, 15 times slower.
Counts = dict[Card, int] | MappingProxyType[Card, int]
KNOCKOUT_POINTS: Final = 250  # scored for each player the Mercy rule knocked out
CATCH_PENALTY: Final = 2  # cards drawn by a player caught without an UNO call

# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class KnockedOut:
    """`by` dealt the knockout: the player whose card made `player` take the cards (a
    stack's last card, a Colour Roulette, a catch, a last Draw card under final_draw).
    None when nobody did: a draw on one's own turn, a count corrected, a quick result,
    or one's own card (a Wild Reverse Draw 4 that two players left send back)."""

    player: str
    cards: int
    by: str | None = None

    def __str__(self) -> str:
        return ngettext(
            "{player} reached {n} card and is knocked out (Mercy).",
            "{player} reached {n} cards and is knocked out (Mercy).",
            self.cards,
            player=self.player,
        )


@dataclass(frozen=True, slots=True)
class Reshuffled:
    cards: int  # cards in the new draw pile
    returned: int  # of which set-aside cards of knocked-out players

    def __str__(self) -> str:
        if self.returned:
            return ngettext(
                "The draw pile ran out: the discard pile was reshuffled into {n} card, "
                "{returned} set-aside cards among them.",
                "The draw pile ran out: the discard pile was reshuffled into {n} cards, "
                "{returned} set-aside cards among them.",
                self.cards,
                returned=self.returned,
            )
        return ngettext(
            "The draw pile ran out: the discard pile was reshuffled into {n} card.",
            "The draw pile ran out: the discard pile was reshuffled into {n} cards.",
            self.cards,
        )


@dataclass(frozen=True, slots=True)
class ShortDraw:
    player: str
    wanted: int
    drawn: int

    def __str__(self) -> str:
        return ngettext(
            "Only {drawn} of {n} card was left to draw: {player} took {drawn}.",
            "Only {drawn} of {n} cards were left to draw: {player} took {drawn}.",
            self.wanted,
            drawn=self.drawn,
            player=self.player,
        )


@dataclass(frozen=True, slots=True)
class FinalDraw:
    """House rule final_draw=on: the penalty of a last Draw card is still drawn."""

    player: str
    cards: int

    def __str__(self) -> str:
        return ngettext(
            "{player} draws the last card's penalty: {n} card (final_draw=on).",
            "{player} draws the last card's penalty: {n} cards (final_draw=on).",
            self.cards,
            player=self.player,
        )


@dataclass(frozen=True, slots=True)
class UnoWindow:
    player: str

    def __str__(self) -> str:
        return _(
            "{player} has one card: UNO! (anyone may catch them until the next turn)",
            player=self.player,
        )


@dataclass(frozen=True, slots=True)
class HandWon:
    player: str
    by_knockout: bool

    def __str__(self) -> str:
        if self.by_knockout:
            return _("{player} wins the hand as the last player left.", player=self.player)
        return _("{player} wins the hand with the last card.", player=self.player)


@dataclass(frozen=True, slots=True)
class HandScored:
    points: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        scored = [f"{name} +{pts}" for name, pts in self.points if pts]
        if not scored:
            return _("Hand scored: no points.")
        return _("Hand scored: {scores}.", scores=", ".join(scored))


@dataclass(frozen=True, slots=True)
class MatchWon:
    player: str
    score: int

    def __str__(self) -> str:
        return ngettext(
            "{player} wins the match with {n} point!",
            "{player} wins the match with {n} points!",
            self.score,
            player=self.player,
        )


Event = (
    KnockedOut | Reshuffled | ShortDraw | FinalDraw | UnoWindow | HandWon | HandScored | MatchWon
)


@dataclass(frozen=True, slots=True)
class HandResult:
    """One scored hand, for the scoreboard."""

    hand: int
    winner: int
    points: tuple[int, ...]  # added to each player's total
    knocked_out: tuple[int, ...]


# ---------------------------------------------------------------- state


class Draft:
    """Everything the table needs to know, while the referee works out the next state:
    the one mutable form of a state. `State.copy()` gives a draft, the referee
    (referee.py and the modules it calls) changes it for one line, and `seal()` turns
    it into the next `State`; nothing else writes one. Its queries serve both."""

    __slots__ = (
        "color",
        "dealer",
        "direction",
        "discard_known",
        "discard_pile",
        "draw_pile",
        "events",
        "exhausted",
        "facing",
        "hand",
        "hand_winner",
        "hands",
        "history",
        "match_winner",
        "out",
        "pending_by",
        "players",
        "quick",
        "reshuffles",
        "revealed",
        "revealed_cards",
        "rules",
        "scores",
        "set_aside",
        "stack_last",
        "stack_total",
        "started",
        "status",
        "top",
        "turn",
        "uno_called",
        "uno_open",
    )

    players: tuple[str, ...]
    rules: HouseRules
    dealer: int
    hand: int
    started: bool  # the start card is down
    quick: bool  # the hand is entered as a result only (quick score), not play by play
    status: Status
    turn: int
    facing: Facing
    direction: int
    top: Card | None
    color: Color | None
    stack_total: int
    stack_last: int
    pending_by: int | None  # who played the stack's last card or the roulette faced now
    hands: list[int]  # a tuple once sealed
    out: tuple[int, ...]  # knocked out this hand, in order
    draw_pile: int
    discard_pile: int
    set_aside: int
    discard_known: Counts  # cards known to be in the discard pile
    exhausted: frozenset[Card]  # kinds whose every copy is in the discard pile
    hand_winner: int | None
    scores: tuple[int, ...]
    match_winner: int | None
    uno_open: frozenset[int]  # one card, no call yet, catchable now
    uno_called: frozenset[int]  # called UNO and still holding one card
    revealed: tuple[int | None, ...]  # points revealed this hand
    revealed_cards: Counts
    history: tuple[HandResult, ...]
    events: tuple[Event, ...]  # what the last line caused by itself
    reshuffles: int  # in the whole match

    @classmethod
    def new(cls, players: tuple[str, ...], rules: HouseRules) -> Draft:
        """The first hand of a match, dealt: a draft (`State.new` seals it)."""
        s = object.__new__(Draft)
        s.players = players
        s.rules = rules
        s.dealer = len(players) - 1
        s.hand = 1
        s.scores = (0,) * len(players)
        s.match_winner = None
        s.history = ()
        s.reshuffles = 0
        s.deal()
        return s

    def deal(self) -> None:
        """Seven cards each, nothing face up yet: the state before `start:`."""
        n = len(self.players)
        self.started = False
        self.quick = False
        self.status = "playing"
        self.turn = (self.dealer + 1) % n
        self.facing = "play"
        self.direction = CLOCKWISE
        self.top = None
        self.color = None
        self.stack_total = self.stack_last = 0
        self.pending_by = None
        self.hands = [HAND_SIZE] * n
        self.out = ()
        self.draw_pile = DECK_SIZE - HAND_SIZE * n
        self.discard_pile = 0
        self.set_aside = 0
        self.discard_known = {}
        self.exhausted = frozenset()
        self.hand_winner = None
        self.uno_open = self.uno_called = frozenset()
        self.revealed = (None,) * n
        self.revealed_cards = {}
        self.events = ()

    def seal(self) -> State:
        """This draft, turned into the State in place (no copy: every line seals one):
        hands a tuple, the card counts read-only. Use the State returned, not the draft."""
        self.hands = tuple(self.hands)  # type: ignore[assignment]  # State.hands
        if self.discard_known.__class__ is dict:  # new this line, else a view already
            self.discard_known = MappingProxyType(self.discard_known)
        if self.revealed_cards.__class__ is dict:
            self.revealed_cards = MappingProxyType(self.revealed_cards)
        self.__class__ = State
        return self  # type: ignore[return-value]  # a State now

    # ------------------------------------------------------------ queries

    @property
    def active(self) -> list[int]:
        """Seats still in the hand, clockwise from seat 0."""
        return [i for i in range(len(self.players)) if i not in self.out]

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next hand: the deal passes to the left."""
        return (self.dealer + 1) % len(self.players)

    def next_active(self, seat: int, steps: int = 1) -> int:
        """The active seat `steps` turns after `seat` in the current direction."""
        n, out, d = len(self.players), self.out, self.direction
        for _step in range(steps):
            seat = (seat + d) % n
            while seat in out:
                seat = (seat + d) % n
        return seat

    def ranking(self) -> list[int]:
        """Seats from the best match total to the worst, by the match's scoring rule."""
        low = self.rules.lowest_wins
        return sorted(range(len(self.players)), key=lambda i: self.scores[i] * (1 if low else -1))

    def room(self, seat: int) -> int:
        """Cards `seat` can still take before the Mercy limit knocks them out."""
        limit = self.rules.mercy
        return 1 << 30 if limit is None else limit - self.hands[seat]

    @property
    def drawable(self) -> int:
        """Cards that can still be drawn: the pile, then a reshuffle."""
        if not self.started:
            # Before the start card nothing can be reshuffled, and the start card
            # itself must still come off the draw pile.
            return max(self.draw_pile - 1, 0)
        return self.draw_pile + max(self.discard_pile - 1, 0) + self.set_aside

    def total_cards(self) -> int:
        return self.draw_pile + self.discard_pile + sum(self.hands) + self.set_aside

    # ------------------------------------------------------------ output

    def to_json(self) -> dict[str, Any]:
        """The state as NOTATION.md specifies it, plus a few extra keys."""
        names = self.players
        playing = self.status == "playing"

        def name(seat: int | None) -> str | None:
            return None if seat is None else names[seat]

        return {
            "hand": self.hand,
            "status": self.status,
            "turn": names[self.turn] if playing else None,
            "facing": self.facing if playing else None,
            "direction": "clockwise" if self.direction == CLOCKWISE else "counterclockwise",
            "top": None if self.top is None else str(self.top),
            "color": None if self.color is None else self.color.value,
            "stack": {"total": self.stack_total, "last": self.stack_last}
            if self.stack_total
            else None,
            "hands": dict(zip(names, self.hands, strict=True)),
            "out": [names[i] for i in self.out],
            "draw_pile": self.draw_pile,
            "discard_pile": self.discard_pile,
            "set_aside": self.set_aside,
            "hand_winner": name(self.hand_winner),
            "scores": dict(zip(names, self.scores, strict=True)),
            "match_winner": name(self.match_winner),
            # extensions
            "players": list(names),
            "dealer": names[self.dealer],
            "rules": str(self.rules),
            "next": names[self.next_active(self.turn)]
            if playing and len(self.out) < len(names) - 1
            else None,
            "uno": {
                "open": [names[i] for i in sorted(self.uno_open)],
                "called": [names[i] for i in sorted(self.uno_called)],
            },
            "revealed": {
                names[i]: pts for i, pts in enumerate(self.revealed) if self.status != "playing"
            },
            "hands_scored": [
                {
                    "hand": r.hand,
                    "winner": names[r.winner],
                    "points": dict(zip(names, r.points, strict=True)),
                }
                for r in self.history
            ],
            "reshuffles": self.reshuffles,
            "quick": self.quick,
            "events": [str(e) for e in self.events],
        }


class State(Draft):
    """Everything the table needs to know, after some line of the record: a snapshot
    that cannot change (see `Draft` for the one place a state is written)."""

    __slots__ = ()

    hands: tuple[int, ...]  # type: ignore[assignment]  # a sealed draft's list

    @classmethod
    def new(cls, players: tuple[str, ...], rules: HouseRules) -> State:
        return Draft.new(players, rules).seal()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(
            f"A State can't be changed ({name}): copy() it, change the draft, seal() it."
        )

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"A State can't be changed ({name}).")

    def seal(self) -> State:
        return self

    def copy(self) -> Draft:
        """A draft to change for the next line. One assignment per slot, written out: a
        loop over the slots took ten times as long, and every line is a copy (tests/engine/
        test_undo_replay.py checks that every slot is here)."""
        s = object.__new__(Draft)
        s.color = self.color
        s.dealer = self.dealer
        s.direction = self.direction
        s.discard_known = self.discard_known
        s.discard_pile = self.discard_pile
        s.draw_pile = self.draw_pile
        s.events = ()  # what the next line causes by itself
        s.exhausted = self.exhausted
        s.facing = self.facing
        s.hand = self.hand
        s.hand_winner = self.hand_winner
        s.hands = list(self.hands)  # the one field changed in place
        s.history = self.history
        s.match_winner = self.match_winner
        s.out = self.out
        s.pending_by = self.pending_by
        s.players = self.players
        s.quick = self.quick
        s.reshuffles = self.reshuffles
        s.revealed = self.revealed
        s.revealed_cards = self.revealed_cards
        s.rules = self.rules
        s.scores = self.scores
        s.set_aside = self.set_aside
        s.stack_last = self.stack_last
        s.stack_total = self.stack_total
        s.started = self.started
        s.status = self.status
        s.top = self.top
        s.turn = self.turn
        s.uno_called = self.uno_called
        s.uno_open = self.uno_open
        return s
