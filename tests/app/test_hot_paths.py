"""The two requests a table makes most: a poll and a recorded play. What they cost.

Counted in SQL statements, not timed (bench/load.py times them): an unchanged poll is
at most one read and sends no new cookie; a recorded play on a game this process has
cached is one write and no read (one statement on PostgreSQL), whatever the match's
length.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from companion import store
from companion.extensions import db
from companion.models import Match
from tests.app.conftest import make_app
from tests.app.helpers import Tabletop, phone, share_tokens
from tests.app.test_live import statements

HX = {"HX-Request": "true"}


def test_an_unchanged_poll_is_at_most_one_read_and_no_new_cookie(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """SQLite: one read of the match row. PostgreSQL: none, once the process has read the
    match (it hears of every change: see test_heard_changes.py)."""
    viewer = phone(app, f"/v/{share_tokens(app, started)[1]}")
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
    for who in (tabletop, viewer):
        with statements(app) as seen:
            answer = who.client.get(f"/m/{started}/live?v=1", headers=HX)
        assert answer.status_code == 204
        if postgres:
            assert seen == []
        else:
            assert len(seen) == 1 and seen[0].lstrip().upper().startswith("SELECT"), seen
        assert "Set-Cookie" not in answer.headers  # the 60 days are renewed by pages


def test_a_whole_page_renews_the_cookie(app: Flask, tabletop: Tabletop, started: str) -> None:
    """Roles on a phone last 60 days from the last time it opened a page, not from a poll."""
    page = tabletop.client.get(f"/m/{started}")
    assert "Expires=" in page.headers["Set-Cookie"]
    assert "Set-Cookie" in tabletop.client.get("/").headers
    # A fragment (htmx) sends none.
    assert "Set-Cookie" not in tabletop.client.get(f"/m/{started}", headers=HX).headers


def test_recording_a_play_is_one_write(app: Flask, tabletop: Tabletop, started: str) -> None:
    """The game is cached here at the form's version: no read, the write checks the match.

    PostgreSQL: one statement (one round trip); SQLite: an INSERT and an UPDATE."""
    tabletop.play_lines(started, "Ann: R3", "Bob: R4")
    page = tabletop.page(started)
    form, button = page.form_with("R6")
    with statements(app) as seen:
        answer = tabletop.client.post(form.action, data=form.values(button), headers=HX)
    assert answer.status_code == 303
    verbs = [s.lstrip().split()[0].upper() for s in seen]
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
    assert verbs == (["WITH"] if postgres else ["INSERT", "UPDATE"]), seen
    assert tabletop.logged(started)[-1] == "Cy: R6"


def test_a_process_that_never_saw_the_match_builds_it_once(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, "Ann: R3")
    store.clear_cache()
    page = tabletop.page(started)
    form, button = page.form_with("R4")
    with statements(app) as seen:
        assert tabletop.client.post(form.action, data=form.values(button)).status_code == 303
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 2, seen  # the match, then all its lines
    assert "match_line" not in reads[0] and "match_line" in reads[1]
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]


def test_the_migration_fills_in_the_last_line_of_existing_matches(tmp_path: Path) -> None:
    app = make_app(tmp_path, AUTO_MIGRATE=False)
    try:
        with app.app_context():
            upgrade(revision="a1c0ffee0002")  # before the match knew its last line
            with db.engine.begin() as conn:
                for match_id, lines in (("m-two", 2), ("m-none", 0)):
                    conn.execute(
                        sa.text(
                            "INSERT INTO match (id, players, dealer, rules, mode, created_at, "
                            "updated_at, status, summary, version, editor_token, viewer_token) "
                            "VALUES (:id, 'Ann, Bob', 'Bob', 'official', 'referee', "
                            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'playing', '', :v, 'e', 'v')"
                        ),
                        {"id": match_id, "v": lines},
                    )
                    for seq, text in enumerate(["start: R5", "Ann: R3"][:lines], 1):
                        conn.execute(
                            sa.text(
                                "INSERT INTO match_line (match_id, seq, text, created_at) "
                                "VALUES (:m, :s, :t, CURRENT_TIMESTAMP)"
                            ),
                            {"m": match_id, "s": seq, "t": text},
                        )
                last = conn.execute(
                    sa.text("SELECT id FROM match_line WHERE match_id = 'm-two' AND seq = 2")
                ).scalar()
            upgrade()
            assert db.session.get(Match, "m-two").last_line_id == last
            assert db.session.get(Match, "m-none").last_line_id == 0
            db.session.remove()
    finally:
        with app.app_context():
            db.engine.dispose()


def test_the_migrations_make_the_models_tables(app: Flask) -> None:
    """What the migrations build is what the models say: no column or index missing."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with app.app_context(), db.engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert differences == []
