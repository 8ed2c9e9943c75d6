"""The database pools are the server's size: on PostgreSQL each of a worker's engines (the
app's and the hot paths' autocommit one) keeps a connection per thread the worker runs
(GUNICORN_THREADS, or COMPANION_DB_POOL_SIZE), opened when first needed and kept, never
one more. SQLAlchemy's default (5, and up to 10 more opened and closed on demand) made a
200-table load open 1,400 sessions. SQLite keeps SQLAlchemy's own pool."""

from __future__ import annotations

import gc
import html
import os
import random
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import cast

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy.pool import QueuePool

from companion import create_app
from companion.extensions import db
from tests.app.conftest import make_app
from tests.app.test_concurrency import (
    Browser,
    a_legal_line,
    create_match,
    editor_link,
    join,
    line_form,
    read_table,
)
from tests.databases import postgres_url
from tests.servers import Gunicorn

POLLER = re.compile(r'class="live" hx-get="([^"]+)"')  # the URL a table's htmx polls
ELSEWHERE = "postgresql+psycopg://u@db.invalid/c"  # never connected to: AUTO_MIGRATE off


def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str) -> Flask:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False, "SECRET_KEY": "t"})


def pools(app: Flask) -> dict[str | None, QueuePool]:
    """The pool of each of the app's engines (QueuePool on every database here)."""
    with app.app_context():
        found = {name: engine.pool for name, engine in db.engines.items()}
    assert all(isinstance(pool, QueuePool) for pool in found.values()), found
    return cast(dict[str | None, QueuePool], found)


# ---------------------------------------------------------------- the sizes


def test_each_postgresql_engine_keeps_a_connection_per_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUNICORN_THREADS", "12")
    app = built(tmp_path, monkeypatch, ELSEWHERE)
    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert (options["pool_size"], options["max_overflow"]) == (12, 0)
    found = pools(app)
    assert set(found) == {None, "direct"}
    for pool in found.values():
        assert pool.size() == 12
        # No thread waits for a connection; a smaller pool's wait ends in a 503 before
        # the phone's poll gives up (8 s).
        assert 0 < pool.timeout() < 8


def test_the_gunicorn_default_of_32_threads_sizes_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    monkeypatch.delenv("COMPANION_DB_POOL_SIZE", raising=False)
    app = built(tmp_path, monkeypatch, ELSEWHERE)
    assert {pool.size() for pool in pools(app).values()} == {32}


def test_the_pool_size_setting_outranks_the_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUNICORN_THREADS", "12")
    monkeypatch.setenv("COMPANION_DB_POOL_SIZE", "4")
    app = built(tmp_path, monkeypatch, ELSEWHERE)
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] == 4
    assert {pool.size() for pool in pools(app).values()} == {4}


def test_sqlite_keeps_sqlalchemys_own_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_THREADS", "12")
    app = built(tmp_path, monkeypatch, f"sqlite:///{tmp_path}/x.db")
    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert not {"pool_size", "max_overflow", "pool_timeout"} & options.keys()
    assert set(pools(app)) == {None}


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("COMPANION_DB_POOL_SIZE", "0"),
        ("COMPANION_DB_POOL_SIZE", "many"),
        ("GUNICORN_THREADS", "many"),
    ],
)
def test_a_pool_size_that_is_no_count_stops_the_app_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        built(tmp_path, monkeypatch, ELSEWHERE)


# ---------------------------------------------------------------- the real server


