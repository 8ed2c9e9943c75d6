"""The games a process has rebuilt from matches' logs, kept so a request's cost stays flat.

A match's state is its lines replayed by the engine. Each process keeps the last games it
built, by match id, and checks one against the match row before use: lines are only ever
appended or undone at the end and row ids are never reused, so the version (last
sequence number) and the last line's id name the whole log. A game behind the row is
brought up to it by reading only the lines after its last one; one ahead (lines undone
elsewhere) takes them back.

The database is the truth, this is only a copy: a line is written first, and the game is
moved on afterwards from what was written (`recorded`, `undone`). Each game has a lock of
its own, held while the game is read or changed and never while the database is asked
anything: a request for one match never waits on another match, nor on the network.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TypeVar

from companion.bounded import Bounded
from companion.matches import RECENT, Match, Table
from engine import EngineError, Game, Line, Step

T = TypeVar("T")

# (row id, sequence number, text, the phone that recorded it) of a logged line.
Logged = tuple[int, int, str, str | None]
# Reads a match's lines `first`..`last` (sequence numbers, inclusive), in order.
ReadLines = Callable[[str, int, int], list[Logged]]

# A game keeps a snapshot per line (about 2 kB): the cache is bounded by lines, so a
# process holds at most some 100 MB of games however long the matches get.
MAX_LINES = 50_000
ATTEMPTS = 3  # reads to catch a game up while other requests keep moving it


class NoLongerReplays(EngineError):
    """A stored match this version of the engine refuses (a name a newer rule forbids,
    say): its players (`play` 0) or one of its plays (`play`: its number in the log).
    Still an EngineError for the reads that say a match in a line of their own; the
    views answer it with a page of its own (companion/views/unreplayable.py)."""

    def __init__(self, match_id: str, play: int, error: EngineError) -> None:
        super().__init__(error.message, error.rule)
        self.match_id, self.play, self.error = match_id, play, error


@dataclass(eq=False)
class _Game:
    """One match's game, and the row id of each of its lines and the phone that recorded
    it (by sequence number - 1)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    game: Game | None = None  # None: not built yet, or dropped
    ids: list[int] = field(default_factory=list)
    phones: list[str | None] = field(default_factory=list)
    # The match header it was built from (players, dealer, rules): a player renamed
    # (companion/groups.py) changes it, and the game is then built again from line 1.
    header: tuple[str, str, str] = ("", "", "")

    @property
    def version(self) -> int:
        return len(self.ids)

    @property
    def last_line_id(self) -> int:
        return self.ids[-1] if self.ids else 0

    @property
    def size(self) -> int:
        """What it weighs in the cache's bound: its lines, and its header as one."""
        return len(self.ids) + 1

    def at(self, version: int, last_line_id: int) -> bool:
        return self.game is not None and (self.version, self.last_line_id) == (
            version,
            last_line_id,
        )

    def first_to_read(self, match: Match) -> int | None:
        """None when the game is the match's log (after taking back lines undone since);
        else the first line to read: its own last line again (to check it is still
        there) before the new ones, or line 1 to build it afresh."""
        version, last = match.version, match.last_line_id
        if self.game is not None and self.header == _header(match):
            if self.version >= version and (version == 0 or self.ids[version - 1] == last):
                while self.version > version:  # lines undone by another process
                    self.pop()
                return None
            if 0 < self.version < version:
                return self.version
        return 1

    def take(self, match: Match, first: int, rows: list[Logged]) -> None:
        """Apply the lines read from `first` on; a game they don't follow is dropped.
        NoLongerReplays when the engine refuses the match's header or one of its lines."""
        play = 0
        try:
            if first == 1:
                self.game, self.header = match.new_game(), _header(match)
                self.ids, self.phones = [], []
            elif not rows or rows[0][:2] != (self.last_line_id, self.version):
                self.forget()  # its last line is gone: build it afresh
                return
            else:
                rows = rows[1:]
            assert self.game is not None
            for row_id, seq, text, phone in rows:
                play = seq  # named if the engine refuses it
                self.game.apply(text)
                self.ids.append(row_id)
                self.phones.append(phone)
        except EngineError as refused:  # never keep half of a log
            self.forget()
            raise NoLongerReplays(match.id, play, refused) from refused
        except BaseException:  # worse: never keep half of it either
            self.forget()
            raise

    def forget(self) -> None:
        self.game, self.ids, self.phones = None, [], []

    def push(self, step: Step, row_id: int, phone: str | None) -> None:
        assert self.game is not None
        self.game.push(step)
        self.ids.append(row_id)
        self.phones.append(phone)

    def pop(self) -> None:
        assert self.game is not None
        self.game.undo()
        self.ids.pop()
        self.phones.pop()


def _header(match: Match) -> tuple[str, str, str]:
    return match.players, match.dealer, match.rules


