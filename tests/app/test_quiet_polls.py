"""Polls answered in front of the framework (companion/quiet_polls.py): the same answer
the app gives, for every poll, with the framework skipped only when the table is the one
the poll names and the phone may see it, or when a watcher asks for a table that moved
on exactly as another watcher already did."""

from __future__ import annotations

import gzip
from typing import Any

from flask import Flask, appcontext_pushed

from companion.extensions import db
from tests.app.group_helpers import Crew
from tests.app.helpers import Tabletop, phone, share_tokens
from tests.app.test_languages import choose

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


def watched(app: Flask) -> list[tuple[str, int, dict[str, str], str, bool]]:
    """What phones are answered when they poll a table that moved on, each way a phone
    (or a script) may ask: the status, the headers, a watcher's fragment as it reads,
    and whether the poll reached the app's views."""
    reached: list[int] = []
    app.before_request(lambda: reached.append(1) and None)
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob", "Cy"))
    editor.play_lines(match_id, "start: R5")
    # The poll of the table as it is now, as every screen showing it makes it.
    live = editor.table(match_id).table.one(cls="live")["hx-get"]
    # A phone that records the next line, then only watches (the editor renews the
    # links, and it opens the new viewer link): the line is its own ("Recorded").
    recorder = phone(app, f"/j/{share_tokens(app, match_id)[0]}")
    recorder.play_lines(match_id, "Ann: R3")
    (renew,) = editor.get(f"/m/{match_id}/share").forms("/share/renew")
    assert editor.client.post(renew.action, data=renew.values()).status_code == 303
    viewers_link = share_tokens(app, match_id)[1]
    assert recorder.client.get(f"/v/{viewers_link}").status_code == 303
    watchers = [phone(app, f"/v/{viewers_link}") for _ in range(3)]
    # A phone that chose German on this phone, and one with a message waiting for it
    # (a change to its group, the page after it not opened yet).
    chose = phone(app, f"/v/{viewers_link}")
    choose(chose.client, chose, "de")
    waiting = phone(app)
    crew = Crew(waiting)
    group = crew.create()
    posted = waiting.client.post(
        f"/g/{group}/players", data=crew.form(group, "/players").values() | {"name": "Dee"}
    )
    assert posted.status_code == 303
    assert waiting.client.get(f"/v/{viewers_link}").status_code == 303
    zipped = {**HX, "Accept-Encoding": "gzip"}
    polls = [
        ("the first watcher", watchers[0], live, zipped),
        ("the second, asking the same", watchers[1], live, zipped),
        ("the third, the same again", watchers[2], live, zipped),
        ("no gzip", watchers[2], live, HX),
        ("no gzip, again", watchers[1], live, HX),
        ("in German", watchers[1], live, {**zipped, "Accept-Language": "de-DE,de;q=0.9"}),
        ("in German, said otherwise", watchers[2], live, {**zipped, "Accept-Language": "de"}),
        ("German chosen on the phone", chose, live, zipped),
        ("the one who recorded it", recorder, live, zipped),
        ("a message waiting", waiting, live, zipped),
        ("a tab open", watchers[0], live + "&tab=R", zipped),
        ("not htmx's own header", watchers[0], live, {**zipped, "HX-Request": "1"}),
        ("a conditional request", watchers[0], live, {**zipped, "If-None-Match": '"x"'}),
        ("a header no browser sends", watchers[0], live, {**HX, "Accept-Encoding": "x" * 300}),
        ("the same header again", watchers[1], live, {**HX, "Accept-Encoding": "x" * 300}),
        ("the editor", editor, live, zipped),
        ("the editor, again", editor, live, zipped),
    ]
    said = []

    def ask(what: str, client: Tabletop, url: str, headers: dict[str, str]) -> None:
        before = len(reached)
        response = client.client.get(url, headers=headers)
        body = response.get_data()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        # Every header but its date (the server dates each answer), its length (the
        # match's id, each app's own, gzips a byte longer or shorter) and a cookie's
        # value (a session's own); a watcher's fragment as it reads, its match's id
        # set aside (an editor's holds its own form fields, the page its own token).
        kept = {k: v for k, v in response.headers.items() if k not in ("Date", "Content-Length")}
        if "Set-Cookie" in kept:
            kept["Set-Cookie"] = kept["Set-Cookie"].split("=", 1)[0]
        fragment = headers.get("HX-Request") == "true" and "editor" not in what
        text = body.decode().replace(match_id, "MATCH") if fragment else ""
        said.append((what, response.status_code, kept, text, len(reached) > before))

    for what, client, url, headers in polls:
        ask(what, client, url, headers)
    # The next play: its table, never the kept one of the table before.
    editor.table(match_id)  # the editor's screen as it is now (the recorder played)
    editor.play_lines(match_id, "Bob: R4")
    ask("the next table", watchers[0], live, zipped)
    ask("the next table, again", watchers[1], live, zipped)
    return said


def test_a_watchers_poll_of_a_table_that_moved_on_gets_the_apps_answer(app_with: Any) -> None:
    """The first watcher's poll of a new table version reaches the app; another watcher
    asking the same way (the same language, however its phone says it, the same
    Accept-Encoding, the last line another phone's) gets that answer without it, the
    same as the app gives with the quiet path off; any other way of asking goes to the
    app."""
    quiet = app_with()
    said = watched(quiet)
    closed(quiet)
    through_the_app = watched(app_with(QUIET_POLLS=False))
    assert [s[:4] for s in said] == [s[:4] for s in through_the_app]
    assert all(reached for *_, reached in through_the_app)
    kept = [what for what, *_, reached in said if not reached]
    assert kept == [
        "the second, asking the same",
        "the third, the same again",
        "no gzip, again",
        "in German, said otherwise",
        "German chosen on the phone",
        "the next table, again",
    ]
    texts = {what: text for what, _, _, text, _ in said}
    assert "From another phone" in texts["the first watcher"]
    assert "Recorded:" in texts["the one who recorded it"]
    assert texts["in German"] != texts["the first watcher"]
    assert "Red 4" in texts["the next table"] and "Red 4" not in texts["the first watcher"]
    statuses = {what: status for what, status, *_ in said}
    assert set(statuses.values()) == {200}
