"""The house-rule lab's runs: one row per comparison, its progress and its result

Revision ID: a1c0ffee0008
Revises: a1c0ffee0007
Create Date: 2027-01-10 10:00:00

A new table only; nothing else changes, and the downgrade drops only it.
"""

import sqlalchemy as sa
from alembic import op

revision = "a1c0ffee0008"
down_revision = "a1c0ffee0007"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "lab_run",
        sa.Column("token", sa.String(length=40), nullable=False),
        sa.Column("rules_a", sa.String(length=200), nullable=False),
        sa.Column("rules_b", sa.String(length=200), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("policy", sa.String(length=20), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=True),
        sa.Column("done", sa.Integer(), server_default="0", nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("worker_pid", sa.Integer(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("token"),
        sa.UniqueConstraint("slot", name="uq_lab_run_slot"),
    )


def downgrade():
    op.drop_table("lab_run")
