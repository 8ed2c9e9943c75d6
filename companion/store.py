"""What the screens ask of the matches: one call per use case, its outcome as data.

Show a table, poll it, record a line, undo, export, import, create, share. The views
parse a form, call one of these and render what comes back; none of them knows how a
match is read, written or cached.

A match is its header row plus an append-only log of record lines; its state is the
log replayed by the engine, kept per process in a `GameCache`. Recording a line is:
judge it once on the game the form was made on, write it with one guarded statement
(nothing is written unless the match is still exactly that game, the editor link is
still valid and the form was never acted on), then move the cached game on with what
was written. The database is the truth: any number of processes can share it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from flask_babel import gettext as _
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine
from werkzeug.exceptions import NotFound

from companion import statements
from companion.access import Phone, Role
from companion.audit import audit
from companion.games import GameCache, Logged, T
from companion.imports import read_record
from companion.log import MatchLog, by_hand
from companion.lookalikes import LookAlikeNames, check_look_alikes
from companion.matches import Match, Table
from companion.models import new_match_id, new_token, now
from companion.outcomes import (
    AlreadyDone,
    Also,
    Changed,
    Full,
    MovedOn,
    NotTaken,
    Recorded,
    Refused,
    Renamed,
    Unchanged,
    Undone,
    Written,
)
from companion.taps import UNDONE_ELSEWHERE, TapGuard
from engine import (
    SOURCE_LANGUAGE,
    EngineError,
    Game,
    HouseRules,
    IllegalActionError,
    RenameLine,
    State,
    Step,
    language,
    summary,
    whose_turn,
)

MATCH_ID_LENGTH = 32  # the column's width: a longer id names no match
# A match's lines at most (MAX_MATCH_LINES): 17 times the longest of 300 whole matches
# simulated at 2-6 players under the official rules (584 lines); importing 10,000 lines
# takes about 0.4 s and 24 MB (docs/OPERATIONS.md).
MAX_MATCH_LINES = 10_000

# ---------------------------------------------------------------- the store


class Store:
    """The matches in the database and their games in this process (`games`)."""

    def __init__(
        self,
        database: SQLAlchemy,
        games: GameCache,
        taps: TapGuard,
        max_lines: int = MAX_MATCH_LINES,
    ) -> None:
        self.database = database
        self.games = games
        self.taps = taps  # judges whether a form's screen could have been read
        self.max_lines = max_lines  # lines in a match's log, at most

    @property
    def engine(self) -> Engine:
        """The app's database engine (transactions: undo, import, new links)."""
        engine: Engine = self.database.engine
        return engine

    @property
    def direct(self) -> Engine:
        """The engine for one-statement reads and writes: on PostgreSQL its connections
        autocommit (the "direct" bind, see create_app), so one is one round trip, with no
        BEGIN or COMMIT; SQLite reads outside a transaction anyway."""
        engines = self.database.engines
        engine: Engine = engines.get("direct") or engines[None]
        return engine

    # ------------------------------------------------------------ reading

    def match(self, match_id: str, phone: Phone, need: Role = "viewer") -> Match:
        """The match, if this phone may `need` it (403 otherwise, 404 if there is none)."""
        match = self._read(match_id)
        if match is None:
            raise NotFound()
        phone.require(match, need)
        return match

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
        """The match and its table record."""
        match = self.match(match_id, phone)
        return match, self.games.record(match, self._read_lines)

    def matches(self, phone: Phone) -> list[Match]:
        """The matches this phone may see, the most recently changed first."""
        with self.direct.connect() as connection:
            rows = statements.by_ids(connection, phone.match_ids())
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

    # ------------------------------------------------------------ recording

    def record(
        self,
        match_id: str,
        phone: Phone,
        version: int,
        last: int | None,
        key: str | None,
        text: str,
        shown: str | None = None,
    ) -> Written:
        """Record a line from a form made on the table at `version` (and `last`, its last
        line's id, when the form names it), on a screen stamped `shown` (taps.py)."""
        if not_taken := self._not_taken(match_id, phone, version, last, shown):
            return not_taken
        if version >= self.max_lines:  # no line beyond the limit (the form names the table)
            match = self.match(match_id, phone, "editor")
            if not match.made_on(version, last):
                return self._not_written(match, key)
            return Full(self.games.table(match, self._read_lines), self.max_lines)
        token = phone.token(match_id, "editor")
        step: Step | EngineError | None = None
        if token is not None and last is not None:
            try:  # the common case: this process has the game the form was made on
                step = self.games.judge_cached(match_id, version, last, text)
            except EngineError as refusal:
                step = refusal
        if step is None:
            match = self.match(match_id, phone, "editor")
            if not match.made_on(version, last):
                return self._not_written(match, key)
            table, step = self.games.judge(match, self._read_lines, text)
            if not table.match.made_on(version, last):  # the log moved while it was read
                return self._not_written(match, key, table)
            if isinstance(step, EngineError):
                return Refused(table, step)
            token, last = match.editor_token, table.last_line_id
        elif isinstance(step, EngineError):  # is the table it was judged on still the match?
            match = self.match(match_id, phone, "editor")
            if not match.made_on(version, last):
                return self._not_written(match, key)
            return Refused(self.games.table(match, self._read_lines), step)
        assert token is not None and last is not None  # both paths named them
        row_id = statements.add_line(
            self.direct,
            match_id=match_id,
            version=version,
            last_line_id=last,
            editor_token=token,
            text=str(step.line),
            key=key,
            phone=phone.id,
            now=now(),
            **_summary(step.after),
        )
        if row_id is None:
            return self._not_written(self.match(match_id, phone, "editor"), key)
        self.games.recorded(match_id, step, row_id, phone.id)
        audit("recorded", match_id, "editor", number=version + 1, line=str(step.line))
        return Recorded(step)

    def undo(
        self,
        match_id: str,
        phone: Phone,
        version: int,
        last: int | None,
        key: str | None,
        shown: str | None = None,
    ) -> Undone | AlreadyDone | MovedOn | Refused | NotTaken:
        """Take back the last line, if it is still the one the form was made on (and its
        screen, stamped `shown`, could have been read)."""
        if not_taken := self._not_taken(match_id, phone, version, last, shown):
            return not_taken
        match = self.match(match_id, phone, "editor")
        if not match.made_on(version, last):
            return self._not_written(match, key)
        table = self.games.table(match, self._read_lines)
        if not table.match.made_on(version, last):  # the log moved while it was read
            return self._not_written(match, key, table)
        step = table.last_step
        if step is None:
            return Refused(table, IllegalActionError(_("There is nothing to undo yet."), "setup"))
        with self.engine.begin() as connection:
            undone = statements.undo_line(
                connection,
                match_id=match_id,
                version=version,
                last_line_id=table.last_line_id,
                editor_token=match.editor_token,
                key=key,
                now=now(),
                **_summary(step.before),
            )
        if undone is None:
            return self._not_written(self.match(match_id, phone, "editor"), key)
        self.games.undone(match_id, version, table.last_line_id)
        audit("undone", match_id, "editor", number=version, line=str(step.line))
        return Undone(step)

    def rename(
        self,
        renames: Mapping[str, Mapping[int, str]],
        phone: Phone,
        also: Also | None = None,
    ) -> Renamed | Refused | MovedOn:
        """Call players by new names from now on: for each match id, the new name of the
        player at each seat. A rename line ("rename: Bob, Robert") at the end of each
        match's log, every one of them with `also` (the group's roster) in one
        transaction, or none: Refused with the sentence of the first match where a new
        name clashes (the engine's rule, or the app's on names that look alike); MovedOn
        when a line was recorded meanwhile in one of them. The caller has checked that
        the phone may do it (a group's editor); the lines name the phone."""
        judged: list[tuple[Table, tuple[Step, ...]]] = []
        for match_id, seats in renames.items():
            match = self._read(match_id)
            if match is None:
                raise NotFound()
            players = list(self.games.table(match, self._read_lines).state.players)
            lines = [RenameLine(players[seat], new) for seat, new in seats.items()]
            for seat, new in seats.items():
                players[seat] = new
            table, steps = self.games.judge_all(
                match, self._read_lines, [line for line in lines if line.old != line.new]
            )
            if isinstance(steps, EngineError):
                return Refused(table, steps)
            try:
                check_look_alikes(players)  # the app's rule on top of the engine's
            except LookAlikeNames as error:
                return Refused(table, error)
            if steps:
                judged.append((table, steps))
        written: list[tuple[str, Step, int]] = []
        moving = None  # the match being written
        try:
            with self.engine.begin() as connection:
                for moving, steps in judged:
                    last, version = moving.last_line_id, moving.version
                    for step in steps:
                        row_id = statements.add_line(
                            self.engine,
                            connection=connection,
                            match_id=moving.match.id,
                            version=version,
                            last_line_id=last,
                            editor_token=moving.match.editor_token,
                            text=str(step.line),
                            key=None,
                            phone=phone.id,
                            now=now(),
                            **_summary(step.after),
                        )
                        if row_id is None:
                            raise statements.MovedMeanwhile()
                        written.append((moving.match.id, step, row_id))
                        last, version = row_id, version + 1
                if also is not None:
                    also(connection, "")
        except statements.MovedMeanwhile:
            assert moving is not None
            now_at = self._read(moving.match.id)
            return MovedOn(moving if now_at is None else self.games.table(now_at, self._read_lines))
        for match_id, step, row_id in written:
            self.games.recorded(match_id, step, row_id, phone.id)
            audit("recorded", match_id, "editor", line=str(step.line))
        return Renamed(tuple(dict.fromkeys(match_id for match_id, _s, _r in written)))

    def _not_written(
        self, match: Match, key: str | None, table: Table | None = None
    ) -> AlreadyDone | MovedOn:
        """Why a form did nothing: it was acted on already, or the table moved on (to
        `match`, or to `table` when it is already in hand)."""
        if key:
            with self.direct.connect() as connection:
                if statements.key_used(connection, match.id, key):
                    return AlreadyDone()
        return MovedOn(table if table is not None else self.games.table(match, self._read_lines))

    # ------------------------------------------------------------ new matches, links

    def create(
        self,
        players: Sequence[str],
        dealer: str,
        rules: HouseRules,
        mode: str,
        also: Also | None = None,
    ) -> Match:
        """A new match; the engine checks the seating (raises EngineError). `also` writes
        more in the same transaction (a group's match: its group and seats)."""
        check_look_alikes(players)  # the app's rule on top of the engine's (an EngineError)
        game = Game(players, dealer=dealer, rules=rules)
        match = self._insert(game, game.players[game.state.dealer], rules, mode, [], also)
        audit("created", match.id, "editor", players=len(game.players), mode=mode)
        return match

    def import_record(self, text: str, mode: str = "referee") -> Match:
        """A new match from a table record (companion/imports.py: raises ImportRefused)."""
        record = read_record(text, self.max_lines)
        mode = "quick" if record.results_only else mode  # keep entering results
        match = self._insert(record.game, record.dealer, record.rules, mode, record.lines)
        audit("imported", match.id, "editor", lines=len(record.lines), mode=mode)
        return match

    def _insert(
        self,
        game: Game,
        dealer: str,
        rules: HouseRules,
        mode: str,
        lines: list[str],
        also: Also | None = None,
    ) -> Match:
        created = now()
        values: dict[str, Any] = {
            "id": new_match_id(),
            "players": ", ".join(game.seating),  # the header (`names`: as called now)
            "dealer": dealer,
            "rules": str(rules),
            "mode": mode,
            "created_at": created,
            "updated_at": created,
            "version": len(lines),
            "editor_token": new_token(),
            "viewer_token": new_token(),
            **_summary(game.state),
        }
        with self.engine.begin() as connection:
            last = statements.insert_match(connection, values, lines)
            if also is not None:
                also(connection, values["id"])
        return Match.from_row(values | {"last_line_id": last})

    def renew_links(self, match_id: str, phone: Phone) -> Match:
        """New share tokens: the old editor and viewer links stop working at once."""
        match = self.match(match_id, phone, "editor")
        editor, viewer = new_token(), new_token()
        with self.engine.begin() as connection:
            statements.new_links(connection, match.id, editor, viewer)
        audit("renewed-links", match.id, "editor")
        return Match.from_row(_fields(match) | {"editor_token": editor, "viewer_token": viewer})

    def open_link(self, token: str, kind: Role) -> Match | None:
        """The match whose `kind` link has this token, if any."""
        column = "editor_token" if kind == "editor" else "viewer_token"
        with self.direct.connect() as connection:
            row = statements.by_token(connection, column, token)
        return None if row is None else Match.from_row(row)

    # ------------------------------------------------------------ the database

    def _read(self, match_id: str) -> Match | None:
        if len(match_id) > MATCH_ID_LENGTH:
            return None
        with self.direct.connect() as connection:
            row = statements.read_match(connection, match_id)
        return None if row is None else Match.from_row(row)

    def _not_taken(
        self, match_id: str, phone: Phone, version: int, last: int | None, shown: str | None
    ) -> NotTaken | None:
        """The tap guard's answer to a form (taps.py), before anything is written. A form
        from another version of the table is left to say so ("the table moved on", or
        "already done" for a tap sent again), whatever its stamp."""
        why = self.taps.judge(shown, match_id, version, last)
        if why is None:
            return None
        table = self.table(match_id, phone, "editor")
        if why == "unchecked" and not table.match.made_on(version, last):
            return None
        return NotTaken(table, why)

    def _read_lines(self, match_id: str, first: int, last: int) -> list[Logged]:
        with self.direct.connect() as connection:
            rows = connection.execute(
                statements.READ_LINES, {"match_id": match_id, "first": first, "last": last}
            ).all()
        return [(row[0], row[1], row[2], row[3]) for row in rows]


class _Follows(TypedDict):
    status: str
    summary: str
    names: str


def _summary(state: State) -> _Follows:
    """The match row's columns that follow its state: status, the summary for the home
    page (stored, so in English: the database holds no translated sentence), and the
    players' names as called now."""
    with language(SOURCE_LANGUAGE):
        said = summary(state)[:200]
    return {"status": state.status, "summary": said, "names": ", ".join(state.players)}


def _fields(match: Match) -> dict[str, Any]:
    return {name: getattr(match, name) for name in Match.__slots__}


def max_match_lines(value: object) -> int:
    """COMPANION_MAX_MATCH_LINES, checked when the app starts."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(
            "COMPANION_MAX_MATCH_LINES must be the most lines a match may hold, a whole "
            f"number of at least 1 (the default is {MAX_MATCH_LINES:,}). It is {value!r}."
        )
    return value


def current_store() -> Store:
    """The app's store (create_app keeps it in app.extensions)."""
    from flask import current_app

    store: Store = current_app.extensions["store"]
    return store
