"""Engine speed: actions per second with legality every step, hands per second, replay time,
and the statistics of a group (engine.stats) per 1,000 lines of replayed games.

Run: .venv/bin/python bench/engine_bench.py [--hands N] [--seed S]
Prints figures; it asserts nothing (timed tests are flaky on shared machines).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, HouseRules, PlayersLine, replay
from engine.simulator import Simulation
from engine.stats import group_stats, match_stats


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


def actions_per_second(records: list[list[str]], rounds: int) -> tuple[float, int]:
    """Apply pre-parsed lines with `legal_actions().cards` computed before each one."""
    parsed = []
    for lines in records:
        game = Game.from_record("\n".join(lines))
        parsed.append(game.lines)
    count = sum(len(lines) - 1 for lines in parsed)
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for lines in parsed:
            first = lines[0]
            assert isinstance(first, PlayersLine)
            game = Game(first.names)
            for line in lines[1:]:
                game.legal_actions().cards  # noqa: B018 - legality every step
                game.apply(line)
        best = min(best, time.perf_counter() - start)
    return count / best, count


def hands_per_second(players: int, hands: int, seed: int) -> float:
    sim = Simulation(players, seed=seed)
    start = time.perf_counter()
    sim.play_hands(hands)
    return hands / (time.perf_counter() - start)


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
    """engine.stats over games already replayed (the app keeps them): one pass each, then
    the group's sum. Best of `rounds`, in ms per 1,000 lines."""
    games = [Game.from_record("\n".join(lines)) for lines in records]
    count = sum(len(game) for game in games)
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        group_stats(match_stats(game, key=i) for i, game in enumerate(games))
        best = min(best, time.perf_counter() - start)
    return best * 1000 / count * 1000, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    records = recorded_match(4, args.hands, args.seed)
    rate, count = actions_per_second(records, rounds=3)
    print(f"actions applied per second (legal_actions every step): {rate:,.0f}  ({count:,} lines)")
    print(
        f"full hands per second (simulator, 4 players, true cards): "
        f"{hands_per_second(4, args.hands, args.seed):,.1f}"
    )
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


if __name__ == "__main__":
    main()
