"""The database's tables: a match is its header plus an append-only log of record lines.

Plain SQLAlchemy Core tables: the app reads and writes them with the statements in
statements.py; a request carries a match as the small value object in matches.py.
The migrations build these tables (a test compares the two).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)

from companion.extensions import db
from engine import N_

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
    # The players as called now: `players` and `dealer` are the record's header, and a
    # rename line (a group renamed a player) changes only this.
    Column("names", String(300), nullable=False, server_default=""),
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
    # The key of the record it was imported from (`record:`, the engine's notation), if
    # it had one: the same record sent twice is this match again, never a second one.
    Column("record_key", String(64), nullable=True),
    # How many lines of its keyed record it took when the record last came (a record sent
    # again adds only beyond them: companion/match_making.py); NULL without a key.
    Column("record_lines", Integer, nullable=True),
    Index("uq_match_record_key", "record_key", unique=True),
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
    # The phone that recorded it (the id in its session cookie, access.Phone.id): a table
    # tells its own lines from another phone's. None: imported, or from before.
    Column("phone", String(16), nullable=True),
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

# ---------------------------------------------------------------- groups
# A group ("Friday crew") holds a roster of players and the matches they played. A match
# outside any group has no row in group_match nor match_seat: the match table itself is
# untouched, so matches from before groups need nothing to be migrated.

GROUPS = db.Table(
    "player_group",
    Column("id", String(32), primary_key=True),
    Column("name", String(60), nullable=False),
    Column("created_at", DateTime, nullable=False),
    # Share links like a match's: the editor link changes the roster and starts matches.
    Column("editor_token", String(40), nullable=False),
    Column("viewer_token", String(40), nullable=False),
)

ROSTER = db.Table(
    "roster_player",
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "group_id",
        String(32),
        ForeignKey("player_group.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("name", String(60), nullable=False),  # as shown and written in records
    # The engine's name_key: two names with one key are one player (unique in the group,
    # retired players included: their name still names them in their matches).
    Column("name_key", Text, nullable=False),
    Column("retired", Boolean, nullable=False, server_default=false()),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("group_id", "name_key", name="uq_roster_player_name"),
)

# Which group a match is in (at most one).
GROUP_MATCHES = db.Table(
    "group_match",
    Column("match_id", String(32), ForeignKey("match.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "group_id",
        String(32),
        ForeignKey("player_group.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
)

# Who sits where in a group's match: seat 1.. in seating order, a roster player each.
SEATS = db.Table(
    "match_seat",
    Column("match_id", String(32), ForeignKey("match.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, ForeignKey("roster_player.id"), nullable=False, index=True),
)

# ---------------------------------------------------------------- the house-rule lab
# A lab run: two rule sets compared by simulation (engine/tools/lab.py) in a worker process of
# its own (companion/lab_worker.py). The row is the job: any web process reads its
# progress and result from here. `slot` (1..LAB_MAX_RUNNING while it runs, NULL once it
# ended) is unique: taking a free one is how a start knows it may run, on any database.

LAB_RUNS = db.Table(
    "lab_run",
    Column("token", String(40), primary_key=True),  # unguessable: the run's shared link
    Column("rules_a", String(200), nullable=False),
    Column("rules_b", String(200), nullable=False),
    Column("players", Integer, nullable=False),
    Column("policy", String(20), nullable=False),
    Column("hands", Integer, nullable=False),  # per rule set
    Column("seed", Integer, nullable=False),
    Column("status", String(10), nullable=False),  # running, done, failed
    Column("slot", Integer, nullable=True),
    Column("done", Integer, nullable=False, server_default="0"),  # hands, both rule sets
    Column("total", Integer, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("heartbeat_at", DateTime, nullable=False),  # the worker's last sign of life
    Column("finished_at", DateTime, nullable=True),
    Column("worker_pid", Integer, nullable=True),
    Column("result", Text, nullable=True),  # engine.tools.lab.Comparison.to_json(), as JSON
    Column("error", Text, nullable=True),
    UniqueConstraint("slot", name="uq_lab_run_slot"),
)
