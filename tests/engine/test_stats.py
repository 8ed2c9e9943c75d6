"""A group's statistics (engine.stats), and who dealt each knockout (KnockedOut.by).

Most figures are checked on one hand-written match of five hands (FRIDAY) where
every way of going out happens: a stack, a roulette, a count corrected, one's
own draw, a quick result; a catch, a stack survived, quick hands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, HouseRules
from engine.core.i18n import language
from engine.core.state import KnockedOut
from engine.tools.simulator import Simulation
from engine.tools.stats import Figures, group_stats, match_stats, stats
from tests.engine.conftest import ROOT, game, record

FRIDAY = record("""
    players: Ann, Bob, Cy
    start: R5
    Cy: has 20
    Ann: R+2
    Bob: R+4
    Cy: take
    Bob: has 25
    hand: 2
    start: G3
    Bob: WCR
    Cy: has 20
    Cy: roulette R 5
    Ann: has 2
    Ann: R3
    Bob: catch Ann
    Bob: R+4
    Ann: W+6 B
    Bob: take
    Ann: B2
    Bob: B9
    Ann: B1
    Bob: reveals 100
    hand: 3
    Bob: out
    Cy: wins
    Ann: reveals 40
    hand: 4
    start: Y4
    Ann: has 20
    Ann: draw 5
    Cy: has 25
    hand: 5
    Ann: wins
    Bob: reveals 200
    Cy: reveals 0
