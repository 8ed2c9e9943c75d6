"""Applies one record line to a state: the effects of every No Mercy rule.

`apply(state, line)` returns a new state or raises an `EngineError`; the
state given is never changed. Legality of a card lives in `engine.legal`;
this module checks the rest (follow-ups, counts) and carries out the effects,
including the ones nobody writes down: knockouts, reshuffles, the end of a
hand, scoring and the end of the match.
"""

from __future__ import annotations

from typing import Final, Literal

from .cards import DECK_SIZE, Card, Face
from .errors import CardCountError, IllegalActionError, RevealMismatch
from .i18n import N_, _, ngettext
from .legal import (
    card_refusal,
    discard_room,
    needed_to_stack,
    status_refusal,
    turn_refusal,
)
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
    Reveal,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    Wins,
)
from .state import (
    CATCH_PENALTY,
    KNOCKOUT_POINTS,
    FinalDraw,
    HandResult,
    HandScored,
    HandWon,
    KnockedOut,
    MatchWon,
    Reshuffled,
    ShortDraw,
    State,
    UnoWindow,
)


def apply(state: State, line: Line) -> State:
    """The state after `line`, or an EngineError saying why the line is refused."""
    s = state.copy()
    if isinstance(line, ActionLine):
        seat = s.players.index(line.player)
        action = line.action
        if isinstance(action, Play):
            _close_uno_windows(s)
            _play(s, seat, action)
        elif isinstance(action, Draw):
            _draw(s, seat, action)
        elif isinstance(action, Take):
            _take(s, seat)
        elif isinstance(action, Roulette):
            _roulette(s, seat, action)
        elif isinstance(action, CallUno):
            _call_uno(s, seat)
        elif isinstance(action, Catch):
            _catch(s, seat, s.players.index(action.target))
        elif isinstance(action, Correct):
            _correct(s, seat, action.count)
        elif isinstance(action, Wins | Out):
            _quick_result(s, seat, action)
        else:
            _reveal(s, seat, action)
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
    return s


# ---------------------------------------------------------------- headers


def _set_dealer(s: State, seat: int) -> None:
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


def _rename(s: State, seat: int, new: str) -> None:
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


def _start(s: State, card: Card) -> None:
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


def _next_hand(s: State, number: int) -> None:
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


# ---------------------------------------------------------------- drawing


def _draw_cards(s: State, seat: int, n: int) -> None:
    """Move `n` cards (no more than `s.drawable`) from the draw pile to a hand."""
    if n > s.draw_pile:
        _reshuffle(s)
    s.draw_pile -= n
    s.hands[seat] += n


def _reshuffle(s: State) -> None:
    """The discard pile but its top card, and every set-aside hand, become the draw pile."""
    returned = s.set_aside
    s.draw_pile += s.discard_pile - 1 + returned
    s.discard_pile = 1
    s.set_aside = 0
    assert s.top is not None
    s.discard_known = {s.top: 1}
    s.exhausted = frozenset()
    s.reshuffles += 1
    s.events += (Reshuffled(s.draw_pile, returned),)


def _short_count(s: State, seat: int, wanted: int) -> int:
    """How many of `wanted` penalty cards `seat` actually draws: Mercy and a dry pile stop it."""
    n = min(wanted, s.room(seat), s.drawable)
    if n < wanted and n < s.room(seat):
        s.events += (ShortDraw(s.players[seat], wanted, n),)
    return n


def _mercy(s: State, seat: int, by: int | None) -> bool:
    """Knock `seat` out if they hold the Mercy limit or more. True if they are out.

    `by` is the seat whose card made them take the cards (None: nobody's)."""
    limit = s.rules.mercy
    if limit is None or s.hands[seat] < limit:
        return False
    _mercy_knock_out(s, seat, by)
    return True


def _mercy_knock_out(s: State, seat: int, by: int | None) -> None:
    cards = s.hands[seat]
    s.set_aside += cards
    s.hands[seat] = 0
    s.out += (seat,)
    s.uno_open -= {seat}
    s.uno_called -= {seat}
    dealer = None if by is None or by == seat else s.players[by]
    s.events += (KnockedOut(s.players[seat], cards, dealer),)
    active = s.active
    if len(active) == 1 and s.status == "playing":
        _declare_winner(s, active[0], by_knockout=True)
        _score_if_revealed(s)


