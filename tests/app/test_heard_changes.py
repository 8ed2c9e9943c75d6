"""PostgreSQL: each process hears of every match change and answers polls from memory.

See companion/versions.py. These run in the PostgreSQL pass of `make test` (the
SQLite pass has no notifications to hear); the memory's own rules are checked on both.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from companion import versions
from companion.extensions import db
from tests.app.helpers import Page, Tabletop, a_line_from_elsewhere, phone, share_tokens
from tests.app.test_live import poll, poller_query, statements
from tests.databases import postgres_url

on_postgres = pytest.mark.skipif(
    postgres_url() is None, reason="PostgreSQL pass only (COMPANION_TEST_POSTGRES=1)"
)


def another_process(app: Flask) -> Iterator[sa.Connection]:
    """A connection of the database's own, as another server would have."""
    with app.app_context():
        url = db.engine.url
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()


def poll_until(who: Tabletop, match_id: str, status: int, **query: Any) -> Page:
    """Notifications arrive within milliseconds, not at once: poll as a phone would."""
    deadline = time.monotonic() + 5
    while True:
        answer = poll(who, match_id, **query)
        if answer.status == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)


@on_postgres
def test_a_line_recorded_by_another_process_is_heard(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    page = tabletop.table(started)
    query = poller_query(page)
    with statements(app) as seen:
        assert poll(tabletop, started, **query).status == 204
    assert seen == []  # from memory
    a_line_from_elsewhere(app, started, "Ann: R3")
    with app.app_context():
        heard = versions.listener(db.engine)
        assert heard is not None
        deadline = time.monotonic() + 5
        while heard.recall(started).version != 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    with statements(app) as seen:
        fresh = poll(tabletop, started, **query)
    assert fresh.status == 200 and fresh.version == 2 and fresh.turn == "Bob"
    # The match row as heard, and only the new line read.
    assert len(seen) == 1 and "match_line" in seen[0], seen
    with statements(app) as seen:
        assert poll(tabletop, started, **poller_query(fresh)).status == 204
    assert seen == []


@on_postgres
def test_links_renewed_by_another_process_stop_the_polling(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    viewer = phone(app, f"/v/{share_tokens(app, started)[1]}")
    query = poller_query(viewer.table(started))
    assert poll(viewer, started, **query).status == 204
    for conn in another_process(app):
        conn.execute(
            sa.text(
                "UPDATE match SET viewer_token = 'renewed', editor_token = 'renewed-too'"
                " WHERE id = :m"
            ),
            {"m": started},
        )
    assert poll_until(viewer, started, 403, **query).status == 403


@on_postgres
def test_a_lost_listening_connection_forgets_everything(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    query = poller_query(tabletop.table(started))
    assert poll(tabletop, started, **query).status == 204
    with app.app_context():
        heard = versions.listener(db.engine)
    assert heard is not None and heard.connection is not None
    for conn in another_process(app):  # the database server drops it
        conn.execute(
            sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": heard.connection.info.backend_pid}
        )
    time.sleep(0.1)
    # Whatever happened meanwhile could not be heard: the next polls read the database.
    a_line_from_elsewhere(app, started, "Ann: R3")
    with statements(app) as seen:
        fresh = poll(tabletop, started, **query)
    assert fresh.status == 200 and fresh.version == 2
    assert seen and heard.known == {}


class Quiet:
    """A listening connection on which nothing arrives."""

    class pgconn:  # as psycopg names it
        @staticmethod
        def consume_input() -> None:
            pass

        @staticmethod
        def notifies() -> None:
            return None


def test_a_read_is_not_remembered_over_news_that_came_while_it_ran() -> None:
    heard = versions.Listener(engine=None)  # type: ignore[arg-type]
    heard.connection = Quiet()  # listening, and nothing arrives
    row = versions.Known("m1", "e", "v", 3, 30)
    mark = heard.mark()
    heard.arrived += 1  # a notification was taken in while the row was read
    heard.learn(mark, row)
    assert heard.known == {}
    heard.learn(heard.mark(), row)
    assert heard.known == {"m1": row}
    heard._apply("m1 4 41")
    assert (row.version, row.last_line_id) == (4, 41)
    heard._apply("m9 1 1")  # a match it never read: nothing to follow
    assert "m9" not in heard.known
    heard._apply("m1 gone")
    assert heard.known == {}


def test_nothing_is_answered_from_memory_long_after_a_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A connection can die without a word: memory older than FRESH seconds is read again."""
    heard = versions.Listener(engine=None)  # type: ignore[arg-type]
    heard.connection = Quiet()
    heard.learn(heard.mark(), versions.Known("m1", "e", "v", 3, 30))
    assert heard.recall("m1") is not None
    later = time.monotonic() + versions.FRESH + 1
    monkeypatch.setattr(versions.time, "monotonic", lambda: later)
    assert heard.recall("m1") is None


def test_news_taken_in_during_a_write_is_not_overwritten_by_it() -> None:
    heard = versions.Listener(engine=None)  # type: ignore[arg-type]
    heard.connection = Quiet()
    heard.learn(heard.mark(), versions.Known("m1", "e", "v", 3, 30))
    mark = heard.mark()
    heard._apply("m1 5 50")  # someone else's line, heard while this process wrote
    heard.arrived += 1
    heard.moved(mark, "m1", 4, 40)  # this process's own write: older than that news
    assert "m1" not in heard.known  # read again next time, rather than guessed


@on_postgres
def test_a_screen_ahead_of_the_news_asks_the_database(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """Another server showed this phone a line whose news has not reached this one yet:
    the poll must not take the phone back to the older table."""
    tabletop.play_lines(started, "Ann: R3")
    query = poller_query(tabletop.table(started))  # version 2, as read
    with app.app_context():
        heard = versions.listener(db.engine)
        assert heard is not None and heard.recall(started) is not None
    heard.known[started].version = 1  # as if the news of "Ann: R3" were still on its way
    with statements(app) as seen:
        answer = poll(tabletop, started, **query)
    assert answer.status == 204  # as the database has it
    assert len(seen) == 1 and "FROM match" in seen[0], seen


def test_sqlite_has_no_listener(tmp_path: Any) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path}/x.db")
    assert versions.listener(engine) is None
    engine.dispose()


@on_postgres
def test_what_was_heard_never_refuses_a_phone(app: Flask, started: str) -> None:
    """Memory may lag a renewal by milliseconds: it may let a poll through from memory,
    never turn one away. A phone it doesn't recognise is checked in the database."""
    viewer = phone(app, f"/v/{share_tokens(app, started)[1]}")
    query = poller_query(viewer.table(started))
    with app.app_context():
        heard = versions.listener(db.engine)
        assert heard is not None
        assert heard.recall(started) is not None
    heard.known[started].viewer_token = "as-heard-before-new-links"
    with statements(app) as seen:
        assert poll(viewer, started, **query).status == 204
    assert len(seen) == 1 and "FROM match" in seen[0]


@on_postgres
def test_a_play_on_a_game_this_process_lost_reads_only_the_lines(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    from companion import store

    tabletop.play_lines(started, "Ann: R3")
    page = tabletop.table(started)
    store._cache.pop(started)  # as in a process that never built this game
    form, button = page.form_with("R4")
    with statements(app) as seen:
        answer = tabletop.client.post(form.action, data=form.values(button))
    assert answer.status_code == 303
    assert [s.lstrip().split()[0] for s in seen] == ["SELECT", "WITH"], seen
    assert "match_line" in seen[0]  # the match as heard: only its lines are read
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]
