"""each match's players as they are called now

A group's player renamed is a line of each of their matches' logs ("rename: Bob,
Robert", the engine's notation), never a rewrite of the log: the `players` and `dealer`
columns stay the record's header (what the log replays from), and `names` is what the
screens show, moved with every line written or undone. Existing matches are called
what their header says (their logs hold no rename line yet).

Revision ID: a1c0ffee0010
Revises: a1c0ffee0009
Create Date: 2026-11-24 20:00:00

The column is added and dropped in place: on SQLite a batch "recreate" of `match`
would drop the old table, and with foreign keys on, that deletes every line, seat and
used key of every match (ON DELETE CASCADE). Down again: a match whose log holds a
rename line would no longer replay on the code of a1c0ffee0009, so the downgrade refuses
while one exists (undo the rename first).
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0010"
down_revision = "a1c0ffee0009"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "match", sa.Column("names", sa.String(length=300), nullable=False, server_default="")
    )
    op.execute("UPDATE match SET names = players")


def downgrade():
    renamed = op.get_bind().execute(
        sa.text("SELECT count(*) FROM match_line WHERE lower(text) LIKE 'rename:%'")
    ).scalar()
    if renamed:
        raise RuntimeError(
            f"{renamed} rename line(s) in the match logs: the code before a1c0ffee0010 can't "
            "replay them. Undo those renames first."
        )
    op.drop_column("match", "names")  # SQLite 3.35 and later: in place
