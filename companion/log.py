"""A match's log told hand by hand, in the engine's sentences: what the log page shows.

Every step of the game is described once, oldest first, and falls in the hand its
after-state is in: a `hand:` line opens its hand, the reveals that score a hand
close it. Values only, made from states that never change, so a page is rendered
from them without holding the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.matches import Match
from engine import HandScored, Step, describe, score_breakdown


@dataclass(frozen=True, slots=True)
class HandLog:
    """One hand: its number, its dealer, what happened (oldest first), how it was scored."""

    number: int
    dealer: str
    sentences: tuple[str, ...]
    result: str | None  # the engine's breakdown of the points, once the hand is scored


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A match and its whole log, hand by hand, in order."""

    match: Match  # its version is the log's
    hands: tuple[HandLog, ...]
    now: str  # whose turn it is, or how the match stands

    @property
    def plays(self) -> int:
        """Lines recorded at the table (the dealer and house rules are the match's own)."""
        return self.match.version


def by_hand(steps: Iterable[Step]) -> tuple[HandLog, ...]:
    """The steps grouped by the hand they belong to, each described once."""
    hands: list[HandLog] = []
    number = 0
    dealer, result = "", None
    sentences: list[str] = []
    for line, before, after in steps:
        if after.hand != number:
            if sentences:
                hands.append(HandLog(number, dealer, tuple(sentences), result))
            number, sentences, result = after.hand, [], None
        sentences.append(describe(line, before, after))
        dealer = after.players[after.dealer]  # set before the start card, then kept
        if any(isinstance(event, HandScored) for event in after.events):
            result = score_breakdown(after)
    if sentences:
        hands.append(HandLog(number, dealer, tuple(sentences), result))
    return tuple(hands)
