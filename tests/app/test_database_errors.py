"""A database outage always answers the app's 503 page, never the server's bare 500; a
database error that is not an outage (a statement refused) is never a 503 (issue 13:
every SQL error was reported as an outage, and an outage could answer gunicorn's 500)."""

from __future__ import annotations

import html
import logging
import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event
from sqlalchemy.exc import DataError, DBAPIError, OperationalError, ProgrammingError

from companion.extensions import db
from companion.views.errors import is_outage
from tests.app.helpers import Tabletop
from tests.app.tcp_proxy import TcpProxy
from tests.app.test_concurrency import (
    Browser,
    Seen,
    a_legal_line,
    create_match,
    line_form,
    read_table,
)
from tests.databases import postgres_url, reset_postgres
from tests.servers import Gunicorn

DOWN = "The server's database is unreachable"

# ---------------------------------------------------------------- which errors


def wrapped(error: Exception, invalidated: bool = False) -> DBAPIError:
    """`error` from the driver as SQLAlchemy raises it."""
    return DBAPIError.instance(
        "SELECT 1", {}, error, psycopg.Error, connection_invalidated=invalidated
    )


@pytest.mark.parametrize(
    "error",
    [
        wrapped(psycopg.OperationalError("connection refused")),
        wrapped(psycopg.errors.AdminShutdown("terminating connection")),
        wrapped(psycopg.InterfaceError("the connection is closed")),
        wrapped(psycopg.DatabaseError("server closed the connection"), invalidated=True),
        OperationalError("SELECT 1", {}, Exception("database is locked")),
        sa.exc.TimeoutError("QueuePool limit reached"),
    ],
    ids=repr,
)
def test_an_outage_is_an_outage(error: Exception) -> None:
    assert is_outage(error)


@pytest.mark.parametrize(
    "error",
    [
        wrapped(psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")),
        wrapped(psycopg.errors.UndefinedTable('relation "nope" does not exist')),
        wrapped(psycopg.IntegrityError("duplicate key")),
        ProgrammingError("SELECT 1", {}, Exception("syntax error")),
        DataError("SELECT 1", {}, Exception("value too long")),
    ],
    ids=repr,
)
def test_a_refused_statement_is_not_an_outage(error: Exception) -> None:
    assert not is_outage(error)


def test_a_refused_statement_is_a_500_logged_not_a_503(
    app: Flask, tabletop: Tabletop, started: str, caplog: pytest.LogCaptureFixture
) -> None:
    with app.app_context():
        engines = list(db.engines.values())
        refused = db.engine.dialect.loaded_dbapi.ProgrammingError

    def refuse(*args: object) -> None:
        raise refused('relation "match" does not exist')

    for engine in engines:
        event.listen(engine, "before_cursor_execute", refuse)
    try:
        with caplog.at_level(logging.ERROR):
            page = tabletop.get(f"/m/{started}")
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", refuse)
    assert page.status == 500, page.text[:500]
    assert "Something went wrong" in page.text and DOWN not in page.text
    assert any("ProgrammingError" in (r.exc_text or "") for r in caplog.records)
    assert tabletop.table(started).status == 200  # nothing left broken


# ---------------------------------------------------------------- the outage, for real


@pytest.fixture(scope="module")
def behind_proxy(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Gunicorn, TcpProxy]]:
    """The production server on PostgreSQL through a proxy the test can cut."""
    url = postgres_url()
    if url is None:
        pytest.skip("an outage of a database server: PostgreSQL runs only")
    reset_postgres(url)
    real = sa.make_url(url)
    proxy = TcpProxy((real.host or "127.0.0.1", real.port or 5432))
    through = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    server = Gunicorn(tmp_path_factory.mktemp("proxied"), {"DATABASE_URL": through})
    try:
        server.start()
        yield server, proxy
    finally:
        server.stop()
        proxy.close()


def is_the_503_page(status: int, body: str) -> bool:
    return status == 503 and (DOWN in html.unescape(body) or "database unavailable" in body)


