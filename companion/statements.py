"""The app's SQL: read a match and its lines, add a line, undo one (built once, at import:
a table does these far more often than anything else), and the rarer writes (a new
match, an import, new links, names repaired), built when used.

Adding a line writes the line and moves the match row (version, last line's id, summary)
as one. On PostgreSQL that is a single statement, an UPDATE in a WITH feeding the INSERT:
atomic on its own, it runs without BEGIN and COMMIT, one round trip. SQLite has no
data-modifying WITH; there it is an INSERT and an UPDATE in one transaction, which costs
no round trip on a local file.

Either way nothing is written unless the match is exactly as the game the line was judged
on was built from (its version and last line), the editor's link is still the match's,
and the form's key was never used (a line since undone keeps its key in used_key); the
unique (match, seq) stops a second line at the same place. So a process may judge a line
on the game it cached, without reading the match first: if the match moved meanwhile,
nothing is written and it looks again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    Integer,
    RowMapping,
    String,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal_column,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import BindParameter, ClauseElement

from companion.models import LINES, MATCHES
from companion.models import USED_KEYS as KEYS

READ_MATCH = select(MATCHES).where(MATCHES.c.id == bindparam("match_id"))

READ_LINES = (
    select(LINES.c.id, LINES.c.seq, LINES.c.text, LINES.c.phone)
    .where(
        LINES.c.match_id == bindparam("match_id"),
        LINES.c.seq >= bindparam("first"),
        LINES.c.seq <= bindparam("last"),
    )
    .order_by(LINES.c.seq)
)


def _param(name: str, kind: type[String] | type[Integer] | type[DateTime]) -> BindParameter[Any]:
    """A typed parameter: in a SELECT list or WITH, the database can't infer its type."""
    return bindparam(name, type_=kind())


# What a line is written on: the match exactly as the game was built from (version and
# last line), an editor link still valid (not renewed since) and a form never acted on.
_AS_EXPECTED = (
    MATCHES.c.id == _param("p_match_id", String),
    MATCHES.c.version == _param("p_version", Integer),
    MATCHES.c.last_line_id == _param("p_last_line_id", Integer),
    MATCHES.c.editor_token == _param("p_editor_token", String),
    ~exists().where(
        KEYS.c.match_id == _param("p_match_id", String),
        KEYS.c.key == _param("p_form_key", String),
    ),
)

# A new line's columns, and the parameters that fill them.
_LINE_COLUMNS = ["match_id", "seq", "text", "form_key", "phone", "created_at"]
_LINE_VALUES = (
    _param("p_match_id", String),
    _param("p_seq", Integer),
    _param("p_text", String),
    _param("p_form_key", String),
    _param("p_phone", String),
    _param("p_now", DateTime),
)

# SQLite: the line, then the match row, in one transaction (the INSERT takes the lock).
_INSERT_LINE = (
    insert(LINES)
    .from_select(_LINE_COLUMNS, select(*_LINE_VALUES).where(exists().where(*_AS_EXPECTED)))
    .returning(LINES.c.id)
)

_MOVE_MATCH = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("p_match_id"), MATCHES.c.version == bindparam("p_version"))
    .values(
        version=bindparam("p_seq"),
        last_line_id=bindparam("p_line_id"),
        status=bindparam("p_status"),
        summary=bindparam("p_summary"),
        names=bindparam("p_names"),
        updated_at=bindparam("p_now"),
    )
)

# PostgreSQL: the match row moves first, taking the line's id from its sequence; the
# line is inserted from what the UPDATE returned, so one happens only with the other.
_MOVED = (
    update(MATCHES)
    .where(*_AS_EXPECTED)
    .values(
        version=_param("p_seq", Integer),
        last_line_id=func.nextval(literal_column("pg_get_serial_sequence('match_line', 'id')")),
        status=_param("p_status", String),
        summary=_param("p_summary", String),
        names=_param("p_names", String),
        updated_at=_param("p_now", DateTime),
    )
    .returning(MATCHES.c.last_line_id)
    .cte("moved")
)
_MOVE_AND_INSERT = (
    insert(LINES)
    .from_select(
        ["id", *_LINE_COLUMNS], select(_MOVED.c.last_line_id, *_LINE_VALUES).select_from(_MOVED)
    )
    .returning(LINES.c.id)
)


_COMPILED: dict[tuple[int, str], str] = {}


def _compiled(statement: ClauseElement, engine: Engine) -> str:
    key = (id(statement), engine.dialect.name)
    if key not in _COMPILED:
        _COMPILED[key] = str(statement.compile(dialect=engine.dialect))
    return _COMPILED[key]


