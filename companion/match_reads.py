"""What the screens read of the matches: one call per question, answered from the
database and the process's games (`GameCache`); nothing here writes.

`MatchReads` is the read half of the match store (companion/store.py: `Store` adds the
use cases that write, and is the one writer of `match`, `match_line` and `used_key`,
through companion/statements.py). A match is read with one primary-key read of its row;
its state is its log replayed by the engine, kept per process and brought up to the row
by reading only the lines after the game's last one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from sqlalchemy import Engine
from werkzeug.exceptions import NotFound

from companion import statements
from companion.access import Kind, Phone, Role
from companion.games import GameCache, Logged, NoLongerReplays, T
from companion.log import MatchLog, by_hand
from companion.matches import Match, Table
from companion.outcomes import Changed, Unchanged
from companion.taps import UNDONE_ELSEWHERE
from engine import EngineError, Game, State, summary, whose_turn, written_record

MATCH_ID_LENGTH = 32  # the column's width: a longer id names no match


class MatchReads:
    """The matches in the database and their games in this process (`games`).

    `engines` are the app's, by bind, as Flask-SQLAlchemy made them for it (once, at
    start): held here, they are read without an app context (an unchanged poll,
    companion/quiet_polls.py, makes none)."""

    def __init__(self, engines: Mapping[str | None, Engine], games: GameCache) -> None:
        # The app's database engine (transactions: undo, import, new links).
        self.engine: Engine = engines[None]
        # The engine for one-statement reads and writes: on PostgreSQL its connections
        # autocommit (the "direct" bind, companion/settings.py), so one is one round
        # trip, with no BEGIN or COMMIT; SQLite reads outside a transaction anyway.
        self.direct: Engine = engines.get("direct") or self.engine
        self.games = games

    # ------------------------------------------------------------ reading

    def match(self, match_id: str, phone: Phone, need: Role = "viewer") -> Match:
        """The match, if this phone may `need` it (403 otherwise, 404 if there is none)."""
        match = self._read(match_id)
        if match is None:
            raise NotFound()
        phone.require(match, need)
        return match

    shared = match  # what companion/views/share.py asks of anything shared by link

    def table(self, match_id: str, phone: Phone, need: Role = "viewer") -> Table:
        return self.games.table(self.match(match_id, phone, need), self._read_lines)

    def poll(
        self, match_id: str, phone: Phone, version: int | None, last: int | None
    ) -> Unchanged | Changed:
        """Has the table moved on from the one a screen shows? One read of the match row
        when not; when it has, the lines this process has not applied yet too, and
        whether another phone moved it (Changed.brought)."""
        match = self.match(match_id, phone)
        if match.made_on(version, last):
            return Unchanged()
        table = self.games.table(match, self._read_lines)
        if last is not None and table.last_line_id > last:  # row ids only grow
            mine = table.last_by is not None and table.last_by == phone.id
            return Changed(table, 0 if mine else table.last_line_id)
        if version is not None and table.version < version:
            return Changed(table, UNDONE_ELSEWHERE)  # this phone's own undo answers a 303
        return Changed(table)

    def log(self, match_id: str, phone: Phone) -> MatchLog:
        """The match's whole log in sentences, hand by hand (see companion.log)."""
        table, steps = self.games.steps(self.match(match_id, phone), self._read_lines)
        return MatchLog(table.match, by_hand(steps), whose_turn(table.state))

    def export(self, match_id: str, phone: Phone) -> tuple[Match, str]:
        """The match and its table record: with its key (`record:`) for its editors only,
        since whoever imports a record with that key gets the match to edit."""
        match = self.match(match_id, phone)
        key = phone.role(match) == "editor"
        try:
            return match, self.games.record(match, self._read_lines, key=key)
        except NoLongerReplays:
            return match, self.stored_record(match, key=key)

    def stored_record(self, match: Match, *, key: bool = True) -> str:
        """The match's record as stored, line by line, whether or not this version of the
        engine still replays it (a match that no longer does is never lost)."""
        logged = self._read_lines(match.id, 1, match.version) if match.version else []
        return written_record(
            match.players,
            match.dealer,
            match.rules,
            [text for _, _, text, _ in logged],
            match.record_key if key else None,
        )

    def matches(self, phone: Phone) -> list[Match]:
        """The matches this phone may see, the most recently changed first."""
        with self.direct.connect() as connection:
            rows = statements.by_ids(connection, phone.ids(Kind.MATCH))
        matches = [Match.from_row(row) for row in rows]
        return [m for m in matches if phone.role(m)]

    def state(self, match: Match) -> State | None:
        """The match's state as its row names it (from the cache, rebuilt the first time);
        None when its log no longer replays."""
        try:
            return self.games.table(match, self._read_lines).state
        except EngineError:
            return None

    def read_game(self, match: Match, reader: Callable[[Game], T]) -> tuple[Table, T]:
        """`reader` given the match's cached game, brought up to the row (it must only
        read it); with the table it read, whose version and last line name that game."""
        return self.games.read(match, self._read_lines, reader)

    def summaries(self, matches: Sequence[Match]) -> dict[str, str]:
        """Each match in one line in the request's language, worded from its game (the
        row's summary is stored, so English): the games come from the cache, rebuilt
        the first time. A match whose log no longer replays keeps its stored line."""
        worded = {}
        for match in matches:
            try:
                worded[match.id] = summary(self.games.table(match, self._read_lines).state)
            except EngineError:
                worded[match.id] = match.summary
        return worded

    def unreplayable(self) -> Iterator[tuple[Match, NoLongerReplays]]:
        """Every match this version of the engine no longer replays, with what it
        refuses (`flask matches check`): each match's log replayed, oldest first."""
        with self.direct.connect() as connection:
            ids = statements.match_ids(connection)
        for match_id in ids:
            match = self._read(match_id)
            if match is None:  # removed meanwhile
                continue
            try:
                self.games.table(match, self._read_lines)
            except NoLongerReplays as refused:
                yield match, refused

    def imported_as(self, key: str) -> Match | None:
        """The match imported from the record whose key (`record:`) is `key`, if any."""
        with self.direct.connect() as connection:
            row = statements.by_column(connection, "record_key", key)
        return None if row is None else Match.from_row(row)

    def open_link(self, token: str, kind: Role) -> Match | None:
        """The match whose `kind` link has this token, if any."""
        column = "editor_token" if kind == "editor" else "viewer_token"
        with self.direct.connect() as connection:
            row = statements.by_column(connection, column, token)
        return None if row is None else Match.from_row(row)

    # ------------------------------------------------------------ the database

    def ping(self) -> None:
        """Does the database answer? (raises SQLAlchemyError if not: GET /healthz)"""
        with self.direct.connect() as connection:
            statements.ping(connection)

    def _read(self, match_id: str) -> Match | None:
        if len(match_id) > MATCH_ID_LENGTH:
            return None
        with self.direct.connect() as connection:
            row = statements.read_match(connection, match_id)
        return None if row is None else Match.from_row(row)

    def _read_lines(self, match_id: str, first: int, last: int) -> list[Logged]:
        with self.direct.connect() as connection:
            rows = connection.execute(
                statements.READ_LINES, {"match_id": match_id, "first": first, "last": last}
            ).all()
        return [(row[0], row[1], row[2], row[3]) for row in rows]
