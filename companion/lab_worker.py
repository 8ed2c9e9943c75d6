"""The lab's worker: `python -m companion.lab_worker TOKEN [--jobs N]` plays one run.

Started by `Lab.start` (companion/lab.py) in a process of its own, never in a web
request. It lowers its own priority (the tables come first), runs engine.tools.lab.compare
on the run's settings, and writes to the run's row: a heartbeat every `--beat` seconds
from a thread of its own (a chunk of hands may take longer than a web process waits
before it counts the run as stopped), the hands done at most every PROGRESS_EVERY
seconds, then the result (or what went wrong), and frees its slot.
The database is named by the environment (COMPANION_LAB_DATABASE_URL), never on the
command line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, create_engine

from companion import lab_statements
from companion.lab import DATABASE_VARIABLE
from companion.models import now
from engine import HouseRules
from engine.tools import compare

PROGRESS_EVERY = 0.5  # seconds between two writes of the progress
NICENESS = 10  # below the web workers
BEAT = 5.0  # seconds between two heartbeats, unless the app says (--beat)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion.lab_worker")
    parser.add_argument("token")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--beat", type=float, default=BEAT, help="seconds between heartbeats")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    url = os.environ.get(DATABASE_VARIABLE)
    if not url:
        print(f"{DATABASE_VARIABLE} is not set: which database?", file=sys.stderr)
        return 2
    with contextlib.suppress(OSError):  # not allowed here: run anyway
        os.nice(NICENESS)
    options: dict[str, Any] = {}
    if url.startswith("sqlite"):
        options["connect_args"] = {"timeout": 10}  # the web workers write too
    engine = create_engine(url, **options)
    try:
        return play(engine, args.token, args.jobs, args.beat)
    finally:
        engine.dispose()


@contextlib.contextmanager
def beating(engine: Engine, token: str, every: float) -> Iterator[None]:
    """Write the run's heartbeat every `every` seconds while the block runs, whatever the
    block is doing (a thread: the hands are played in this process or in others)."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every):
            try:
                with engine.begin() as conn:
                    lab_statements.write(conn, token, heartbeat_at=now())
            except Exception:  # a busy database: the next beat tries again
                traceback.print_exc()

    thread = threading.Thread(target=beat, name="lab heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def play(engine: Engine, token: str, jobs: int, beat: float = BEAT) -> int:
    with engine.connect() as conn:
        row = lab_statements.run(conn, token)
    if row is None or row.status != "running":
        print(f"lab run {token[:6]}...: nothing to run", file=sys.stderr)
        return 1
    with engine.begin() as conn:
        lab_statements.write(conn, token, worker_pid=os.getpid(), heartbeat_at=now())
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        moment = time.monotonic()
        if moment - last < PROGRESS_EVERY and done < total:
            return
        last = moment
        with engine.begin() as conn:
            lab_statements.write(conn, token, done=done, heartbeat_at=now())

    try:
        with beating(engine, token, beat):
            comparison = compare(
                HouseRules.parse(row.rules_a),
                HouseRules.parse(row.rules_b),
                players=row.players,
                policy=row.policy,
                hands=row.hands,
                seed=row.seed,
                jobs=jobs,
                progress=progress,
            )
    except Exception as error:  # any: the row must say the run ended
        traceback.print_exc()
        with engine.begin() as conn:
            lab_statements.write(
                conn, token, status="failed", slot=None, finished_at=now(), error=str(error)[:500]
            )
        return 1
    with engine.begin() as conn:
        lab_statements.write(
            conn,
            token,
            status="done",
            slot=None,
            done=row.total,
            heartbeat_at=now(),
            finished_at=now(),
            result=json.dumps(comparison.to_json()),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