class MovedMeanwhile(Exception):
    """The match moved on after the line went in: roll both back."""


def add_line(
    engine: Engine,
    *,
    match_id: str,
    version: int,
    last_line_id: int,
    editor_token: str,
    text: str,
    key: str | None,
    phone: str | None,
    status: str,
    summary: str,
    names: str,
    now: datetime,
    connection: Connection | None = None,
) -> int | None:
    """Write line number version + 1 (recorded by `phone`, the id a phone keeps in its
    session); its row id, or None if nothing was written.

    None: the match is no longer at `version` and `last_line_id` (or gone), the editor
    token is not the match's (the links were renewed), or the form's key was used
    already. Raises IntegrityError when a line is at that place already. With a
    `connection`, in the caller's transaction (a rename: all the player's matches or
    none); else in one of its own.
    """
    params = {
        "p_match_id": match_id,
        "p_version": version,
        "p_last_line_id": last_line_id,
        "p_editor_token": editor_token,
        "p_seq": version + 1,
        "p_text": text,
        "p_form_key": key,
        "p_phone": phone,
        "p_status": status,
        "p_summary": summary,
        "p_names": names,
        "p_now": now,
    }
    if connection is not None:
        return _insert_and_move(connection, params)
    if engine.dialect.name == "postgresql":
        # One statement on the autocommit engine (Store.direct): atomic, and no
        # BEGIN or COMMIT to wait for. Its SQL is compiled once: psycopg takes the
        # parameters as they are.
        with engine.connect() as connection:
            driver = connection.connection.driver_connection
            if driver is None or not driver.autocommit:  # else: rolled back
                raise RuntimeError("add_line on PostgreSQL needs an autocommit engine")
            row_id: int | None = connection.exec_driver_sql(
                _compiled(_MOVE_AND_INSERT, engine), params
            ).scalar()
            return row_id
    try:
        with engine.begin() as transaction:
            return _insert_and_move(transaction, params)
    except MovedMeanwhile:
        return None


def _insert_and_move(connection: Connection, params: dict[str, Any]) -> int | None:
    """The line, then the match row, in the caller's transaction (SQLite: the INSERT takes
    the write lock; PostgreSQL: a line written meanwhile makes the UPDATE find no row, or
    the line's place taken, and MovedMeanwhile or IntegrityError rolls it all back)."""
    inserted: int | None = connection.execute(_INSERT_LINE, params).scalar()
    if inserted is None:
        return None
    moved = connection.execute(_MOVE_MATCH, params | {"p_line_id": inserted})
    if moved.rowcount != 1:
        raise MovedMeanwhile()
    return inserted


_KEY_USED: Executable = union_all(
    select(literal_column("1")).where(
        KEYS.c.match_id == bindparam("match_id"), KEYS.c.key == bindparam("key")
    ),
    select(literal_column("1")).where(
        LINES.c.match_id == bindparam("match_id"), LINES.c.form_key == bindparam("key")
    ),
).limit(1)


def key_used(connection: Connection, match_id: str, key: str) -> bool:
    """Was a form with this key acted on: its line carries it, or (undo) the used keys."""
    return connection.execute(_KEY_USED, {"match_id": match_id, "key": key}).first() is not None


def undo_line(
    connection: Connection,
    *,
    match_id: str,
    version: int,
    last_line_id: int,
    editor_token: str,
    key: str | None,
    status: str,
    summary: str,
    names: str,
    now: datetime,
) -> RowMapping | None:
    """Take line `version` (row `last_line_id`) off the log, in the caller's transaction;
    the line's text and form key, or None if the match is not exactly there any more (or
    the editor link was renewed, or this form was acted on). The match row moves first,
    and only from there: a line recorded meanwhile elsewhere must never be left beyond
    the log's end. The undone line's form key and the undo form's own stay used:
    resubmitting either does nothing.
    """
    params = {
        "p_match_id": match_id,
        "p_version": version,
        "p_last_line_id": last_line_id,
        "p_editor_token": editor_token,
        "p_form_key": key,
    }
    moved = connection.execute(
        _MOVE_BACK,
        params | {"p_status": status, "p_summary": summary, "p_names": names, "p_now": now},
    )
    if moved.rowcount != 1:
        return None
    undone = (
        connection.execute(
            delete(LINES)
            .where(LINES.c.match_id == match_id, LINES.c.id == last_line_id)
            .returning(LINES.c.text, LINES.c.form_key)
        )
        .mappings()
        .first()
    )
    if undone is None:  # pragma: no cover - the guarded move makes it there
        raise RuntimeError(f"match {match_id}: line {last_line_id} vanished under an undo")
    used = {k for k in (key, undone["form_key"]) if k}
    if used:
        connection.execute(
            insert(KEYS), [{"match_id": match_id, "key": k, "created_at": now} for k in used]
        )
    return undone


