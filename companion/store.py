"""What the screens ask of the matches: one call per use case, its outcome as data.

Record a line, undo, rename players, share; new matches (create, import) are
`MatchMaking`'s (companion/match_making.py) and the reads (show a table, poll it, its
log, export) `MatchReads`' (companion/match_reads.py), which `Store` extends. The views
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
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Connection, Engine
from werkzeug.exceptions import NotFound

from companion import statements
from companion.access import Phone
from companion.audit import audit
from companion.games import GameCache, NoLongerReplays
from companion.lookalikes import LookAlikeNames, check_look_alikes
from companion.match_making import MatchMaking
from companion.matches import Match, Table, row_follows
from companion.models import new_token, now
from companion.outcomes import (
    AlreadyDone,
    Also,
    Full,
    MovedOn,
    NotTaken,
    Recorded,
    Refused,
    Renamed,
    Undone,
    Written,
)
from companion.repairs import NameRepair, name_repair
from companion.settings import MAX_MATCH_LINES
from companion.taps import TapGuard
from engine import (
    EngineError,
    IllegalActionError,
    RenameLine,
    Step,
)

# ---------------------------------------------------------------- the store


class Store(MatchMaking):
    """The matches' use cases: `MatchReads` and `MatchMaking`, recording, undo, renames
    and links; every write of a match, its lines and its used keys goes through
    companion/statements.py."""

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
        when a line was recorded meanwhile in one of them. A match this version no longer
        replays is left as it is. The caller has checked that the phone may do it (a
        group's editor); the lines name the phone."""
        judged: list[tuple[Table, tuple[Step, ...]]] = []
        for match_id, seats in renames.items():
            match = self._read(match_id)
            if match is None:
                raise NotFound()
            try:
                players = list(self.games.table(match, self._read_lines).state.players)
            except NoLongerReplays:
                continue  # nothing can be added to it: its page says why (unreplayable.py)
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
        written = self._append(judged, phone.id, also)
        if isinstance(written, MovedOn):
            return written
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

    def remove_unreplayable(self, match_id: str, phone: Phone) -> bool:
        """Remove a match this version of the engine no longer replays, for its editor
        (its page offers it after its record; a match that replays is never removed:
        every line of it has an undo). Its record, without its key, goes to the audit
        log, where whoever runs the server can still find it. False if it replays."""
        match = self.match(match_id, phone, "editor")
        try:
            self.games.table(match, self._read_lines)
            return False
        except NoLongerReplays:
            record = self.stored_record(match, key=False)
        with self.engine.begin() as connection:
            statements.delete_match(connection, match.id)
        audit("removed", match.id, "editor", record=record)
        return True

    def name_repair(self, match: Match) -> NameRepair | None:
        """What repairing its names would make of a match that no longer replays for
        them (companion/repairs.py); None for one that replays, or that a repair of its
        names would not make replay."""
        try:
            self.games.table(match, self._read_lines)
            return None
        except NoLongerReplays:
            logged = self._read_lines(match.id, 1, match.version) if match.version else []
        lines = [text for _, _, text, _ in logged]
        return name_repair(match.players, match.dealer, match.rules, lines, self.max_lines)

    def repair_names(self, match_id: str, phone: Phone) -> NameRepair | None:
        """Repair the names of a match that no longer replays for them, for its editor:
        its header and every line naming one written over what was stored, in one
        transaction, if nothing moved meanwhile; the repair made, or None (then its
        page still offers its record and its removal). The stored record goes to the
        audit log first: nothing is lost."""
        match = self.match(match_id, phone, "editor")
        repair = self.name_repair(match)
        if repair is None:
            return None
        game = repair.judged.game
        header: dict[str, Any] = {"players": ", ".join(game.seating), "updated_at": now()}
        header |= {"dealer": repair.judged.dealer, **row_follows(game.state)}
        stored = self.stored_record(match, key=False)
        with self.engine.begin() as connection:
            log = list(repair.repaired.lines)
            if not statements.repair_names(connection, _fields(match), header, log):
                return None
        names = "; ".join(f"{old} -> {new}" for old, new in repair.changes())
        audit("repaired names", match.id, "editor", names=names, record=stored)
        return repair

    # ------------------------------------------------------------ links

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
