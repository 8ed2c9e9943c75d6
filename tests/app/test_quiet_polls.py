"""Polls answered in front of the framework (companion/quiet_polls.py): the same answer
the app gives, for every poll, with the framework skipped only when the table is the one
the poll names and the phone may see it, or when a watcher asks for a table that moved
on exactly as another watcher already did."""

from __future__ import annotations

import gzip
from typing import Any

from flask import Flask, appcontext_pushed

from companion.extensions import db
from tests.app.helpers import Tabletop, phone, share_tokens

HX = {"HX-Request": "true"}
COMPARED = (
    "Vary",
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "Referrer-Policy",
    "Strict-Transport-Security",
    "HX-Refresh",
    "Set-Cookie",
)


def answers(app: Flask) -> tuple[list[tuple[str, int, dict[str, str | None]]], int]:
    """Every kind of poll a phone (or a script) can send, and what each was answered;
    and how many of them reached the app's views."""
    reached = []
    app.before_request(lambda: reached.append(1) and None)
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob", "Cy"))
    editor.play_lines(match_id, "start: R5", "Ann: R3")
    page = editor.table(match_id)
    live = page.table.one(cls="live")["hx-get"]
    stranger = app.test_client()
    forged = app.test_client()
    forged.set_cookie("session", "eyJwaG9uZSI6ImZvcmdlZCJ9.forged.signature")
    polls = [
        ("unchanged", editor.client, live, HX),
        ("unchanged, twice", editor.client, live, HX),
        ("without htmx", editor.client, live, {}),
        ("changed", editor.client, f"/m/{match_id}/live?v=0&last=0", HX),
        ("no version", editor.client, f"/m/{match_id}/live", HX),
        ("a word for a version", editor.client, f"/m/{match_id}/live?v=x&last=1", HX),
        ("a control character", editor.client, live + "&tab=%01", HX),
        ("no such match", editor.client, live.replace(match_id, "nosuchmatch"), HX),
        ("no role", stranger, live, HX),
        ("a forged cookie", forged, live, HX),
        ("a blank version first", editor.client, live.replace("?", "?v=&", 1), HX),
        ("a host too long", editor.client, live, {**HX, "Host": "a" * 64 + ".example.org"}),
        ("no host", editor.client, live, {**HX, "Host": ""}),
    ]
    said = []
    body = editor.client.get(live, headers=HX, data={"v": "\x00"})  # a body the guard reads
    said.append(("a body", body.status_code, {"Vary": body.headers.get("Vary")}))
    for what, client, url, headers in polls:
        response = client.get(url, headers=headers)
        kept = {name: response.headers.get(name) for name in COMPARED}
        if kept["Set-Cookie"]:  # a fresh CSRF token: its value is the moment's own
            kept["Set-Cookie"] = kept["Set-Cookie"].split("=", 1)[0]
        said.append((what, response.status_code, kept))
    return said, len(reached)


def closed(app: Flask) -> None:
    with app.app_context():  # PostgreSQL: the next app resets the same database
        for engine in db.engines.values():
            engine.dispose()


def test_every_poll_gets_the_answer_the_app_gives(app_with: Any) -> None:
    quiet = app_with()
    said, reached = answers(quiet)
    closed(quiet)
    through_the_app, reached_without = answers(app_with(QUIET_POLLS=False))
    assert said == through_the_app
    statuses = {what: status for what, status, _ in said}
    assert statuses["unchanged"] == statuses["unchanged, twice"] == 204
    assert statuses["changed"] == 200
    assert statuses["no role"] == 403 and statuses["no such match"] == 404
    assert statuses["a control character"] == statuses["a body"] == 400
    assert statuses["a blank version first"] == 200  # the app reads the first v, blank
    assert statuses["a host too long"] == statuses["no host"] == 400
    # The two unchanged polls never reached the app's views; everything else did.
    assert reached_without - reached == 2


def test_an_unchanged_poll_behind_https_still_says_https_only(app_with: Any) -> None:
    said, _ = answers(app_with(SESSION_COOKIE_SECURE=True))
    (unchanged,) = [headers for what, _, headers in said if what == "unchanged"]
    assert unchanged["Strict-Transport-Security"] == "max-age=31536000"


