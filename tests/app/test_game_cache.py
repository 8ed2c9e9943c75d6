"""The game cache, through its public API, with a log standing in for the database.

`Log` holds one match's lines as the database would (row ids never reused) and
counts what the cache reads; the cache must always give the game the log names,
reading only the lines after the last one it has.
"""

from __future__ import annotations

import random
import threading
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GameCache, Logged, NoLongerReplays
from companion.matches import Match
from engine import Game, IllegalActionError

START = datetime(2026, 1, 1)


class Log:
    """One match's log as the database holds it, and the reads made of it."""

    def __init__(self, match_id: str = "m1", players: str = "Ann, Bob, Cy") -> None:
        self.id, self.players = match_id, players
        self.rows: list[tuple[int, str]] = []  # (row id, text), by sequence number - 1
        self.next_id = 1
        self.reads: list[tuple[int, int]] = []  # (first, last) of each read

    def append(self, text: str) -> int:
        self.rows.append((self.next_id, text))
        self.next_id += 1
        return self.rows[-1][0]

    def undo(self) -> None:
        self.rows.pop()

    @property
    def match(self) -> Match:
        """The match row, as one read would give it now."""
        return Match(
            id=self.id,
            players=self.players,
            names=self.players,
            dealer="Cy",
            rules="official",
            mode="referee",
            created_at=START,
            updated_at=START,
            status="playing",
            summary="",
            version=len(self.rows),
            last_line_id=self.rows[-1][0] if self.rows else 0,
            editor_token="e",
            viewer_token="v",
        )

    def read(self, match_id: str, first: int, last: int) -> list[Logged]:
        assert match_id == self.id
        self.reads.append((first, last))
        return [
            (row_id, seq, text, None)  # (no phone recorded these)
            for seq, (row_id, text) in enumerate(self.rows, 1)
            if first <= seq <= last
        ]

    def game(self) -> Game:
        """The game the log names, replayed afresh."""
        game = self.match.new_game()
        for _, text in self.rows:
            game.apply(text)
        return game


def test_a_game_is_built_once_then_only_the_new_lines_are_read() -> None:
    log, cache = Log(), GameCache()
    log.append("start: R5")
    log.append("Ann: R3")
    assert cache.table(log.match, log.read).state.to_json() == log.game().to_json()
    assert log.reads == [(1, 2)]
    assert cache.table(log.match, log.read).version == 2
    assert log.reads == [(1, 2)]  # unchanged: nothing read
    log.append("Bob: R4")
    log.append("Cy: R6")
    table = cache.table(log.match, log.read)
    assert log.reads[-1] == (2, 4)  # its own last line again (still there?), then the new
    assert (table.version, table.last_line_id) == (4, log.rows[-1][0])
    assert table.state.to_json() == log.game().to_json()


def test_lines_undone_elsewhere_are_taken_back_without_a_read() -> None:
    log, cache = Log(), GameCache()
    for text in ("start: R5", "Ann: R3", "Bob: R4"):
        log.append(text)
    cache.table(log.match, log.read)
    log.undo()
    log.undo()
    reads = len(log.reads)
    table = cache.table(log.match, log.read)
    assert len(log.reads) == reads
    assert table.version == 1 and table.state.to_json() == log.game().to_json()


def test_an_undo_and_a_new_line_elsewhere_rebuild_the_game() -> None:
    """The version is as it was, not the last line: the game is not the log any more."""
    log, cache = Log(), GameCache()
    for text in ("start: R5", "Ann: R3"):
        log.append(text)
    cache.table(log.match, log.read)
    log.undo()
    log.append("Ann: R7 swap Bob")
    table = cache.table(log.match, log.read)
    assert table.version == 2 and table.last_line_id == log.rows[-1][0]
    assert table.state.to_json() == log.game().to_json()
    # Longer than the game, from a line it no longer has: read, found gone, built afresh.
    log.undo()
    log.append("Ann: R2")
    log.append("Bob: R4")
    assert cache.table(log.match, log.read).state.to_json() == log.game().to_json()
    assert log.reads[-2:] == [(2, 3), (1, 3)]


def test_a_judged_line_moves_the_game_on_once_written() -> None:
    log, cache = Log(), GameCache()
    log.append("start: R5")
    table = cache.table(log.match, log.read)
    step = cache.judge_cached(log.id, table.version, table.last_line_id, "Ann: R3")
    assert step is not None
    assert cache.table(log.match, log.read).version == 1  # judged, not applied
    row_id = log.append(str(step.line))
    cache.recorded(log.id, step, row_id)
    reads = len(log.reads)
    table = cache.table(log.match, log.read)
    assert len(log.reads) == reads and table.version == 2
    assert table.state is step.after


