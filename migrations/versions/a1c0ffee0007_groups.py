"""Groups: a roster of players, their matches and who sat where

Revision ID: a1c0ffee0007
Revises: a1c0ffee0006
Create Date: 2026-12-01 10:00:00

Four new tables; the match table is untouched: a match outside any group simply has no
row in group_match nor match_seat, so an existing database upgrades with every match
where it was (outside any group), and the downgrade drops only what groups added.
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0007"
down_revision = "a1c0ffee0006"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_group",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("editor_token", sa.String(length=40), nullable=False),
        sa.Column("viewer_token", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "roster_player",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("group_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.Text(), nullable=False),
        sa.Column("retired", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "name_key", name="uq_roster_player_name"),
    )
    op.create_table(
        "group_match",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("group_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index("ix_group_match_group_id", "group_match", ["group_id"], unique=False)
    op.create_table(
        "match_seat",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["roster_player.id"]),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index("ix_match_seat_player_id", "match_seat", ["player_id"], unique=False)


def downgrade():
    op.drop_index("ix_match_seat_player_id", table_name="match_seat")
    op.drop_table("match_seat")
    op.drop_index("ix_group_match_group_id", table_name="group_match")
    op.drop_table("group_match")
    op.drop_table("roster_player")
    op.drop_table("player_group")