def _pass_turn_after_knockout(s: State, seat: int) -> None:
    """A knocked-out player's turn, and whatever they faced, moves on to the next player."""
    if s.status == "playing" and s.turn == seat:
        s.turn = s.next_active(seat)


# ---------------------------------------------------------------- turn actions


def _close_uno_windows(s: State) -> None:
    """A turn begins: nobody can be caught for an earlier missed UNO any more."""
    s.uno_open = frozenset()


def _recount_uno(s: State, seats: list[int]) -> None:
    """Players whose hands changed hands: one card means UNO again, else no UNO state."""
    for seat in seats:
        if s.hands[seat] == 1:
            s.uno_open |= {seat}
            s.uno_called -= {seat}
            s.events += (UnoWindow(s.players[seat]),)
        elif seat in s.uno_open or seat in s.uno_called:  # most plays change neither set
            s.uno_open -= {seat}
            s.uno_called -= {seat}


def _play(s: State, seat: int, play: Play) -> None:
    card = play.card
    refusal = card_refusal(s, seat, card)
    if refusal is not None:
        raise refusal
    _check_follow_ups(s, seat, play)

    s.hands[seat] -= 1 + play.discard
    s.discard_pile += 1 + play.discard
    known = s.discard_known = dict(s.discard_known)
    known[card] = count = known.get(card, 0) + 1
    if count >= card.copies:
        s.exhausted |= {card}
    s.top = card
    s.color = play.color if card.wild else card.color
    if s.hands[seat] == 0:
        _win_with_last_card(s, seat, card)
        return
    face = card.face
    seven, zero = card.number == 7 and s.rules.seven, card.number == 0 and s.rules.zero
    if not (seven or zero):  # after a swap or a pass, the hands moving are recounted
        _recount_uno(s, [seat])
    if card.draw:
        if face is Face.WILD_REVERSE_DRAW4:
            s.direction = -s.direction
        s.stack_total += card.draw
        s.stack_last = card.draw
        s.pending_by = seat
        s.facing = "stack"
        two_left = len(s.out) == len(s.players) - 2
        # Two players: a Wild Reverse Draw 4 "skips the other player and makes YOU draw".
        s.turn = seat if face is Face.WILD_REVERSE_DRAW4 and two_left else s.next_active(seat)
        return
    s.facing = "play"
    if face is Face.WILD_ROULETTE:
        s.facing = "roulette"
        s.pending_by = seat
        s.turn = s.next_active(seat)
    elif face is Face.SKIP:
        s.turn = s.next_active(seat, 2)
    elif face is Face.REVERSE:
        s.direction = -s.direction
        two_left = len(s.out) == len(s.players) - 2
        s.turn = seat if two_left else s.next_active(seat)
    elif face is Face.SKIP_EVERYONE:
        s.turn = seat
    elif seven:
        assert play.swap is not None
        other = s.players.index(play.swap)
        s.hands[seat], s.hands[other] = s.hands[other], s.hands[seat]
        _recount_uno(s, [seat, other])
        s.turn = s.next_active(seat)
    elif zero:
        seats = [seat]
        while (after := s.next_active(seats[-1])) != seat:
            seats.append(after)
        held = [s.hands[i] for i in seats]
        for i, count in zip(seats[1:] + seats[:1], held, strict=True):
            s.hands[i] = count
        _recount_uno(s, seats)
        s.turn = s.next_active(seat)
    else:
        s.turn = s.next_active(seat)


