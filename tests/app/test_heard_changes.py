"""PostgreSQL: each process hears of every match change and answers polls from memory.

See companion/versions.py. These run in the PostgreSQL pass of `make test` (the
SQLite pass has no notifications to hear); the memory's own rules are checked on both.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion import store, versions
from companion.extensions import db
from engine import Game
from tests.app.helpers import (
    Page,
    Tabletop,
    a_line_from_elsewhere,
    elsewhere,
    phone,
    share_tokens,
)
from tests.app.test_live import poll, poller_query, statements
from tests.databases import postgres_url

on_postgres = pytest.mark.skipif(
    postgres_url() is None, reason="PostgreSQL pass only (COMPANION_TEST_POSTGRES=1)"
)


def poll_until(who: Tabletop, match_id: str, status: int, **query: Any) -> Page:
    """Notifications arrive within milliseconds, not at once: poll as a phone would."""
    deadline = time.monotonic() + 5
    while True:
        answer = poll(who, match_id, **query)
        if answer.status == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)


def heard_at(app: Flask, match_id: str, version: int) -> None:
    """Wait until this process has heard the match reach `version` (milliseconds)."""
    with app.app_context():
        heard = versions.listener(db.engine)
    assert heard is not None
    deadline = time.monotonic() + 5
    while (known := heard.recall(match_id)) is None or known.version != version:
        assert time.monotonic() < deadline, f"never heard {match_id} at {version}"
        time.sleep(0.01)


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
    heard_at(app, started, 2)
    with statements(app) as seen:
        fresh = poll(tabletop, started, **query)
    assert fresh.status == 200 and fresh.version == 2 and fresh.turn == "Bob"
    # The match row as heard, and the new line as heard with it: nothing read.
    assert seen == []
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
    with elsewhere(app) as conn:
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
    with elsewhere(app) as conn:  # the database server drops it
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


@on_postgres
def test_a_play_after_a_line_from_another_process_is_one_statement(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The news brought the line: the game here is current, the next play is judged on it
    and written in one round trip, with nothing read first."""
    tabletop.table(started)  # this process has the game
    a_line_from_elsewhere(app, started, "Ann: R3")
    heard_at(app, started, 2)
    with statements(app) as seen:
        page = tabletop.table(started)
    assert len(seen) == 1 and "match_line" not in seen[0], seen  # the row, not the line
    form, button = page.form_with("R4")
    with statements(app) as seen:
        answer = tabletop.client.post(form.action, data=form.values(button))
    assert answer.status_code == 303
    assert [s.lstrip().split()[0] for s in seen] == ["WITH"], seen
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]


@on_postgres
def test_a_line_too_long_to_announce_is_read(app: Flask, tabletop: Tabletop, started: str) -> None:
    """A notification holds under 8000 bytes: a longer line is announced without itself."""
    query = poller_query(tabletop.table(started))
    a_line_from_elsewhere(app, started, "Ann: R3 # " + "x" * 8000)
    heard_at(app, started, 2)
    with statements(app) as seen:
        fresh = poll(tabletop, started, **query)
    assert fresh.status == 200 and fresh.turn == "Bob"
    assert len(seen) == 1 and "match_line" in seen[0], seen


@on_postgres
def test_the_trigger_announces_a_line_with_its_text_and_without_it_once_downgraded(
    app: Flask, started: str
) -> None:
    """What versions.Listener parses, as the migrations' trigger sends it."""
    with app.app_context():
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        first = db.session.execute(
            sa.text("SELECT last_line_id FROM match WHERE id = :m"), {"m": started}
        ).scalar()
        db.session.remove()
    with psycopg.connect(url, autocommit=True) as listening:
        listening.execute("LISTEN companion_match")
        added = a_line_from_elsewhere(app, started, "Ann: R3 # a note")
        with app.app_context():
            downgrade(revision="a1c0ffee0004")
        try:
            older = a_line_from_elsewhere(app, started, "Bob: R4")
        finally:
            with app.app_context():
                upgrade()
        heard = [note.payload for note in listening.notifies(timeout=5, stop_after=2)]
    assert heard == [
        f"{started} 2 {added} {first} Ann: R3 # a note",
        f"{started} 3 {older}",
    ]


