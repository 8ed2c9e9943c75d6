"""A player's turn: playing a card and its effects (the follow-ups it needs: colour, swap,
discards), drawing, taking a stack, answering a Colour Roulette."""

from __future__ import annotations

from typing import Final, Literal

from .calls import close_uno_windows, recount_uno
from .cards import Face
from .errors import CardCountError, IllegalActionError
from .i18n import N_, _, ngettext
from .legal import card_refusal, discard_room, needed_to_stack, turn_refusal
from .notation import Draw, Play, Roulette
from .piles import draw_cards, short_count
from .scoring import mercy, pass_turn_after_knockout, win_with_last_card
from .state import Draft


def play_card(s: Draft, seat: int, play: Play) -> None:
    card = play.card
    refusal = card_refusal(s, seat, card)
    if refusal is not None:
        raise refusal
    _check_follow_ups(s, seat, play)

    s.hands[seat] -= 1 + play.discard
    s.discard_pile += 1 + play.discard
    known = s.discard_known = s.discard_known.copy()
    known[card] = count = known.get(card, 0) + 1
    if count >= card.copies:
        s.exhausted |= {card}
    s.top = card
    s.color = play.color if card.wild else card.color
    if s.hands[seat] == 0:
        win_with_last_card(s, seat, card)
        return
    face = card.face
    seven, zero = card.number == 7 and s.rules.seven, card.number == 0 and s.rules.zero
    if not (seven or zero):  # after a swap or a pass, the hands moving are recounted
        recount_uno(s, [seat])
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
        recount_uno(s, [seat, other])
        s.turn = s.next_active(seat)
    elif zero:
        seats = [seat]
        while (after := s.next_active(seats[-1])) != seat:
            seats.append(after)
        held = [s.hands[i] for i in seats]
        for i, count in zip(seats[1:] + seats[:1], held, strict=True):
            s.hands[i] = count
        recount_uno(s, seats)
        s.turn = s.next_active(seat)
    else:
        s.turn = s.next_active(seat)


def _check_follow_ups(s: Draft, seat: int, play: Play) -> None:
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


def draw_and_play(s: Draft, seat: int, draw: Draw) -> None:
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
    close_uno_windows(s)
    draw_cards(s, seat, n)
    s.uno_called -= {seat}
    if mercy(s, seat, None):
        pass_turn_after_knockout(s, seat)
    elif draw.play is None:
        s.turn = s.next_active(seat)
    else:
        play_card(s, seat, draw.play)


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


def _refuse_unless_facing_play(s: Draft, seat: int, tried: Literal["draw", "take"]) -> None:
    if s.facing in ("stack", "roulette"):
        template = _NOT_FACING_PLAY[tried, s.facing]
        raise IllegalActionError(
            _(template, name=s.players[seat], total=s.stack_total, needed=needed_to_stack(s)),
            s.facing,
        )


def take_stack(s: Draft, seat: int) -> None:
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
    close_uno_windows(s)
    draw_cards(s, seat, short_count(s, seat, s.stack_total))
    s.uno_called -= {seat}
    s.stack_total = s.stack_last = 0
    s.facing = "play"
    by, s.pending_by = s.pending_by, None
    mercy(s, seat, by)
    if s.status == "playing":
        s.turn = s.next_active(seat)


def answer_roulette(s: Draft, seat: int, roulette: Roulette) -> None:
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
    close_uno_windows(s)
    draw_cards(s, seat, n)
    s.uno_called -= {seat}
    s.color = roulette.color
    s.facing = "play"
    by, s.pending_by = s.pending_by, None
    mercy(s, seat, by)
    if s.status == "playing":
        s.turn = s.next_active(seat)
