"""share links, the match version, used form keys

Revision ID: a1c0ffee0002
Revises: 3e64f3cd8c69
Create Date: 2026-11-22 00:35:00

"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0002"
down_revision = "3e64f3cd8c69"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("editor_token", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("viewer_token", sa.String(length=40), nullable=True))

    # Existing matches: their version is their last line; each gets its own links.
    bind = op.get_bind()
    match = sa.table(
        "match",
        sa.column("id", sa.String),
        sa.column("version", sa.Integer),
        sa.column("editor_token", sa.String),
        sa.column("viewer_token", sa.String),
    )
    line = sa.table("match_line", sa.column("match_id", sa.String), sa.column("seq", sa.Integer))
    for (match_id,) in bind.execute(sa.select(match.c.id)).all():
        last = bind.execute(
            sa.select(sa.func.coalesce(sa.func.max(line.c.seq), 0)).where(
                line.c.match_id == match_id
            )
        ).scalar()
        bind.execute(
            match.update()
            .where(match.c.id == match_id)
            .values(
                version=last,
                editor_token=secrets.token_urlsafe(16),
                viewer_token=secrets.token_urlsafe(16),
            )
        )

    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.alter_column("editor_token", existing_type=sa.String(length=40), nullable=False)
        batch_op.alter_column("viewer_token", existing_type=sa.String(length=40), nullable=False)

    op.create_table(
        "used_key",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "key"),
    )


def downgrade():
    op.drop_table("used_key")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_column("viewer_token")
        batch_op.drop_column("editor_token")
        batch_op.drop_column("version")
