"""The house-rule lab's speed: one comparison of two rule sets, timed whole.

Run: .venv/bin/python bench/lab.py [--hands 20000] [--jobs 2] [--players 4]
                                   [--policy uniform] [--a official] [--b "stack=sum, mercy=30"]

It runs `engine.lab.compare` exactly as `python -m engine lab` does (the hands of
both rule sets in chunks over `--jobs` processes) and prints the wall time, the hands
per second in all, and the issue's target (a 20,000-hand comparison on two cores in
under 30 s). It asserts nothing: the output is the measure (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import HouseRules
from engine.tools import POLICIES, compare

TARGET_SECONDS = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="per rule set")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    default_policy = "uniform" if "uniform" in POLICIES else POLICIES[0]
    parser.add_argument("--policy", default=default_policy)
    parser.add_argument("--a", default="official")
    parser.add_argument("--b", default="stack=sum, mercy=30")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    a, b = HouseRules.parse(args.a), HouseRules.parse(args.b)
    print(
        f"lab: {args.players} players, policy {args.policy}, {args.hands} hands per rule set, "
        f"{args.jobs} processes on {os.cpu_count()} cores; A: {a}  B: {b}"
    )
    start = time.perf_counter()
    result = compare(
        a,
        b,
        players=args.players,
        policy=args.policy,
        hands=args.hands,
        seed=args.seed,
        jobs=args.jobs,
    )
    seconds = time.perf_counter() - start
    hands = 2 * args.hands
    print(f"wall time            {seconds:.1f} s")
    print(f"hands per second     {hands / seconds:.0f} (both rule sets, all processes)")
    if args.hands == 20_000 and args.jobs == 2:
        verdict = "PASS" if seconds < TARGET_SECONDS else "NOT MET"
        print(f"target               under {TARGET_SECONDS:.0f} s: {verdict}")
    print()
    print(result.report(), end="")


if __name__ == "__main__":
    main()
