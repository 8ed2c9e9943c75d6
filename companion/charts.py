"""Charts drawn on the server as SVG: the numbers and shapes here, the markup in
templates/_charts.html. Readable in light and dark (CSS classes and currentColor, never
a fixed colour for what matters), told apart by markers and patterns, not colour alone;
each template draws the chart with role="img" and a <title>, and a table of the same
numbers for screen readers.

The scoreboard's totals chart (companion/views/scores.py) uses PALETTE and MARKERS too."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Dark enough for text on white (4.5:1), told apart by markers too, not colour alone.
PALETTE = ("#b91c1c", "#1d4ed8", "#15803d", "#7e22ce", "#c2410c", "#0e7490")


def _star(points: int = 5, outer: float = 1.15, inner: float = 0.5) -> str:
    corners = []
    for k in range(2 * points):
        r, a = (outer if k % 2 == 0 else inner), math.pi * k / points - math.pi / 2
        corners.append(f"{r * math.cos(a):.2f},{r * math.sin(a):.2f}")
    return "M" + " L".join(corners) + "Z"


# Each player's marker: SVG path data in a box from -1 to 1 around the point, drawn
# (not a character: a phone may lack the font), the same shape in the chart and key.
MARKERS = (
    ("circle", "M-1,0 A1,1 0 1,0 1,0 A1,1 0 1,0 -1,0Z"),
    ("square", "M-0.85,-0.85 H0.85 V0.85 H-0.85Z"),
    ("triangle", "M0,-1.1 L1.05,0.85 H-1.05Z"),
    ("diamond", "M0,-1.15 L1.15,0 L0,1.15 L-1.15,0Z"),
    ("star", _star()),
    ("cross", "M-0.35,-1.1 H0.35 V-0.35 H1.1 V0.35 H0.35 V1.1 H-0.35 V0.35 H-1.1 V-0.35 H-0.35Z"),
)
CIRCLE, STAR = MARKERS[0][1], MARKERS[4][1]
# Each player's line drawn its own way too (SVG stroke-dasharray), so lines that run
# together stay apart without colour: solid, dashed, dotted, dash-dot, long dash, dots.
DASHES = ("", "7 3", "2 3", "8 3 2 3", "12 4", "1 5")

WIDTH = 320  # every chart's viewBox width; it scales to the screen's
PAD = 28
ROW = 34  # a bar chart's row: the name above, the bar (or two) below
LABEL = 46  # room at a bar's end for its number


@dataclass(frozen=True, slots=True)
class Point:
    label: str  # what the point is (a match: its date)
    value: int
    won: bool | None  # None: the match is still being played
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Results:
    """A player's points per match in date order: a line, a star where they won."""

    points: tuple[Point, ...]
    line: str  # SVG polyline points
    ticks: tuple[tuple[float, str], ...]  # (y, label)
    width: int
    height: int
    pad: int
    star: str
    circle: str


def results(values: Sequence[tuple[str, int, bool | None]], height: int = 160) -> Results:
    """(label, points, won) per match, oldest first (won None: still being played)."""
    top = max([v for _l, v, _w in values] + [1])
    inner_w, inner_h = WIDTH - 2 * PAD, height - 2 * PAD
    steps = max(len(values) - 1, 1)
    points = tuple(
        Point(
            label,
            value,
            won,
            PAD + (inner_w * i / steps if len(values) > 1 else inner_w / 2),
            PAD + inner_h * (1 - max(value, 0) / top),
        )
        for i, (label, value, won) in enumerate(values)
    )
    ticks = tuple((PAD + inner_h * (1 - v / top), str(v)) for v in sorted({0, top // 2, top}))
    line = " ".join(f"{p.x:.1f},{p.y:.1f}" for p in points)
    return Results(points, line, ticks, WIDTH, height, PAD, STAR, CIRCLE)


@dataclass(frozen=True, slots=True)
class Bar:
    value: int
    share: str  # what the bar's end says ("3", "40%")
    x: float
    y: float  # the bar's top
    length: float


@dataclass(frozen=True, slots=True)
class BarRow:
    name: str
    y: float  # the name's baseline
    bars: tuple[Bar, ...]  # one, or a pair (dealt, suffered)


@dataclass(frozen=True, slots=True)
class Bars:
    rows: tuple[BarRow, ...]
    width: int
    height: int
    bar: float  # a bar's thickness


def _bars(rows: Sequence[tuple[str, Sequence[int], Sequence[str]]], per_row: int) -> Bars:
    top = max([v for _n, values, _s in rows for v in values] + [1])
    room = WIDTH - LABEL
    thickness = 10.0 if per_row == 1 else 8.0
    row_height = ROW + (per_row - 1) * (thickness + 2)
    drawn = []
    for i, (name, values, said) in enumerate(rows):
        y = i * row_height + 12
        bars = tuple(
            Bar(v, s, 0.0, y + 4 + k * (thickness + 2), room * v / top)
            for k, (v, s) in enumerate(zip(values, said, strict=True))
        )
        drawn.append(BarRow(name, y, bars))
    return Bars(tuple(drawn), WIDTH, int(max(len(rows) * row_height + 4, ROW)), thickness)


def win_shares(rows: Sequence[tuple[str, int]]) -> Bars:
    """(name, matches won) per player: one bar each, its share of the group's wins."""
    total = sum(won for _n, won in rows)
    return _bars(
        [
            (name, [won], [f"{won} · {round(100 * won / total) if total else 0}%"])
            for name, won in rows
        ],
        1,
    )


def knockouts(rows: Sequence[tuple[str, int, int]]) -> Bars:
    """(name, dealt, suffered) per player: a pair of bars each (solid, hatched)."""
    return _bars([(name, [d, s], [str(d), str(s)]) for name, d, s in rows], 2)