class GameCache:
    """The process's games, least recently used dropped first beyond `max_lines` lines."""

    def __init__(self, max_lines: int = MAX_LINES) -> None:
        self.max_lines = max_lines
        # Its lock guards the dictionary only, never a game.
        self._games: Bounded[str, _Game] = Bounded(max_lines, weight=lambda game: game.size)

    def __len__(self) -> int:
        return len(self._games)

    def lines(self) -> int:
        """Lines held, over all games (each game's header counts as one)."""
        return sum(g.size for g in self._games.values())

    def clear(self) -> None:
        self._games.clear()

    # ------------------------------------------------------------ reading

    def table(self, match: Match, read_lines: ReadLines) -> Table:
        """The match as its row names it: its game, brought up to the row."""
        with self._holding(match, read_lines) as held:
            return self._table(match, held)

    def steps(self, match: Match, read_lines: ReadLines) -> tuple[Table, tuple[Step, ...]]:
        """The match as its row names it, with every step of its game, oldest first (the
        whole log: the states are values, so they are read after the lock is let go)."""
        with self._holding(match, read_lines) as held:
            assert held.game is not None
            return self._table(match, held), tuple(held.game.steps())

    def read(
        self, match: Match, read_lines: ReadLines, reader: Callable[[Game], T]
    ) -> tuple[Table, T]:
        """`reader` given the match's game as its row names it, under its lock (it must
        only read it, and quickly: one pass), with the table it read."""
        with self._holding(match, read_lines) as held:
            assert held.game is not None
            return self._table(match, held), reader(held.game)

    def record(self, match: Match, read_lines: ReadLines, *, key: bool = True) -> str:
        """The match's table record, as of its row (without its key: key=False)."""
        with self._holding(match, read_lines) as held:
            assert held.game is not None
            return held.game.record(key=key)

    # ------------------------------------------------------------ judging and moving on

    def judge_cached(
        self, match_id: str, version: int, last_line_id: int, text: str
    ) -> Step | None:
        """The line judged on this process's game of the match, if it has one at exactly
        that point of the log (no read); None if not. Raises the engine's refusal."""
        held = self._games.peek(match_id)
        if held is None:
            return None
        with held.lock:
            if not held.at(version, last_line_id):
                return None
            assert held.game is not None
            return held.game.judge(text)

    def judge(
        self, match: Match, read_lines: ReadLines, text: str
    ) -> tuple[Table, Step | EngineError]:
        """The line judged on the match as its row names it: the table it was judged on
        (its log, if that moved while it was read, is not quite the row's), and the
        step, or the engine's refusal."""
        with self._holding(match, read_lines) as held:
            table = self._table(match, held)
            assert held.game is not None
            try:
                return table, held.game.judge(text)
            except EngineError as refusal:
                return table, refusal

    def judge_all(
        self, match: Match, read_lines: ReadLines, lines: Sequence[Line | str]
    ) -> tuple[Table, tuple[Step, ...] | EngineError]:
        """`judge` for several lines, each on the state the one before it leaves."""
        with self._holding(match, read_lines) as held:
            table = self._table(match, held)
            assert held.game is not None
            try:
                return table, held.game.judge_all(lines)
            except EngineError as refusal:
                return table, refusal

    def recorded(self, match_id: str, step: Step, row_id: int, phone: str | None = None) -> None:
        """The judged step was written as line `row_id` by `phone`: move the game on with
        it, if it is still where the step was judged (else it catches up when next asked
        for)."""
        held = self._get(match_id)
        if held is None:
            return
        with held.lock:
            if held.game is not None and held.game.state is step.before:
                held.push(step, row_id, phone)

    def undone(self, match_id: str, version: int, line_id: int) -> None:
        """Line `version` (row `line_id`) was taken off the log: take it back here too."""
        held = self._get(match_id)
        if held is None:
            return
        with held.lock:
            if held.at(version, line_id):
                held.pop()

    # ------------------------------------------------------------ the games

    def _get(self, match_id: str) -> _Game | None:
        return self._games.peek(match_id)

    def _entry(self, match_id: str) -> _Game:
        return self._games.setdefault(match_id, _Game)

    @contextmanager
    def _holding(self, match: Match, read_lines: ReadLines) -> Iterator[_Game]:
        """The match's game, brought up to the match row, held (locked) for the block.

        Lines are read with the lock let go. If the log moved meanwhile (an undo
        elsewhere), the game read is still a log the database had, only not the row's:
        the block gets it as it is (its version and last line say which), and the caller
        checks it is the table a form was made on before judging anything on it.
        """
        held = self._entry(match.id)
        for _ in range(ATTEMPTS):
            with held.lock:
                first = held.first_to_read(match)
                if first is None:
                    yield held
                    return
                point = (held.game is not None, held.version, held.last_line_id)
            rows = read_lines(match.id, first, match.version) if match.version else []
            with held.lock:
                if point == (held.game is not None, held.version, held.last_line_id):
                    held.take(match, first, rows)
                    if held.game is not None:  # else its last line was gone: from line 1
                        self._games.bound()  # by lines: the game grew
                        yield held
                        return
                # else another request moved it meanwhile: look again
        raise RuntimeError(f"match {match.id}: its game kept moving while it was read")

    @staticmethod
    def _table(match: Match, held: _Game) -> Table:
        assert held.game is not None
        shown = replace(match, version=held.version, last_line_id=held.last_line_id)
        last_by = held.phones[-1] if held.phones else None
        return Table(shown, held.game.state, held.game.last_steps(RECENT), last_by)
