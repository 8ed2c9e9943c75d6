"""Live tables: every open screen polls /m/<id>/live?v=<its version>.

While nothing changed the answer is an empty 204, from one cheap query; once
another phone records or undoes a line it is the fresh #table fragment, whose
own poller asks from the new version and keeps what the screen showed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import Flask
from sqlalchemy import event

from companion.extensions import db
from tests.app.helpers import Page, Tabletop, forget_games, phone, share_tokens

HX = {"HX-Request": "true"}


def poll(who: Tabletop, match_id: str, **query: Any) -> Page:
    """What the poller on a screen sends (htmx, so the answer is a fragment)."""
    return Page(who.client.get(f"/m/{match_id}/live", query_string=query, headers=HX))


def poller_query(page: Page) -> dict[str, str]:
    """The query of the poller's own URL in a table page or fragment."""
    url = page.table.one(cls="live")["hx-get"]
    assert urlsplit(url).path.endswith("/live"), url
    query = parse_qs(urlsplit(url).query)
    assert all(len(v) == 1 for v in query.values()), url
    return {k: v[0] for k, v in query.items()}


def ui_query(page: Page) -> dict[str, str]:
    """The poller's query but its last line's id (a row id: checked to be one)."""
    query = poller_query(page)
    assert query.pop("last").isdigit()
    return query


def another_editor(app: Flask, match_id: str) -> Tabletop:
    return phone(app, f"/j/{share_tokens(app, match_id)[0]}")


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run meanwhile, on the app's engines (PostgreSQL has two)."""
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    with app.app_context():
        engines = list(db.engines.values())
    for engine in engines:
        event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", count)


# ---------------------------------------------------------------- 204, then the fragment


def test_an_unchanged_table_answers_204(tabletop: Tabletop, started: str) -> None:
    page = tabletop.table(started)
    assert ui_query(page) == {"v": "1"}
    for _ in range(3):
        answer = poll(tabletop, started, v=page.version)
        assert answer.status == 204
        assert answer.html == ""
        assert "HX-Request" in answer.response.headers["Vary"]