def _check_follow_ups(s: State, seat: int, play: Play) -> None:
    """The colour, swap partner and discard count a card needs, and nothing else."""
    card = play.card

    def fields() -> dict[str, object]:
        """A refusal's fields, built only when a line is refused (a card's name is a
        translation): {card} is the card's name, {code} its code as the record writes it
        (R5), {others} who a 7 may swap with."""
        others = ", ".join(s.players[i] for i in s.active if i != seat)
        return {"name": s.players[seat], "card": card.name, "code": card, "others": others}

    if card.wild and card.face is not Face.WILD_ROULETTE and play.color is None:
        raise IllegalActionError(
            _(
                "{name} played {card} without naming a colour: write {code} R, Y, G or B.",
                **fields(),
            ),
            "wild-color",
        )
    if play.color is not None and not (card.wild and card.face is not Face.WILD_ROULETTE):
        if card.wild:
            template = N_(
                "{name} can't name a colour for {card}: with Colour Roulette the next player "
                "names the colour. Write {code} alone."
            )
        else:
            template = N_(
                "{name} can't name a colour for {card}: {card} has its own colour. Write "
                "{code} alone."
            )
        raise IllegalActionError(_(template, **fields()), "wild-color")
    held = s.hands[seat]
    if play.discard:
        if card.face is not Face.DISCARD_ALL:
            raise IllegalActionError(
                _(
                    "{name} can't discard more cards with {card}: only a Discard All takes "
                    "other cards with it. Write {code} alone.",
                    **fields(),
                ),
                "discard-all",
            )
        if play.discard > discard_room(held):
            raise IllegalActionError(
                ngettext(
                    "{name} holds {n} card: the Discard All and at most {room} more can go, "
                    "not {discard}. Correct the count first (has N) if the app is wrong.",
                    "{name} holds {n} cards: the Discard All and at most {room} more can go, "
                    "not {discard}. Correct the count first (has N) if the app is wrong.",
                    held,
                    name=s.players[seat],
                    room=discard_room(held),
                    discard=play.discard,
                ),
                "discard-all",
            )
    last = held - 1 - play.discard == 0
    if card.number == 7 and s.rules.seven:
        if last:
            if play.swap is not None:
                raise IllegalActionError(
                    _(
                        "{card} is {name}'s last card: {name} wins the hand and nobody "
                        "swaps. Write {code} alone.",
                        **fields(),
                    ),
                    "swap",
                )
            return
        if play.swap is None:
            raise IllegalActionError(
                _(
                    "{name} must swap hands with another player after a 7: write "
                    "{code} swap NAME ({others}).",
                    **fields(),
                ),
                "swap",
            )
        target = s.players.index(play.swap)
        if target == seat:
            raise IllegalActionError(
                _(
                    "{name} can't swap hands with themselves: choose one of {others}.",
                    **fields(),
                ),
                "swap",
            )
        if target in s.out:
            raise IllegalActionError(
                _(
                    "{swapped} was knocked out of this hand and can't be swapped with: "
                    "choose one of {others}.",
                    swapped=play.swap,
                    **fields(),
                ),
                "swap",
            )
    elif play.swap is not None:
        if card.number == 7:
            template = N_(
                "{name} can't swap hands with {card}: 7 swap is off at this table "
                "(seven=off). Write {code} alone."
            )
        else:
            template = N_(
                "{name} can't swap hands with {card}: only a 7 swaps. Write {code} alone."
            )
        raise IllegalActionError(_(template, **fields()), "swap")


def _win_with_last_card(s: State, seat: int, card: Card) -> None:
    _declare_winner(s, seat, by_knockout=False)
    if card.draw and s.rules.final_draw:
        # House rule: the next player draws the penalty before scoring (Mercy applies).
        if card.face is Face.WILD_REVERSE_DRAW4:
            s.direction = -s.direction
        victim = s.next_active(seat)
        count = _short_count(s, victim, s.stack_total + card.draw)
        s.events += (FinalDraw(s.players[victim], count),)
        _draw_cards(s, victim, count)
        _mercy(s, victim, seat)
    s.stack_total = s.stack_last = 0
    _score_if_revealed(s)


def _declare_winner(s: State, seat: int, *, by_knockout: bool) -> None:
    s.status = "scoring"
    s.hand_winner = seat
    s.facing = "play"
    s.pending_by = None
    s.uno_open = s.uno_called = frozenset()
    s.events += (HandWon(s.players[seat], by_knockout),)


