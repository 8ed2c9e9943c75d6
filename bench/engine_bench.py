"""Engine speed, and how it compares: actions per second with legality every step, simulated
hands per second, replay time, and the statistics of a group (engine.tools.stats) per 1,000 lines.

Run: .venv/bin/python bench/engine_bench.py [--hands N] [--seed S] [--rounds R]
                                           [--baseline REF | --no-baseline]

The two loops that matter (issue 16's targets) are timed in processes of their own
(bench/engine_worker.py), round after round, alternately for:

- the engine of this checkout;
- the engine of git ref REF (`--baseline`, default BASELINE_REF: the engine before the
  speed work of issue 16), extracted with `git archive REF engine` into a temporary folder;
- RLCard's classic UNO when it is installed (`pip install -e '.[bench]'`): 4 players through
  its game object, `rlcard.games.uno.Game`: `init_game()`, then `get_legal_actions()` and
  `step(action)` with an action drawn uniformly from the legal ones (its environment,
  `rlcard.make('uno')`, adds an observation encoding per step and is 2.5 times slower: the
  game object is the fair match for our engine, and the harder one). Without RLCard that
  comparison is skipped with a message.

Each figure is the best of its rounds (the least disturbed by the machine's other work;
each process also takes the best of 3 passes over the same work),
and every ratio is printed from figures of this one run. It asserts nothing: timed tests
are flaky on shared machines. Figures and their history: docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, HouseRules, replay  # noqa: E402
from engine.tools import Simulation, group_stats, match_stats  # noqa: E402

WORKER = Path(__file__).resolve().parent / "engine_worker.py"
# The engine before issue 16's speed work: what "today" meant in the issue.
BASELINE_REF = "af6f18c6984ea37b4c3465e4c9ee8c9dc9fc3006"
RLCARD_STEPS = 200_000


def recorded_match(players: int, hands: int, seed: int) -> list[list[str]]:
    """Records of simulated matches (4 players by default), as lists of lines."""
    sim = Simulation(players, seed=seed)
    records: list[list[str]] = []
    for _ in range(hands):
        before = sim.game
        sim.play_hand()
        if sim.game is not before:
            records.append(before.record().splitlines())
    records.append(sim.game.record().splitlines())
    return records


def replay_ms(lines: list[str], rounds: int) -> float:
    text = "\n".join(lines) + "\n"
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = replay(text)
        times.append(time.perf_counter() - start)
        assert result.error is None
    return statistics.median(times) * 1000


def thousand_lines(seed: int) -> list[str]:
    sim = Simulation(4, seed=seed, rules=HouseRules(target=100_000))  # one long match
    while len(sim.game.lines) < 1000:
        sim.play_hand()
    return sim.game.record().splitlines()[:1000]


def stats_ms_per_thousand_lines(records: list[list[str]], rounds: int) -> tuple[float, int]:
    """engine.tools.stats over games already replayed (the app keeps them): one pass each, then
    the group's sum. Best of `rounds`, in ms per 1,000 lines."""
    games = [Game.from_record("\n".join(lines)) for lines in records]
    count = sum(len(game) for game in games)
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        group_stats(match_stats(game, key=i) for i, game in enumerate(games))
        best = min(best, time.perf_counter() - start)
    return best * 1000 / count * 1000, count


def extract_engine(ref: str, into: Path) -> Path:
    """The `engine` folder of git ref `ref`, written under `into`; `into` is returned."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "engine"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise SystemExit(f"Can't take the engine of '{ref}': {archive.stderr.decode().strip()}")
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def measure(args: list[str], expect: Path | None) -> float:
    """Run one measurement of engine_worker.py; its rate. `expect`: the engine root it
    must have timed (None for RLCard)."""
    done = subprocess.run(
        [sys.executable, str(WORKER), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"The measurement {args[0]} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    if expect is not None and not Path(result["engine"]).is_relative_to(expect):
        raise SystemExit(f"{args[0]} timed the engine at {result['engine']}, not {expect}")
    return float(result["rate"])


def compare(records: list[list[str]], args: argparse.Namespace) -> None:
    """The apply loop and the simulator, this engine against the baseline's (and RLCard),
    in alternate processes, best of `args.rounds` each."""
    with tempfile.TemporaryDirectory(prefix="engine-bench-") as tmp:
        folder = Path(tmp, "records")
        folder.mkdir()
        for i, lines in enumerate(records):
            Path(folder, f"{i:04d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        count = sum(len(lines) - 1 for lines in records)
        engines = {"this engine": ROOT}
        if args.baseline:
            engines[f"baseline {args.baseline[:10]}"] = extract_engine(
                args.baseline, Path(tmp, "baseline")
            )
        with_rlcard = importlib.util.find_spec("rlcard") is not None
        apply: dict[str, list[float]] = {name: [] for name in engines}
        hands: dict[str, list[float]] = {name: [] for name in engines}
        rlcard: list[float] = []
        for _ in range(args.rounds):
            for name, root in engines.items():
                apply[name].append(measure(["apply", str(root), str(folder), "3"], root))
                hands[name].append(
                    measure(["hands", str(root), str(args.hands), str(args.seed), "3"], root)
                )
            if with_rlcard:
                rlcard.append(measure(["rlcard", str(RLCARD_STEPS), str(args.seed)], None))

    print(f"\nBest of {args.rounds} alternate rounds, one process each:")
    print(f"  actions applied per second (legal_actions every step, {count:,} lines):")
    for name, rates in apply.items():
        print(f"    {name:<22} {max(rates):>10,.0f}")
    print(f"  simulated 4-player hands per second ({args.hands} hands, seed {args.seed}):")
    for name, rates in hands.items():
        print(f"    {name:<22} {max(rates):>10,.1f}")
    current = max(apply["this engine"])
    if args.baseline:
        base = f"baseline {args.baseline[:10]}"
        print(
            f"  ratio, this engine / baseline: actions {current / max(apply[base]):.2f}x, "
            f"hands {max(hands['this engine']) / max(hands[base]):.2f}x"
        )
    if with_rlcard:
        steps = max(rlcard)
        print(f"  RLCard classic UNO steps per second (4 players, game object): {steps:,.0f}")
        print(f"  ratio, this engine's actions / RLCard's steps: {current / steps:.2f}x")
    else:
        print(
            "  RLCard is not installed: the comparison with RLCard's classic UNO is skipped "
            "(install it with: pip install -e '.[bench]')."
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default=BASELINE_REF, help="git ref of the engine to beat")
    parser.add_argument("--no-baseline", dest="baseline", action="store_const", const="")
    args = parser.parse_args()

    records = recorded_match(4, args.hands, args.seed)
    per_thousand, count = stats_ms_per_thousand_lines(records, rounds=5)
    print(
        f"statistics of replayed games (match_stats + group_stats): {per_thousand:.2f} ms "
        f"per 1,000 lines  ({count:,} lines, {len(records)} matches)"
    )
    lines = thousand_lines(args.seed)
    print(
        f"replay of a {len(lines)}-line record (parse + apply), median: "
        f"{replay_ms(lines, rounds=20):.2f} ms"
    )
    compare(records, args)


if __name__ == "__main__":
    main()
