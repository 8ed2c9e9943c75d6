"""What the table screen shows, computed from the engine (no rule is written here).

The keyboard is built from `Legal.cards`; a dimmed card is still a button: tapped,
the engine refuses it and its explanation is shown with a link to the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask_babel import gettext as _

from companion.matches import Table
from engine import (
    ALL_CARDS,
    KEY_ACTIONS,
    N_,
    START_CARDS,
    ActionLine,
    Card,
    Catch,
    Color,
    Face,
    FollowUp,
    HandScored,
    KnockedOut,
    Legal,
    MatchWon,
    State,
    UnoWindow,
    describe,
    how_scored,
    next_player,
    reveal_tally,
    say,
    score_breakdown,
    short_names,
    to_go,
)

# How a face is drawn on a key: an icon of the app's own (static/icons.svg) and/or text,
# never an emoji (a phone without an emoji font shows an empty box).
FACES: dict[Face, tuple[str | None, str]] = {
    Face.SKIP: ("skip", ""),
    Face.REVERSE: ("reverse", ""),
    Face.DISCARD_ALL: (None, N_("All")),
    Face.SKIP_EVERYONE: ("skip-all", ""),
    Face.WILD_REVERSE_DRAW4: ("reverse", "+4"),
    Face.WILD_ROULETTE: ("roulette", ""),
}
WORDS = {text for _icon, text in FACES.values() if text}  # a face's words, not codes
PLAYABLE = "P"  # the tab of the cards the engine allows now, whatever their colour
TABS = [*list(Color), None]  # then the four colours and the wilds, every card


def face(card: Card) -> tuple[str | None, str]:
    """The icon (a name in static/icons.svg, or None) and the text a card's face shows
    (a word translated; a code like +4 as it is)."""
    drawn, text = FACES.get(card.face, (None, card.face.code))
    return drawn, _(text) if text in WORDS else text


def tab_key(color: Color | None) -> str:
    return color.value if color else "W"


TAB_KEYS = (PLAYABLE, *(tab_key(c) for c in TABS))
# Every card by tab (key, cards): the colour tabs of the keyboard and of reveals.
CARD_TABS = [(tab_key(c), c, [card for card in ALL_CARDS if card.color is c]) for c in TABS]


def tab_title(color: Color | None) -> str:
    """A colour tab's title in the page's language."""
    return color.title if color else _("Wild")


@dataclass(frozen=True)
class Key:
    card: Card
    legal: bool
    follow_up: FollowUp | None
    # The colours a wild may name, each its own key (one tap plays it and names it): on
    # the Playable tab only; elsewhere a wild's key asks the colour.
    names: tuple[Color, ...] = ()
    # Plays at once from the hand as it is (a 7 or a Discard All as the last card asks
    # nothing), but asks its question once a draw is entered first (static/app.js).
    asks_after_draw: bool = False

    @property
    def code(self) -> str:
        return str(self.card)

    @property
    def action(self) -> str:
        """What the key posts: the card played (asking nothing more)."""
        return KEY_ACTIONS.play(self.card)

    def named(self, color: Color) -> str:
        """What the key of a wild naming `color` posts."""
        return KEY_ACTIONS.play(self.card, color)

    @property
    def css(self) -> str:
        return "wild" if self.card.color is None else self.card.color.name.lower()


@dataclass(frozen=True)
class Seat:
    name: str
    short: str  # the name as its seat shows it (engine.short_names)
    cards: int
    out: bool
    turn: bool
    dealer: bool
    uno: str | None  # "open" (may be caught) or "called"
    meter: int  # percent of the Mercy limit


# How the line at the top of the table is marked by what it did by itself (each with
# its own icon, not colour alone): the engine's events, by kind.
EVENT_KINDS = {
    KnockedOut: "warning",
    UnoWindow: "warning",
    HandScored: "celebration",
    MatchWon: "celebration",
}
# What a phone feels when the newest line arrives (static/pocket.js vibrates once per new
# line): the engine's events of that line, by kind; a catch and a hand's end come from
# the line itself and the states around it.
FELT_EVENTS = {KnockedOut: "knockout", UnoWindow: "uno"}


def last_by(table: Table, phone: str | None) -> str:
    """Who recorded the table's last line, as the phone `phone` sees it: "this phone",
    "another phone", or "unknown" (an imported line, or one from before phones were told
    apart)."""
    by = table.last_by
    if by is None:
        return "unknown"
    return "this phone" if by == phone else "another phone"


@dataclass(frozen=True)
class TableView:
    """The table as one phone shows it: the table, and what this screen has open (a tab,
    a card's follow-up, a count being corrected, a catch), all bound to this table."""

    table: Table
    tab: str
    picked: Card | None = None
    drawn: int = 0  # cards drawn before the play being entered
    fix: str | None = None  # whose count is being corrected
    catch: str | None = None  # who is being caught without an UNO call
    quick: bool = False  # a quick-score match: results only, no card counts
    shown: str = ""  # the screen's stamp, carried by each of its forms (companion/taps.py)
    phone: str | None = None  # the phone looking at it (access.Phone.id)

    @property
    def state(self) -> State:
        return self.table.state

    @cached_property
    def legal(self) -> Legal:
        return self.table.legal

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def last_line_id(self) -> int:
        return self.table.last_line_id

    @property
    def short_names(self) -> dict[str, str]:
        """Each player's name as a seat or a chip shows it (engine.short_names)."""
        players = self.state.players
        return dict(zip(players, short_names(players), strict=True))

    @property
    def seats(self) -> list[Seat]:
        s = self.state
        limit = s.rules.mercy
        seats = []
        shorts = self.short_names
        for i, name in enumerate(s.players):
            cards = s.hands[i]
            uno = "called" if i in s.uno_called else "open" if i in s.uno_open else None
            meter = 0 if limit is None else min(100, round(100 * cards / limit))
            seats.append(
                Seat(
                    name=name,
                    short=shorts[name],
                    cards=cards,
                    out=i in s.out,
                    turn=s.status == "playing" and s.started and s.turn == i,
                    dealer=s.dealer == i,
                    uno=uno,
                    meter=meter,
                )
            )
        return seats

    def keys(self, tab: str) -> list[Key]:
        """The keys of a tab: every card of a colour (or the wilds), the refused ones
        dimmed; or, on the Playable tab, only the cards the engine allows now."""
        legal = self.legal
        allowed = legal.cards
        s = self.state
        if s.status != "playing":
            return []
        # A card asks its follow-up from the hand it is played from, the cards drawn
        # first included. A draw entered on the stepper is known only to the phone before
        # the tap: a key that would ask only after a draw plays at once, and the phone
        # turns its tap into the question when a draw was entered (Key.asks_after_draw).
        may_draw = not self.drawn and legal.can_draw

        def key(card: Card, playable: bool) -> Key:
            asks = legal.follow_up(card, self.drawn)
            after_draw = asks is None and may_draw and legal.follow_up(card, 1) is not None
            return Key(card, playable, asks, asks_after_draw=after_draw)

        if tab == PLAYABLE:
            first = s.color
            order = [first, *(c for c in Color if c is not first), None]
            cards = [card for color in order for card in ALL_CARDS if card.color is color]
            keys = [key(card, True) for card in cards if card in allowed]
            return [
                Key(k.card, True, k.follow_up, tuple(Color)) if k.follow_up == "color" else k
                for k in keys
            ]
        color = None if tab == "W" else Color(tab)
        return [key(card, card in allowed) for card in ALL_CARDS if card.color is color]

    @property
    def tabs(self) -> list[tuple[str, str, str | None]]:
        """Each tab's key, title and the letter it shows (the cards' own: none for the
        Playable tab)."""
        return [(PLAYABLE, _("Playable"), None)] + [
            (key, tab_title(c), cards[0].letter) for key, c, cards in CARD_TABS
        ]

    @property
    def card_tabs(self) -> list[tuple[str, str, list[Card]]]:
        return [(key, tab_title(c), cards) for key, c, cards in CARD_TABS]

    @property
    def recent(self) -> list[str]:
        """The last plays as sentences, newest first."""
        return [describe(*step) for step in reversed(self.table.recent)]

    @property
    def last_said(self) -> str | None:
        """The log's last line as the engine says it, with what it did by itself (a
        knockout, a reshuffle, the hand's end): the table's confirmation."""
        step = self.table.last_step
        return None if step is None else describe(*step)

    @property
    def last_by(self) -> str:
        return last_by(self.table, self.phone)

    @property
    def last_kind(self) -> str:
        """How the confirmation is marked: "warning" for a knockout or a UNO window,
        "celebration" for a hand's or the match's end, else "recorded"."""
        step = self.table.last_step
        kinds = {EVENT_KINDS.get(type(e)) for e in step.after.events} if step else set()
        return next((k for k in ("warning", "celebration") if k in kinds), "recorded")

    @cached_property  # the screen asks twice (whether, then what)
    def undo_label(self) -> str | None:
        step = self.table.last_step
        return None if step is None else _("Undo: %(play)s", play=say(*step))

    @property
    def felt(self) -> tuple[str, ...]:
        """The kinds of what the newest line did that a phone should feel: "knockout",
        "uno" (a window opened on someone), "catch", "hand" (the hand ended); () for a
        line that did none of these, or no line yet."""
        step = self.table.last_step
        if step is None:
            return ()
        kinds = [FELT_EVENTS[type(e)] for e in step.after.events if type(e) in FELT_EVENTS]
        if isinstance(step.line, ActionLine) and isinstance(step.line.action, Catch):
            kinds.append("catch")
        if step.before.status == "playing" and step.after.status != "playing":
            kinds.append("hand")
        return tuple(dict.fromkeys(kinds))

    @property
    def next_player(self) -> str | None:
        """Who plays after the player whose turn it is (the engine's turn order)."""
        return next_player(self.state)

    @property
    def max_discard(self) -> int:
        """The most cards a Discard All may take with it, counting the cards just drawn."""
        return self.legal.max_discard(self.drawn)

    @property
    def follow_up(self) -> FollowUp | None:
        """What the picked card needs besides (a colour, a swap partner, a discard count)."""
        if self.picked is None or self.state.status != "playing":
            return None
        return self.legal.follow_up(self.picked, self.drawn)

    @property
    def fixed_count(self) -> int | None:
        """The tracked count of the player whose count is being corrected."""
        s = self.state
        if self.fix is None or self.fix not in self.legal.correctable:
            return None
        return s.hands[s.players.index(self.fix)]

    @property
    def catchers(self) -> tuple[str, ...]:
        """Who may catch the player being caught (everybody else at the table)."""
        return () if self.catch is None else self.legal.catchers(self.catch)

    @cached_property  # the screen asks twice (whether, then what)
    def breakdown(self) -> str | None:
        """How the last hand's score was made, in a sentence (the engine's)."""
        return score_breakdown(self.state)

    @property
    def how_scored(self) -> str | None:
        """While losers reveal: who scores what under the match's house rules."""
        return how_scored(self.state) if self.state.status == "scoring" else None

    @property
    def reveal_tally(self) -> list[str]:
        """Each loser done revealing, in the engine's sentence."""
        return reveal_tally(self.state)

    @property
    def to_go(self) -> list[int | None]:
        """The points each seat still needs to reach the target (None: reached)."""
        return to_go(self.state)

    @property
    def start_keys(self) -> tuple[Card, ...]:
        """The cards a hand may start on (the engine's)."""
        return START_CARDS