def _draw(s: State, seat: int, draw: Draw) -> None:
    refusal = turn_refusal(s, seat, "draw")
    if refusal is not None:
        raise refusal
    name, n = s.players[seat], draw.count
    _refuse_unless_facing_play(s, seat, "draw")
    room, available = s.room(seat), s.drawable
    if n > available:
        raise CardCountError(
            ngettext(
                "{name} can't draw {count}: only {n} card can be drawn (the draw pile, then "
                "the reshuffled discard pile). Write draw {n} or fewer, or correct the counts "
                "first (has N).",
                "{name} can't draw {count}: only {n} cards can be drawn (the draw pile, then "
                "the reshuffled discard pile). Write draw {n} or fewer, or correct the counts "
                "first (has N).",
                available,
                name=name,
                count=n,
            )
        )
    if n > room or (n == room and draw.play is not None):
        raise IllegalActionError(
            _(
                "{name} reached the Mercy limit ({limit}) at card {room} of the draw and "
                "was knocked out there: the rest is not drawn and nothing is played. Write "
                "draw {room}.",
                name=name,
                limit=s.rules.mercy,
                room=room,
            ),
            "mercy",
        )
    if s.rules.draw == "one" and n != 1 and available:
        raise IllegalActionError(
            _(
                "{name} draws exactly one card at this table (draw=one): write draw 1, then "
                "the card if it could be played.",
                name=name,
            ),
            "draw",
        )
    if draw.play is None:
        if s.rules.draw == "until" and n < room and n < available:
            raise IllegalActionError(
                _(
                    "{name} drew {count} and played nothing: a player draws until a card can "
                    "be played, then must play it. Write 'draw {least}, CARD' with the card "
                    "played (a draw ends without a play only at the Mercy limit).",
                    name=name,
                    count=n,
                    least=max(n, 1),
                ),
                "draw",
            )
    elif n == 0:
        raise IllegalActionError(
            _("'draw 0, {play}' draws nothing: write {play} alone.", play=draw.play), "draw"
        )
    _close_uno_windows(s)
    _draw_cards(s, seat, n)
    s.uno_called -= {seat}
    if _mercy(s, seat, None):
        _pass_turn_after_knockout(s, seat)
    elif draw.play is None:
        s.turn = s.next_active(seat)
    else:
        _play(s, seat, draw.play)


# Why a player may not draw (or take a stack) when not facing a plain turn: one whole
# sentence per action tried and what they face.
_NOT_FACING_PLAY: Final = {
    ("draw", "stack"): N_(
        "{name} can't draw: {name} faces +{total} and must stack a Draw card of +{needed} or "
        "more, or take {total}."
    ),
    ("draw", "roulette"): N_(
        "{name} can't draw: a Colour Roulette was played on {name}, who names a colour and "
        "reveals cards (roulette C N)."
    ),
    ("take", "roulette"): N_(
        "{name} can't take a stack: a Colour Roulette was played on {name}, who names a "
        "colour and reveals cards (roulette C N)."
    ),
}


def _refuse_unless_facing_play(s: State, seat: int, tried: Literal["draw", "take"]) -> None:
    if s.facing in ("stack", "roulette"):
        template = _NOT_FACING_PLAY[tried, s.facing]
        raise IllegalActionError(
            _(template, name=s.players[seat], total=s.stack_total, needed=needed_to_stack(s)),
            s.facing,
        )


def _take(s: State, seat: int) -> None:
    refusal = turn_refusal(s, seat, "take")
    if refusal is not None:
        raise refusal
    if s.facing != "stack":
        if s.facing == "roulette":
            _refuse_unless_facing_play(s, seat, "take")
        raise IllegalActionError(
            _(
                "There is no stack for {name} to take: nobody played a Draw card on them. "
                "Play a card or draw.",
                name=s.players[seat],
            ),
            "stack",
        )
    _close_uno_windows(s)
    _draw_cards(s, seat, _short_count(s, seat, s.stack_total))
    s.uno_called -= {seat}
    s.stack_total = s.stack_last = 0
    s.facing = "play"
    by, s.pending_by = s.pending_by, None
    _mercy(s, seat, by)
    if s.status == "playing":
        s.turn = s.next_active(seat)


