"""Matches in the database, games in the engine: load, append, undo, import, export.

A match's state is rebuilt by the engine from its lines. To keep a request's
cost flat as a match grows, each process keeps the last games it built,
keyed by match id and checked against the match row's version (last sequence
number) and last line's row id before use: lines are only ever appended or
undone from the end and row ids are never reused, so that pair names the whole
log. A stale or missing entry is brought up to date with the new lines only,
or rebuilt. On PostgreSQL the news of a line added elsewhere carries the line
(versions.py): the games are kept current with it, without reading anything.

Recording a play and polling are the hot paths: they run prepared Core
statements (statements.py) on connections of their own (direct_engine), not the
ORM's unit of work.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, Row, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from companion import statements, versions
from companion.extensions import db
from companion.models import Match, MatchLine, UsedKey, new_token, now
from engine import (
    ActionLine,
    DealerLine,
    EngineError,
    Game,
    HouseRules,
    IllegalActionError,
    Line,
    Out,
    PlayersLine,
    RecordError,
    RulesLine,
    StartLine,
    Wins,
    replay,
    whose_turn,
)

# A game keeps a snapshot per line (about 2 kB): the cache is bounded by lines, so a
# worker holds at most some 100 MB of games however long the matches get.
CACHE_LINES = 50_000


class AlreadyDone(Exception):
    """The same rendered form was submitted twice: the first one counted."""


class StaleVersion(Exception):
    """The table moved on: the action was prepared from an older state."""

    def __init__(self, current: int) -> None:
        super().__init__(
            "The table moved on while you were tapping: someone else recorded a play. "
            "Here is the table as it is now; nothing of yours was recorded."
        )
        self.current = current


@dataclass
class Cached:
    game: Game
    ids: list[int] = field(default_factory=list)  # row id of each log line, by seq - 1

    @property
    def version(self) -> int:
        return len(self.ids)

    @property
    def last_line_id(self) -> int:
        return self.ids[-1] if self.ids else 0


_cache: OrderedDict[str, Cached] = OrderedDict()
# Lines heard added to cached games by other processes, not yet applied (_catch_up).
_heard: dict[str, list[versions.AddedLine]] = {}
HEARD_LINES = 1_000  # a game this far behind is read again when asked for
_lock = threading.RLock()


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _heard.clear()
    versions.forget_everything()


# ---------------------------------------------------------------- reading


def direct_engine() -> Engine:
    """The engine for the hot paths' Core statements, outside the ORM session.

    On PostgreSQL its connections autocommit (the "direct" bind, see create_app): a
    read is one round trip, not three (BEGIN, SELECT, ROLLBACK), and a write that is one
    statement needs no BEGIN and COMMIT either. SQLite reads outside a transaction
    already: there it is the app's engine.
    """
    engines = db.engines
    engine: Engine = engines.get("direct") or engines[None]
    return engine


def read_match(match_id: str) -> Match | None:
    """The match as one statement reads it: a snapshot, not in the ORM session.

    What the table's pages, polls and recorded lines need (the header, the version and
    last line, the share tokens). A change to it is never saved: to change the match
    itself, load it through the session (db.get_or_404).
    """
    row = read_match_row(match_id)
    return None if row is None else snapshot(row)


def snapshot(row: Row[Any] | versions.Known) -> Match:
    """A Match from a row of READ_MATCH, or from what the process has heard of one since,
    outside the session (see read_match)."""
    if isinstance(row, versions.Known):
        return Match(**row.as_read_now())
    return Match(**row._mapping)


def read_match_row(match_id: str) -> Row[Any] | None:
    """The match row itself (what a poll needs, without building a Match)."""
    heard = _listener()
    mark = heard.mark() if heard else 0
    with direct_engine().connect() as connection:
        row = connection.execute(statements.READ_MATCH, {"match_id": match_id}).first()
    if row is not None and heard:
        heard.learn(mark, versions.Known.read(row._mapping))
    return row


def known_state(match_id: str) -> versions.Known | None:
    """The match's tokens, version and last line as this process has heard them, without
    a query (PostgreSQL's notifications, see versions.py); None when it can't say."""
    heard = _listener()
    return heard.recall(match_id) if heard else None


def _listener() -> versions.Listener | None:
    return versions.listener(db.engine)


def _heard_mark() -> int:
    heard = _listener()
    return heard.mark() if heard else 0


def _moved(mark: int, match_id: str, version: int, last_line_id: int) -> None:
    heard = _listener()
    if heard:
        heard.moved(mark, match_id, version, last_line_id)


def header_game(match: Match) -> Game:
    """A game with only the match's header applied (players, dealer, house rules)."""
    return Game(match.player_names, dealer=match.dealer, rules=HouseRules.parse(match.rules))


def _lines(match_id: str, first: int, last: int) -> list[tuple[int, int, str]]:
    """(row id, seq, text) of the lines first..last."""
    with direct_engine().connect() as connection:
        rows = connection.execute(
            statements.READ_LINES, {"match_id": match_id, "first": first, "last": last}
        ).all()
    return [(row[0], row[1], row[2]) for row in rows]


def _catch_up(match_id: str) -> None:
    """Apply to the match's cached game the lines heard added by other processes (call
    with the lock held).

    A line is applied only to a game that ends where it follows: the version and last
    line's id name the whole log, so that game is then the match as it was at that
    line's commit, whatever came before or after. Lines heard for the other cached
    games wait until those are asked for: a game is changed only by a request for it,
    and grows no more than reading its new lines would make it (the cache's bound is
    kept when a game is built, as before).
    """
    heard = _listener()
    if heard is None:
        return
    for added in heard.added_lines():
        if added.match_id in _cache:
            waiting = _heard.setdefault(added.match_id, [])
            waiting.append(added)
            if len(waiting) > HEARD_LINES:  # long unasked for here: read it when asked
                _drop(added.match_id)
    for added in _heard.pop(match_id, []):
        entry = _cache.get(match_id)
        if (
            entry is None
            or entry.version != added.version - 1
            or entry.last_line_id != added.previous
        ):
            continue  # already applied (this process's own line), or not next
        try:
            entry.game.apply(added.text)
        except Exception:  # not for a line the database took: start afresh
            _drop(match_id)
            continue
        entry.ids.append(added.line_id)


def _drop(match_id: str) -> None:
    """Forget the match's game, and the lines heard for it."""
    _cache.pop(match_id, None)
    _heard.pop(match_id, None)


def _evict() -> None:
    """Forget the least recently used games beyond CACHE_LINES (keep the last one)."""
    while len(_cache) > 1 and sum(len(e.game) for e in _cache.values()) > CACHE_LINES:
        _heard.pop(_cache.popitem(last=False)[0], None)


def _cached(match: Match) -> Cached:
    """The match's game as of the match row (call with the lock held)."""
    _catch_up(match.id)
    version, last_id = match.version, match.last_line_id
    entry = _cache.get(match.id)
    if entry is not None:
        if entry.version >= version and (version == 0 or entry.ids[version - 1] == last_id):
            while entry.version > version:  # lines undone by another process
                entry.game.undo()
                entry.ids.pop()
            _cache.move_to_end(match.id)
            return entry
        if 0 < entry.version < version:
            # The newer lines, and the last one this process knows, in one read: if that
            # one is still there, only the new ones need applying.
            rows = _lines(match.id, entry.version, version)
            if rows and rows[0][:2] == (entry.ids[-1], entry.version):
                _extend(entry, rows[1:])
                _cache.move_to_end(match.id)
                return entry
    entry = Cached(header_game(match))
    _extend(entry, _lines(match.id, 1, version) if version else [])
    _cache[match.id] = entry
    _evict()
    return entry


def _extend(entry: Cached, rows: list[tuple[int, int, str]]) -> None:
    for row_id, _seq, text in rows:
        entry.game.apply(text)
        entry.ids.append(row_id)


@dataclass(frozen=True)
class Table:
    """A match with its game, as of its version (last sequence number) and last line."""

    match: Match
    game: Game
    version: int
    last_line_id: int  # with undo, a version can come back with other lines: this can't


def load(match: Match) -> Table:
    """The match's game, brought up to the match row. It is the cached game itself: to
    read it while other threads may record or catch up, use `reading`."""
    with _lock:
        entry = _cached(match)
        return Table(match, entry.game, entry.version, entry.last_line_id)


@contextmanager
def reading(match: Match) -> Iterator[Table]:
    """The match's game, held still while the block reads it (a page, a record).

    With several threads in a process (GUNICORN_THREADS), another request may record a
    line or take in heard ones on this very game; holding the lock costs little, as
    Python runs one thread's code at a time anyway.
    """
    with _lock:
        yield load(match)


# ---------------------------------------------------------------- writing


def create_match(players: list[str], dealer: str, rules: HouseRules, mode: str) -> Match:
    """A new match; the engine checks the seating (raises EngineError)."""
    game = Game(players, dealer=dealer, rules=rules)
    match = Match(
        players=", ".join(game.players),
        dealer=game.players[game.state.dealer],
        rules=str(rules),
        mode=mode,
    )
    _summarise(match, game)
    db.session.add(match)
    db.session.commit()
    return match


def _key_used(match_id: str, key: str | None) -> bool:
    """Was a form with this key acted on? Its line carries it, or (undo) the used keys."""
    if not key:
        return False
    on_line = select(MatchLine.id).where(MatchLine.match_id == match_id, MatchLine.form_key == key)
    return bool(
        db.session.get(UsedKey, (match_id, key)) is not None
        or db.session.execute(on_line.limit(1)).first()
    )


def _current_version(match_id: str) -> int:
    version = db.session.execute(select(Match.version).where(Match.id == match_id)).scalar()
    return version or 0


@contextmanager
def _writing(match: Match, key: str | None) -> Iterator[None]:
    """The statements in the block, then the commit, as one (undo).

    Any failure rolls back and forgets the cached game (it may already show the
    change). A unique-constraint clash means the form was acted on already (its key),
    or the table moved on.
    """
    try:
        yield
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        _drop(match.id)
        if _key_used(match.id, key):
            raise AlreadyDone() from None
        raise StaleVersion(_current_version(match.id)) from None
    except BaseException:
        db.session.rollback()
        _drop(match.id)
        raise


def _refusal(match_id: str, key: str | None) -> AlreadyDone | StaleVersion:
    """Why nothing was written: this form was acted on already, or the table moved on."""
    if _key_used(match_id, key):
        return AlreadyDone()
    return StaleVersion(_current_version(match_id))


def _at(entry: Cached, version: int, last: int | None) -> bool:
    """Is the entry's game the table a form was made on?"""
    return entry.version == version and last in (None, entry.last_line_id)


def _entry_at(match: Match, version: int, key: str | None, last: int | None = None) -> Cached:
    """The match's game, if this form was rendered from it as it is now.

    A form acted on already normally meets a newer version; if an undo brought
    the version back, the used keys stop it (the line's insert finds its key).
    """
    entry = _cached(match)
    if not _at(entry, version, last):
        raise _refusal(match.id, key)
    return entry


def append_cached(
    match_id: str,
    editor_token: str,
    version: int,
    text: str,
    key: str | None = None,
    last: int | None = None,
) -> Line | None:
    """Record a line judged on this process's cached game, without reading the match.

    The common case, one statement: the write itself checks that the match is still
    exactly the cached game (and the editor link still valid). None when that can't be
    done: no cached game at `version`, a line the engine refuses, or a match that moved
    on; the caller then reads the match and goes the whole way (`append`), which says why.
    `last`: the last line's id the form was made on, when it names it.
    """
    with _lock:
        _catch_up(match_id)
        entry = _cache.get(match_id)
        if entry is None or not _at(entry, version, last):
            return None
        try:
            line = entry.game.parse(text)
            if line is None:
                return None
            entry.game.apply(line)
        except EngineError:
            return None  # judged again on the match as it is now, and explained there
        if _write(entry, match_id, version, line, key, editor_token) is None:
            return None
        _cache.move_to_end(match_id)
        return line


def append(
    match: Match, version: int, text: str, key: str | None = None, last: int | None = None
) -> Line:
    """Record one line at `version` (and `last`, the last line's id, when the form names it).

    Raises EngineError (refused: nothing recorded), StaleVersion (the table moved on)
    or AlreadyDone (this form was already acted on).
    """
    with _lock:
        entry = _entry_at(match, version, key, last)
        line = entry.game.parse(text)
        if line is None:
            raise IllegalActionError("There is nothing to record.", "syntax")
        entry.game.apply(line)
        row_id = _write(entry, match.id, version, line, key, match.editor_token)
        if row_id is None:
            raise _refusal(match.id, key)
        # The request's match object, as the database now has it (not a change to flush).
        set_committed_value(match, "version", version + 1)
        set_committed_value(match, "last_line_id", row_id)
        return line


def _write(
    entry: Cached, match_id: str, version: int, line: Line, key: str | None, editor_token: str
) -> int | None:
    """Write the line just applied to the entry's game; its row id, or None (not written:
    the entry's game is as it was). Call with the lock held. The process's listener
    remembers the move at once."""
    summary = _summary(entry.game)
    mark = _heard_mark()
    try:
        row_id = statements.add_line(
            direct_engine(),
            match_id=match_id,
            version=version,
            last_line_id=entry.last_line_id,
            editor_token=editor_token,
            text=str(line),
            key=key,
            status=summary["status"],
            summary=summary["summary"],
            now=summary["updated_at"],
        )
    except IntegrityError:  # another line took the place first
        _drop(match_id)  # it shows a line the database doesn't have
        return None
    except BaseException:
        _drop(match_id)
        raise
    if row_id is None:
        entry.game.undo()
        return None
    entry.ids.append(row_id)
    _moved(mark, match_id, version + 1, row_id)
    return row_id


def undo(match: Match, version: int, key: str | None = None, last: int | None = None) -> Line:
    """Remove the last line, if it is still the one the form was made on (`version`, and
    `last`, its id, when the form names it)."""
    with _lock:
        entry = _entry_at(match, version, key, last)
        if version == 0:
            raise IllegalActionError("There is nothing to undo yet.", "setup")
        mark = _heard_mark()
        with _writing(match, key):
            undone_id = entry.ids[-1]
            line = entry.game.undo()
            entry.ids.pop()
            last_line_id = entry.last_line_id
            # The match row first, only if it is still where this game is: a line
            # recorded meanwhile (another process) must not be left beyond the log's end.
            moved = db.session.execute(
                update(Match)
                .where(
                    Match.id == match.id,
                    Match.version == version,
                    Match.last_line_id == undone_id,
                )
                .values(version=version - 1, last_line_id=last_line_id, **_summary(entry.game))
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                raise _refusal(match.id, key)  # a double tap elsewhere: AlreadyDone
            deleted = db.session.execute(
                delete(MatchLine)
                .where(MatchLine.match_id == match.id, MatchLine.id == undone_id)
                .returning(MatchLine.form_key)
            ).all()
            if len(deleted) != 1:
                raise _refusal(match.id, key)
            # The undone line's form stays used: resubmitting it must not record it again.
            for used in {key, deleted[0].form_key} - {None}:
                db.session.add(UsedKey(match_id=match.id, key=used))
        _moved(mark, match.id, version - 1, last_line_id)
        return line


def renew_links(match: Match) -> None:
    """New share tokens: the old editor and viewer links stop working."""
    match.editor_token = new_token()
    match.viewer_token = new_token()
    db.session.commit()
    heard = _listener()
    if heard:
        heard.drop(match.id)


def _summary(game: Game) -> dict[str, Any]:
    """The match's summary columns for the home page."""
    state = game.state
    return {
        "status": state.status,
        "summary": f"Hand {state.hand}: {whose_turn(state)}"[:200],
        "updated_at": now(),
    }


def _summarise(match: Match, game: Game) -> None:
    for column, value in _summary(game).items():
        setattr(match, column, value)


# ---------------------------------------------------------------- records


def export_record(table: Table) -> str:
    return table.game.record()


class ImportError_(ValueError):
    """A record that can't become a match: names the line and the rule."""

    def __init__(self, error: RecordError) -> None:
        super().__init__(f"Line {error.line} [{error.rule}]: {error.error.message}")
        self.error = error


def import_record(text: str, mode: str = "referee") -> Match:
    """A new match from a table record; the engine checks every line."""
    result = replay(text)
    if result.error is not None:
        raise ImportError_(result.error)
    game = result.game
    assert game is not None
    lines = list(game.lines)
    first = lines.pop(0)
    assert isinstance(first, PlayersLine)
    dealer = game.players[-1]
    rules = HouseRules()
    # Leading dealer/rules lines become the match header; the rest is the log.
    while lines and isinstance(lines[0], DealerLine | RulesLine):
        head = lines.pop(0)
        if isinstance(head, DealerLine):
            dealer = head.name
        else:
            rules = head.rules
    if not any(isinstance(line, StartLine) for line in lines) and any(
        isinstance(line, ActionLine) and isinstance(line.action, Wins | Out) for line in lines
    ):
        mode = "quick"  # results only: keep entering results
    match = Match(players=", ".join(first.names), dealer=dealer, rules=str(rules), mode=mode)
    match.version = len(lines)
    _summarise(match, game)
    db.session.add(match)
    db.session.flush()
    rows = [
        MatchLine(match_id=match.id, seq=seq, text=str(line)) for seq, line in enumerate(lines, 1)
    ]
    db.session.add_all(rows)
    db.session.flush()
    match.last_line_id = rows[-1].id if rows else 0
    db.session.commit()
    return match


__all__ = [
    "AlreadyDone",
    "StaleVersion",
    "Table",
    "append",
    "append_cached",
    "clear_cache",
    "create_match",
    "direct_engine",
    "export_record",
    "import_record",
    "known_state",
    "load",
    "read_match",
    "read_match_row",
    "reading",
    "renew_links",
    "snapshot",
    "undo",
]
