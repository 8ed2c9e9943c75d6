"""The house-rule lab: two rule sets played by the simulator, compared with confidence.

`compare` plays `hands` simulated hands under each rule set (real shuffled decks,
engine/tools/simulator.py) and measures what a table feels: how long a hand lasts, how often
it ends by knockout, how many hands a match takes, and how often the first player wins.
Each figure comes with its 95% confidence interval, and so does each difference (B
minus A): a normal approximation over thousands of independent hands, the median's
from its order statistics.

The hands are played in chunks of `CHUNK` hands, each with its own seed derived from
`seed` and the chunk's index, so a run gives the same figures whatever the number of
processes (`jobs`). A chunk plays its hands, then finishes the match it is in (those
extra hands count toward the match's length only), so every match started is measured.
"""

from __future__ import annotations

import bisect
import gc
import math
import shlex
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.i18n import N_, _
from ..core.rules import HouseRules
from .simulator import HandOutcome, Simulation

CHUNK: Final = 250  # hands per unit of work: a seed of its own, one progress step
Z95: Final = 1.959964  # the normal quantile of a two-sided 95% interval
DEFAULT_PACE: Final = 6.0  # seconds a turn takes at a real table, for minutes
LONGEST_MATCH: Final = 10_000  # hands, a guard for rules under which nobody reaches the target
HISTOGRAM_BINS: Final = 24

Progress = Callable[[int, int], None]  # (hands done, hands in all), both rule sets


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


# ---------------------------------------------------------------- playing


@dataclass(frozen=True)
class Chunk:
    """One unit of work: `hands` hands under `rules`, then the match in progress."""

    rules: HouseRules
    players: int
    policy: str
    hands: int
    seed: int


def play_chunk(chunk: Chunk) -> Sample:
    # The collector off for the chunk: the simulation makes next to no reference cycles
    # (15 unreachable objects after 1,600 hands), and its many small snapshots made the
    # collector cost 2-6% of the run (bench/lab.py, docs/PERFORMANCE.md).
    was_on = gc.isenabled()
    gc.disable()
    try:
        return _play_chunk(chunk)
    finally:
        if was_on:
            gc.enable()


def _play_chunk(chunk: Chunk) -> Sample:
    sim = Simulation(chunk.players, rules=chunk.rules, seed=chunk.seed, policy=chunk.policy)
    sample = Sample()
    played = 0
    while played < chunk.hands:
        hand = sim.play_hand()
        sample.add_hand(hand)
        played += 1
        if hand.match_hands is not None:
            sample.match_hands.append(hand.match_hands)
    # Finish the match in progress, for its length only; a hand that never ends (no
    # Mercy) abandons the match.
    extra = 0
    while sim.game.state.status == "hand_over" and extra < LONGEST_MATCH:
        hand = sim.play_hand()
        extra += 1
        if hand.match_hands is not None:
            sample.match_hands.append(hand.match_hands)
    return sample


def chunks(rules: HouseRules, players: int, policy: str, hands: int, seed: int) -> list[Chunk]:
    sizes = [CHUNK] * (hands // CHUNK) + ([hands % CHUNK] if hands % CHUNK else [])
    return [
        Chunk(rules, players, policy, size, seed * 1_000_003 + index)
        for index, size in enumerate(sizes)
    ]


def run(
    rules: Sequence[HouseRules],
    *,
    players: int,
    policy: str,
    hands: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[Sample]:
    """`hands` hands under each rule set; one Sample per rule set, in order. The same
    seeds for every rule set: the first deal of each chunk is the same deck."""
    work = [
        (side, chunk)
        for side, rule_set in enumerate(rules)
        for chunk in chunks(rule_set, players, policy, hands, seed)
    ]
    results: list[Sample | None] = [None] * len(work)
    total, done = hands * len(rules), 0
    if progress:
        progress(0, total)
    if jobs <= 1:
        for i, (_side, chunk) in enumerate(work):
            results[i] = play_chunk(chunk)
            done += chunk.hands
            if progress:
                progress(done, total)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_chunk, chunk): i for i, (_side, chunk) in enumerate(work)}
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                done += work[i][1].hands
                if progress:
                    progress(done, total)
    samples = [Sample() for _ in rules]
    for (side, _chunk), result in zip(work, results, strict=True):
        assert result is not None
        samples[side].extend(result)
    return samples