def _roulette(s: State, seat: int, roulette: Roulette) -> None:
    refusal = turn_refusal(s, seat, "roulette")
    if refusal is not None:
        raise refusal
    name, n = s.players[seat], roulette.count
    if s.facing != "roulette":
        if s.facing == "stack":
            template = N_(
                "No Colour Roulette was played on {name}: there is no colour to name. Stack "
                "or take the pending stack."
            )
        else:
            template = N_(
                "No Colour Roulette was played on {name}: there is no colour to name. Play a "
                "card or draw."
            )
        raise IllegalActionError(_(template, name=name), "roulette")
    room, available = s.room(seat), s.drawable
    # {color} is the colour's name, {code} its letter as the record writes it.
    fields = {"name": name, "color": roulette.color.title, "code": roulette.color}
    if n == 0 and available:
        raise IllegalActionError(
            _(
                "{name} reveals at least one card: cards are turned up until one is {color}.",
                **fields,
            ),
            "roulette",
        )
    if n > available:
        raise CardCountError(
            ngettext(
                "{name} can't reveal {count}: only {n} card can be drawn (the draw pile, then "
                "the reshuffled discard pile). Write roulette {code} {n} or fewer.",
                "{name} can't reveal {count}: only {n} cards can be drawn (the draw pile, then "
                "the reshuffled discard pile). Write roulette {code} {n} or fewer.",
                available,
                count=n,
                **fields,
            )
        )
    if n > room:
        raise IllegalActionError(
            _(
                "{name} reached the Mercy limit ({limit}) at the {room}th card revealed and "
                "was knocked out there: write roulette {code} {room}.",
                limit=s.rules.mercy,
                room=room,
                **fields,
            ),
            "mercy",
        )
    _close_uno_windows(s)
    _draw_cards(s, seat, n)
    s.uno_called -= {seat}
    s.color = roulette.color
    s.facing = "play"
    by, s.pending_by = s.pending_by, None
    _mercy(s, seat, by)
    if s.status == "playing":
        s.turn = s.next_active(seat)


# ---------------------------------------------------------------- any time


def _call_uno(s: State, seat: int) -> None:
    refusal = status_refusal(s)
    if refusal is not None:
        raise refusal
    name, held = s.players[seat], s.hands[seat]
    if seat in s.uno_called:
        raise IllegalActionError(_("{name} already called UNO.", name=name), "uno")
    if held != 1:
        raise IllegalActionError(
            ngettext(
                "{name} holds {n} card: UNO is called with one card left.",
                "{name} holds {n} cards: UNO is called with one card left.",
                held,
                name=name,
            ),
            "uno",
        )
    s.uno_open -= {seat}
    s.uno_called |= {seat}


def _catch(s: State, seat: int, target: int) -> None:
    refusal = status_refusal(s)
    if refusal is not None:
        raise refusal
    name, caught, held = s.players[seat], s.players[target], s.hands[target]
    if target == seat:
        raise IllegalActionError(
            _("Nobody catches themselves: {name} calls UNO instead (uno).", name=name), "uno"
        )
    if target in s.uno_called:
        raise IllegalActionError(
            _("{caught} already called UNO: there is nothing to catch.", caught=caught), "uno"
        )
    if held != 1 or target in s.out:
        raise IllegalActionError(
            ngettext(
                "{caught} holds {n} card: only a player down to one card who has not called "
                "UNO can be caught.",
                "{caught} holds {n} cards: only a player down to one card who has not called "
                "UNO can be caught.",
                held,
                caught=caught,
            ),
            "uno",
        )
    if target not in s.uno_open:
        raise IllegalActionError(
            _(
                "Too late to catch {caught}: a catch must come before the next player begins "
                "their turn.",
                caught=caught,
            ),
            "uno",
        )
    s.uno_open -= {target}
    _draw_cards(s, target, _short_count(s, target, CATCH_PENALTY))
    if _mercy(s, target, seat):
        _pass_turn_after_knockout(s, target)


