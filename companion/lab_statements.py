"""Every statement on `lab_run`: the lab's one persistence module.

The web side (companion/lab.py) takes a slot and inserts a run, reads it and counts the
runs going; the worker (companion/lab_worker.py) writes its pid, heartbeat, progress and
result. Each function takes the caller's connection: the caller makes the transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, func, select, update

from companion.models import LAB_RUNS


def this_run(token: str) -> ColumnElement[bool]:
    """The run with this token, while it is running (a worker writes nothing after)."""
    return (LAB_RUNS.c.token == token) & (LAB_RUNS.c.status == "running")


def free_stale_slot(connection: Connection, slot: int, stale_before: datetime) -> None:
    """A holder without a heartbeat since `stale_before` is gone: its slot is free."""
    connection.execute(
        update(LAB_RUNS)
        .where(LAB_RUNS.c.slot == slot, LAB_RUNS.c.heartbeat_at < stale_before)
        .values(slot=None)
    )


def insert_run(connection: Connection, values: dict[str, Any]) -> None:
    """A new run (raises IntegrityError when its slot is taken)."""
    connection.execute(LAB_RUNS.insert().values(**values))


def set_worker(connection: Connection, token: str, pid: int) -> None:
    connection.execute(update(LAB_RUNS).where(LAB_RUNS.c.token == token).values(worker_pid=pid))


def write(connection: Connection, token: str, **values: Any) -> None:
    """The worker's writes to its running run: pid, heartbeat, progress, the end."""
    connection.execute(update(LAB_RUNS).where(this_run(token)).values(**values))


def run(connection: Connection, token: str) -> Row[Any] | None:
    return connection.execute(select(LAB_RUNS).where(LAB_RUNS.c.token == token)).first()


def oldest_running(connection: Connection) -> str | None:
    """The token of the oldest run holding a slot."""
    token: str | None = connection.execute(
        select(LAB_RUNS.c.token)
        .where(LAB_RUNS.c.slot.is_not(None))
        .order_by(LAB_RUNS.c.created_at)
        .limit(1)
    ).scalar()
    return token


def running(connection: Connection, stale: timedelta, moment: datetime) -> int:
    """Runs holding a slot with a heartbeat since `moment - stale`."""
    count = connection.execute(
        select(func.count())
        .select_from(LAB_RUNS)
        .where(LAB_RUNS.c.slot.is_not(None), LAB_RUNS.c.heartbeat_at >= moment - stale)
    ).scalar()
    return int(count or 0)