class Sessions:
    """What PostgreSQL counts of the sessions to one database, read on a connection of
    this object's own (left out of the counts)."""

    def __init__(self, connection: sa.Connection) -> None:
        self.connection = connection

    def read(self, query: str) -> list[int]:
        self.connection.execute(sa.text("SELECT pg_stat_clear_snapshot()"))
        return [int(value) for value in self.connection.scalars(sa.text(query))]

    def opened(self) -> int:
        """Sessions ever established to the database: each backend counts its own in
        the statistics when it first waits for a query, or at its exit."""
        (count,) = self.read(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        )
        return count

    def client_ports(self) -> list[int]:
        """The client's port of each other session connected now (-1 over a Unix socket)."""
        return self.read(
            "SELECT client_port FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )

    def all_closed(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while open_ports := self.client_ports():
            assert time.monotonic() < deadline, f"connections left open, from ports {open_ports}"
            # Apps that earlier tests in this process dropped keep their pools' sessions
            # open until the cycle collector frees them, maybe not within the wait: run it.
            gc.collect()
            time.sleep(0.1)


@contextmanager
def sessions_of(url: str) -> Iterator[Sessions]:
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            sessions = Sessions(connection)
            sessions.opened()  # this session itself is counted from now on
            yield sessions
    finally:
        engine.dispose()


def local_ports(pid: int) -> set[int]:
    """The local ports of a process's TCP sockets (Linux: its descriptors' socket inodes,
    found in /proc/net/tcp and tcp6)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with suppress(OSError):  # closed meanwhile
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def test_a_busy_server_opens_no_more_sessions_than_its_pools_hold(tmp_path: Path) -> None:
    """64 phones at once on three tables (polling them as htmx does, reading the table
    page, an editor recording plays on each) against 2 workers of 8 threads: each worker
    keeps at most 8 connections per engine, and never closes one to open another."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL's sessions: PostgreSQL runs only")
    threads, engines = 8, 2  # engines: the app's and the hot paths' (companion/settings.py)
    schema = make_app(tmp_path)  # the migrations, here: the server's master opens nothing
    with schema.app_context():
        for engine in db.engines.values():
            engine.dispose()
    server = Gunicorn(
        tmp_path / "server",
        {"GUNICORN_THREADS": str(threads), "COMPANION_AUTO_MIGRATE": "0"},
    )
    server.instance.mkdir()
    answers: Counter[int] = Counter()
    wrong: list[str] = []
    lock = threading.Lock()
    with sessions_of(url) as sessions:
        sessions.all_closed()
        before = sessions.opened()
        server.start()
        try:
            assert f"Serving: 2 workers x {threads} threads (gthread)" in server.log()
            owner = Browser()
            matches = [create_match(owner, server.url, ["Ann", "Bob", "Cy"]) for _ in range(3)]
            links = {m: editor_link(owner, server.url, m) for m in matches}
            stop = time.monotonic() + 4

            def tally(status: int, body: str) -> None:
                with lock:
                    answers[status] += 1
                    if status >= 500:
                        wrong.append(f"{status}: {body[:200]}")

            def edit(match_id: str, n: int) -> None:
                rng = random.Random(n)
                while time.monotonic() < stop:
                    seen = read_table(owner, server.url, match_id)
                    line = a_legal_line(seen.game, rng)
                    assert line is not None
                    endpoint, form = line_form(seen, line, secrets.token_urlsafe(12))
                    tally(*owner.post(f"{server.url}/m/{match_id}/{endpoint}", form)[:2])

            def watch(match_id: str, n: int) -> None:
                """A phone polling the table it last saw, as htmx does (one in four
                reading the whole table page instead)."""
                phone = join(server.url, links[match_id])
                poll = f"/m/{match_id}/live?v=0"
                while time.monotonic() < stop:
                    if n % 4 == 0:
                        tally(*phone.get(f"{server.url}/m/{match_id}")[:2])
                        continue
                    status, body, _ = phone.get(server.url + poll)
                    tally(status, body)
                    if status == 200 and (found := POLLER.search(body)):
                        poll = html.unescape(found.group(1))

            jobs = [threading.Thread(target=edit, args=(m, n)) for n, m in enumerate(matches)]
            jobs += [
                threading.Thread(target=watch, args=(matches[n % 3], n))
                for n in range(64 - len(jobs))
            ]
            for job in jobs:
                job.start()
            for job in jobs:
                job.join(60)
            ports = Counter(sessions.client_ports())
            held = {pid: sum(ports[p] for p in local_ports(pid)) for pid in server.workers()}
        finally:
            server.stop()
        sessions.all_closed()  # each backend has counted its session, at its exit at the latest
        opened = sessions.opened() - before
    assert not wrong, (wrong[:5], server.log())
    assert answers[303] >= 3 and answers[200] + answers[204] >= 100, answers
    assert len(held) == 2 and sum(held.values()) == sum(ports.values()), (held, ports)
    assert max(held.values()) <= engines * threads, held
    assert opened == sum(held.values()), (opened, held)  # none closed to open another