# ---------------------------------------------------------------- measuring

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


def _error(estimate: Estimate) -> float:
    return (estimate.high - estimate.low) / (2 * Z95)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """B minus A, the two independent."""
    return Estimate.around(b.value - a.value, math.hypot(_error(a), _error(b)))


def relative(a: Estimate, b: Estimate) -> Estimate:
    """B over A minus one (0.12: 12% more), its interval by the delta method."""
    if not a.value:
        return Estimate(math.nan, math.nan, math.nan)
    ratio = b.value / a.value
    error = math.hypot(_error(b) / a.value, ratio * _error(a) / a.value)
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


# ---------------------------------------------------------------- the comparison


@dataclass(frozen=True)
class Side:
    rules: HouseRules
    hands: int  # that ended
    unfinished: int  # stopped after MAX_TURNS_PER_HAND turns
    matches: int  # played to their end
    figures: dict[str, Estimate]
    turns_histogram: list[int]
    knockouts_histogram: list[int]  # hands with 0, 1, 2, ... knockouts

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": str(self.rules),
            "hands": self.hands,
            "unfinished": self.unfinished,
            "matches": self.matches,
            "figures": {key: e.to_json() for key, e in self.figures.items()},
            "turns_histogram": self.turns_histogram,
            "knockouts_histogram": self.knockouts_histogram,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Side:
        return cls(
            rules=HouseRules.parse(data["rules"]),
            hands=data["hands"],
            unfinished=data["unfinished"],
            matches=data["matches"],
            figures={key: Estimate(**e) for key, e in data["figures"].items()},
            turns_histogram=data["turns_histogram"],
            knockouts_histogram=data["knockouts_histogram"],
        )


