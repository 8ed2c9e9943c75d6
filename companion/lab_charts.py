"""A lab run's result as its page shows it: the summary, the figures as text, and the
two distributions (hand length, knockouts per hand) as paired bar charts drawn on the
server (templates/_lab_charts.html). A's bars are solid, B's hatched, each named in a
legend: never colour alone; each chart has a table of the same numbers."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import format_decimal
from flask_babel import gettext as _

from engine.tools import MEASURES, Comparison, Estimate

WIDTH = 320  # the viewBox width, like companion/charts.py's; it scales to the screen
LEFT = 30  # room for the share ticks
TOP = 8
PLOT = 120  # the bars' height at the top share
BOTTOM = 16  # room for the bins' labels
TICK = 0.05  # the top of the share axis is a multiple of 5%


@dataclass(frozen=True, slots=True)
class Column:
    x: float
    y: float
    height: float


@dataclass(frozen=True, slots=True)
class Bin:
    label: str  # what the bin holds ("8-15", "2")
    a: Column
    b: Column
    a_share: str  # "12.5%"
    b_share: str


@dataclass(frozen=True, slots=True)
class PairHistogram:
    bins: tuple[Bin, ...]
    ticks: tuple[tuple[float, str], ...]  # (y, share)
    labels: tuple[tuple[float, str], ...]  # (x, bin label) under some bins
    bar: float  # a bar's width
    width: int
    height: int
    left: int
    base: float  # the axis's y


def pair_histogram(
    a: Sequence[int],
    b: Sequence[int],
    labels: Sequence[str],
    axis: Sequence[str] | None = None,
    every: int = 1,
) -> PairHistogram:
    """Two count series over the same bins, drawn as each side's share of its hands
    (the two sides may have ended different numbers of hands); `axis`: what the axis
    says under every `every`-th bin (its label by default)."""
    axis = axis or labels
    shares_a = [c / max(sum(a), 1) for c in a]
    shares_b = [c / max(sum(b), 1) for c in b]
    top = max([*shares_a, *shares_b, 0.01])
    top = math.ceil(round(top / TICK, 9)) * TICK  # up to the next 5%
    step = (WIDTH - LEFT - 2) / max(len(labels), 1)
    bar = round(max((step - 2) / 2, 1.0), 1)
    base = TOP + PLOT
    bins = []
    for i, label in enumerate(labels):
        x = LEFT + i * step + 1
        ha, hb = PLOT * shares_a[i] / top, PLOT * shares_b[i] / top
        bins.append(
            Bin(
                label,
                Column(round(x, 1), round(base - ha, 1), round(ha, 1)),
                Column(round(x + bar, 1), round(base - hb, 1), round(hb, 1)),
                percent(shares_a[i]),
                percent(shares_b[i]),
            )
        )
    ticks = tuple((round(base - PLOT * v / top, 1), percent(v, "0")) for v in (0, top / 2, top))
    shown = tuple(
        (round(LEFT + i * step + step / 2, 1), text)
        for i, text in enumerate(axis)
        if i % every == 0
    )
    return PairHistogram(tuple(bins), ticks, shown, bar, WIDTH, int(base + BOTTOM), LEFT, base)


def percent(share: float, pattern: str = "0.0") -> str:
    return str(_("%(num)s%%", num=format_decimal(share * 100, pattern)))


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    a: tuple[str, str]  # the figure, its 95% interval
    b: tuple[str, str]
    difference: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Result:
    comparison: Comparison
    summary: list[str]
    rows: tuple[Row, ...]
    turns: PairHistogram
    knockouts: PairHistogram


def _figure(key: str, e: Estimate, signed: bool = False) -> tuple[str, str]:
    if math.isnan(e.value):
        return "-", ""
    scale, pattern = (100, "0.0") if key.endswith("_share") else (1, "0.00")
    if signed:
        pattern = f"+{pattern};-{pattern}"

    def show(x: float) -> str:
        return str(format_decimal(x * scale, pattern))

    unit = "%" if key.endswith("_share") else ""
    if math.isinf(e.low) or math.isinf(e.high):
        return show(e.value) + unit, ""
    return show(e.value) + unit, _(
        "%(low)s to %(high)s", low=show(e.low) + unit, high=show(e.high) + unit
    )


def result(comparison: Comparison) -> Result:
    edges = comparison.turn_edges
    turn_labels = [f"{lo}-{hi - 1}" for lo, hi in itertools.pairwise(edges[:-1])]
    turn_labels.append(f"{edges[-2]}+")
    differences = comparison.differences
    return Result(
        comparison,
        comparison.summary(),
        tuple(
            Row(
                comparison.label(key),
                _figure(key, comparison.a.figures[key]),
                _figure(key, comparison.b.figures[key]),
                _figure(key, differences[key], signed=True),
            )
            for key, _label in MEASURES
        ),
        pair_histogram(
            comparison.a.turns_histogram,
            comparison.b.turns_histogram,
            turn_labels,
            [str(lo) for lo in edges[:-1]],
            every=max(1, math.ceil(len(turn_labels) / 6)),
        ),
        pair_histogram(
            comparison.a.knockouts_histogram,
            comparison.b.knockouts_histogram,
            [str(n) for n in range(len(comparison.a.knockouts_histogram))],
        ),
    )
