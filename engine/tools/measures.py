"""What the house-rule lab measures: each rule set's sample of hands, value by value, and the
figures it gives with their 95% confidence intervals (a normal approximation over thousands
of independent hands, the median's from its order statistics), differences included."""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ..core.i18n import N_
from .simulator import HandOutcome

Z95: Final = 1.959964  # the normal quantile of a two-sided 95% interval
HISTOGRAM_BINS: Final = 24


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% confidence interval."""

    value: float
    low: float
    high: float

    @classmethod
    def around(cls, value: float, error: float) -> Estimate:
        return cls(value, value - Z95 * error, value + Z95 * error)

    @property
    def significant(self) -> bool:
        """Does the interval leave zero out (for a difference)?"""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass
class Sample:
    """What one rule set's hands gave, value by value (a list per measure)."""

    turns: list[int] = field(default_factory=list)
    knockouts: list[int] = field(default_factory=list)
    by_knockout: list[bool] = field(default_factory=list)
    reshuffles: list[int] = field(default_factory=list)
    biggest_stack: list[int] = field(default_factory=list)
    first_player_won: list[bool] = field(default_factory=list)
    match_hands: list[int] = field(default_factory=list)
    unfinished: int = 0

    def add_hand(self, hand: HandOutcome) -> None:
        if not hand.finished:
            self.unfinished += 1
            return
        self.turns.append(hand.turns)
        self.knockouts.append(hand.knockouts)
        self.by_knockout.append(hand.by_knockout)
        self.reshuffles.append(hand.reshuffles)
        self.biggest_stack.append(hand.biggest_stack)
        self.first_player_won.append(hand.first_player_won)

    def extend(self, other: Sample) -> None:
        for name in (
            "turns",
            "knockouts",
            "by_knockout",
            "reshuffles",
            "biggest_stack",
            "first_player_won",
            "match_hands",
        ):
            getattr(self, name).extend(getattr(other, name))
        self.unfinished += other.unfinished


# The figures, in the order a report shows them: key, label, how a sample gives it.
# A key ending in "_share" is a proportion (shown as a percentage).
MEASURES: Final = (
    ("turns", N_("mean hand length (turns)")),
    ("turns_median", N_("median hand length (turns)")),
    ("minutes", N_("mean hand length (minutes at {pace:g} s a turn)")),
    ("knockout_share", N_("hands ended by knockout")),
    ("knockouts", N_("knockouts per hand")),
    ("reshuffles", N_("reshuffles per hand")),
    ("biggest_stack", N_("biggest stack taken in a hand (its size)")),
    ("match_hands", N_("hands a match takes")),
    ("first_player_share", N_("hands won by the player who played first")),
)


def mean(values: Sequence[float]) -> Estimate:
    """The mean and its interval (normal approximation: thousands of hands)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    value = math.fsum(values) / n
    error = statistics.stdev(values, value) / math.sqrt(n) if n > 1 else math.inf
    return Estimate.around(value, error)


def median(values: Sequence[float]) -> Estimate:
    """The median and its distribution-free interval: the order statistics around the
    middle rank, Z95 * sqrt(n) / 2 ranks either side."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    ordered = sorted(values)
    spread = Z95 * math.sqrt(n) / 2
    low = ordered[max(0, math.floor(n / 2 - spread))]
    high = ordered[min(n - 1, math.ceil(n / 2 + spread))]
    return Estimate(statistics.median(ordered), low, high)


def standard_error(estimate: Estimate) -> float:
    return (estimate.high - estimate.low) / (2 * Z95)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """B minus A, the two independent."""
    return Estimate.around(b.value - a.value, math.hypot(standard_error(a), standard_error(b)))


def relative(a: Estimate, b: Estimate) -> Estimate:
    """B over A minus one (0.12: 12% more), its interval by the delta method."""
    if not a.value:
        return Estimate(math.nan, math.nan, math.nan)
    ratio = b.value / a.value
    error = math.hypot(standard_error(b) / a.value, ratio * standard_error(a) / a.value)
    return Estimate.around(ratio - 1, error)


def figures(sample: Sample, pace: float) -> dict[str, Estimate]:
    turns = mean(sample.turns)
    minutes = Estimate(*(x * pace / 60 for x in (turns.value, turns.low, turns.high)))
    return {
        "turns": turns,
        "turns_median": median(sample.turns),
        "minutes": minutes,
        "knockout_share": mean([float(x) for x in sample.by_knockout]),
        "knockouts": mean(sample.knockouts),
        "reshuffles": mean(sample.reshuffles),
        "biggest_stack": mean(sample.biggest_stack),
        "match_hands": mean(sample.match_hands),
        "first_player_share": mean([float(x) for x in sample.first_player_won]),
    }


def histogram(values: Sequence[int], edges: Sequence[int]) -> list[int]:
    """Counts per bin [edges[i], edges[i+1]); the last bin takes everything above."""
    counts = [0] * (len(edges) - 1)
    for value in values:
        i = min(max(bisect.bisect_right(edges, value) - 1, 0), len(counts) - 1)
        counts[i] += 1
    return counts


def turn_edges(samples: Sequence[Sample]) -> list[int]:
    """Bins of equal width from 0 to the 99th percentile of both samples' lengths."""
    values = sorted(v for s in samples for v in s.turns)
    if not values:
        return [0, 1]
    top = values[min(len(values) - 1, int(0.99 * len(values)))]
    width = max(1, math.ceil((top + 1) / HISTOGRAM_BINS))
    return [i * width for i in range(HISTOGRAM_BINS + 1)]
