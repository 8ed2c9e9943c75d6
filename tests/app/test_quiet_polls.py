"""An unchanged table's poll answered in front of the framework (companion/quiet_polls.py):
the same answer the app gives, for every poll, with the framework skipped only when the
table is the one the poll names and the phone may see it."""

from __future__ import annotations

from typing import Any

from flask import Flask, appcontext_pushed

from companion.extensions import db
from tests.app.helpers import Tabletop

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
