"""The draw pile: cards drawn into a hand, the reshuffle when the pile runs dry, and how
many of a penalty a player really draws (the Mercy limit and a dry pile stop it)."""

from __future__ import annotations

from .state import Draft, Reshuffled, ShortDraw


def draw_cards(s: Draft, seat: int, n: int) -> None:
    """Move `n` cards (no more than `s.drawable`) from the draw pile to a hand."""
    if n > s.draw_pile:
        _reshuffle(s)
    s.draw_pile -= n
    s.hands[seat] += n


def _reshuffle(s: Draft) -> None:
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


def short_count(s: Draft, seat: int, wanted: int) -> int:
    """How many of `wanted` penalty cards `seat` actually draws: Mercy and a dry pile stop it."""
    n = min(wanted, s.room(seat), s.drawable)
    if n < wanted and n < s.room(seat):
        s.events += (ShortDraw(s.players[seat], wanted, n),)
    return n
