"""The house-rule lab: two rule sets played by the simulator, compared with confidence.

`compare` plays `hands` simulated hands under each rule set (real shuffled decks,
engine/tools/simulator.py) and measures what a table feels: how long a hand lasts, how often
it ends by knockout, how many hands a match takes, and how often the first player wins.
Each figure comes with its 95% confidence interval, and so does each difference (B
minus A): a normal approximation over thousands of independent hands, the median's
from its order statistics (engine/tools/measures.py).

The hands are played in chunks of `CHUNK` hands, each with its own seed derived from
`seed` and the chunk's index, so a run gives the same figures whatever the number of
processes (`jobs`). A chunk plays its hands, then finishes the match it is in (those
extra hands count toward the match's length only), so every match started is measured.
"""

from __future__ import annotations

import gc
import math
import shlex
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Final

from ..core.i18n import N_, _
from ..core.rules import HouseRules
from .measures import MEASURES as MEASURES
from .measures import Z95 as Z95
from .measures import Estimate as Estimate
from .measures import Sample as Sample
from .measures import difference as difference
from .measures import figures as figures
from .measures import histogram as histogram
from .measures import mean as mean
from .measures import median as median
from .measures import relative as relative
from .measures import standard_error
from .measures import turn_edges as turn_edges
from .simulator import Simulation

CHUNK: Final = 250  # hands per unit of work: a seed of its own, one progress step
DEFAULT_PACE: Final = 6.0  # seconds a turn takes at a real table, for minutes
LONGEST_MATCH: Final = 10_000  # hands, a guard for rules under which nobody reaches the target

Progress = Callable[[int, int], None]  # (hands done, hands in all), both rule sets


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
            error = max(1, round(standard_error(longer) * Z95 * 100))
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
