"""The house-rule lab in the app: start a comparison, follow it, read its result.

A run is a row of `lab_run` (companion/models.py) and a worker process of its own
(companion/lab_worker.py) that plays the hands with engine.tools.lab.compare at low
priority, writing its progress and a heartbeat to the row, then the result. A web
request only inserts the row and starts the process, so it returns at once, and any
web process (several gunicorn workers, several hosts) shows the progress and the result.

Limits, so the lab cannot starve the tables (settings with the COMPANION_ prefix):
LAB_MAX_HANDS hands per rule set, LAB_MAX_RUNNING runs at once (a start while that many
run is refused, with a link to the running one), LAB_JOBS processes per run,
LAB_STALE_SECONDS without a heartbeat before a run counts as stopped (defaults: DEFAULTS).
Starting runs is rate-limited per client address (companion/limits.py).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from companion import lab_statements
from companion.models import new_token, now
from companion.paths import ROOT
from engine import (
    HouseRules,
    tools,  # its names load on first use: the simulator with a run's page
)

# LAB_ENABLED off (the app in the phone, which starts no process): the lab's pages say so.
DEFAULTS = {
    "LAB_ENABLED": True,
    "LAB_MAX_HANDS": 20_000,
    "LAB_MAX_RUNNING": 1,
    "LAB_JOBS": 1,
    "LAB_STALE_SECONDS": 30,
}
MIN_HANDS = 100  # fewer say nothing a table could trust
# The worker's environment: where the database is (never on its command line, which
# every user of the machine can read).
DATABASE_VARIABLE = "COMPANION_LAB_DATABASE_URL"


def policy_title(policy: str) -> str:
    """A policy's name, in the current language (the engine says it)."""
    return tools.title_of_policy(policy)


def policy_explanation(policy: str) -> str:
    """A policy in plain language, in the current language (the engine says it)."""
    return tools.explain_policy(policy)


@dataclass(frozen=True, slots=True)
class Settings:
    """What a run compares: two rule sets, at a table of `players`, played by `policy`."""

    a: HouseRules
    b: HouseRules
    players: int
    policy: str
    hands: int  # per rule set


@dataclass(frozen=True, slots=True)
class LabRun:
    """A run's row as one read gave it, and what a screen says of it."""

    token: str
    settings: Settings
    seed: int
    status: str  # running, done, failed (as the worker wrote it)
    done: int
    total: int
    created_at: datetime
    heartbeat_at: datetime
    stopped: bool  # running, but no heartbeat for LAB_STALE_SECONDS: the worker is gone
    worker_pid: int | None  # on the host that started it
    result: str | None
    error: str | None

    @property
    def running(self) -> bool:
        return self.status == "running" and not self.stopped

    @property
    def command(self) -> str:
        """The command line that gives the same figures on a computer (the seed shown)."""
        s = self.settings
        return tools.command_line(
            s.a, s.b, players=s.players, policy=s.policy, hands=s.hands, seed=self.seed
        )

    def comparison(self) -> tools.Comparison | None:
        """The result (its sentences in the language of the request that reads it)."""
        if self.result is None:
            return None
        data: dict[str, Any] = json.loads(self.result)
        return tools.Comparison.from_json(data)


@dataclass(frozen=True, slots=True)
class Started:
    run: LabRun


@dataclass(frozen=True, slots=True)
class Busy:
    """As many runs as LAB_MAX_RUNNING are going: this one is one of them."""

    running: str  # its token