""")
# Hand 1: Cy takes Bob's +6 and is out (dealt by Bob), Bob's count corrected to 25
#   (dealt by nobody): Ann wins as the last player left, holding 6.
# Hand 2: Cy is out on Bob's roulette; Bob catches Ann; Bob survives Ann's +10; Ann
#   wins with her last card, Bob holding 14.
# Hand 3 (quick): Bob out, Cy wins. Hand 4: Ann out on her own draw, Cy by a
#   correction: Bob wins as the last player left, holding 7. Hand 5 (quick): Ann wins.


def friday() -> Game:
    return Game.from_record(FRIDAY)


# ---------------------------------------------------------------- who dealt it


def ko_events(*lines: str, **kwargs: object) -> list[KnockedOut]:
    g = game(*lines, **kwargs)  # type: ignore[arg-type]
    return [e for step in g.steps() for e in step.after.events if isinstance(e, KnockedOut)]


def test_a_stack_knockout_is_dealt_by_the_stacks_last_card() -> None:
    events = ko_events("start: R5", "Cy: has 20", "Ann: R+2", "Bob: R+4", "Cy: take")
    assert events == [KnockedOut("Cy", 25, "Bob")]


def test_a_roulette_knockout_is_dealt_by_who_played_the_roulette() -> None:
    events = ko_events("start: R5", "Bob: has 20", "Ann: WCR", "Bob: roulette G 5")
    assert events == [KnockedOut("Bob", 25, "Ann")]


def test_a_knockout_by_a_correction_or_ones_own_draw_is_dealt_by_nobody() -> None:
    assert ko_events("start: R5", "Bob: has 25") == [KnockedOut("Bob", 25, None)]
    assert ko_events("start: R5", "Ann: has 20", "Ann: draw 5") == [KnockedOut("Ann", 25, None)]


def test_a_correction_of_the_player_facing_a_stack_passes_it_on_with_its_dealer() -> None:
    # Bob is corrected out while facing Ann's +2: Cy faces it, and is out on it.
    events = ko_events("start: R5", "Cy: has 24", "Ann: R+2", "Bob: has 25", "Cy: take")
    assert events == [KnockedOut("Bob", 25, None), KnockedOut("Cy", 25, "Ann")]


def test_a_last_draw_card_under_final_draw_deals_the_knockout() -> None:
    lines = ("start: R5", "Bob: has 15", "Ann: has 2", "Ann: R3", "Bob: R+2", "Cy: R+4")
    events = ko_events(*lines, "Ann: W+6 G", rules=HouseRules(final_draw=True))
    assert events == [KnockedOut("Bob", 25, "Ann")]


def test_ones_own_wild_reverse_draw_4_between_two_deals_no_knockout() -> None:
    # Two left: a Wild Reverse Draw 4 comes back to the player who played it.
    events = ko_events(
        "start: R5", "Ann: has 23", "Ann: WR+4 B", "Ann: take", players=("Ann", "Bob")
    )
    assert events == [KnockedOut("Ann", 25, None)]


def test_a_seven_swap_or_zero_pass_never_knocks_out_the_next_penalty_does() -> None:
    # The hands that move are all under the limit, and the 7's or 0's player holds one
    # card fewer: nobody goes out on the swap. The knockout is the next card's.
    swap = ("start: R5", "Ann: has 24", "Ann: R7 swap Cy")
    g = game(*swap)
    assert g.state.hands[2] == 23 and not g.state.out
    assert ko_events(*swap, "Bob: R+2", "Cy: take") == [KnockedOut("Cy", 25, "Bob")]
    passed = ("start: R5", "Ann: has 24", "Ann: R0")
    assert game(*passed).state.hands[1] == 23
    assert ko_events(*passed, "Bob: draw 2") == [KnockedOut("Bob", 25, None)]


def test_a_catch_cannot_knock_out() -> None:
    # The caught player holds one card and draws two, under the lowest Mercy limit (8).
    g = game("start: R5", "Ann: has 2", "Ann: R3", "Bob: catch Ann", rules=HouseRules(mercy=8))
    assert g.state.hands[0] == 3 and not g.state.out


def test_a_knockout_says_the_same_sentence_whoever_dealt_it() -> None:
    assert str(KnockedOut("Cy", 25, "Bob")) == str(KnockedOut("Cy", 25))


# ---------------------------------------------------------------- every statistic


def test_matches_hands_and_points() -> None:
    s = stats([friday()])
    ann, bob, cy = s.player("Ann"), s.player("bob"), s.player("Cy")
    assert (ann.matches, ann.matches_won, bob.matches, bob.matches_won) == (1, 1, 1, 0)
    assert (ann.hands, ann.hands_won, bob.hands_won, cy.hands_won) == (5, 3, 1, 1)
    assert (ann.points, bob.points, cy.points) == (1050, 500, 290)
    assert s.group.matches == s.group.matches_won == 1
    assert s.group.hands == 5 and s.group.points == 1840
    assert s.matches[0].hand_winners == ("Ann", "Ann", "Cy", "Bob", "Ann")


def test_hands_won_by_the_last_card_and_as_the_last_player_left() -> None:
    s = stats([friday()])
    assert (s.player("Ann").won_by_last_card, s.player("Ann").won_last_standing) == (2, 1)
    assert (s.player("Bob").won_by_last_card, s.player("Bob").won_last_standing) == (0, 1)
    assert (s.player("Cy").won_by_last_card, s.player("Cy").won_last_standing) == (1, 0)


def test_every_knockout_with_who_dealt_it_and_how() -> None:
    match = match_stats(friday())
    assert [(k.hand, k.player, k.by, k.how) for k in match.knockouts] == [
        (1, "Cy", "Bob", "stack"),
        (1, "Bob", None, "correction"),
        (2, "Cy", "Bob", "roulette"),
        (3, "Bob", None, "quick"),
        (4, "Ann", None, "draw"),
        (4, "Cy", None, "correction"),
    ]
    figures = {name: match.player(name) for name in match.players}
    assert {n: f.knockouts_suffered for n, f in figures.items()} == {"Ann": 1, "Bob": 2, "Cy": 3}
    assert {n: f.knockouts_dealt for n, f in figures.items()} == {"Ann": 0, "Bob": 2, "Cy": 0}
    assert (match.group.knockouts_suffered, match.group.knockouts_dealt) == (6, 2)


def test_biggest_stack_taken_and_sent() -> None:
    s = stats([friday()])
    assert (s.player("Ann").biggest_stack_taken, s.player("Ann").biggest_stack_sent) == (0, 10)
    assert (s.player("Bob").biggest_stack_taken, s.player("Bob").biggest_stack_sent) == (10, 6)
    assert (s.player("Cy").biggest_stack_taken, s.player("Cy").biggest_stack_sent) == (6, 0)


def test_uno_missed_and_catches() -> None:
    s = stats([friday()])
    assert (s.player("Ann").uno_missed, s.player("Bob").catches) == (1, 1)
    assert s.group.uno_missed == s.group.catches == 1


def test_average_cards_at_the_end_of_a_hand() -> None:
    # Ann: 6 (hand 1), 0 (hand 2); Bob 14 (hand 2), 7 (hand 4); Cy was knocked out or
    # the hand was a quick result every time.
    s = stats([friday()])
    assert s.player("Ann").average_cards_at_end == 3
    assert s.player("Bob").average_cards_at_end == 10.5
    assert s.player("Cy").average_cards_at_end is None
    assert s.group.average_cards_at_end == 27 / 4


def test_a_row_per_player_per_hand_adds_up_to_the_figures() -> None:
    match = match_stats(friday(), key="m1")
    assert len(match.rows) == 15
    row = next(r for r in match.rows if r.hand == 2 and r.player == "Bob")
    assert row.match == "m1" and not row.won and row.cards_at_end == 14
    assert (row.biggest_stack_taken, row.catches, row.knockouts_dealt) == (10, 1, 1)
    cy = next(r for r in match.rows if r.hand == 1 and r.player == "Cy")
    assert cy.knocked_out and cy.knocked_out_by == "Bob" and cy.cards_at_end is None
    for seat, name in enumerate(match.players):
        assert sum(r.points for r in match.rows if r.player == name) == match.scores[seat]


def test_a_quick_score_match_counts_for_what_it_records() -> None:
    g = game(
        "Bob: out",
        "Ann: wins",
        "Cy: reveals 35",
        "hand: 2",
        "Cy: wins",
        "Ann: reveals 10",
        "Bob: reveals 5",
    )
    s = stats([g])
    ann, bob, cy = s.player("Ann"), s.player("Bob"), s.player("Cy")
    # Still being played: its hands count, the match is neither won nor lost yet.
    assert (ann.matches, ann.hands, ann.hands_won, ann.points) == (0, 2, 1, 285)
    assert (cy.hands_won, cy.points, bob.knockouts_suffered) == (1, 15, 1)
    assert s.group.knockouts_dealt == 0 and s.group.hands_counted == 0
    assert all(row.quick and row.cards_at_end is None for match in s.matches for row in match.rows)


def test_a_match_in_progress_is_not_counted_as_lost() -> None:
    """The bug: a match still being played counted as played and not won, a loss."""
    g = game("Bob: out", "Ann: wins", "Cy: reveals 35")
    s = stats([g])
    for name in ("Ann", "Bob", "Cy"):
        assert (s.player(name).matches, s.player(name).matches_won) == (0, 0)
    assert s.player("Ann").hands_won == 1
    assert s.head_to_head("Ann", "Bob").matches == 0


def test_the_hand_under_way_counts_for_nothing_yet() -> None:
    g = game("start: R5", "Cy: has 20", "Ann: R+2", "Bob: R+4", "Cy: take")
    s = stats([g])
    assert s.group.hands == s.group.matches == 0
    assert s.player("Bob").knockouts_dealt == 0 and not s.matches[0].rows


def test_names_map_a_match_onto_the_groups_players() -> None:
    match = match_stats(friday(), names={"Cy": "Cyrus"})
    assert match.players == ("Ann", "Bob", "Cyrus")
    assert match.knockouts[0].player == "Cyrus" and match.hand_winners[2] == "Cyrus"


def test_matches_add_up_and_names_are_one_player_whatever_the_case() -> None:
    two = game("Bob: wins", "ann: reveals 1000", players=("ann", "Bob"))
    s = group_stats([match_stats(friday()), match_stats(two)])
    assert list(s.players) == ["Ann", "Bob", "Cy"]
    assert s.player("Ann").matches == 2 and s.player("Bob").matches_won == 1
    assert s.player("Ann").biggest_stack_sent == 10  # the biggest, not a sum
    assert s.group == s.matches[0].group + s.matches[1].group
    assert [name for name, _f in s.leaderboard()] == ["Ann", "Bob", "Cy"]


def test_head_to_head() -> None:
    two = game("Bob: wins", "Ann: reveals 1000", players=("Ann", "Bob"))
    s = stats([friday(), two])
    h = s.head_to_head("Ann", "Bob")
    assert (h.matches, h.matches_won, h.hands, h.hands_won) == (2, (1, 1), 6, (3, 2))
    assert h.leader == "Ann"  # even in matches, more hands
    bob_cy = s.head_to_head("Bob", "Cy")
    assert (bob_cy.matches, bob_cy.knockouts_dealt, bob_cy.hands_won) == (1, (2, 0), (1, 1))
    assert bob_cy.leader is None


def test_awards_for_the_winners_screen() -> None:
    awards = match_stats(friday()).awards
    assert [str(a) for a in awards] == [
        "Bob dealt 2 knockouts",
        "Bob survived a +10",
        "Ann sent the biggest stack: +10",
        "Bob caught 1 missed UNO",
        "Ann won 1 hand as the last player left",
        "Bob won 1 hand as the last player left",
    ]
    with language("de"):
        assert str(awards[0]) != "Bob dealt 2 knockouts" and "Bob" in str(awards[0])


def test_figures_add_biggest_as_the_largest() -> None:
    a, b = Figures(hands=2, biggest_stack_taken=12), Figures(hands=3, biggest_stack_taken=8)
    assert a + b == Figures(hands=5, biggest_stack_taken=12)


# ---------------------------------------------------------------- the command line


def run_stats(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "stats", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_prints_a_table_per_player_and_the_awards(tmp_path: Path) -> None:
    (tmp_path / "friday.rec").write_text(FRIDAY)
    proc = run_stats(str(tmp_path / "friday.rec"))
    assert proc.returncode == 0 and not proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:3] == ["player", "matches", "won"]
    assert lines[1].split()[:4] == ["Ann", "1", "1", "5"]
    assert lines[4].startswith("(group)")
    assert "  Bob dealt 2 knockouts" in lines


def test_cli_json(tmp_path: Path) -> None:
    (tmp_path / "a.rec").write_text(FRIDAY)
    (tmp_path / "b.rec").write_text("players: Ann, Dee\nDee: wins\nAnn: reveals 20\n")
    proc = run_stats("--json", str(tmp_path / "a.rec"), str(tmp_path / "b.rec"))
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    # b.rec is still being played: its hand counts, not as a match.
    assert doc["players"]["Ann"]["matches"] == 1 and doc["players"]["Dee"]["points"] == 20
    assert doc["group"]["hands"] == 6
    assert doc["matches"][0]["knockouts"][0] == {
        "hand": 1,
        "player": "Cy",
        "by": "Bob",
        "cards": 25,
        "how": "stack",
    }


def test_cli_a_bad_file_is_named_on_stderr(tmp_path: Path) -> None:
    good = tmp_path / "good.rec"
    good.write_text(FRIDAY)
    (tmp_path / "bad.rec").write_text("players: Ann, Bob\nstart: R5\nAnn: R55\n")
    (tmp_path / "illegal.rec").write_text("players: Ann, Bob\nstart: R5\nBob: R3\n")
    proc = run_stats(str(good), str(tmp_path / "bad.rec"))
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "bad.rec: line 3 is refused [syntax]" in proc.stderr
    proc = run_stats(str(tmp_path / "illegal.rec"))
    assert proc.returncode == 1 and "line 3 is refused [turn]" in proc.stderr
    proc = run_stats(str(tmp_path / "nowhere.rec"))
    assert proc.returncode == 2 and "Cannot read" in proc.stderr


# ---------------------------------------------------------------- against the true cards


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    rules=st.sampled_from(["", "final_draw=on, mercy=10", "scoring=low, mercy=8", "stack=sum"]),
)
def test_statistics_agree_with_a_recount_from_the_true_cards(
    players: int, seed: int, rules: str
) -> None:
    sim = Simulation(players, rules=HouseRules.parse(rules), seed=seed)
    games: list[Game] = []
    for _hand in range(12):
        sim.play_hand()
        if not games or games[-1] is not sim.game:
            games.append(sim.game)
    s, truth = stats(games), sim.truth
    for name in sim.names:
        f = s.player(name)
        assert f.hands_won == truth.hands_won[name]
        assert f.points == truth.points[name]
        assert f.knockouts_suffered == truth.knocked_out[name]
        assert f.knockouts_dealt == truth.knockouts_dealt[name]
        assert f.biggest_stack_taken == truth.biggest_stack_taken[name]
        assert (f.catches, f.uno_missed) == (truth.catches[name], truth.uno_missed[name])
    assert s.group.hands == sum(truth.hands_won.values())
