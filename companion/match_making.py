"""New matches: seated at a table, or imported from a table record (once per record
key: a record sent again is the match it made, with the lines played since it was sent
added), and the one bulk writer of judged lines (an import's lines added, a rename).
`Store` (companion/store.py) extends it with recording, undo and links."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from companion import statements
from companion.audit import audit
from companion.games import NoLongerReplays
from companion.imports import (
    MATCH_BUSY,
    RECORD_DIFFERS,
    Imported,
    ImportRefused,
    lines_to_add,
    read_record,
    too_long,
)
from companion.lookalikes import check_look_alikes
from companion.match_reads import MatchReads
from companion.matches import Match, Table, row_follows
from companion.models import new_match_id, new_token, now
from companion.outcomes import Also, ImportedMatch, MovedOn
from engine import EngineError, Game, HouseRules, Line, Step

# A game's lines, each with its players as called before it.
Logged = list[tuple[Line, tuple[str, ...]]]
# A match's log, the lines to add to it (with their places in the record), the steps
# judged of them, and the engine's refusal of the next one, if any.
Judged = tuple[Logged, list[tuple[int, Line]] | None, list[Step], EngineError | None]


class MatchMaking(MatchReads):
    """New matches and the lines written at once; the store's settings are `Store`'s."""

    max_lines: int  # lines in a match's log, at most
    keyed: bool  # new matches get a record key: the app in the phone (sent later)

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
        """The match a record with this key made before, if this is that record: as it is
        (it may have moved on since), or with the lines played in the phone since the
        record was last received added at its end. ImportRefused when the two went on
        with different lines (the record's would be lost without a word), when the engine
        refuses a line added (named by its number in the record), or when the match is
        busy with lines recorded there while these were judged."""
        seated = (list(record.game.seating), record.dealer, record.rules)
        match_id = before.id

        def received(connection: Connection, _id: str) -> None:  # the record's lines held
            statements.set_record_lines(connection, match_id, len(record.lines))

        sent = _log(record.game, len(record.lines))

        def judged(game: Game) -> Judged:
            """The match's log, the lines to add to it and their steps, all of one game
            (the write is then guarded by the table it was: nothing moved meanwhile), as
            `before` and its `header` are at the time of the call."""
            logged = _log(game)[1 + (header[2] != HouseRules()) :]  # but its dealer, rules
            added = None
            if header == seated:
                added = lines_to_add(logged, sent, game.players, before.record_lines)
            steps: list[Step] = []
            try:
                for step in game.judge_each([line for _, line in added or []]):
                    steps.append(step)
            except EngineError as refusal:
                return logged, added, steps, refusal
            return logged, added, steps, None

        for _attempt in range(3):  # again when a line was recorded while these were judged
            try:
                header = (before.player_names, before.dealer, HouseRules.parse(before.rules))
            except EngineError as unread:  # stored by an earlier version: its own page
                raise NoLongerReplays(before.id, 0, unread) from unread
            table, (logged, added, steps, refused) = self.read_game(before, judged)
            if added is None:
                raise ImportRefused(_(RECORD_DIFFERS))
            if refused is not None:
                raise record.refused(added[len(steps)][0], refused)
            if not added:
                with self.engine.begin() as connection:  # it holds them all: counted so
                    received(connection, match_id)
                audit("imported again", before.id, "editor", lines=len(record.lines))
                return ImportedMatch(before, again=True)
            if len(logged) + len(added) > self.max_lines:
                raise too_long(len(logged) + len(added), self.max_lines)
            written = self._append([(table, steps)], None, received)
            if not isinstance(written, MovedOn):
                audit("imported again", before.id, "editor", added=len(added))
                return ImportedMatch(self._read(before.id) or before, again=True, added=len(added))
            before = written.table.match
        raise ImportRefused(_(MATCH_BUSY))

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
            "record_lines": len(lines) if record_key else None,
            **row_follows(game.state),
        }
        with self.engine.begin() as connection:
            last = statements.insert_match(connection, values, lines)
            if also is not None:
                also(connection, values["id"])
        return Match.from_row(values | {"last_line_id": last})

    def _append(
        self,
        judged: Sequence[tuple[Table, Sequence[Step]]],
        phone: str | None,
        also: Also | None = None,
    ) -> list[tuple[str, Step, int]] | MovedOn:
        """Write each table's judged steps at the end of its log, all of them with `also`
        in one transaction, or none: MovedOn when a line was recorded meanwhile in one
        of them. The rows written: (match id, step, row id)."""
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
                            phone=phone,
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
            self.games.recorded(match_id, step, row_id, phone)
            audit("recorded", match_id, "editor", line=str(step.line))
        return written


def _log(game: Game, count: int | None = None) -> Logged:
    """The game's last `count` lines (all but its players line when None), each with
    its players as called before it."""
    steps = list(game.steps()) if count is None else game.last_steps(count)
    return [(step.line, step.before.players) for step in steps]