def test_another_phones_line_comes_as_the_fragment(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    mine = tabletop.table(started)
    assert poll(tabletop, started, v=mine.version).status == 204

    other = another_editor(app, started)
    assert other.line(started, "Ann", "R3").status == 303

    fresh = poll(tabletop, started, v=mine.version)
    assert fresh.status == 200
    assert "<html" not in fresh.html and "<body" not in fresh.html
    assert fresh.html.lstrip().startswith("<") and 'id="table"' in fresh.html
    assert fresh.version == 2 and fresh.table["data-version"] == "2"
    assert fresh.turn == "Bob"
    assert "Ann" in fresh.doc.one(cls="log").text and "Red 3" in fresh.doc.one(cls="log").text
    # The fresh table is mine to act on: my session's forms, at the new version.
    (form, _) = fresh.form_with("R4")
    assert form.values()["version"] == "2"
    # Its own poller asks from the new version: no change, no fragment.
    assert ui_query(fresh) == {"v": "2"}
    assert poll(tabletop, started, v=2).status == 204


def test_an_undo_elsewhere_comes_too(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    other = another_editor(app, started)
    other.table(started)
    assert other.undo(started).status == 303
    fresh = poll(tabletop, started, v=2)
    assert fresh.status == 200 and fresh.version == 1 and fresh.turn == "Ann"
    assert poll(tabletop, started, v=1).status == 204


def test_an_undo_and_a_new_line_elsewhere_reach_this_screen(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """Regression: a mis-tap undone and replaced within one poll left the version where it
    was, so screens kept showing the mis-tap. The poller names the last line too."""
    mine = tabletop.play_lines(started, "Ann: R3")
    query = poller_query(mine)
    assert poll(tabletop, started, **query).status == 204
    other = another_editor(app, started)
    other.table(started)
    assert other.undo(started).status == 303
    assert other.line(started, "Ann", "R4").status == 303
    fresh = poll(tabletop, started, **query)
    assert fresh.status == 200 and fresh.version == 2
    assert "Red 4" in fresh.doc.one(cls="log").text
    assert poll(tabletop, started, **poller_query(fresh)).status == 204


def test_a_poll_without_a_version_gets_the_table(tabletop: Tabletop, started: str) -> None:
    for query in ({}, {"v": ""}, {"v": "abc"}, {"v": "-1"}, {"v": "99"}):
        answer = poll(tabletop, started, **query)
        assert answer.status == 200, query
        assert answer.version == 1, query


def test_what_the_screen_has_open_is_polled_with_it(tabletop: Tabletop, started: str) -> None:
    page = tabletop.table(started)
    made_on = poller_query(page)  # the version and last line the screen was made on
    ui = {"tab": "G", "card": "R3", "drawn": "2", "fix": "Cy"}
    page = tabletop.table(started, **made_on, **ui)
    assert ui_query(page) == {"v": "1"} | ui
    assert [f for f in page.forms("/line") if f.values().get("player") == "Cy"]  # fix panel
    assert poll(tabletop, started, **made_on, **ui).status == 204
    # An empty argument is not carried along.
    page = tabletop.table(started, **made_on, tab="", card="", drawn="", fix="")
    assert ui_query(page) == {"v": "1"}


def test_a_question_is_closed_once_the_table_moved_on(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The Back bug: a follow-up (here a count being corrected) opened on an old table
    came back above the new one, and one tap recorded it. The poller, Back or a reload
    bring the question's URL back: the table moved on, so it is closed and said so."""
    made_on = poller_query(tabletop.table(started))
    ui = {"card": "R3", "drawn": "2", "fix": "Cy"}
    other = another_editor(app, started)
    assert other.line(started, "Ann", "has 9").status == 303

    polled = poll(tabletop, started, **made_on, **ui)
    for fresh in (polled, tabletop.table(started, **made_on, **ui)):
        assert fresh.status == 200 and fresh.version == 2
        assert ui_query(fresh) == {"v": "2"}
        assert not [f for f in fresh.forms("/line") if f.values().get("player") == "Cy"]
        assert fresh.doc.find(cls="follow-up") is None
        assert any("moved on since that question was opened" in n for n in fresh.notices)
    # Only a tab was open: the fresh table opens on the Playable tab, nothing to say.
    fresh = poll(tabletop, started, **made_on, tab="G")
    assert ui_query(fresh) == {"v": "2"} and fresh.notices == [fresh.recorded]  # the line only
    # A question's URL that names no table at all is not shown either.
    assert tabletop.table(started, fix="Cy").doc.find("input", id_="fix-count") is None


# ---------------------------------------------------------------- cheap


def test_an_unchanged_poll_is_cheap(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3", "Bob: R4", "Cy: R6")
    forget_games(app)  # as in a process that never built this game
    with statements(app) as seen:
        answer = poll(tabletop, started, v=4)
    assert answer.status == 204
    assert 1 <= len(seen) <= 2, seen
    assert not any("match_line" in s for s in seen), seen
    assert not any(s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")) for s in seen)
    # For contrast: a changed table is rebuilt from its lines.
    with statements(app) as seen:
        answer = poll(tabletop, started, v=3)
    assert answer.status == 200
    assert any("match_line" in s for s in seen)


def test_a_poll_that_finds_the_table_moved_on_reads_the_match_once(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The poll's first look (companion/quiet_polls.py) found the change: the app shows
    that table rather than reading the match again."""
    shown = poller_query(tabletop.table(started))
    tabletop.play_lines(started, "Ann: R3")
    with statements(app) as seen:
        answer = poll(tabletop, started, **shown)
    assert answer.status == 200 and answer.turn == "Bob"
    assert len([s for s in seen if re.search(r"FROM \"?match\"?\s", s)]) == 1, seen


def test_many_unchanged_polls_stay_cheap(app: Flask, tabletop: Tabletop, started: str) -> None:
    viewer = phone(app, f"/v/{share_tokens(app, started)[1]}")
    with statements(app) as seen:
        for who in (tabletop, viewer) * 5:
            assert poll(who, started, v=1).status == 204
    assert len(seen) <= 20
    assert not any("match_line" in s for s in seen)


# ---------------------------------------------------------------- who may poll


def test_viewers_poll_too(app: Flask, tabletop: Tabletop, started: str) -> None:
    watcher = phone(app, f"/v/{share_tokens(app, started)[1]}")
    page = watcher.table(started)
    assert ui_query(page) == {"v": "1"}
    assert poll(watcher, started, v=1).status == 204
    tabletop.play_lines(started, "Ann: R3")
    fresh = poll(watcher, started, v=1)
    assert fresh.status == 200 and fresh.version == 2 and fresh.turn == "Bob"
    assert fresh.forms() == []  # still watching only
    assert ui_query(fresh) == {"v": "2"}


def test_strangers_may_not_poll(app: Flask, started: str) -> None:
    stranger = phone(app)
    for query in ({"v": 1}, {"v": 0}, {}):
        answer = poll(stranger, started, **query)
        assert answer.status == 403
        assert 'id="table"' not in answer.html
        assert "You need this match's link" in answer.text
        # htmx swaps no 403 in: the poller is told to reload the page, which explains.
        assert answer.response.headers.get("HX-Refresh") == "true"
    plain = stranger.get(f"/m/{started}/live?v=1")
    assert plain.status == 403 and "HX-Refresh" not in plain.response.headers
    assert poll(stranger, "no-such-match", v=0).status == 404


def test_renewed_links_stop_the_polling(app: Flask, tabletop: Tabletop, started: str) -> None:
    watcher = phone(app, f"/v/{share_tokens(app, started)[1]}")
    assert poll(watcher, started, v=1).status == 204
    (form,) = tabletop.get(f"/m/{started}/share").forms("/share/renew")
    assert tabletop.client.post(form.action, data=form.values()).status_code == 303
    answer = poll(watcher, started, v=1)
    assert answer.status == 403
    # The watcher's screen reloads (rather than freezing silently) and says why.
    assert answer.response.headers.get("HX-Refresh") == "true"
    page = watcher.get(f"/m/{started}")
    assert page.status == 403 and "the links may have been renewed" in page.text
    assert poll(tabletop, started, v=1).status == 204
