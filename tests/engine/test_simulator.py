"""The table simulator: real shuffled cards, the engine fed only the public lines.

After every line the simulator compares the engine's counts (hands, draw
pile, discard pile, set-aside cards) with the true cards it holds; a
difference is a mismatch. The default run plays well over a thousand hands
across every table size and several house-rule sets; the slow run plays
10,000 (`make test-slow`).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import DECK_SIZE, Game, HouseRules
from engine.tools.simulator import Simulation, Stats
from tests.engine.conftest import ROOT

# (players, hands, house rules as in a rules: header, seed)
LONG_RUN = (4, 1500, "official", 1)
RUNS = [
    LONG_RUN,
    (2, 300, "official", 2),
    (3, 300, "official", 3),
    (5, 300, "official", 4),
    (6, 300, "official", 5),
    (4, 300, "stack=sum, draw=one, final_draw=on", 6),
    (3, 300, "seven=off, zero=off, scoring=low, target=300, mercy=10", 7),
    (5, 200, "stack=sum, final_draw=on, mercy=40, target=500", 8),
    (6, 200, "draw=one, zero=off, mercy=8, scoring=low", 9),
]


@functools.cache
def run(players: int, hands: int, rules: str = "official", seed: int = 0) -> Simulation:
    """A simulation played to the end (shared by the tests that only read it)."""
    sim = Simulation(players, rules=HouseRules.parse(rules), seed=seed)
    sim.play_hands(hands)
    return sim


def assert_sane(stats: Stats, hands: int) -> None:
    assert stats.mismatches == 0, stats.first_mismatch
    assert stats.first_mismatch == ""
    assert stats.hands == hands and stats.unfinished_hands == 0
    assert len(stats.turns_per_hand) == hands and min(stats.turns_per_hand) > 0
    assert stats.turns / stats.hands > 0
    assert stats.lines >= stats.turns
    assert stats.biggest_stack >= 2
    assert stats.stacks_taken > 0
    assert stats.reshuffles >= 0 and stats.knockouts >= 0 and stats.uno_catches >= 0
    assert 0 <= stats.matches <= hands


def test_the_default_run_plays_over_a_thousand_hands() -> None:
    assert sum(hands for _, hands, _, _ in RUNS) >= 1000
    assert {players for players, _, _, _ in RUNS} == {2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    ("players", "hands", "rules", "seed"),
    RUNS,
    ids=[f"{p}p-{h}-{r.replace(', ', '+').replace('=', '-')}" for p, h, r, _ in RUNS],
)
def test_the_engine_counts_every_card(players: int, hands: int, rules: str, seed: int) -> None:
    sim = run(players, hands, rules, seed)
    assert_sane(sim.stats, hands)
    game = sim.game
    assert game.state.total_cards() == DECK_SIZE
    assert game.rules == HouseRules.parse(rules)
    # The match in progress replays from its record to the same state.
    assert Game.from_record(game.record()).to_json() == game.to_json()


def test_the_long_run_sees_every_kind_of_event() -> None:
    """Over 1,500 hands at four seats the rare events all happen, and matches end."""
    stats = run(*LONG_RUN).stats
    assert stats.matches >= 10
    assert stats.knockouts > 0 and stats.reshuffles > 0 and stats.uno_catches > 0
    assert stats.biggest_stack >= 10
    report = stats.to_json()
    assert report["mean_turns_per_hand"] == round(stats.turns / stats.hands, 2) > 0
    assert report["knockouts_per_hand"] == round(stats.knockouts / stats.hands, 3)


def test_without_mercy_the_counts_still_match() -> None:
    """mercy=off: hands grow huge and piles run dry; hands may hit the simulator's turn cap."""
    stats = run(2, 8, "mercy=off", 10).stats
    assert stats.mismatches == 0, stats.first_mismatch
    assert stats.hands + stats.unfinished_hands == 8
    assert stats.reshuffles > 0


@pytest.mark.slow
def test_ten_thousand_hands_without_a_mismatch() -> None:
    sim = Simulation(4, seed=2024)
    assert_sane(sim.play_hands(10_000), 10_000)


def test_the_same_seed_gives_the_same_record() -> None:
    first, second = Simulation(4, seed=11), Simulation(4, seed=11)
    assert first.play_hands(40) == second.play_hands(40)
    assert first.game.record() == second.game.record()
    other = Simulation(4, seed=12)
    other.play_hands(40)
    assert other.game.record() != first.game.record()


# ---------------------------------------------------------------- the command line


def engine_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


SIMULATE = ("simulate", "--players", "3", "--hands", "20", "--seed", "5")


def test_simulate_prints_the_statistics() -> None:
    result = engine_cli(*SIMULATE)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for words in ("mean turns per hand", "knockouts per hand", "reshuffles", "biggest stack taken"):
        assert words in out, out
    assert "mismatches" in out


def test_simulate_json() -> None:
    result = engine_cli(*SIMULATE, "--json")
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert isinstance(stats, dict)
    for key in ("mean_turns_per_hand", "knockouts_per_hand", "reshuffles", "biggest_stack_taken"):
        assert key in stats
    assert stats["hands"] == 20 and stats["mismatches"] == 0
    assert stats["mean_turns_per_hand"] > 0
    # The same run in-process gives the same statistics.
    assert stats == run(3, 20, seed=5).stats.to_json()


def test_simulate_writes_a_record_that_check_accepts(tmp_path: Path) -> None:
    path = tmp_path / "simulated.rec"
    result = engine_cli(*SIMULATE, "--record", str(path))
    assert result.returncode == 0, result.stderr
    text = path.read_text(encoding="utf-8")
    assert text.startswith("players: Ann, Bob, Cy\n")

    checked = engine_cli("check", str(path))
    assert checked.returncode == 0, checked.stdout
    state = json.loads(checked.stdout)
    final = run(3, 20, seed=5).game
    assert text == final.record()
    assert state["hands"] == final.to_json()["hands"]
    assert state["scores"] == final.to_json()["scores"]
    assert state == final.to_json()


def test_simulate_with_house_rules() -> None:
    result = engine_cli(
        "simulate", "--players", "2", "--hands", "10", "--rules", "stack=sum, mercy=10", "--json"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hands"] == 10


def test_the_same_seed_gives_the_same_record_file(tmp_path: Path) -> None:
    paths = [tmp_path / "a.rec", tmp_path / "b.rec"]
    for path in paths:
        assert engine_cli(*SIMULATE, "--record", str(path)).returncode == 0
    assert paths[0].read_text(encoding="utf-8") == paths[1].read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "7"),
        ("--players", "1"),
        ("--hands", "0"),
        ("--rules", "stack=most"),
        ("--players", "many"),
        ("--colour", "red"),
    ],
    ids=["7-players", "1-player", "0-hands", "bad-rules", "not-a-number", "unknown-option"],
)
def test_simulate_refuses_bad_arguments(args: tuple[str, ...]) -> None:
    result = engine_cli("simulate", *args)
    assert result.returncode != 0
    assert result.stderr.strip(), "a refusal says why"
