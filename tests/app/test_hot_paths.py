"""The two requests a table makes most: a poll and a recorded play. What they cost.

Counted in SQL statements, not timed (`python -m bench.load` times them): an unchanged poll is
at most one read and sends no new cookie; a recorded play on a game this process has
cached is one write and no read (one statement on PostgreSQL), whatever the match's
length.
"""

from __future__ import annotations

from flask import Flask

from companion.extensions import db
from tests.app.helpers import Tabletop, forget_games, phone, share_tokens
from tests.app.test_live import statements

HX = {"HX-Request": "true"}


def test_an_unchanged_poll_is_at_most_one_read_and_no_new_cookie(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """One read of the match row (its primary key), on SQLite and PostgreSQL alike."""
    viewer = phone(app, f"/v/{share_tokens(app, started)[1]}")
    for who in (tabletop, viewer):
        with statements(app) as seen:
            answer = who.client.get(f"/m/{started}/live?v=1", headers=HX)
        assert answer.status_code == 204
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
    forget_games(app)
    page = tabletop.page(started)
    form, button = page.form_with("R4")
    with statements(app) as seen:
        assert tabletop.client.post(form.action, data=form.values(button)).status_code == 303
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 2, seen  # the match, then all its lines
    assert "match_line" not in reads[0] and "match_line" in reads[1]
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]