_MOVE_BACK = (
    update(MATCHES)
    .where(*_AS_EXPECTED)
    .values(
        version=MATCHES.c.version - 1,
        last_line_id=func.coalesce(
            select(LINES.c.id)
            .where(LINES.c.match_id == MATCHES.c.id, LINES.c.seq == MATCHES.c.version - 1)
            .scalar_subquery(),
            0,
        ),
        status=_param("p_status", String),
        summary=_param("p_summary", String),
        names=_param("p_names", String),
        updated_at=_param("p_now", DateTime),
    )
)


# ---------------------------------------------------------------- new matches, new links


def insert_match(connection: Connection, values: dict[str, Any], lines: Sequence[str]) -> int:
    """A new match and its lines (an import), in the caller's transaction; the last
    line's row id."""
    connection.execute(insert(MATCHES), [values | {"last_line_id": 0}])
    rows = [{"text": text, "created_at": values["created_at"]} for text in lines]
    return _write_lines(connection, values["id"], rows)


def repair_names(
    connection: Connection, match: Mapping[str, Any], header: dict[str, Any], lines: list[str]
) -> bool:
    """A match's repaired header and log (new rows, each line's recording kept: anything
    keyed by the last line's id lets go of the old), if it is as read; else False."""
    still = [MATCHES.c[column] == match[column] for column in ("id", "version", "last_line_id")]
    if not connection.execute(update(MATCHES).where(*still).values(**header)).rowcount:
        return False
    ours = LINES.c.match_id == match["id"]
    kept = select(LINES.c.created_at, LINES.c.form_key, LINES.c.phone).where(ours)
    rows = connection.execute(kept.order_by(LINES.c.seq)).mappings().all()
    connection.execute(delete(LINES).where(ours))
    written = [dict(row, text=text) for row, text in zip(rows, lines, strict=True)]
    _write_lines(connection, match["id"], written)
    return True


def _write_lines(connection: Connection, match_id: str, rows: list[dict[str, Any]]) -> int:
    """The match's log, numbered from 1; the last line's row id (0: none), on the match."""
    if not rows:
        return 0
    lines = [row | {"match_id": match_id, "seq": seq} for seq, row in enumerate(rows, 1)]
    connection.execute(insert(LINES), lines)
    last: int = connection.execute(
        select(LINES.c.id).where(LINES.c.match_id == match_id, LINES.c.seq == len(rows))
    ).scalar_one()
    connection.execute(update(MATCHES).where(MATCHES.c.id == match_id).values(last_line_id=last))
    return last


def new_links(connection: Connection, match_id: str, editor: str, viewer: str) -> None:
    connection.execute(
        update(MATCHES)
        .where(MATCHES.c.id == match_id)
        .values(editor_token=editor, viewer_token=viewer)
    )


def match_ids(connection: Connection) -> list[str]:
    """Every match's id, the oldest first."""
    return list(connection.execute(select(MATCHES.c.id).order_by(MATCHES.c.created_at)).scalars())


def set_record_lines(connection: Connection, match_id: str, count: int) -> None:
    """The match holds `count` lines of its record (unless a newer send counted more)."""
    lines = MATCHES.c.record_lines
    connection.execute(
        update(MATCHES)
        .where(MATCHES.c.id == match_id, or_(lines.is_(None), lines < count))
        .values(record_lines=count)
    )


def delete_match(connection: Connection, match_id: str) -> None:
    """The match gone, with its lines, used keys, group and seats (ON DELETE CASCADE)."""
    connection.execute(delete(MATCHES).where(MATCHES.c.id == match_id))


def read_match(connection: Connection, match_id: str) -> RowMapping | None:
    return connection.execute(READ_MATCH, {"match_id": match_id}).mappings().first()


def by_column(connection: Connection, column: str, value: str) -> RowMapping | None:
    """The match whose `column` is `value`: a link's (editor_token, viewer_token), or the
    key (`record:`) of the record it was imported from (record_key)."""
    query = select(MATCHES).where(MATCHES.c[column] == value)
    return connection.execute(query).mappings().first()


def by_ids(connection: Connection, ids: Sequence[str]) -> Sequence[RowMapping]:
    """These matches, the most recently changed first."""
    query = select(MATCHES).where(MATCHES.c.id.in_(ids)).order_by(MATCHES.c.updated_at.desc())
    return connection.execute(query).mappings().all()


def ping(connection: Connection) -> None:
    """One round trip: does the database answer (raises SQLAlchemyError if not)?"""
    connection.execute(text("SELECT 1"))
