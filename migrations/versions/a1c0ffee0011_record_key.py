"""each match's record key

A record made on a phone (the standalone app) carries a key of its own in its first
line (`record: KEY`, the engine's notation): sent to the server twice, or sent again
when the answer was lost, it must become one match. The key is kept on the match it
was imported as, unique; matches made here or imported without a key have none (NULL,
which a unique index allows any number of).

Revision ID: a1c0ffee0011
Revises: a1c0ffee0010
Create Date: 2026-11-26 20:30:00

Added in place, with an index rather than a table constraint: on SQLite a constraint
needs a batch "recreate" of `match`, which with foreign keys on deletes every line,
seat and used key of every match (ON DELETE CASCADE).
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0011"
down_revision = "a1c0ffee0010"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("match", sa.Column("record_key", sa.String(length=64), nullable=True))
    op.create_index("uq_match_record_key", "match", ["record_key"], unique=True)


def downgrade():
    op.drop_index("uq_match_record_key", table_name="match")
    op.drop_column("match", "record_key")  # SQLite 3.35 and later: in place
