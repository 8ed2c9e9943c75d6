"""which phone recorded each line

A short random id each phone keeps in its signed session cookie (companion/access.py),
written with the line: the table tells the lines a phone recorded itself ("Recorded:
...") from those another phone recorded ("From another phone: ..."), and the tap guard
(companion/taps.py) knows when a live refresh brought another phone's play. Lines from
before (and imported ones) have none.

Revision ID: a1c0ffee0009
Revises: a1c0ffee0008
Create Date: 2026-11-24 10:00:00

A nullable column added: SQLite adds it in place (no table rebuild), and the downgrade
drops only it.
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0009"
down_revision = "a1c0ffee0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match_line", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phone", sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table("match_line", schema=None) as batch_op:
        batch_op.drop_column("phone")