def _correct(s: State, seat: int, count: int) -> None:
    name, held = s.players[seat], s.hands[seat]
    if s.status in ("hand_over", "match_over"):
        refusal = status_refusal(s)
        assert refusal is not None
        raise refusal
    if seat in s.out:
        raise IllegalActionError(
            _(
                "{name} was knocked out of this hand: their cards are set aside, there is no "
                "count to correct.",
                name=name,
            ),
            "mercy",
        )
    if s.status == "scoring":
        if seat == s.hand_winner:
            raise IllegalActionError(
                _(
                    "{name} won the hand with no cards left: there is no count to correct.",
                    name=name,
                ),
                "scoring",
            )
        if s.revealed[seat] is not None:
            raise IllegalActionError(
                _(
                    "{name} has already revealed: a count is corrected before revealing.",
                    name=name,
                ),
                "scoring",
            )
    if count == 0:
        raise CardCountError(
            _(
                "'has 0' would mean {name} has no cards and has won: record the play that "
                "emptied {name}'s hand instead.",
                name=name,
            )
        )
    extra = count - held
    if extra > s.drawable:
        raise CardCountError(
            ngettext(
                "{name} can't hold {n} card: only {more} more can come from the draw pile. "
                "Count again and write has {most} or fewer.",
                "{name} can't hold {n} cards: only {more} more can come from the draw pile. "
                "Count again and write has {most} or fewer.",
                count,
                name=name,
                more=s.drawable,
                most=held + s.drawable,
            )
        )
    if extra > 0:
        _draw_cards(s, seat, extra)
    else:
        s.hands[seat] = count
        s.draw_pile -= extra
    if extra:
        _recount_uno(s, [seat])
        if count == 1:
            s.uno_open -= {seat}  # a correction opens no window: nobody missed a call
            s.events = tuple(e for e in s.events if not isinstance(e, UnoWindow))
    if _mercy(s, seat, None):
        _pass_turn_after_knockout(s, seat)
        if s.status == "scoring":
            _score_if_revealed(s)


# ---------------------------------------------------------------- quick score


def _quick_result(s: State, seat: int, action: Wins | Out) -> None:
    """A hand entered as its result only: who won, who was knocked out. The winner may
    come first (the screen asks for it first): the knockouts of the hand follow it, in
    any order with the losers' reveals, until the hand is scored."""
    name = s.players[seat]
    if isinstance(action, Out) and s.quick and s.status == "scoring":
        _knocked_out_after_the_win(s, seat)
        return
    if s.status != "playing":
        refusal = status_refusal(s)
        assert refusal is not None
        raise refusal
    if s.started:
        if isinstance(action, Wins):
            template = N_(
                "Hand {hand} is recorded play by play: {name} can't just win. The hand is "
                "won with the last card, and the Mercy rule knocks players out by itself."
            )
        else:
            template = N_(
                "Hand {hand} is recorded play by play: {name} can't just be knocked out. The "
                "hand is won with the last card, and the Mercy rule knocks players out by "
                "itself."
            )
        raise IllegalActionError(_(template, hand=s.hand, name=name), "setup")
    if seat in s.out:
        raise IllegalActionError(
            _("{name} is already knocked out of this hand.", name=name), "mercy"
        )
    s.quick = True
    if isinstance(action, Wins):
        _declare_winner(s, seat, by_knockout=False)
        _score_if_revealed(s)
    else:
        # They held the Mercy limit at least: their count goes up to it as far as the
        # draw pile allows, so the 168 stay whole.
        _draw_cards(s, seat, min(max((s.rules.mercy or 0) - s.hands[seat], 0), s.drawable))
        _mercy_knock_out(s, seat, None)
        _pass_turn_after_knockout(s, seat)
    # The line itself says who won or went out: keep only what followed from it.
    s.events = tuple(e for e in s.events[1:])


def _knocked_out_after_the_win(s: State, seat: int) -> None:
    """A quick hand's knockout entered once its winner is known."""
    name = s.players[seat]
    if seat == s.hand_winner:
        raise IllegalActionError(
            _("{name} won the hand: they can't also be knocked out of it.", name=name), "mercy"
        )
    if seat in s.out:
        raise IllegalActionError(
            _("{name} is already knocked out of this hand.", name=name), "mercy"
        )
    if s.revealed[seat] is not None:
        raise IllegalActionError(
            _(
                "{name} already revealed their points: undo that reveal first if they were "
                "knocked out.",
                name=name,
            ),
            "scoring",
        )
    _draw_cards(s, seat, min(max((s.rules.mercy or 0) - s.hands[seat], 0), s.drawable))
    _mercy_knock_out(s, seat, None)
    s.events = tuple(e for e in s.events[1:])  # the line itself says who went out
    _score_if_revealed(s)


# ---------------------------------------------------------------- scoring


