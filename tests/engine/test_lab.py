"""The house-rule lab (engine/tools/lab.py): reproducible, honest intervals, a plain summary."""

from __future__ import annotations

import json
import math

import pytest

from engine.__main__ import main
from engine.core.rules import OFFICIAL, HouseRules
from engine.tools.lab import Comparison, Estimate, compare, difference, mean, median, relative

SUM_30 = HouseRules.parse("stack=sum, mercy=30")


@pytest.fixture(scope="module")
def small() -> Comparison:
    return compare(OFFICIAL, SUM_30, players=3, hands=120, seed=5)


def test_the_same_seed_gives_the_same_figures_whatever_the_processes(small: Comparison) -> None:
    parallel = compare(OFFICIAL, SUM_30, players=3, hands=120, seed=5, jobs=2)
    assert parallel.to_json() == small.to_json()


def test_another_seed_gives_other_hands(small: Comparison) -> None:
    other = compare(OFFICIAL, SUM_30, players=3, hands=120, seed=6)
    assert other.a.figures["turns"] != small.a.figures["turns"]


def test_every_hand_asked_for_is_played_and_counted(small: Comparison) -> None:
    for side in (small.a, small.b):
        assert side.hands + side.unfinished == 120
        assert sum(side.turns_histogram) == side.hands
        assert sum(side.knockouts_histogram) == side.hands
        assert side.matches > 0


def test_each_figure_lies_inside_its_interval(small: Comparison) -> None:
    for side in (small.a, small.b):
        for key, estimate in side.figures.items():
            assert estimate.low <= estimate.value <= estimate.high, key
    for key, estimate in small.differences.items():
        assert estimate.low <= estimate.value <= estimate.high, key


def test_a_rule_set_against_itself_shows_no_difference_in_hand_length() -> None:
    same = compare(OFFICIAL, OFFICIAL, players=3, hands=100, seed=1)
    assert same.differences["turns"].value == 0
    assert not same.longer.significant
    assert "no difference found" in same.summary()[0]


def test_mean_interval_is_the_normal_one() -> None:
    e = mean([1, 2, 3, 4])
    assert e.value == 2.5
    assert math.isclose(e.high - e.value, 1.959964 * 1.2909944 / 2, rel_tol=1e-6)


def test_median_interval_holds_the_middle_ranks() -> None:
    e = median(list(range(101)))
    assert e.value == 50
    assert e.low < 50 < e.high
    assert e.high - e.low <= 22


def test_difference_and_relative_change() -> None:
    a, b = Estimate.around(100, 1), Estimate.around(112, 1)
    assert difference(a, b).value == 12
    assert difference(a, b).significant
    assert math.isclose(relative(a, b).value, 0.12)


def test_the_summary_says_what_the_rule_does_in_plain_words() -> None:
    result = compare(OFFICIAL, HouseRules.parse("mercy=12"), players=3, hands=120, seed=2)
    a, b = (round(s.figures["knockout_share"].value * 100) for s in (result.a, result.b))
    assert result.summary()[:2] == [
        f"With mercy=12, hands last {round(-result.longer.value * 100)}% shorter "
        f"(±{round((result.longer.high - result.longer.value) * 100)}%) than with official.",
        f"With mercy=12, {b}% of hands end by knockout instead of {a}%.",
    ]


def test_json_round_trip(small: Comparison) -> None:
    data = json.loads(json.dumps(small.to_json()))
    assert Comparison.from_json(data).to_json() == data
    assert data["summary"] == small.summary()


def test_command_line_report_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["lab", "--players", "3", "--a", "official", "--b", "stack=sum", "--hands", "60"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "A: official   B: stack=sum" in out
    assert "mean hand length (turns)" in out and "B - A (95% CI)" in out
    assert main([*args, "--json", "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["rules"] == "official" and data["b"]["rules"] == "stack=sum"
    assert data["a"]["hands"] + data["a"]["unfinished"] == 60


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--b", "stak=sum"], "Rule set B (stak=sum): There is no house rule 'stak'"),
        (["--players", "7"], "lab needs 2 to 6 players."),
        (["--hands", "1"], "lab needs at least 2 hands"),
        (["--policy", "psychic"], "There is no policy 'psychic'"),
        (["--jobs", "0"], "--jobs needs at least 1"),
    ],
)
def test_bad_command_lines_are_refused_in_plain_words(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lab", "--hands", "10", *args]) == 2
    assert says in capsys.readouterr().err