class Lab:
    """The lab's use cases: start a run, read one (its progress or its result)."""

    def __init__(self, database: SQLAlchemy, config: dict[str, Any]) -> None:
        self.database = database
        self.enabled = bool(config["LAB_ENABLED"])
        self.max_hands = _setting(config, "LAB_MAX_HANDS", 1)
        self.max_running = _setting(config, "LAB_MAX_RUNNING", 1)
        self.jobs = _setting(config, "LAB_JOBS", 1)
        self.stale = timedelta(seconds=_setting(config, "LAB_STALE_SECONDS", 1))

    @property
    def engine(self) -> Engine:
        return self.database.engine

    # ------------------------------------------------------------ starting

    def start(self, settings: Settings) -> Started | Busy:
        """Take a free slot and start the worker; Busy when every slot is taken by a
        run that is alive (a stopped run's slot is freed on the way)."""
        token, seed = new_token(), secrets.randbelow(2**31)
        for slot in range(1, self.max_running + 1):
            if self._take(slot, token, seed, settings):
                break
        else:
            return Busy(self._running_token() or "")
        pid = self._spawn(token)
        with self.engine.begin() as conn:
            lab_statements.set_worker(conn, token, pid)
        run = self.run(token)
        assert run is not None
        return Started(run)

    def _take(self, slot: int, token: str, seed: int, settings: Settings) -> bool:
        """Insert the run in `slot`; False when a live run holds it. One statement each:
        the unique slot decides between two starts at once, on any database."""
        with self.engine.begin() as conn:
            lab_statements.free_stale_slot(conn, slot, now() - self.stale)
        moment = now()
        try:
            with self.engine.begin() as conn:
                lab_statements.insert_run(
                    conn,
                    {
                        "token": token,
                        "rules_a": str(settings.a),
                        "rules_b": str(settings.b),
                        "players": settings.players,
                        "policy": settings.policy,
                        "hands": settings.hands,
                        "seed": seed,
                        "status": "running",
                        "slot": slot,
                        "done": 0,
                        "total": 2 * settings.hands,
                        "created_at": moment,
                        "heartbeat_at": moment,  # the worker has 30 s to start
                    },
                )
        except IntegrityError:
            return False
        return True

    def _running_token(self) -> str | None:
        with self.engine.connect() as conn:
            return lab_statements.oldest_running(conn)

    def worker_arguments(self, token: str) -> list[str]:
        """The worker's command line after its module name. The token comes after "--":
        one in 64 starts with a dash, which would read as an option."""
        return [
            *("--jobs", str(self.jobs)),
            # Five heartbeats in the time a run may go without one before it is stopped.
            *("--beat", str(self.stale.total_seconds() / 5)),
            *("--", token),
        ]

    def _spawn(self, token: str) -> int:
        """The worker, in a process and session of its own (a web worker restarted by
        gunicorn does not take it along); a thread reaps it when it ends."""
        env = dict(os.environ)
        env[DATABASE_VARIABLE] = self.engine.url.render_as_string(hide_password=False)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        process = subprocess.Popen(
            [sys.executable, "-m", "companion.lab_worker", *self.worker_arguments(token)],
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        threading.Thread(target=process.wait, daemon=True, name=f"lab-{token[:6]}").start()
        return process.pid

    # ------------------------------------------------------------ reading

    def run(self, token: str) -> LabRun | None:
        with self.engine.connect() as conn:
            row = lab_statements.run(conn, token)
        if row is None:
            return None
        stopped = row.status == "running" and row.heartbeat_at < now() - self.stale
        return LabRun(
            token=row.token,
            settings=Settings(
                HouseRules.parse(row.rules_a),
                HouseRules.parse(row.rules_b),
                row.players,
                row.policy,
                row.hands,
            ),
            seed=row.seed,
            status=row.status,
            done=row.done,
            total=row.total,
            created_at=row.created_at,
            heartbeat_at=row.heartbeat_at,
            stopped=stopped,
            worker_pid=row.worker_pid,
            result=row.result,
            error=row.error,
        )

    def running(self) -> int:
        """Runs going now (a slot held by a live worker)."""
        with self.engine.connect() as conn:
            return lab_statements.running(conn, self.stale, now())


def _setting(config: dict[str, Any], key: str, least: int) -> int:
    value = config.get(key, DEFAULTS[key])
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = least - 1
    if number < least:
        raise ValueError(
            f"COMPANION_{key} must be a whole number of at least {least} (the default is "
            f"{DEFAULTS[key]:,}). It is {value!r}."
        )
    return number


def current_lab() -> Lab:
    """The app's lab (companion/services.py keeps it in app.extensions)."""
    lab: Lab = current_app.extensions["lab"]
    return lab