def test_a_host_the_app_refuses_is_refused_on_a_poll_too(app_with: Any) -> None:
    app = app_with(TRUSTED_HOSTS="table.example.org")
    editor = Tabletop(app, app.test_client())
    editor.client.environ_base["HTTP_HOST"] = "table.example.org"
    match_id = editor.create(("Ann", "Bob"))
    live = editor.table(match_id).table.one(cls="live")["hx-get"]
    assert editor.client.get(live, headers=HX).status_code == 204
    other = editor.client.get(live, headers={**HX, "Host": "elsewhere.example.net"})
    assert other.status_code == 400


def test_the_quiet_path_is_switched_off_by_a_word_too(app_with: Any) -> None:
    """COMPANION_QUIET_POLLS is read as JSON: `False` or `off` arrive as words."""
    _, reached = answers(app_with(QUIET_POLLS="off"))
    _, reached_quiet = answers(app_with())
    assert reached - reached_quiet == 2


def test_an_unchanged_poll_makes_no_app_context(app_with: Any) -> None:
    """The store holds the app's engines (companion/match_reads.py): the quiet path reads
    the match without making an app context and tearing it down (a tenth of its cost)."""
    app = app_with()
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob"))
    editor.play_lines(match_id, "start: R5")
    live = editor.table(match_id).table.one(cls="live")["hx-get"]
    pushed: list[object] = []

    def count(sender: object, **extra: object) -> None:
        pushed.append(sender)

    with appcontext_pushed.connected_to(count, app):
        assert editor.client.get(live, headers=HX).status_code == 204
        assert pushed == []
        # A poll that finds a change goes to the app, with its contexts, as always.
        assert editor.client.get(f"/m/{match_id}/live?v=0&last=0", headers=HX).status_code == 200
        assert pushed == [app]


def watched(app: Flask) -> tuple[list[tuple[str, int, dict[str, str], str]], int]:
    """What three watchers (and the editor) are answered when they poll a table that
    moved on, each way a phone may ask; and how many of the polls reached the app."""
    reached = []
    app.before_request(lambda: reached.append(1) and None)
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob", "Cy"))
    editor.play_lines(match_id, "start: R5")
    _, viewer = share_tokens(app, match_id)
    watchers = [phone(app, f"/v/{viewer}") for _ in range(3)]
    live = watchers[0].table(match_id).table.one(cls="live")["hx-get"]
    editors_live = editor.table(match_id).table.one(cls="live")["hx-get"]
    editor.play_lines(match_id, "Ann: R3")
    zipped = {**HX, "Accept-Encoding": "gzip"}
    polls = [
        ("the first watcher", watchers[0], live, zipped),
        ("the second, asking the same", watchers[1], live, zipped),
        ("the third, the same again", watchers[2], live, zipped),
        ("no gzip", watchers[2], live, HX),
        ("no gzip, again", watchers[1], live, HX),
        ("in German", watchers[1], live, {**zipped, "Accept-Language": "de"}),
        ("a tab open", watchers[0], live + "&tab=R", zipped),
        ("the editor", editor, editors_live, zipped),
        ("the editor, again", editor, editors_live, zipped),
    ]
    said = []
    for what, client, url, headers in polls:
        response = client.client.get(url, headers=headers)
        body = response.get_data()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        # Every header but its date (the server dates each answer) and length (the
        # match's id, each app's own, gzips a byte longer or shorter); a watcher's page
        # with its match's id set aside (an editor's has its own form fields each time).
        kept = {k: v for k, v in response.headers.items() if k not in ("Date", "Content-Length")}
        shown = "watcher" in what or "German" in what or "gzip" in what
        text = body.decode().replace(match_id, "MATCH") if shown else ""
        said.append((what, response.status_code, kept, text))
    return said, len(reached)


def test_a_watchers_poll_of_a_table_that_moved_on_gets_the_apps_answer(app_with: Any) -> None:
    """The first watcher's poll of a new table version reaches the app; another watcher
    asking the same way gets that answer without it, the same to the byte as the app
    gives with the quiet path off; any other way of asking goes to the app."""
    quiet = app_with()
    said, reached = watched(quiet)
    closed(quiet)
    through_the_app, reached_without = watched(app_with(QUIET_POLLS=False))
    assert said == through_the_app
    statuses = {what: status for what, status, _, _ in said}
    assert set(statuses.values()) == {200}
    texts = {what: text for what, _, _, text in said}
    assert (
        "Watching" in texts["the first watcher"] and "Zuschauen" not in texts["the first watcher"]
    )
    assert texts["in German"] != texts["the first watcher"]
    # Only the second and third watchers asking the same (gzip), and the second asking
    # the same as the third without gzip, were answered without the app.
    assert reached_without - reached == 3
