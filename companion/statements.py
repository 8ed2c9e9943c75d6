"""The hot paths' SQL, built once: read a match, read its lines, add a line.

A table records a line and polls far more often than it does anything else, so these
statements skip the ORM's unit of work and are never rebuilt per request.

Adding a line writes the line and moves the match row (version, last line's id,
summary) as one. On PostgreSQL that is a single statement, an UPDATE in a WITH
feeding the INSERT: atomic on its own, it runs without BEGIN and COMMIT, one round
trip. SQLite has no data-modifying WITH; there it is an INSERT and an UPDATE in one
transaction, which costs no round trip on a local file.

Either way nothing is written unless the match is exactly as the game the line was
judged on was built from (its version and last line), the editor's link is still the
match's, and the form's key was never used (a line since undone keeps its key in
used_key); the unique (match, seq) stops a second line at the same place. So a process
may judge a line on the game it cached, without reading the match first: if the
match moved meanwhile, nothing is written and it looks again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Engine,
    Integer,
    String,
    bindparam,
    exists,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import BindParameter

from companion.models import Match, MatchLine, UsedKey

MATCHES = Match.__table__
LINES = MatchLine.__table__
KEYS = UsedKey.__table__

READ_MATCH = select(MATCHES).where(MATCHES.c.id == bindparam("match_id"))

READ_LINES = (
    select(LINES.c.id, LINES.c.seq, LINES.c.text)
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
_LINE_COLUMNS = ["match_id", "seq", "text", "form_key", "created_at"]
_LINE_VALUES = (
    _param("p_match_id", String),
    _param("p_seq", Integer),
    _param("p_text", String),
    _param("p_form_key", String),
    _param("p_now", DateTime),
)

# SQLite: the line, then the match row, in one transaction (the INSERT takes the write
# lock, so the match can't move between the two).
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


def _compiled(statement: Executable, engine: Engine) -> str:
    key = (id(statement), engine.dialect.name)
    if key not in _COMPILED:
        _COMPILED[key] = str(statement.compile(dialect=engine.dialect))
    return _COMPILED[key]


class _Refused(Exception):
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
    status: str,
    summary: str,
    now: datetime,
) -> int | None:
    """Write line number version + 1; its row id, or None if nothing was written.

    None: the match is no longer at `version` and `last_line_id` (or gone), the editor
    token is not the match's (the links were renewed), or the form's key was used
    already. Raises IntegrityError when a line is at that place already.
    """
    params = {
        "p_match_id": match_id,
        "p_version": version,
        "p_last_line_id": last_line_id,
        "p_editor_token": editor_token,
        "p_seq": version + 1,
        "p_text": text,
        "p_form_key": key,
        "p_status": status,
        "p_summary": summary,
        "p_now": now,
    }
    if engine.dialect.name == "postgresql":
        # One statement on the autocommit engine (store.direct_engine): atomic, and no
        # BEGIN or COMMIT to wait for. Its SQL is compiled once: psycopg takes the
        # parameters as they are.
        with engine.connect() as connection:
            if not connection.connection.driver_connection.autocommit:  # else: rolled back
                raise RuntimeError("add_line on PostgreSQL needs an autocommit engine")
            row_id: int | None = connection.exec_driver_sql(
                _compiled(_MOVE_AND_INSERT, engine), params
            ).scalar()
            return row_id
    try:
        with engine.begin() as connection:
            row_id = connection.execute(_INSERT_LINE, params).scalar()
            if row_id is None:
                return None
            moved = connection.execute(_MOVE_MATCH, params | {"p_line_id": row_id})
            if moved.rowcount != 1:
                raise _Refused()
            return row_id
    except _Refused:
        return None