def answer_after_an_outage(browser: Browser, url: str, form: dict[str, str] | None = None) -> int:
    """What a phone gets by trying again after an outage: a worker's first request on a
    pooled connection the outage killed answers 503 and drops its pool (no ping before
    each use: docs/OPERATIONS.md), so a few tries at most."""
    for _ in range(6):
        status, body, _ = browser.request(url, form)
        if status != 503:
            return status
        assert is_the_503_page(status, body), body[:300]
    return status


def table_after_an_outage(browser: Browser, base: str, match_id: str) -> Seen:
    """The table as a phone reads it again after an outage: a few tries at most, as in
    `answer_after_an_outage` (each server worker answers 503 once, on its first request
    after the outage, whichever page that is)."""
    for _ in range(6):
        try:
            return read_table(browser, base, match_id)
        except AssertionError:  # a 503 from a worker whose pool the outage killed
            continue
    return read_table(browser, base, match_id)


def test_an_outage_always_answers_the_503_page(
    behind_proxy: tuple[Gunicorn, TcpProxy],
) -> None:
    server, proxy = behind_proxy
    owner = Browser()
    for _ in range(6):  # after another test's outage (see answer_after_an_outage)
        try:
            match_id = create_match(owner, server.url, ["Ann", "Bob", "Cy"])
            break
        except AssertionError:
            continue
    else:
        raise AssertionError(f"no match created after the outage\n{server.log()}")
    pages = ["/", f"/m/{match_id}", f"/m/{match_id}/live?v=0", f"/m/{match_id}/share", "/healthz"]
    rng = random.Random(13)
    for _ in range(3):
        for path in pages:  # the workers' pools hold live connections
            assert answer_after_an_outage(owner, server.url + path) in (200, 204)
        seen = table_after_an_outage(owner, server.url, match_id)
        line = a_legal_line(seen.game, rng)
        assert line is not None
        endpoint, form = line_form(seen, line, secrets.token_urlsafe(12))
        with proxy.outage():
            for path in pages * 2:
                status, body, _ = owner.get(server.url + path)
                assert is_the_503_page(status, body), (path, status, body[:300], server.log())
            status, body, _ = owner.post(f"{server.url}/m/{match_id}/{endpoint}", form)
            assert is_the_503_page(status, body), (status, body[:300])
            # The table's own poll (answered in front of the app when unchanged,
            # companion/quiet_polls.py): the same 503, the database asked once.
            poll = f"{server.url}/m/{match_id}/live?v=0&last=0"
            status, body, _ = owner.get(poll, headers={"HX-Request": "true"})
            assert is_the_503_page(status, body), (status, body[:300])
        # Back up: the play the outage refused is recorded, once, when tapped again.
        play = f"{server.url}/m/{match_id}/{endpoint}"
        assert answer_after_an_outage(owner, play, form) == 303
        assert table_after_an_outage(owner, server.url, match_id).version == seen.version + 1


def test_cut_in_the_middle_of_requests_never_a_bare_500(
    behind_proxy: tuple[Gunicorn, TcpProxy],
) -> None:
    """Connections lost at any moment of a request (between its queries, before its
    answer): each answer is a page of the app, and the server recovers."""
    server, proxy = behind_proxy
    browser = Browser()
    pages = ["/", "/healthz", "/new", "/m/no-such-match", "/m/no-such-match/live?v=0"]
    answers: Counter[int] = Counter()
    wrong: list[str] = []
    stop = time.monotonic() + 3

    def load(n: int) -> None:
        rng = random.Random(n)
        while time.monotonic() < stop:
            status, body, _ = browser.get(server.url + rng.choice(pages))
            answers[status] += 1
            if status not in (200, 404) and not is_the_503_page(status, body):
                wrong.append(f"{status}: {body[:200]}")

    threads = [threading.Thread(target=load, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    rng = random.Random(0)
    while time.monotonic() < stop:
        time.sleep(rng.uniform(0.02, 0.2))
        proxy.cut()
        time.sleep(rng.uniform(0.02, 0.2))
        proxy.restore()
    for thread in threads:
        thread.join(30)
    assert not wrong, (wrong[:5], answers, server.log())
    assert answers[503] > 0 and answers[200] > 0, answers
    for path in pages:
        assert answer_after_an_outage(browser, server.url + path) in (200, 404)
