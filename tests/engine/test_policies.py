"""The simulator's policies (engine/tools/policies.py): each plays only what the rules allow and
the engine counts every card; the uniform policy is uniform over kinds; the strategic one
beats it; the command line asks for any of them. Also the reshuffle-during-a-draw bug and
the stack statistic."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout

import pytest

from engine import DECK_SIZE, Game, HouseRules
from engine.__main__ import main
from engine.core.cards import Card, Color
from engine.core.i18n import language
from engine.tools.paper import PAPER, Row, report
from engine.tools.policies import POLICIES, UniformPolicy, explain, make, title
from engine.tools.simulator import Simulation

R5, B7, R2, B4 = (Card.parse(code) for code in ("R5", "B7", "R+2", "B+4"))
STATE = Game(["Ann", "Bob"]).state  # the uniform policy never reads it


# ---------------------------------------------------------------- legal and counted

# (policy, house rules): every policy under the official rules and the variants that
# change what a policy is asked (draw=one, stack=sum, the final draw, no 7s and 0s).
VARIANTS = [
    (policy, rules)
    for policy in ("uniform", "strategic")
    for rules in ("official", "stack=sum, draw=one, final_draw=on", "seven=off, zero=off, mercy=15")
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(("policy", "rules"), VARIANTS)
def test_each_policy_plays_legally_and_the_engine_counts_every_card(
    policy: str, rules: str, players: int
) -> None:
    hands = 60 if rules == "official" else 25
    sim = Simulation(players, rules=HouseRules.parse(rules), seed=players, policy=policy)
    outcomes = [sim.play_hand() for _ in range(hands)]
    stats = sim.stats
    assert stats.mismatches == 0, stats.first_mismatch
    assert stats.hands == hands and all(o.finished for o in outcomes)
    assert stats.turns == sum(o.turns for o in outcomes) > 0
    assert sim.game.state.total_cards() == DECK_SIZE
    assert Game.from_record(sim.game.record()).to_json() == sim.game.to_json()


def test_careful_players_never_miss_uno_and_nobody_catches() -> None:
    for policy in ("uniform", "strategic"):
        sim = Simulation(4, seed=3, policy=policy)
        sim.play_hands(40)
        assert sim.stats.uno_catches == 0
        assert "catch" not in sim.game.record()


def test_an_unknown_policy_is_refused_with_the_names() -> None:
    with pytest.raises(ValueError, match="table, uniform, strategic"):
        Simulation(3, policy="greedy")
    with pytest.raises(ValueError, match="3 players need 3 seat policies"):
        Simulation(3, seat_policies=["uniform", "table"])


# ---------------------------------------------------------------- the uniform policy

TRIES = 6000


def within(count: int, share: float, tries: int = TRIES) -> bool:
    """`count` of `tries` is within five standard deviations of `share` (seeded: never flaky)."""
    sd = (tries * share * (1 - share)) ** 0.5
    return abs(count - tries * share) <= 5 * sd


def test_the_uniform_policy_picks_a_kind_not_a_card() -> None:
    """Three R5s and a B7: each kind half the time (the table policy: R5 three times in four)."""
    hand = [R5, R5, R5, B7]
    uniform = UniformPolicy(random.Random(1))
    picks = Counter(uniform.play(STATE, hand, hand) for _ in range(TRIES))
    assert within(picks[R5], 1 / 2) and within(picks[B7], 1 / 2)
    table = make("table", random.Random(1))
    picks = Counter(table.play(STATE, hand, hand) for _ in range(TRIES))
    assert within(picks[R5], 3 / 4)


def test_facing_a_stack_the_uniform_policy_stacks_a_kind_or_takes_alike() -> None:
    hand = [R2, R2, B4, R5]
    uniform = UniformPolicy(random.Random(2))
    picks = Counter(uniform.answer_stack(STATE, hand, [R2, R2, B4]) for _ in range(TRIES))
    assert set(picks) == {R2, B4, None}
    assert all(within(n, 1 / 3) for n in picks.values()), picks
    assert all(uniform.answer_stack(STATE, hand, []) is None for _ in range(20))


def test_the_uniform_policy_names_colours_and_partners_at_random() -> None:
    uniform = UniformPolicy(random.Random(3))
    hand = [R5, R5, R5]  # a player who holds only red still names any colour
    for pick in (uniform.wild_color, uniform.roulette_color):
        colours = Counter(pick(hand) for _ in range(TRIES))
        assert set(colours) == set(Color)
        assert all(within(n, 1 / 4) for n in colours.values()), colours
    partners = Counter(uniform.swap_partner(STATE, [1, 2, 3]) for _ in range(TRIES))
    assert all(within(n, 1 / 3) for n in partners.values()), partners


# ---------------------------------------------------------------- the strategic policy


def test_the_strategic_policy_stacks_small_and_sheds_big() -> None:
    strategic = make("strategic", random.Random(4))
    hand = [R2, B4, Card.parse("W+10"), R5, Card.parse("G9"), Card.parse("RDA")]
    assert strategic.answer_stack(STATE, hand, [B4, Card.parse("W+10"), R2]) is R2
    # The Discard All takes R+2 and R5 with it: 20 + 20 + 5 beats the G9 and the wild.
    playable = [Card.parse("W+10"), Card.parse("G9"), Card.parse("RDA")]
    assert strategic.play(STATE, hand, playable) is Card.parse("RDA")
    assert strategic.play(STATE, hand, [Card.parse("WCR"), Card.parse("W+10")]) is Card.parse(
        "W+10"
    )
    assert strategic.wild_color([R5, R2, B7]) is Color.RED
    g9, b1 = Card.parse("G9"), Card.parse("B1")
    assert strategic.roulette_color([R5, R2, B7, b1, g9, g9]) is Color.YELLOW  # none held


def test_strategic_players_beat_uniform_ones_head_to_head() -> None:
    """Two players, each policy in each seat: the careful one wins most hands."""
    wins: Counter[str] = Counter()
    for seats in (["strategic", "uniform"], ["uniform", "strategic"]):
        sim = Simulation(2, seed=3, seat_policies=seats)
        sim.play_hands(150)
        assert sim.stats.mismatches == 0, sim.stats.first_mismatch
        for name, policy in zip(sim.names, seats, strict=True):
            wins[policy] += sim.truth.hands_won[name]
    assert wins["strategic"] > 0.55 * (wins["strategic"] + wins["uniform"]), wins


# ---------------------------------------------------------------- explained, translated


def test_every_policy_is_explained_in_every_language() -> None:
    assert POLICIES == ("table", "uniform", "strategic")
    for name in POLICIES:
        english = title(name), explain(name)
        assert english[0].lower() == name
        with language("fr"):
            assert title(name) != english[0] or name == "table"  # "Table" in French too
            assert explain(name) != english[1]
    with pytest.raises(ValueError, match="no policy"):
        explain("greedy")
    with pytest.raises(ValueError, match="no policy"):
        title("greedy")


# ---------------------------------------------------------------- the bug and the statistic


def test_a_reshuffle_during_a_draw_brings_back_kinds_that_were_all_discarded() -> None:
    """The issue's case (`simulate --players 4 --hands 11 --seed 1`): Ann, facing R7 with
    both R1s in the discard pile, draws Y5; the pile is reshuffled; she draws Y2, G0, R1.
    The rules stop her at R1 (both are back in play); the simulator drew on to G7,
    judging the cards against the kinds allowed before the reshuffle."""
    sim = Simulation(4, seed=1)
    sim.play_hands(11)
    assert sim.stats.mismatches == 0
    record = sim.game.record()
    assert "Bob: R7 swap Ann\nAnn: draw 4, R1\n" in record
    assert "Ann: draw 5, G7 swap Bob" not in record


def test_the_stack_statistic_gives_the_stack_and_the_cards_drawn() -> None:
    """Mercy caps the cards drawn (in this run an 18-card draw for a +26 stack)."""
    sim = Simulation(4, seed=1)
    outcomes = [sim.play_hand() for _ in range(11)]
    stats = sim.stats
    assert stats.biggest_stack == max(o.biggest_stack for o in outcomes) == 26
    assert stats.biggest_stack_drawn == 18
    report = stats.to_json()
    assert report["biggest_stack_taken"] == 26
    assert report["most_cards_drawn_for_a_stack"] == 18
    assert "most cards drawn for a stack  18" in stats.report()


# ---------------------------------------------------------------- the command line


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_simulate_takes_a_policy() -> None:
    args = ("--players", "3", "--hands", "20", "--seed", "5", "--policy", "uniform")
    code, out, _err = run_cli("simulate", *args, "--json")
    assert code == 0
    sim = Simulation(3, seed=5, policy="uniform")
    assert json.loads(out) == sim.play_hands(20).to_json()
    code, out, err = run_cli("simulate", "--policy", "greedy")
    assert code == 2 and out == ""
    assert "There is no policy 'greedy'. Policies: table, uniform, strategic." in err


def test_paper_prints_the_table_and_fails_when_a_count_is_off() -> None:
    code, out, _err = run_cli("paper", "--hands", "6", "--json")
    rows = json.loads(out)
    assert [r["players"] for r in rows] == [2, 3, 4, 5, 6]
    assert all(r["hands"] == 6 and r["paper"] == PAPER[r["players"]] for r in rows)
    assert code == (0 if all(r["passed"] for r in rows) else 1)
    good, off = Row(4, 94.25, 1000, 95.1, 0.2), Row(5, 117.98, 1000, 116.6, 0.3)
    assert good.passed and not off.passed
    text = report([good, off])
    assert "      4    94.25    95.10    0.200   +0.90%     1000  pass" in text
    assert "FAIL" in text and "More than 1% from the paper at 5 players." in text