@dataclass(frozen=True)
class Comparison:
    """Rule set A against rule set B: each side's figures and B minus A."""

    players: int
    policy: str
    hands: int  # asked for, per rule set
    seed: int
    pace: float  # seconds per turn, for minutes
    a: Side
    b: Side
    turn_edges: list[int]

    @property
    def differences(self) -> dict[str, Estimate]:
        return {key: difference(self.a.figures[key], self.b.figures[key]) for key, _l in MEASURES}

    @property
    def longer(self) -> Estimate:
        """How much longer a hand lasts under B, as a fraction of A's mean."""
        return relative(self.a.figures["turns"], self.b.figures["turns"])

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "policy": self.policy,
            "hands": self.hands,
            "seed": self.seed,
            "pace": self.pace,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "difference": {key: e.to_json() for key, e in self.differences.items()},
            "turn_edges": self.turn_edges,
            "summary": self.summary(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Comparison:
        return cls(
            players=data["players"],
            policy=data["policy"],
            hands=data["hands"],
            seed=data["seed"],
            pace=data["pace"],
            a=Side.from_json(data["a"]),
            b=Side.from_json(data["b"]),
            turn_edges=data["turn_edges"],
        )

    def label(self, key: str) -> str:
        template = dict(MEASURES)[key]
        return _(template, pace=self.pace)

    def summary(self) -> list[str]:
        """What B does to a game, in plain sentences (only the differences found)."""
        a, b = self.a, self.b
        names = {"a": str(a.rules), "b": str(b.rules)}
        out: list[str] = []
        longer = self.longer
        if math.isnan(longer.value):
            pass
        elif not longer.significant:
            out.append(
                _(
                    "With {b}, hands last about as long as with {a} (no difference found).",
                    **names,
                )
            )
        else:
            percent = round(abs(longer.value) * 100)
            error = max(1, round(_error(longer) * Z95 * 100))
            template = (
                N_("With {b}, hands last {percent} longer (±{error}) than with {a}.")
                if longer.value > 0
                else N_("With {b}, hands last {percent} shorter (±{error}) than with {a}.")
            )
            out.append(_(template, percent=per_cent(percent), error=per_cent(error), **names))
        ko = self.differences["knockout_share"]
        if ko.significant:
            out.append(self._knockout_sentence(names))
        hands = self.differences["match_hands"]
        if hands.significant:
            out.append(
                _(
                    "A match takes {b_hands:.1f} hands on average instead of {a_hands:.1f}.",
                    a_hands=a.figures["match_hands"].value,
                    b_hands=b.figures["match_hands"].value,
                )
            )
        first = self.differences["first_player_share"]
        if first.significant:
            out.append(
                _(
                    "The player who plays first wins {b_percent} of hands instead of {a_percent}.",
                    a_percent=per_cent(round(a.figures["first_player_share"].value * 100)),
                    b_percent=per_cent(round(b.figures["first_player_share"].value * 100)),
                )
            )
        if len(out) == 1 and not longer.significant:
            out.append(_("No other difference was found either."))
        return out

    def _knockout_sentence(self, names: dict[str, str]) -> str:
        return _(
            "With {b}, {b_percent} of hands end by knockout instead of {a_percent}.",
            a_percent=per_cent(round(self.a.figures["knockout_share"].value * 100)),
            b_percent=per_cent(round(self.b.figures["knockout_share"].value * 100)),
            **names,
        )

    def report(self) -> str:
        """The comparison as a text table, then the summary."""
        heads = ["", "A", "B", "B - A (95% CI)"]
        rows = [heads]
        for key, _label in MEASURES:
            rows.append(
                [
                    self.label(key),
                    _show(key, self.a.figures[key]),
                    _show(key, self.b.figures[key]),
                    _show_difference(key, self.differences[key]),
                ]
            )
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = [
            f"A: {self.a.rules}   B: {self.b.rules}",
            f"{self.players} players, policy {self.policy}, {self.hands} hands each, "
            f"seed {self.seed}",
            "",
        ]
        for row in rows:
            cells = [f"{row[0]:<{widths[0]}}"] + [
                f"{c:>{w}}" for c, w in zip(row[1:], widths[1:], strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        lines.append("")
        lines.extend(self.summary())
        return "\n".join(lines) + "\n"


def per_cent(number: int) -> str:
    """12 as "12%" the way the language writes it ("12 %" in French)."""
    return _("{n}%", n=number)


def _show(key: str, e: Estimate) -> str:
    if math.isnan(e.value):
        return "-"
    if key.endswith("_share"):
        return f"{e.value * 100:.1f}%"
    return f"{e.value:.2f}"


def _show_difference(key: str, e: Estimate) -> str:
    if math.isnan(e.value):
        return "-"
    if key.endswith("_share"):
        return f"{e.value * 100:+.1f}% ({e.low * 100:+.1f} to {e.high * 100:+.1f})"
    return f"{e.value:+.2f} ({e.low:+.2f} to {e.high:+.2f})"


def command_line(
    a: HouseRules, b: HouseRules, *, players: int, policy: str, hands: int, seed: int
) -> str:
    """The command that plays the same comparison again, figure for figure (whatever
    --jobs), from the project's checkout."""
    return shlex.join(
        [
            *("python", "-m", "engine", "lab", "--players", str(players)),
            *("--a", str(a), "--b", str(b), "--hands", str(hands)),
            *("--policy", policy, "--seed", str(seed)),
        ]
    )


def compare(
    a: HouseRules,
    b: HouseRules,
    *,
    players: int = 4,
    policy: str = "table",
    hands: int = 20_000,
    seed: int = 0,
    jobs: int = 1,
    pace: float = DEFAULT_PACE,
    progress: Progress | None = None,
) -> Comparison:
    """Play `hands` hands under each rule set and compare them (see the module's text)."""
    sample_a, sample_b = run(
        [a, b], players=players, policy=policy, hands=hands, seed=seed, jobs=jobs, progress=progress
    )
    edges = turn_edges([sample_a, sample_b])

    def side(rules: HouseRules, sample: Sample) -> Side:
        return Side(
            rules=rules,
            hands=len(sample.turns),
            unfinished=sample.unfinished,
            matches=len(sample.match_hands),
            figures=figures(sample, pace),
            turns_histogram=histogram(sample.turns, edges),
            knockouts_histogram=histogram(sample.knockouts, list(range(players + 1))),
        )

    return Comparison(
        players=players,
        policy=policy,
        hands=hands,
        seed=seed,
        pace=pace,
        a=side(a, sample_a),
        b=side(b, sample_b),
        turn_edges=edges,
    )
