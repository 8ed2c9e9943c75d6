"""What the screens ask of the matches: one call per use case, its outcome as data.

Record a line, undo, rename players, import, create, share; the reads (show a table,
poll it, its log, export) are `MatchReads`' (companion/match_reads.py), which `Store`
extends. The views parse a form, call one of these and render what comes back; none of
them knows how a match is read, written or cached.

A match is its header row plus an append-only log of record lines; its state is the
log replayed by the engine, kept per process in a `GameCache`. Recording a line is:
judge it once on the game the form was made on, write it with one guarded statement
(nothing is written unless the match is still exactly that game, the editor link is
still valid and the form was never acted on), then move the cached game on with what
was written. The database is the truth: any number of processes can share it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import NotFound

from companion import statements
from companion.access import Phone
from companion.audit import audit
from companion.games import GameCache
from companion.imports import RECORD_DIFFERS, Imported, ImportRefused, read_record
from companion.lookalikes import LookAlikeNames, check_look_alikes
from companion.match_reads import MatchReads
from companion.matches import Match, Table, row_follows
from companion.models import new_match_id, new_token, now
from companion.outcomes import (
    AlreadyDone,
    Also,
    Full,
    ImportedMatch,
    MovedOn,
    NotTaken,
    Recorded,
    Refused,
    Renamed,
    Undone,
    Written,
)
from companion.settings import MAX_MATCH_LINES
from companion.taps import TapGuard
from engine import (
    EngineError,
    Game,
    HouseRules,
    IllegalActionError,
    RenameLine,
    Step,
)

# ---------------------------------------------------------------- the store


class Store(MatchReads):
    """The matches' use cases: `MatchReads` (companion/match_reads.py), and every write
    of a match, its lines and its used keys (through companion/statements.py)."""

    def __init__(
        self,
        engines: Mapping[str | None, Engine],
        games: GameCache,
        taps: TapGuard,
        max_lines: int = MAX_MATCH_LINES,
        keyed: bool = False,
    ) -> None:
        super().__init__(engines, games)
        self.taps = taps  # judges whether a form's screen could have been read
        self.max_lines = max_lines  # lines in a match's log, at most
        self.keyed = keyed  # new matches get a record key: the app in the phone (sent later)

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
            **row_follows(step.after),
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
                **row_follows(step.before),
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
                            **row_follows(step.after),
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
        key = new_token() if self.keyed else None  # sent to a server later: one match there
        game = Game(players, dealer=dealer, rules=rules, key=key)
        match = self._insert(game, game.players[game.state.dealer], rules, mode, [], also, key)
        audit("created", match.id, "editor", players=len(game.players), mode=mode)
        return match

    def import_record(self, text: str, mode: str = "referee") -> ImportedMatch:
        """A new match from a table record (companion/imports.py: raises ImportRefused);
        or, when the record's key (`record:`) names a match imported before, that one: a
        record sent twice, or again after its answer was lost, is one match."""
        record = read_record(text, self.max_lines)
        key = record.game.key
        if key is not None and (before := self.imported_as(key)) is not None:
            return self._again(before, record)
        mode = "quick" if record.results_only else mode  # keep entering results
        game, dealer, rules, lines = record.game, record.dealer, record.rules, record.lines
        try:
            match = self._insert(game, dealer, rules, mode, lines, record_key=key)
        except IntegrityError:
            # The same record, sent at the same moment by another request, is in first.
            if key is None or (before := self.imported_as(key)) is None:
                raise
            return self._again(before, record)
        audit("imported", match.id, "editor", lines=len(lines), mode=mode)
        return ImportedMatch(match, again=False)

    def _again(self, before: Match, record: Imported) -> ImportedMatch:
        """The match a record with this key made before, if this is that record (the
        match may have moved on since); ImportRefused if the record holds lines the
        match does not: they would be lost without a word."""
        logged = [text for _, _, text, _ in self._read_lines(before.id, 1, before.version)]
        header = (before.player_names, before.dealer, HouseRules.parse(before.rules))
        if header != (list(record.game.seating), record.dealer, record.rules) or (
            logged[: len(record.lines)] != record.lines
        ):
            raise ImportRefused(_(RECORD_DIFFERS))
        audit("imported again", before.id, "editor", lines=len(record.lines))
        return ImportedMatch(before, again=True)

    def _insert(
        self,
        game: Game,
        dealer: str,
        rules: HouseRules,
        mode: str,
        lines: list[str],
        also: Also | None = None,
        record_key: str | None = None,
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
            "record_key": record_key,
            **row_follows(game.state),
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

    def renew_links_with(self, renewing: Callable[[Connection], Sequence[str]]) -> None:
        """New share tokens for the matches `renewing` names, in one transaction with
        what it writes (a group's new links: its matches' renew with them)."""
        with self.engine.begin() as connection:
            for match_id in renewing(connection):
                statements.new_links(connection, match_id, new_token(), new_token())

    # ------------------------------------------------------------ the database

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


def _fields(match: Match) -> dict[str, Any]:
    return {name: getattr(match, name) for name in Match.__slots__}


def current_store() -> Store:
    """The app's store (companion/services.py keeps it in app.extensions)."""
    from flask import current_app

    store: Store = current_app.extensions["store"]
    return store