@on_postgres
def test_a_play_recorded_here_is_announced_with_its_text(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The app's own writer (one WITH ... UPDATE ... INSERT statement): the trigger sees
    the line its statement inserted."""
    with app.app_context():
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as listening:
        listening.execute("LISTEN companion_match")
        tabletop.play_lines(started, "Ann: R3")
        heard = [note.payload for note in listening.notifies(timeout=5, stop_after=1)]
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT id FROM match_line WHERE match_id = :m ORDER BY seq"), {"m": started}
        ).scalars()
        first, added = list(rows)
        db.session.remove()
    assert heard == [f"{started} 2 {added} {first} Ann: R3"]


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


def test_the_news_of_a_line_added_carries_the_line() -> None:
    heard = versions.Listener(engine=None)  # type: ignore[arg-type]
    heard.connection = Quiet()
    heard.learn(heard.mark(), versions.Known("m1", "e", "v", 3, 30))
    heard._apply("m1 4 41 30 Ann: R3 # a comment, spaces and all")
    heard._apply("m2 1 7 0 start: R5")  # a match it never read: its games may want it
    heard._apply("m2 2 8 \u00b2 Ann: R3")  # not a number (isdigit says it is): not a line
    heard._apply("m1 3 30")  # an undo: no line
    assert (heard.known["m1"].version, heard.known["m1"].last_line_id) == (3, 30)
    assert heard.added_lines() == [
        versions.AddedLine("m1", 4, 41, 30, "Ann: R3 # a comment, spaces and all"),
        versions.AddedLine("m2", 1, 7, 0, "start: R5"),
    ]
    assert heard.added_lines() == []  # taken


@pytest.fixture
def heard_here(monkeypatch: pytest.MonkeyPatch) -> versions.Listener:
    """A process's listener on which nothing arrives but what a test applies, and an
    empty game cache."""
    heard = versions.Listener(engine=None)  # type: ignore[arg-type]
    heard.connection = Quiet()
    monkeypatch.setattr(store, "_listener", lambda: heard)
    monkeypatch.setattr(store, "_cache", OrderedDict())
    monkeypatch.setattr(store, "_heard", {})
    return heard


def cached(match_id: str, *lines: tuple[int, str]) -> store.Cached:
    """A game of Ann, Bob and Cy in the process's cache: (row id, text) per line."""
    entry = store.Cached(Game(["Ann", "Bob", "Cy"], dealer="Cy"))
    store._extend(entry, [(row_id, seq, text) for seq, (row_id, text) in enumerate(lines, 1)])
    store._cache[match_id] = entry
    return entry


def catch_up(match_id: str) -> None:
    with store._lock:
        store._catch_up(match_id)


def test_a_line_heard_is_applied_only_to_a_game_that_ends_where_it_follows(
    heard_here: versions.Listener,
) -> None:
    follows = cached("m1", (11, "start: R5"))
    elsewhere = cached("m2", (21, "start: R5"))
    own = cached("m3", (31, "start: R5"), (32, "Ann: R3"))
    for news in (
        "m1 2 12 11 Ann: R3",
        "m1 3 13 12 Bob: R4",  # follows the one before it
        "m2 2 23 99 Ann: R3",  # follows a line this game doesn't end with
        "m3 2 32 31 Ann: R3",  # this process's own line: applied when it was written
        "m4 1 41 0 start: R5",  # a match with no game here
    ):
        heard_here._apply(news)
    for match_id in ("m1", "m2", "m3", "m4"):
        catch_up(match_id)
    assert (follows.ids, follows.game.record().splitlines()[-2:]) == (
        [11, 12, 13],
        ["Ann: R3", "Bob: R4"],
    )
    assert elsewhere.ids == [21] and own.ids == [31, 32]
    assert set(store._cache) == {"m1", "m2", "m3"} and store._heard == {}


def test_a_game_is_changed_only_by_a_request_for_it(heard_here: versions.Listener) -> None:
    """With threads, another request may be showing a game: only asking for a match
    applies what was heard of it."""
    first = cached("m1", (11, "start: R5"))
    second = cached("m2", (21, "start: R5"))
    heard_here._apply("m2 2 22 21 Ann: R3")
    catch_up("m1")
    assert second.ids == [21] and first.ids == [11]
    catch_up("m2")
    assert second.ids == [21, 22]


def test_a_line_heard_that_the_game_refuses_drops_the_game(
    heard_here: versions.Listener,
) -> None:
    cached("m1", (11, "start: R5"))
    heard_here._apply("m1 2 12 11 Zed: R3")  # no such player: not a line it was written from
    catch_up("m1")
    assert "m1" not in store._cache  # read again from the database when asked for


def test_a_game_long_unasked_for_is_read_again(
    heard_here: versions.Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "HEARD_LINES", 2)
    cached("m1", (11, "start: R5"))
    for news in ("m1 2 12 11 Ann: R3", "m1 3 13 12 Bob: R4", "m1 4 14 13 Cy: R6"):
        heard_here._apply(news)
    catch_up("m2")  # lines heard for m1 wait for it, up to HEARD_LINES
    assert "m1" not in store._cache and store._heard == {}


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
