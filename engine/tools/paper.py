"""The paper table, reproduced: the uniform policy's mean hand length against the
published research simulator's, at 2 to 6 players (`python -m engine paper`).

The research simulator played 20 million games at each player count with a uniform
random policy (engine/tools/policies.py, "uniform") and reports the mean hand length in
turns, a turn being one action: a play, a take, a draw and the play after it, a
roulette's reveal; a skipped player gets none. Our simulator counts turns the same way
(HandOutcome.turns). Each of our means must land within 1% of the paper's.

One rule differs on purpose: the start card. The research simulator leaves an action
or wild card turned up at the start in the discard pile (the first player faces it);
ours puts it back into the deck and turns up another, until a number card shows, as
the project's rules say (docs/RULES.md).

The start card shortens our hands at two and three players by about 0.7-0.8% (the
cards the research simulator leaves in the discard pile are out of play until a
reshuffle, which short hands seldom reach); README.md gives the run and the experiment
that shows it. The default number of hands keeps the standard error small against the
margin left: 400,000 at two players and 150,000 at three (about two standard errors of
margin), fewer at four to six, where the margin is wide.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..core.rules import OFFICIAL
from .lab import run

PAPER: Final = {2: 31.90, 3: 64.51, 4: 94.25, 5: 117.98, 6: 135.47}
TOLERANCE: Final = 0.01  # of the paper's mean
# Hands per player count: the standard error well under the margin the start card leaves.
HANDS: Final = {2: 400_000, 3: 150_000, 4: 34_000, 5: 30_000, 6: 30_000}
POLICY: Final = "uniform"


@dataclass(frozen=True, slots=True)
class Row:
    players: int
    paper: float
    hands: int
    mean: float
    standard_error: float

    @property
    def difference(self) -> float:
        """Ours minus the paper's, as a share of the paper's."""
        return (self.mean - self.paper) / self.paper

    @property
    def passed(self) -> bool:
        return abs(self.difference) <= TOLERANCE

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "paper": self.paper,
            "hands": self.hands,
            "mean": round(self.mean, 3),
            "standard_error": round(self.standard_error, 3),
            "difference": round(self.difference, 5),
            "passed": self.passed,
        }


def reproduce(
    hands: Mapping[int, int] | int = HANDS,
    *,
    seed: int = 0,
    jobs: int = 1,
    players: tuple[int, ...] = tuple(PAPER),
) -> list[Row]:
    """Play the uniform policy at each player count (official rules) and measure the
    mean hand length; `hands` per count (a number: the same at every count)."""
    rows = []
    for count in players:
        n = hands if isinstance(hands, int) else hands[count]
        (sample,) = run([OFFICIAL], players=count, policy=POLICY, hands=n, seed=seed, jobs=jobs)
        turns = sample.turns
        error = statistics.stdev(turns) / math.sqrt(len(turns)) if len(turns) > 1 else math.inf
        rows.append(Row(count, PAPER[count], len(turns), statistics.fmean(turns), error))
    return rows


def report(rows: list[Row]) -> str:
    """The table as text: players, the paper's mean, ours, its standard error, the
    difference, pass or fail (within 1%)."""
    head = f"{'players':>7}  {'paper':>7}  {'ours':>7}  {'std err':>7}  {'diff':>7}  {'hands':>7}"
    lines = [
        "Mean hand length in turns, uniform random policy, official rules;",
        "the paper: 20 million games per count. Start card: see `paper --help`.",
        head + "  result",
    ]
    for r in rows:
        lines.append(
            f"{r.players:>7}  {r.paper:>7.2f}  {r.mean:>7.2f}  {r.standard_error:>7.3f}  "
            f"{r.difference:>+7.2%}  {r.hands:>7}  {'pass' if r.passed else 'FAIL'}"
        )
    failed = [r.players for r in rows if not r.passed]
    if failed:
        lines.append("More than 1% from the paper at " + ", ".join(map(str, failed)) + " players.")
    else:
        lines.append("Every count within 1% of the paper.")
    return "\n".join(lines) + "\n"
