"""What any player may say at any time: UNO, a catch of a missed UNO, a corrected
count; and the windows in which a missed UNO can be caught."""

from __future__ import annotations

from .errors import CardCountError, IllegalActionError
from .i18n import _, ngettext
from .legal import status_refusal
from .piles import draw_cards, short_count
from .scoring import mercy, pass_turn_after_knockout, score_if_revealed
from .state import CATCH_PENALTY, Draft, UnoWindow


def close_uno_windows(s: Draft) -> None:
    """A turn begins: nobody can be caught for an earlier missed UNO any more."""
    s.uno_open = frozenset()


def recount_uno(s: Draft, seats: list[int]) -> None:
    """Players whose hands changed hands: one card means UNO again, else no UNO state."""
    for seat in seats:
        if s.hands[seat] == 1:
            s.uno_open |= {seat}
            s.uno_called -= {seat}
            s.events += (UnoWindow(s.players[seat]),)
        elif seat in s.uno_open or seat in s.uno_called:  # most plays change neither set
            s.uno_open -= {seat}
            s.uno_called -= {seat}


# ---------------------------------------------------------------- any time


def call_uno(s: Draft, seat: int) -> None:
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


def catch(s: Draft, seat: int, target: int) -> None:
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
    draw_cards(s, target, short_count(s, target, CATCH_PENALTY))
    if mercy(s, target, seat):
        pass_turn_after_knockout(s, target)


def correct(s: Draft, seat: int, count: int) -> None:
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
        draw_cards(s, seat, extra)
    else:
        s.hands[seat] = count
        s.draw_pile -= extra
    if extra:
        recount_uno(s, [seat])
        if count == 1:
            s.uno_open -= {seat}  # a correction opens no window: nobody missed a call
            s.events = tuple(e for e in s.events if not isinstance(e, UnoWindow))
    if mercy(s, seat, None):
        pass_turn_after_knockout(s, seat)
        if s.status == "scoring":
            score_if_revealed(s)
