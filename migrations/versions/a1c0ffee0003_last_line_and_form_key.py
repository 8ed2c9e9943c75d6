"""the last line's id on the match, the form key on the line, two indexes less

The index on match_line.match_id repeats the first column of the unique (match_id,
seq); the one on match.updated_at served no query (the home page sorts a phone's own
few matches). Every recorded line updated both.

Revision ID: a1c0ffee0003
Revises: a1c0ffee0002
Create Date: 2026-11-22 02:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0003"
down_revision = "a1c0ffee0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("last_line_id", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("match_line", schema=None) as batch_op:
        batch_op.add_column(sa.Column("form_key", sa.String(length=40), nullable=True))
        batch_op.drop_index("ix_match_line_match_id")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index("ix_match_updated_at")

    # Existing matches: the id of the line at their version (0 with no lines).
    match = sa.table(
        "match",
        sa.column("id", sa.String),
        sa.column("version", sa.Integer),
        sa.column("last_line_id", sa.Integer),
    )
    line = sa.table(
        "match_line",
        sa.column("id", sa.Integer),
        sa.column("match_id", sa.String),
        sa.column("seq", sa.Integer),
    )
    last = (
        sa.select(line.c.id)
        .where(line.c.match_id == match.c.id, line.c.seq == match.c.version)
        .scalar_subquery()
    )
    op.execute(sa.update(match).values(last_line_id=sa.func.coalesce(last, 0)))


def downgrade():
    with op.batch_alter_table("match_line", schema=None) as batch_op:
        batch_op.drop_column("form_key")
        batch_op.create_index("ix_match_line_match_id", ["match_id"], unique=False)
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_column("last_line_id")
        batch_op.create_index("ix_match_updated_at", ["updated_at"], unique=False)
