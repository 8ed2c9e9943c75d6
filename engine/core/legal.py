"""What may be done now, and why not: the one place where legality lives.

The referee calls `turn_refusal` and `card_refusal` before it applies an
action; the app renders its buttons from `Legal` and explains a dimmed card
with `Legal.refusal`. Both read the same functions, so no rule is written
twice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, Literal

from .cards import ALL_CARDS, Card, Color, Face
from .errors import CardCountError, IllegalActionError, OutOfTurnError
from .i18n import N_, _
from .notation import (
    ActionLine,
    CallUno,
    Catch,
    Correct,
    Draw,
    Out,
    Play,
    Reveal,
    Roulette,
    Take,
)
from .state import CATCH_PENALTY, Draft, Facing, State

DRAW_VALUES: Final = (2, 4, 6, 10)
FollowUp = Literal["color", "swap", "discard"]
# A turn action a player tried, for a refusal's sentence: a card played, or one of these.
Tried = Literal["draw", "take", "roulette"]

# Why a card can't go on the pile (independent of who holds it).
NOT_A_DRAW_CARD: Final = "not-draw"
TOO_SMALL: Final = "too-small"
NO_MATCH: Final = "no-match"


def needed_to_stack(state: Draft) -> int:
    """The smallest Draw value that answers the pending stack."""
    return state.stack_total if state.rules.stack == "sum" else state.stack_last


def discard_room(held: int) -> int:
    """How many more cards a Discard All may take from a hand of `held`: all the others."""
    return max(held - 1, 0)


def judge(
    card: Card, facing: Facing, top: Card | None, color: Color | None, needed: int
) -> str | None:
    """None if `card` may go on the pile, else why not (a reason constant)."""
    if facing == "stack":
        if not card.draw:
            return NOT_A_DRAW_CARD
        return TOO_SMALL if card.draw < needed else None
    if card.wild or card.color is color:
        return None
    if top is not None and top.face is card.face:
        return None
    return NO_MATCH


@lru_cache(maxsize=8192)
def _allowed(facing: Facing, top: Card | None, color: Color | None, needed: int) -> frozenset[Card]:
    return frozenset(c for c in ALL_CARDS if judge(c, facing, top, color, needed) is None)


def _matching(state: Draft) -> frozenset[Card]:
    """The kinds of card that go on the pile now, by the top card and the stack alone."""
    needed = needed_to_stack(state) if state.facing == "stack" else 0
    return _allowed(state.facing, state.top, state.color, needed)


def allowed_cards(state: Draft) -> frozenset[Card]:
    """The kinds of card the player whose turn it is could put on the pile now: matching,
    and not every copy already in the discard pile."""
    cards = _matching(state)
    return cards - state.exhausted if state.exhausted else cards


# Why a player may not take a turn action, one whole sentence per action tried and
# reason: {name} tried, {card} (a card played), {turn} whose turn it is, {total} the
# pending stack.
_KNOCKED_OUT: Final = "out"
_CANT: Final[dict[tuple[str, str], str]] = {
    ("play", _KNOCKED_OUT): N_(
        "{name} can't play {card}: {name} was knocked out of this hand by the Mercy rule."
    ),
    ("draw", _KNOCKED_OUT): N_(
        "{name} can't draw: {name} was knocked out of this hand by the Mercy rule."
    ),
    ("take", _KNOCKED_OUT): N_(
        "{name} can't take a stack: {name} was knocked out of this hand by the Mercy rule."
    ),
    ("roulette", _KNOCKED_OUT): N_(
        "{name} can't answer a Colour Roulette: {name} was knocked out of this hand by the "
        "Mercy rule."
    ),
    ("play", "play"): N_("{name} can't play {card}: it is {turn}'s turn ({turn} is to play)."),
    ("draw", "play"): N_("{name} can't draw: it is {turn}'s turn ({turn} is to play)."),
    ("take", "play"): N_("{name} can't take a stack: it is {turn}'s turn ({turn} is to play)."),
    ("roulette", "play"): N_(
        "{name} can't answer a Colour Roulette: it is {turn}'s turn ({turn} is to play)."
    ),
    ("play", "stack"): N_("{name} can't play {card}: it is {turn}'s turn ({turn} faces +{total})."),
    ("draw", "stack"): N_("{name} can't draw: it is {turn}'s turn ({turn} faces +{total})."),
    ("take", "stack"): N_(
        "{name} can't take a stack: it is {turn}'s turn ({turn} faces +{total})."
    ),
    ("roulette", "stack"): N_(
        "{name} can't answer a Colour Roulette: it is {turn}'s turn ({turn} faces +{total})."
    ),
    ("play", "roulette"): N_(
        "{name} can't play {card}: it is {turn}'s turn ({turn} names a colour for the "
        "Colour Roulette)."
    ),
    ("draw", "roulette"): N_(
        "{name} can't draw: it is {turn}'s turn ({turn} names a colour for the Colour Roulette)."
    ),
    ("take", "roulette"): N_(
        "{name} can't take a stack: it is {turn}'s turn ({turn} names a colour for the "
        "Colour Roulette)."
    ),
    ("roulette", "roulette"): N_(
        "{name} can't answer a Colour Roulette: it is {turn}'s turn ({turn} names a colour "
        "for the Colour Roulette)."
    ),
}


def status_refusal(state: Draft) -> IllegalActionError | None:
    """Why nothing can be played at all now (hand over, no start card), if so."""
    if state.status == "match_over":
        assert state.match_winner is not None
        return IllegalActionError(
            _(
                "The match is over: {winner} won it. Start a new match to play on.",
                winner=state.players[state.match_winner],
            ),
            "hand-over",
        )
    if state.status == "hand_over":
        return IllegalActionError(
            _(
                "Hand {hand} is over and scored: start the next one with 'hand: {next}'.",
                hand=state.hand,
                next=state.hand + 1,
            ),
            "hand-over",
        )
    if state.status == "scoring":
        assert state.hand_winner is not None
        return IllegalActionError(
            _(
                "{winner} has won the hand: nothing more can be played. The others reveal "
                "their cards (reveals ...).",
                winner=state.players[state.hand_winner],
            ),
            "hand-over",
        )
    if not state.started:
        return IllegalActionError(
            _(
                "Hand {hand} has no start card yet: write 'start: R5' with the first "
                "face-up number card.",
                hand=state.hand,
            ),
            "setup",
        )
    return None


def turn_refusal(state: Draft, seat: int, tried: Tried | Card) -> IllegalActionError | None:
    """Why `seat` may not take a turn action (`tried`: a card played, or draw, take a
    stack, answer a roulette) now, if so."""
    refusal = status_refusal(state)
    if refusal is not None:
        return refusal
    if seat != state.turn or seat in state.out:
        return _cant(state, seat, tried)
    return None


def _cant(state: Draft, seat: int, tried: Tried | Card) -> IllegalActionError:
    """The refusal of a turn action by a player knocked out, or whose turn it is not. Its
    sentence is built here only, for a line refused (a card's name is a translation)."""
    kind = "play" if isinstance(tried, Card) else tried
    fields = {
        "name": state.players[seat],
        "card": tried.name if isinstance(tried, Card) else "",
        "turn": state.players[state.turn],
        "total": state.stack_total,
    }
    if seat in state.out:
        return IllegalActionError(_(_CANT[kind, _KNOCKED_OUT], **fields), "mercy")
    return OutOfTurnError(_(_CANT[kind, state.facing], **fields))


def card_refusal(state: Draft, seat: int, card: Card) -> IllegalActionError | None:
    """Why `seat` may not play `card` now (follow-ups aside), if so."""
    refusal = turn_refusal(state, seat, card)
    if refusal is not None:
        return refusal
    name = state.players[seat]
    if state.facing == "roulette":
        return IllegalActionError(
            _(
                "{name} can't play {card} now: a Colour Roulette was played on {name}, "
                "who names a colour and reveals cards first (roulette C N).",
                name=name,
                card=card.name,
            ),
            "roulette",
        )
    if card in state.exhausted:
        return CardCountError(
            _(
                "{name} can't play {card}: the deck has {copies} and all of them are "
                "already in the discard pile. Check the card and play another, or draw.",
                name=name,
                card=card.name,
                copies=card.copies,
            )
        )
    if card in _matching(state):
        return None
    needed = needed_to_stack(state) if state.facing == "stack" else 0
    reason = judge(card, state.facing, state.top, state.color, needed)
    total = state.stack_total
    answers = "/".join(f"+{v}" for v in DRAW_VALUES if v >= needed)
    instead = (
        _("Stack {answers} or take {total}.", answers=answers, total=total)
        if answers
        else _("Nothing answers it: take {total}.", total=total)
    )
    fields = {"name": name, "card": card.name, "total": total, "instead": instead}
    if reason == NOT_A_DRAW_CARD:
        if card.face is Face.WILD_ROULETTE:  # RULINGS [roulette]: it is not a Draw card
            return IllegalActionError(
                _(
                    "{name} can't play {card} on a pending +{total}: Colour Roulette is not "
                    "a Draw card and can't answer a stack. {instead}",
                    **fields,
                ),
                "roulette",
            )
        return IllegalActionError(
            _(
                "{name} can't play {card} on a pending +{total}: only a Draw card answers "
                "a stack. {instead}",
                **fields,
            ),
            "stack",
        )
    if reason == TOO_SMALL:
        assert state.top is not None
        fields |= {"face": card.face.title, "top": state.top.face.title, "needed": needed}
        if state.rules.stack == "sum":
            template = N_(
                "{name} can't stack a {face} on a {top}: a stacked card must reach the "
                "pending total, +{needed} or more. {instead}"
            )
        else:
            template = N_(
                "{name} can't stack a {face} on a {top}: a stacked card must be +{needed} or "
                "more. {instead}"
            )
        return IllegalActionError(_(template, **fields), "stack")
    assert state.top is not None and state.color is not None
    top = state.top
    fields = {
        "name": name,
        "card": card.name,
        "top": top.name,
        "color": state.color.title,
        "face": top.face.title,
    }
    if top.wild:
        template = N_(
            "{name} can't play {card} on {top} with {color} active: a card must match the "
            "colour ({color}) or the number or symbol, or be a wild. Play a {color} card, "
            "or a wild, or draw."
        )
    elif top.number is not None:
        template = N_(
            "{name} can't play {card} on {top} with {color} active: a card must match the "
            "colour ({color}) or the number or symbol, or be a wild. Play a {color} card, "
            "a {face}, or a wild, or draw."
        )
    else:
        template = N_(
            "{name} can't play {card} on {top} with {color} active: a card must match the "
            "colour ({color}) or the number or symbol, or be a wild. Play a {color} card, "
            "a {face} card, or a wild, or draw."
        )
    return IllegalActionError(_(template, **fields), "match")


class Legal:
    """What may be done now: the view the app renders its buttons from."""

    __slots__ = ("_cards", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._cards: frozenset[Card] | None = None  # `cards`, once asked (states never change)

    @property
    def turn(self) -> str | None:
        """Whose action the table waits for (None once the hand is won)."""
        s = self._state
        return s.players[s.turn] if s.status == "playing" else None

    @property
    def facing(self) -> Facing | None:
        s = self._state
        return s.facing if s.status == "playing" and s.started else None

    @property
    def cards(self) -> frozenset[Card]:
        """Card kinds the player whose turn it is may play now."""
        if self._cards is None:
            s = self._state
            if status_refusal(s) is not None or s.facing == "roulette":
                self._cards = frozenset()
            else:
                self._cards = allowed_cards(s)
        return self._cards

    def refusal(self, card: Card, player: str | None = None) -> IllegalActionError | None:
        """Why `player` (default: whose turn it is) may not play `card` now."""
        s = self._state
        seat = s.turn if player is None else s.players.index(player)
        return card_refusal(s, seat, card)

    @property
    def stack_needs(self) -> int | None:
        """The smallest Draw value that answers the pending stack (the last Draw card's
        value, or the whole total under stack=sum); None when not facing a stack."""
        return needed_to_stack(self._state) if self.facing == "stack" else None

    @property
    def can_take(self) -> bool:
        return self.facing == "stack"

    @property
    def can_draw(self) -> bool:
        """Drawing is allowed: 'draw N, CARD' (and 'draw N' where it ends the turn)."""
        return self.facing == "play"

    @property
    def can_pass(self) -> bool:
        """Under draw=one a player may draw one card and keep it."""
        return self.can_draw and self._state.rules.draw == "one"

    @property
    def roulette(self) -> bool:
        return self.facing == "roulette"

    @property
    def draw_room(self) -> int:
        """Cards the player whose turn it is can take before the Mercy limit."""
        s = self._state
        return min(s.room(s.turn), s.drawable)

    @property
    def swap_targets(self) -> tuple[str, ...]:
        s = self._state
        if not s.rules.seven:
            return ()
        return tuple(s.players[i] for i in s.active if i != s.turn)

    def max_discard(self, drawn: int = 0) -> int:
        """How many more cards of its colour a Discard All may take with it, played by
        the player whose turn it is after drawing `drawn` cards (never negative)."""
        s = self._state
        return discard_room(s.hands[s.turn] + drawn)

    @property
    def catch_penalty(self) -> int:
        """Cards a player caught without an UNO call draws."""
        return CATCH_PENALTY

    @property
    def uno_callers(self) -> tuple[str, ...]:
        """One card and no UNO call yet: they may call, and anybody else may catch them."""
        s = self._state
        if s.status != "playing":
            return ()
        return tuple(s.players[i] for i in sorted(s.uno_open))

    def catchers(self, caught: str) -> tuple[str, ...]:
        """Who may catch `caught` without an UNO call: anybody else at the table."""
        if caught not in self.uno_callers:
            return ()
        return tuple(name for name in self._state.players if name != caught)

    @property
    def correctable(self) -> tuple[str, ...]:
        """Players who may correct their count (`has N`) now."""
        s = self._state
        if s.status == "playing":
            return tuple(s.players[i] for i in s.active)
        if s.status == "scoring":
            return self.revealers
        return ()

    @property
    def revealers(self) -> tuple[str, ...]:
        """Losers who still have to reveal their cards."""
        s = self._state
        if s.status != "scoring":
            return ()
        return tuple(s.players[i] for i in s.active if i != s.hand_winner and s.revealed[i] is None)

    @property
    def knockouts(self) -> tuple[str, ...]:
        """Losers of a quick hand who may still be entered as knocked out, once its
        winner is (the same players as `revealers`, in a hand entered as its result)."""
        return self.revealers if self._state.quick else ()

    @property
    def next_hand(self) -> int | None:
        s = self._state
        return s.hand + 1 if s.status == "hand_over" else None

    @property
    def next_dealer(self) -> str | None:
        """Who deals the next hand, once this one is over and scored."""
        s = self._state
        return s.players[s.next_dealer] if s.status == "hand_over" else None

    def actions(self) -> list[ActionLine]:
        """Concrete legal action lines, a few per kind (for tests and simulations).

        Counts are sampled (1 and the most allowed), colours all four.
        """
        s = self._state
        out: list[ActionLine] = []
        if self.turn is not None and s.started:
            who = s.players[s.turn]
            cards = sorted(self.cards, key=str)
            plays = [p for c in cards for p in self._plays(c)]
            out += [ActionLine(who, p) for p in plays]
            if self.can_take:
                out.append(ActionLine(who, Take()))
            room = self.draw_room
            if self.can_draw and room >= 1:
                if s.room(s.turn) > 1:
                    after_draw = [p for c in cards for p in self._plays(c, drawn=1)]
                    out += [ActionLine(who, Draw(1, p)) for p in after_draw]
                # Drawing up to the Mercy limit (or a dry pile) may end with no play.
                out.append(ActionLine(who, Draw(1 if self.can_pass else room)))
            if self.roulette and room >= 1:
                out += [ActionLine(who, Roulette(c, 1)) for c in Color]
        for name in self.uno_callers:
            out.append(ActionLine(name, CallUno()))
            out += [ActionLine(other, Catch(name)) for other in self.catchers(name)]
        for name in self.correctable:
            seat = s.players.index(name)
            if s.hands[seat] > 1:
                out.append(ActionLine(name, Correct(s.hands[seat] - 1)))
            if s.drawable:
                out.append(ActionLine(name, Correct(s.hands[seat] + 1)))
        for name in self.revealers:
            seat = s.players.index(name)
            out.append(ActionLine(name, Reveal(points=s.hands[seat])))
        out += [ActionLine(name, Out()) for name in self.knockouts]
        return out

    def follow_up(self, card: Card, drawn: int = 0) -> FollowUp | None:
        """What else `card`, played by the player whose turn it is after drawing `drawn`
        cards, needs: a colour, a swap partner, a discard count."""
        s = self._state
        held = s.hands[s.turn] + drawn
        if card.wild and card.face is not Face.WILD_ROULETTE:
            return "color"
        if card.number == 7 and s.rules.seven and held > 1:
            return "swap"  # a 7 played as the last card wins and swaps nothing
        if card.face is Face.DISCARD_ALL and held > 1:
            return "discard"
        return None

    def _plays(self, card: Card, drawn: int = 0) -> list[Play]:
        """Ways to play `card` after drawing `drawn` cards (follow-ups filled in)."""
        need = self.follow_up(card, drawn)
        if need == "color":
            return [Play(card, c) for c in Color]
        if need == "swap":
            return [Play(card, swap=t) for t in self.swap_targets]
        if need == "discard":
            return [Play(card), Play(card, discard=self.max_discard(drawn))]
        return [Play(card)]
