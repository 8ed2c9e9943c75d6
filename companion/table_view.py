"""What the table screen shows, computed from the engine (no rule is written here).

The keyboard is built from `Legal.cards`; a dimmed card is still a button: tapped,
the engine refuses it and its explanation is shown with a link to the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.matches import Table
from engine import (
    ALL_CARDS,
    Card,
    Color,
    Face,
    Legal,
    State,
    describe,
    how_scored,
    say,
    score_breakdown,
)
from engine.legal import FollowUp

SYMBOLS = {
    Face.SKIP: "⊘",
    Face.REVERSE: "⇄",
    Face.DRAW2: "+2",
    Face.DRAW4: "+4",
    Face.DISCARD_ALL: "All",
    Face.SKIP_EVERYONE: "⊘⊘",
    Face.WILD_REVERSE_DRAW4: "⇄+4",
    Face.WILD_DRAW6: "+6",
    Face.WILD_DRAW10: "+10",
    Face.WILD_ROULETTE: "🎯",
}
TABS = [*list(Color), None]  # four colours, then the wilds


def symbol(card: Card) -> str:
    return SYMBOLS.get(card.face, card.face.code)


def tab_key(color: Color | None) -> str:
    return color.value if color else "W"


TAB_KEYS = tuple(tab_key(c) for c in TABS)


@dataclass(frozen=True)
class Key:
    card: Card
    legal: bool
    follow_up: FollowUp | None

    @property
    def code(self) -> str:
        return str(self.card)

    @property
    def symbol(self) -> str:
        return symbol(self.card)

    @property
    def css(self) -> str:
        return "wild" if self.card.color is None else self.card.color.name.lower()


@dataclass(frozen=True)
class Seat:
    name: str
    cards: int
    out: bool
    turn: bool
    dealer: bool
    uno: str | None  # "open" (may be caught) or "called"
    meter: int  # percent of the Mercy limit


@dataclass(frozen=True)
class TableView:
    table: Table
    tab: str
    picked: Card | None = None
    drawn: int = 0  # cards drawn before the play being entered

    @property
    def state(self) -> State:
        return self.table.state

    @property
    def legal(self) -> Legal:
        return self.table.legal

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def last_line_id(self) -> int:
        return self.table.last_line_id

    @property
    def seats(self) -> list[Seat]:
        s = self.state
        limit = s.rules.mercy
        seats = []
        for i, name in enumerate(s.players):
            cards = s.hands[i]
            uno = "called" if i in s.uno_called else "open" if i in s.uno_open else None
            meter = 0 if limit is None else min(100, round(100 * cards / limit))
            seats.append(
                Seat(
                    name=name,
                    cards=cards,
                    out=i in s.out,
                    turn=s.status == "playing" and s.turn == i,
                    dealer=s.dealer == i,
                    uno=uno,
                    meter=meter,
                )
            )
        return seats

    def keys(self, tab: str) -> list[Key]:
        legal = self.legal
        allowed = legal.cards
        color = None if tab == "W" else Color(tab)
        s = self.state
        held = s.hands[s.turn] + self.drawn if s.status == "playing" else 0
        return [
            Key(card, card in allowed, legal.follow_up(card, held))
            for card in ALL_CARDS
            if card.color is color
        ]

    @property
    def tabs(self) -> list[tuple[str, str]]:
        return [(tab_key(c), c.title if c else "Wild") for c in TABS]

    @property
    def recent(self) -> list[str]:
        """The last plays as sentences, newest first."""
        return [describe(*step) for step in reversed(self.table.recent)]

    @property
    def undo_label(self) -> str | None:
        step = self.table.last_step
        return None if step is None else "Undo: " + say(*step)

    @property
    def notices(self) -> list[str]:
        return [str(event) for event in self.state.events]

    @property
    def next_player(self) -> str | None:
        s = self.state
        if s.status != "playing" or len(s.out) >= len(s.players) - 1:
            return None
        return s.players[s.next_active(s.turn)]

    @property
    def max_discard(self) -> int:
        """The most cards a Discard All may take with it, counting the cards just drawn."""
        return self.legal.max_discard(self.drawn)

    @property
    def follow_up(self) -> FollowUp | None:
        """What the picked card needs besides (a colour, a swap partner, a discard count)."""
        if self.picked is None or self.state.status != "playing":
            return None
        return self.legal.follow_up(self.picked, self.state.hands[self.state.turn] + self.drawn)

    @property
    def breakdown(self) -> str | None:
        """How the last hand's score was made, in a sentence (the engine's)."""
        return score_breakdown(self.state)

    @property
    def how_scored(self) -> str | None:
        """While losers reveal: who scores what under the match's house rules."""
        return how_scored(self.state) if self.state.status == "scoring" else None

    @property
    def start_keys(self) -> list[Card]:
        return [c for c in ALL_CARDS if c.number is not None]
