"""Applies one record line to a state: the effects of every No Mercy rule.

`apply(state, line)` returns a new state or raises an `EngineError`; the
state given is never changed. Legality of a card lives in `engine.core.legal`;
this module reads the line and carries out the headers (dealer, rename, start
card, next hand); the rest is split by concern: a turn's plays and draws
(plays.py), what anyone may say at any time (calls.py), the end of a hand and
its points (scoring.py), the draw pile (piles.py). They all change the one
copy `apply` made, never the state given.
"""

from __future__ import annotations

from .calls import call_uno, catch, close_uno_windows, correct
from .cards import Card
from .errors import IllegalActionError
from .i18n import _
from .legal import status_refusal
from .names import same_player
from .notation import (
    ActionLine,
    CallUno,
    Catch,
    Correct,
    DealerLine,
    Draw,
    HandLine,
    Line,
    Out,
    Play,
    PlayersLine,
    RenameLine,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    Wins,
)
from .plays import answer_roulette, draw_and_play, play_card, take_stack
from .scoring import quick_result, reveal_hand
from .state import Draft, State


def apply(state: State, line: Line) -> State:
    """The state after `line`, or an EngineError saying why the line is refused."""
    s = state.copy()
    if isinstance(line, ActionLine):
        seat = s.players.index(line.player)
        action = line.action
        if isinstance(action, Play):
            close_uno_windows(s)
            play_card(s, seat, action)
        elif isinstance(action, Draw):
            draw_and_play(s, seat, action)
        elif isinstance(action, Take):
            take_stack(s, seat)
        elif isinstance(action, Roulette):
            answer_roulette(s, seat, action)
        elif isinstance(action, CallUno):
            call_uno(s, seat)
        elif isinstance(action, Catch):
            catch(s, seat, s.players.index(action.target))
        elif isinstance(action, Correct):
            correct(s, seat, action.count)
        elif isinstance(action, Wins | Out):
            quick_result(s, seat, action)
        else:
            reveal_hand(s, seat, action)
    elif isinstance(line, StartLine):
        _start(s, line.card)
    elif isinstance(line, HandLine):
        _next_hand(s, line.number)
    elif isinstance(line, DealerLine):
        _set_dealer(s, s.players.index(line.name))
    elif isinstance(line, RenameLine):
        _rename(s, s.players.index(line.old), line.new)
    elif isinstance(line, RulesLine):
        if s.hand != 1 or s.started:
            raise IllegalActionError(
                _("House rules are set before the first start card of the match."), "setup"
            )
        s.rules = line.rules
    else:
        assert isinstance(line, PlayersLine)
        raise IllegalActionError(
            _(
                "The players are already seated ({players}): 'players:' is the first line "
                "of a record and comes once.",
                players=", ".join(s.players),
            ),
            "setup",
        )
    return s.seal()


# ---------------------------------------------------------------- headers


def _set_dealer(s: Draft, seat: int) -> None:
    if s.started or s.status != "playing":
        raise IllegalActionError(
            _(
                "The dealer of hand {hand} is set before its start card; the deal passes to "
                "the left by itself after each hand.",
                hand=s.hand,
            ),
            "setup",
        )
    s.dealer = seat
    s.turn = s.next_active(seat)  # players knocked out by a correction are skipped


def _rename(s: Draft, seat: int, new: str) -> None:
    """The player at `seat` is called `new` from now on: at any time, to a name no other
    player at the table has (the case or accents of one's own name may change)."""
    old = s.players[seat]
    if new == old:
        raise IllegalActionError(_("{name} is called {name} already.", name=old), "setup")
    for other in s.players:
        if other != old and same_player(other, new):
            raise IllegalActionError(
                _(
                    "{old} can't be renamed {new}: {other} plays at this table, and one "
                    "match can't have two players of one name.",
                    old=old,
                    new=new,
                    other=other,
                ),
                "setup",
            )
    s.players = (*s.players[:seat], new, *s.players[seat + 1 :])


def _start(s: Draft, card: Card) -> None:
    if s.status != "playing":
        refusal = status_refusal(s)
        assert refusal is not None
        raise refusal
    if s.started:
        raise IllegalActionError(
            _("Hand {hand} already has its start card ({code}).", hand=s.hand, code=s.top),
            "setup",
        )
    if s.quick:
        raise IllegalActionError(
            _(
                "Hand {hand} is entered as a quick result (wins/out): it has no start card.",
                hand=s.hand,
            ),
            "setup",
        )
    if card.number is None:
        raise IllegalActionError(
            _(
                "The start card must be a number card, not {card}: an action or wild card "
                "turned up at the start goes back into the deck. Record the first number "
                "card.",
                card=card.name,
            ),
            "setup",
        )
    s.started = True
    s.top, s.color = card, card.color
    s.draw_pile -= 1
    s.discard_pile += 1
    s.discard_known = {card: 1}


def _next_hand(s: Draft, number: int) -> None:
    if s.status == "playing" and not s.started and number == s.hand:
        return  # 'hand: 1' at the top of a record says what is already so
    if s.status != "hand_over":
        refusal = status_refusal(s)
        raise refusal or IllegalActionError(
            _(
                "Hand {hand} is not over yet: a new hand starts once this one is won and scored.",
                hand=s.hand,
            ),
            "hand-over",
        )
    if number != s.hand + 1:
        raise IllegalActionError(
            _("The next hand is hand {next}, not {number}.", next=s.hand + 1, number=number),
            "setup",
        )
    s.hand = number
    s.dealer = s.next_dealer
    s.deal()
