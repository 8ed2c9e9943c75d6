"""how many lines of its record a keyed match took

A record sent again after more was played in the phone adds the lines played since
(companion/match_making.py). What "since" means is counted here: the lines of the record
the match took when it was last received. Without it, a line undone on the server after
the record arrived would come back with the next send, as if played since.

Revision ID: a1c0ffee0012
Revises: a1c0ffee0011
Create Date: 2026-11-27 12:15:00

NULL for a match with no key, and for one imported before this column: such a match
counts every line it holds but its renames as received.
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0012"
down_revision = "a1c0ffee0011"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("match", sa.Column("record_lines", sa.Integer(), nullable=True))


def downgrade():
    op.drop_column("match", "record_lines")  # SQLite 3.35 and later: in place