def _reveal(s: State, seat: int, reveal: Reveal) -> None:
    name = s.players[seat]
    if s.status == "playing":
        raise IllegalActionError(
            _(
                "{name} can't reveal yet: the hand isn't won. Cards are revealed after a "
                "player goes out.",
                name=name,
            ),
            "scoring",
        )
    refusal = status_refusal(s)
    if s.status != "scoring" and refusal is not None:
        raise refusal
    if seat == s.hand_winner:
        raise IllegalActionError(
            _("{name} won the hand: the winner reveals nothing.", name=name), "scoring"
        )
    if seat in s.out:
        raise IllegalActionError(
            _(
                "{name} was knocked out: their cards don't count (the winner scores "
                "{points} for the knockout).",
                name=name,
                points=KNOCKOUT_POINTS,
            ),
            "scoring",
        )
    already = s.revealed[seat]
    if already is not None:
        raise IllegalActionError(
            ngettext(
                "{name} already revealed ({n} point).",
                "{name} already revealed ({n} points).",
                already,
                name=name,
            ),
            "scoring",
        )
    held = s.hands[seat]
    if reveal.cards is not None:
        cards = reveal.cards
        if s.quick:
            held = len(cards)  # nobody counted the cards of a hand entered as a result
        if len(cards) != held:
            raise RevealMismatch(
                ngettext(
                    "{name} showed {revealed} cards, but the table counted {n} card: if the "
                    "table's count is wrong, correct it to {revealed}, then record the cards "
                    "again.",
                    "{name} showed {revealed} cards, but the table counted {n} cards: if the "
                    "table's count is wrong, correct it to {revealed}, then record the cards "
                    "again.",
                    held,
                    name=name,
                    revealed=len(cards),
                ),
                ActionLine(name, Correct(len(cards))),
            )
        seen = dict(s.revealed_cards)
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
            if seen[card] + s.discard_known.get(card, 0) > card.copies:
                raise CardCountError(
                    _(
                        "{name} can't hold another {card}: the deck has {copies} and the "
                        "others are already accounted for (discard pile or revealed).",
                        name=name,
                        card=card.name,
                        copies=card.copies,
                    )
                )
        s.revealed_cards = seen
        points = sum(card.points for card in cards)
    else:
        assert reveal.points is not None
        points = reveal.points
        if s.quick:
            held = (s.rules.mercy or DECK_SIZE) - 1  # the most a hand can hold
        if points > 50 * held:
            raise CardCountError(
                ngettext(
                    "{name} holds {n} card: at most {most} points (50 a card), not {points}.",
                    "{name} holds {n} cards: at most {most} points (50 a card), not {points}.",
                    held,
                    name=name,
                    most=50 * held,
                    points=points,
                )
            )
    revealed = list(s.revealed)
    revealed[seat] = points
    s.revealed = tuple(revealed)
    _score_if_revealed(s)


def _score_if_revealed(s: State) -> None:
    """Score the hand once every loser still in it has revealed."""
    winner = s.hand_winner
    if s.status != "scoring" or winner is None:
        return
    if any(s.revealed[i] is None for i in s.active if i != winner):
        return
    n = len(s.players)
    points = [0] * n
    if s.rules.scoring == "high":
        left = sum(s.revealed[i] or 0 for i in s.active if i != winner)
        points[winner] = left + KNOCKOUT_POINTS * len(s.out)
    else:
        for i in range(n):
            points[i] = KNOCKOUT_POINTS if i in s.out else s.revealed[i] or 0
        points[winner] = 0
    s.scores = tuple(total + p for total, p in zip(s.scores, points, strict=True))
    s.history += (HandResult(s.hand, winner, tuple(points), s.out),)
    s.status = "hand_over"
    s.events += (HandScored(tuple(zip(s.players, points, strict=True))),)
    _end_match_if_won(s)


def _end_match_if_won(s: State) -> None:
    target, scores = s.rules.target, s.scores
    if max(scores) < target:
        return
    if s.rules.scoring == "high":
        best = max(scores)
    else:
        best = min(scores)
        if scores.count(best) > 1:
            return  # a tie for the lowest total: play another hand to break it
    s.match_winner = scores.index(best)
    s.status = "match_over"
    s.events += (MatchWon(s.players[s.match_winner], best),)
