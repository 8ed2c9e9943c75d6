"""Where a hand and a match stand, for the screens: who plays next, which cards may
start a hand, how far each player is from the target. Rules, so the engine's."""

from __future__ import annotations

from typing import Final

from .cards import ALL_CARDS, Card
from .state import State

# A hand starts on the first number card turned up: an action or wild card goes back.
START_CARDS: Final[tuple[Card, ...]] = tuple(c for c in ALL_CARDS if c.number is not None)


def next_player(state: State) -> str | None:
    """Who plays after the player whose turn it is, in the current direction, skipping
    those knocked out; None once the hand is over or only one player is left in it."""
    s = state
    if s.status != "playing" or len(s.active) < 2:
        return None
    return s.players[s.next_active(s.turn)]


def to_go(state: State) -> list[int | None]:
    """The points each seat still needs to reach the match's target; None once reached."""
    target = state.rules.target
    return [None if score >= target else target - score for score in state.scores]
