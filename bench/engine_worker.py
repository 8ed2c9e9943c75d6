"""One timed measurement of one engine, in a process of its own: engine_bench.py runs this
file once per round and per engine (the current one, a baseline extracted from git, RLCard)
so that their figures come from the same run, alternately, on the same machine.

    python bench/engine_worker.py apply ENGINE_ROOT RECORDS_DIR ROUNDS
    python bench/engine_worker.py hands ENGINE_ROOT HANDS SEED ROUNDS
    python bench/engine_worker.py rlcard STEPS SEED

ENGINE_ROOT is the folder holding the `engine` package to time. Prints one JSON object:
the figure, and the engine's file (the bench checks it timed the engine it meant to).
Standard library only (and RLCard for `rlcard`): nothing here may import this project's
code before ENGINE_ROOT is on the path.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import time
from pathlib import Path


def use_engine(root: str) -> str:
    """Put the engine under `root` first on the path; its package file, to be checked."""
    sys.path.insert(0, root)
    import engine

    return str(engine.__file__)


def apply_loop(records_dir: str, rounds: int) -> float:
    """Actions per second: lines parsed beforehand, then for each one
    `game.legal_actions().cards` (what the table screen shows) and `game.apply(line)`.
    Best of `rounds` passes over every record."""
    from engine import Game, PlayersLine

    parsed = [
        Game.from_record(path.read_text(encoding="utf-8")).lines
        for path in sorted(Path(records_dir).glob("*.txt"))
    ]
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
    return count / best


def hands_loop(hands: int, seed: int, rounds: int) -> float:
    """Simulated 4-player hands per second (true cards, the simulator's default policy):
    the same `hands` hands (same seed) played `rounds` times, the best."""
    try:  # the engine's tools, or a baseline's from before they had a package
        from engine.tools import Simulation
    except ImportError:
        Simulation = importlib.import_module("engine.simulator").Simulation

    best = float("inf")
    for _ in range(rounds):
        sim = Simulation(4, seed=seed)
        start = time.perf_counter()
        sim.play_hands(hands)
        best = min(best, time.perf_counter() - start)
    return hands / best


def rlcard_loop(steps: int, seed: int) -> float:
    """RLCard's classic UNO, 4 players, through its game object (`rlcard.games.uno.Game`:
    `init_game`, then `get_legal_actions` and `step` with one of them drawn uniformly):
    the rules engine alone, as our loop times ours, without the environment's
    observation encoding (which would make RLCard 2.5 times slower)."""
    import numpy as np
    from rlcard.games.uno import Game

    game = Game(num_players=4)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    game.init_game()
    start = time.perf_counter()
    for _ in range(steps):
        if game.is_over():
            game.init_game()
        game.step(rng.choice(game.get_legal_actions()))
    return steps / (time.perf_counter() - start)


def main(argv: list[str]) -> None:
    what, *args = argv
    if what == "apply":
        root, records, rounds = args
        where = use_engine(root)
        print(json.dumps({"rate": apply_loop(records, int(rounds)), "engine": where}))
    elif what == "hands":
        root, hands, seed, rounds = args
        where = use_engine(root)
        rate = hands_loop(int(hands), int(seed), int(rounds))
        print(json.dumps({"rate": rate, "engine": where}))
    elif what == "rlcard":
        steps, seed = args
        import rlcard

        rate = rlcard_loop(int(steps), int(seed))
        print(json.dumps({"rate": rate, "engine": str(rlcard.__file__)}))
    else:
        raise SystemExit(f"unknown measurement {what!r}: apply, hands or rlcard")


if __name__ == "__main__":
    main(sys.argv[1:])
