"""Faults: a worker killed mid-recording, the database down, a restart."""

from __future__ import annotations

import os
import random
import secrets
import signal
import threading
import time
from http.client import HTTPException
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from sqlalchemy import event

from companion.extensions import db
from engine.tools.cli import check_text
from tests.app.helpers import Page, Tabletop
from tests.app.test_concurrency import (
    USED_KEYS,
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

ROOT = Path(__file__).resolve().parents[2]


def test_a_worker_killed_mid_recording_loses_nothing(gunicorn: Gunicorn) -> None:
    owner = Browser()
    match_id = create_match(owner, gunicorn.url, ["Ann", "Bob", "Cy"])
    link = editor_link(owner, gunicorn.url, match_id)
    phones = [join(gunicorn.url, link) for _ in range(3)]
    acked: list[tuple[int, str, str]] = []
    lost = 0  # requests cut off by the kill: recorded or not, never half
    lock = threading.Lock()
    began = time.monotonic()
    stop = began + 8

    def play(n: int, browser: Browser) -> None:
        nonlocal lost
        rng = random.Random(n)
        while time.monotonic() < stop:
            try:
                seen = read_table(browser, gunicorn.url, match_id)
            except (OSError, HTTPException, AssertionError):
                continue  # the worker serving the read was killed: read again
            version = seen.version
            line = a_legal_line(seen.game, rng)
            if line is None:
                return
            key = secrets.token_urlsafe(12)
            endpoint, form = line_form(seen, line, key)
            try:
                status, _, _ = browser.post(f"{gunicorn.url}/m/{match_id}/{endpoint}", form)
            except (OSError, HTTPException):
                with lock:
                    lost += 1
                continue
            if status == 303:
                with lock:
                    acked.append((version, line, key))

    threads = [threading.Thread(target=play, args=(n, b)) for n, b in enumerate(phones)]
    for t in threads:
        t.start()
    kills = 0
    while time.monotonic() < stop - 1:
        time.sleep(0.4)
        workers = gunicorn.workers()
        if workers:
            os.kill(random.choice(workers), signal.SIGKILL)
            kills += 1
        # A loaded machine (CI's) may fit fewer plays between the kills: a little longer
        # then, until enough were acknowledged to tell anything (4 of 15 kills once).
        if time.monotonic() > stop - 1.5 and len(acked) < 5 and stop < began + 30:
            stop += 4
    for t in threads:
        t.join(60)
    assert kills >= 5 and len(acked) >= 5, (kills, len(acked), gunicorn.log())

    engine = sa.create_engine(
        postgres_url() or f"sqlite:///{gunicorn.instance / 'companion.sqlite3'}"
    )
    try:
        with engine.connect() as conn:
            who = {"m": match_id}
            rows = conn.execute(
                sa.text("SELECT seq, text FROM match_line WHERE match_id = :m ORDER BY seq"), who
            ).all()
            keys = set(conn.execute(sa.text(USED_KEYS), who).scalars())
            version = conn.execute(sa.text("SELECT version FROM match WHERE id = :m"), who).scalar()
    finally:
        engine.dispose()
    log = [text for _, text in rows]
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
    # No partial action: every line came with its form key and moved the version, together.
    assert version == len(log) and len(keys) == len(log)
    # No acknowledged action lost.
    for v, line, key in acked:
        assert log[v] == line and key in keys

    # Restarting the server resumes the match exactly.
    status, before, _ = owner.get(f"{gunicorn.url}/m/{match_id}/record.txt")
    assert status == 200
    gunicorn.stop()
    gunicorn.start()
    status, after, _ = owner.get(f"{gunicorn.url}/m/{match_id}/record.txt")
    assert status == 200 and after == before
    assert check_text(after)[0] == 0


def test_the_database_down_gives_a_plain_page_and_loses_nothing(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, "Ann: R3")
    before = tabletop.logged(started)
    with app.app_context():
        engines = list(db.engines.values())  # the app's, and the hot paths' on PostgreSQL
        dbapi_error = db.engine.dialect.loaded_dbapi.OperationalError

    def refuse(*args: object, **kwargs: object) -> None:
        raise dbapi_error("the database server is down")

    for engine in engines:
        event.listen(engine, "do_connect", refuse)
        engine.dispose()
    try:
        page = tabletop.client.get(f"/m/{started}")
        assert page.status_code == 503
        text = Page(page).text
        assert "The server's database is unreachable" in text and "Traceback" not in text
        assert tabletop.client.get("/healthz").status_code == 503
        assert tabletop.client.get("/").status_code == 503
        # Recording a play too (this process has the game cached: only the write fails).
        form, button = tabletop.page(started).form_with("R4")
        refused = tabletop.client.post(form.action, data=form.values(button))
        assert refused.status_code == 503
        assert "The server's database is unreachable" in Page(refused).text
        # The table's notice names it (static/unsent.js), not the phone's connection.
        assert refused.headers["Companion-Outage"] == "database"
    finally:
        for engine in engines:
            event.remove(engine, "do_connect", refuse)
    # Back up: the match is as it was, and play goes on.
    assert tabletop.client.get("/healthz").get_json() == {"status": "ok"}
    assert tabletop.logged(started) == before
    assert tabletop.line(started, "Bob", "R4").status == 303
