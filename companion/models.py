"""The database's tables: a match is its header plus an append-only log of record lines.

Plain SQLAlchemy Core tables: the app reads and writes them with the statements in
statements.py; a request carries a match as the small value object in matches.py.
The migrations build these tables (a test compares the two).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint

from companion.extensions import db
from engine.i18n import N_

# The modes and their labels (translated where they are shown).
MODES = {"referee": N_("Referee turn by turn"), "quick": N_("Quick score (results only)")}


def new_match_id() -> str:
    """Unguessable, but not a key: only the share links' tokens give access."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


MATCHES = db.Table(
    "match",
    Column("id", String(32), primary_key=True),
    Column("players", String(300), nullable=False),  # "Ann, Bob, Cy", seating order
    Column("dealer", String(60), nullable=False),
    Column("rules", String(200), nullable=False),
    Column("mode", String(10), nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    # A summary for the home page, rewritten with every line.
    Column("status", String(20), nullable=False),
    Column("summary", String(200), nullable=False),
    # The last line's sequence number and row id (0, 0 with no lines): together they
    # name the whole log, so a process can trust its cached game without reading lines.
    Column("version", Integer, nullable=False),
    Column("last_line_id", Integer, nullable=False, server_default="0"),
    # Share links: an editor link records plays, a viewer link only watches.
    Column("editor_token", String(40), nullable=False),
    Column("viewer_token", String(40), nullable=False),
)

LINES = db.Table(
    "match_line",
    # Ids are never reused (they key the cached games): AUTOINCREMENT on SQLite.
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Looked up through the unique (match_id, seq) index: no index of its own.
    Column("match_id", String(32), ForeignKey("match.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, 3, ... per match
    Column("text", Text, nullable=False),
    Column("created_at", DateTime, nullable=False),
    # The key of the rendered form that recorded it: a resubmission does nothing.
    Column("form_key", String(40), nullable=True),
    UniqueConstraint("match_id", "seq", name="uq_match_line_seq"),
    sqlite_autoincrement=True,
)

# Form keys acted on that no line carries: undo forms, and the lines undone.
USED_KEYS = db.Table(
    "used_key",
    Column(
        "match_id",
        String(32),
        ForeignKey("match.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("key", String(40), primary_key=True),
    Column("created_at", DateTime, nullable=False),
)