def test_a_step_judged_on_a_game_that_moved_since_is_not_applied() -> None:
    log, cache = Log(), GameCache()
    log.append("start: R5")
    cache.table(log.match, log.read)
    step = cache.judge_cached(log.id, 1, log.rows[-1][0], "Ann: R3")
    assert step is not None
    other = cache.judge_cached(log.id, 1, log.rows[-1][0], "Ann: R4")
    assert other is not None
    cache.recorded(log.id, other, log.append("Ann: R4"))  # the other phone's, first
    cache.recorded(log.id, step, 99)  # never written: the game has moved on
    table = cache.table(log.match, log.read)
    assert [str(s.line) for s in table.recent][-1] == "Ann: R4"
    assert table.state.to_json() == log.game().to_json()


def test_a_line_is_judged_only_on_the_game_at_exactly_that_point() -> None:
    log, cache = Log(), GameCache()
    assert cache.judge_cached(log.id, 0, 0, "start: R5") is None  # no game here yet
    log.append("start: R5")
    cache.table(log.match, log.read)
    assert cache.judge_cached(log.id, 0, 0, "start: R5") is None  # an older table
    assert cache.judge_cached(log.id, 1, 12345, "Ann: R3") is None  # another log
    try:
        cache.judge_cached(log.id, 1, log.rows[-1][0], "Bob: R3")
    except IllegalActionError as refusal:
        assert refusal.rule == "turn"
    else:
        raise AssertionError("out of turn, judged legal")


def test_the_least_recently_used_games_go_beyond_the_bound() -> None:
    cache = GameCache(max_lines=10)
    logs = [Log(f"m{i}") for i in range(3)]
    for log in logs:
        log.append("start: R5")
        for text in ("Ann: R3", "Bob: R4", "Cy: R6"):
            log.append(text)
        cache.table(log.match, log.read)
    assert len(cache) == 2 and cache.lines() <= 10  # m0 went first
    reads = len(logs[0].reads)
    cache.table(logs[0].match, logs[0].read)
    assert logs[0].reads[reads:] == [(1, 4)]  # built again


def test_no_lock_is_held_while_the_database_is_read() -> None:
    """Another request for the same match goes on while this one waits for its lines."""
    log, cache = Log(), GameCache()
    log.append("start: R5")
    others: list[bool] = []

    def slow_read(match_id: str, first: int, last: int) -> list[Logged]:
        def another_request() -> None:
            cache.judge_cached(log.id, 1, log.rows[-1][0], "Ann: R3")
            others.append(True)

        thread = threading.Thread(target=another_request)
        thread.start()
        thread.join(timeout=5)
        return log.read(match_id, first, last)

    cache.table(log.match, slow_read)
    assert others == [True]


def test_a_log_the_engine_refuses_is_never_kept() -> None:
    log, cache = Log(), GameCache()
    log.append("start: R5")
    log.append("Bob: R3")  # out of turn: never in a real log
    with pytest.raises(NoLongerReplays) as refused:  # said as the match's, by its play
        cache.table(log.match, log.read)
    assert refused.value.play == 2 and isinstance(refused.value.error, IllegalActionError)
    log.undo()
    assert cache.table(log.match, log.read).version == 1
    assert log.reads[-1] == (1, 1)  # built afresh: nothing of the refused game was kept


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(["play", "play", "play", "undo", "look"]), max_size=40), st.integers()
)
def test_the_cached_game_is_always_the_log(moves: list[str], seed: int) -> None:
    """Whatever the log does between two requests, the cache gives the game it names."""
    rng = random.Random(seed)
    log, cache = Log(), GameCache()
    for move in moves:
        truth = log.game()
        if move == "undo" and log.rows:
            log.undo()
        elif move == "play":
            state = truth.state
            if state.status == "playing" and not state.started:
                log.append("start: R5")
            elif state.status == "hand_over":
                log.append(f"hand: {state.hand + 1}")
            elif actions := truth.legal_actions().actions():
                log.append(str(rng.choice(actions)))
        table = cache.table(log.match, log.read)
        assert (table.version, table.last_line_id) == (log.match.version, log.match.last_line_id)
        assert table.state.to_json() == log.game().to_json()
