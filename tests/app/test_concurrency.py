"""Phones racing at one table: one play wins, the others hear that the table moved on.

First through the Flask test client in threads (one process: its game cache and the
guarded write), then against two real server processes sharing one SQLite
file and secret key (the database's unique (match, seq) is the last guard).
Whatever the timing: every acknowledged play is in the log, once, at the version
it was made from; the log has no gap; the record replays cleanly.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.access import Phone
from companion.extensions import db
from companion.models import LINES
from companion.outcomes import Recorded, Undone
from companion.store import current_store
from engine import (
    REVEAL_FIELDS,
    DealerLine,
    Game,
    PlayersLine,
    RulesLine,
    line_fields,
    parse_line,
    replay,
)
from engine.tools.cli import check_text
from tests.app.helpers import (
    Form,
    Node,
    Page,
    Tabletop,
    a_line_from_elsewhere,
    elsewhere,
    forget_games,
    parse_html,
    phone,
    share_tokens,
)
from tests.databases import postgres_url, reset_postgres
from tests.servers import NO_TAP_WAITS, free_port

ROOT = Path(__file__).resolve().parents[2]
MOVED_ON = "The table moved on while you were tapping"

# ---------------------------------------------------------------- one process, threads


def run_together(jobs: list[Callable[[], Any]], timeout: float = 30) -> list[Any]:
    """Run the jobs in threads released at the same instant; their results, in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout)
            results[i] = jobs[i]()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a request hung"
    if errors:
        raise errors[0]
    return results


def log_rows(app: Flask, match_id: str) -> list[tuple[int, str]]:
    with app.app_context(), db.engine.connect() as conn:
        rows = conn.execute(
            select(LINES.c.seq, LINES.c.text)
            .where(LINES.c.match_id == match_id)
            .order_by(LINES.c.seq)
        ).all()
        return [(seq, text) for seq, text in rows]


# The form keys a match acted on: a line carries its form's key; undo forms, and the
# forms of lines since undone, are kept in used_key.
USED_KEYS = (
    "SELECT key FROM used_key WHERE match_id = :m "
    "UNION SELECT form_key FROM match_line WHERE match_id = :m AND form_key IS NOT NULL"
)


def used_keys(app: Flask, match_id: str) -> set[str]:
    with app.app_context(), db.engine.connect() as conn:
        return set(conn.scalars(sa.text(USED_KEYS), {"m": match_id}))


def post(client: FlaskClient, form: Form, data: dict[str, Any]) -> Page:
    return Page(client.post(form.action, data=data))


def test_simultaneous_plays_one_wins(app: Flask, tabletop: Tabletop, started: str) -> None:
    rounds = 3
    editor, _ = share_tokens(app, started)
    phones = [phone(app, f"/j/{editor}") for _ in range(6)]
    # Red cards a player may play on any red card: the screen offers a card only while
    # a copy of it is unseen (two of each), so no card is in more than two rounds.
    cards = [
        ["R1", "R2", "R3", "R4", "R6", "R8"],
        ["R1", "R2", "R3", "R4", "R6", "R8"],
        ["R9", "R0", "RS", "RR", "R+2", "RSE"],
    ]
    for n in range(rounds):
        version = tabletop.table(started).version
        # Each phone's own screen, all at the same version, each about to tap its own card.
        jobs = []
        keys = []
        for who, card in zip(phones, cards[n], strict=True):
            page = who.table(started)
            assert page.version == version
            form, button = page.form_with(card)
            data = form.values(button)
            keys.append(data["key"])
            jobs.append(lambda who=who, form=form, data=data: post(who.client, form, data))
        assert len(set(keys)) == len(keys)

        answers = run_together(jobs)

        codes = sorted(a.status for a in answers)
        assert codes == [303] + [409] * (len(phones) - 1), (
            codes,
            [a.refusal.text for a in answers if a.status == 422],
        )
        for answer in answers:
            if answer.status == 409:
                assert any(MOVED_ON in note for note in answer.notices)
                assert answer.version == version + 1  # the table as it is now
        rows = log_rows(app, started)
        assert len(rows) == version + 1
        winner = keys[[a.status for a in answers].index(303)]
        assert winner in used_keys(app, started)
        assert not (set(keys) - {winner}) & used_keys(app, started)

    rows = log_rows(app, started)
    assert [seq for seq, _ in rows] == list(range(1, rounds + 2))
    assert len({text for _, text in rows}) == len(rows)
    code, state = check_text(tabletop.export(started))
    assert code == 0, state
    assert state == tabletop.state(started)


def test_the_same_form_posted_at_once_records_once(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    page = tabletop.table(started)
    form, button = page.form_with("R3")
    data = form.values(button)
    cookie = tabletop.client.get_cookie("session")
    assert cookie is not None
    clients = []
    for _ in range(6):  # the same phone, the same form: a nervous thumb, a flaky network
        client = tabletop.app.test_client()
        client.set_cookie("session", cookie.value, domain=cookie.domain)
        clients.append(client)

    answers = run_together([lambda c=c: post(c, form, data) for c in clients])

    assert [a.status for a in answers] == [303] * len(clients)  # nothing alarming
    assert log_rows(app, started) == [(1, "start: R5"), (2, "Ann: R3")]
    assert data["key"] in used_keys(app, started)
    assert tabletop.table(started).version == 2


def test_simultaneous_undos_undo_once(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3", "Bob: R4")
    editor, _ = share_tokens(app, started)
    phones = [phone(app, f"/j/{editor}") for _ in range(4)]
    jobs = []
    for who in phones:
        (form,) = who.table(started).forms("/undo")
        jobs.append(lambda who=who, form=form: post(who.client, form, form.values()))
    answers = run_together(jobs)
    assert sorted(a.status for a in answers) == [303, 409, 409, 409]
    assert log_rows(app, started) == [(1, "start: R5"), (2, "Ann: R3")]


# ---------------------------------------------------------------- two real servers


class Browser:
    """A phone against a real server: its own cookie jar, redirects not followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), self._NoRedirect()
        )

    def request(
        self, url: str, data: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str, Any]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        asked = urllib.request.Request(url, data=body, headers=headers or {})
        try:
            with self.opener.open(asked, timeout=30) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode(), error.headers

    def get(self, url: str, headers: dict[str, str] | None = None) -> tuple[int, str, Any]:
        return self.request(url, headers=headers)

    def post(self, url: str, data: dict[str, str]) -> tuple[int, str, Any]:
        return self.request(url, data)


@dataclass
class Servers:
    urls: list[str]
    instance: Path
    logs: list[Path] = field(default_factory=list)

    def output(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in self.logs)

    def database(self) -> Iterator[sa.Connection]:
        url = postgres_url() or f"sqlite:///{self.instance / 'companion.sqlite3'}"
        engine = sa.create_engine(url)
        try:
            with engine.connect() as conn:
                yield conn
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """Two app processes on one instance folder: one SQLite file, one secret key.

    Started at the same time, on a fresh folder, as a restart of two workers would be.
    """
    instance = tmp_path_factory.mktemp("instance")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    env |= {"COMPANION_INSTANCE": str(instance), "PYTHONUNBUFFERED": "1", **NO_TAP_WAITS}
    if url := postgres_url():
        reset_postgres(url)
        env["DATABASE_URL"] = url
    found = Servers([], instance)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(2):
            port = free_port()
            log = instance / f"server{n}.log"
            found.logs.append(log)
            with open(log, "wb") as out:
                processes.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "companion",
                            "--host",
                            "127.0.0.1",
                            "--port",
                            str(port),
                        ],
                        cwd=ROOT,
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
            found.urls.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        for url, process in zip(found.urls, processes, strict=True):
            while True:
                assert process.poll() is None, f"a server died:\n{found.output()}"
                try:
                    if Browser().get(url + "/")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"a server did not answer:\n{found.output()}"
                time.sleep(0.1)
        yield found
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def page_of(html: str) -> Node:
    return parse_html(html)


def csrf(doc: Node) -> str:
    return str(json.loads(doc.one("body")["hx-headers"])["X-CSRFToken"])


def create_match(browser: Browser, base: str, players: list[str]) -> str:
    status, html, _ = browser.get(base + "/new")
    assert status == 200
    (form,) = [Form(f) for f in page_of(html).find_all("form") if f.get("action") == "/new"]
    data = form.values()
    for i in range(6):
        data[f"players-{i}"] = players[i] if i < len(players) else ""
    status, html, headers = browser.post(base + "/new", data)
    assert status == 303, html[:2000]
    return str(headers["Location"]).rsplit("/", 1)[1]


def editor_link(browser: Browser, base: str, match_id: str) -> str:
    """The path of the editor link, as the share panel shows it."""
    status, html, _ = browser.get(f"{base}/m/{match_id}/share")
    assert status == 200
    for a in page_of(html).find_all("a", cls="link"):
        path = urllib.parse.urlsplit(a["href"]).path
        if path.startswith("/j/"):
            return path
    raise AssertionError("no editor link on the share panel")


def join(base: str, link: str) -> Browser:
    browser = Browser()
    status, _, _ = browser.get(base + link)
    assert status == 303
    return browser


@dataclass(frozen=True)
class Seen:
    """A table as a screen shows it: what its forms carry, and the game of its record."""

    version: int
    last: str
    token: str
    shown: str  # the screen's stamp (companion/taps.py), on each of its forms
    game: Game


def read_table(browser: Browser, base: str, match_id: str) -> Seen:
    """The table as the screen shows it (version, last line, CSRF token) and the game of
    its record.

    Read twice and retried until both agree on the version (another phone may play
    in between)."""
    while True:
        status, html, _ = browser.get(f"{base}/m/{match_id}")
        assert status == 200, html[:2000]
        doc = page_of(html)
        version = int(doc.one(id_="table")["data-version"])
        last = parse_qs(urlsplit(doc.one(cls="live")["hx-get"]).query)["last"][0]
        status, text, _ = browser.get(f"{base}/m/{match_id}/record.txt")
        assert status == 200
        result = replay(text)
        assert result.error is None, text
        game = result.game
        assert game is not None
        header = 0
        for line in game.lines:
            if not isinstance(line, PlayersLine | DealerLine | RulesLine):
                break
            header += 1
        if len(game.lines) - header == version:
            shown = doc.one("input", name="shown")["value"]
            return Seen(version, last, csrf(doc), shown, game)


def a_legal_line(game: Game, rng: random.Random) -> str | None:
    """A line the engine accepts now (the record's own header lines included)."""
    state = game.state
    if state.status == "match_over":
        return None
    if state.status == "hand_over":
        return f"hand: {state.hand + 1}"
    if state.status == "playing" and not state.started:
        return "start: " + rng.choice(["R5", "G3", "B8", "Y2"])
    actions = game.legal_actions().actions()
    return str(rng.choice(actions)) if actions else None


def line_form(seen: Seen, line: str, key: str) -> tuple[str, dict[str, str]]:
    """What the table screen seen posts for `line`: the endpoint under /m/<id>/ and the
    fields (the engine's mapping, with the hidden fields of a form on that screen)."""
    parsed = parse_line(line, seen.game.players)
    assert parsed is not None, line
    fields = line_fields(parsed)
    endpoint = "reveal" if REVEAL_FIELDS & fields.keys() else "line"
    hidden = {
        "csrf_token": seen.token,
        "version": str(seen.version),
        "last": seen.last,
        "shown": seen.shown,
    }
    return endpoint, hidden | {"key": key} | fields


@dataclass
class Tally:
    acked: list[tuple[int, str, str, int]] = field(
        default_factory=list
    )  # version, line, key, server
    stale: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def test_two_servers_many_phones(servers: Servers) -> None:
    owner = Browser()
    base0, base1 = servers.urls
    match_id = create_match(owner, base0, ["Ann", "Bob", "Cy", "Dee"])
    link = editor_link(owner, base0, match_id)
    # Four phones, two joined on each server; each then alternates between the servers
    # (one session cookie, valid on both: one secret key).
    phones = [join(servers.urls[i % 2], link) for i in range(4)]
    tally = Tally()
    max_attempts, max_acked, deadline = 120, 50, time.monotonic() + 20
    barrier = threading.Barrier(len(phones))

    def play(n: int, browser: Browser) -> None:
        rng = random.Random(n)
        barrier.wait(30)
        turn = n
        while time.monotonic() < deadline:
            with tally.lock:
                if tally.attempts >= max_attempts or len(tally.acked) >= max_acked:
                    return
                tally.attempts += 1
            turn += 1
            server = turn % 2
            base = servers.urls[server]
            seen = read_table(browser, base, match_id)
            version = seen.version
            line = a_legal_line(seen.game, rng)
            if line is None:
                return
            key = secrets.token_urlsafe(12)
            endpoint, form = line_form(seen, line, key)
            status, body, _ = browser.post(f"{base}/m/{match_id}/{endpoint}", form)
            with tally.lock:
                if status == 303:
                    tally.acked.append((version, line, key, server))
                elif status == 409 and MOVED_ON in body:
                    tally.stale.append(key)
                else:
                    tally.errors.append(f"{status} {line!r} at {version}: {body[:300]}")

    failures: list[BaseException] = []

    def run(n: int, browser: Browser) -> None:
        try:
            play(n, browser)
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(n, b)) for n, b in enumerate(phones)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a phone hung"
    assert not failures, failures
    assert not tally.errors, "\n".join(tally.errors) + "\n" + servers.output()
    assert len(tally.acked) >= 10, (tally, servers.output())
    assert {server for *_, server in tally.acked} == {0, 1}  # both servers recorded plays

    with contextmanager(servers.database)() as conn:
        who = {"m": match_id}
        rows = conn.execute(
            sa.text("SELECT seq, text FROM match_line WHERE match_id = :m ORDER BY seq"), who
        ).all()
        keys = {k for (k,) in conn.execute(sa.text(USED_KEYS), who)}
        version = conn.execute(sa.text("SELECT version FROM match WHERE id = :m"), who).scalar()
    log = [text for _, text in rows]
    # No gap, no duplicate sequence number; the match's version is the last one.
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
    assert version == len(rows)
    # Every acknowledged play is in the log, at the version it was made from, once.
    versions = [v for v, *_ in tally.acked]
    assert len(set(versions)) == len(versions)
    for v, line, key, _ in tally.acked:
        assert log[v] == line, (v, line, log[v - 2 : v + 2])
        assert key in keys
    # ...and nothing else was recorded: each line is some phone's acknowledged play,
    # and no refused play left its key behind.
    assert len(log) == len(tally.acked)
    assert keys == {key for _, _, key, _ in tally.acked}
    assert not keys & set(tally.stale)
    # The record replays cleanly, from either server, and both agree.
    records = [owner.get(f"{base}/m/{match_id}/record.txt")[1] for base in (base0, base1)]
    assert records[0] == records[1]
    code, state = check_text(records[0])
    assert code == 0, state
    assert records[0].splitlines()[-len(log) :] == log


def test_a_stale_undo_across_servers_is_refused(servers: Servers) -> None:
    """Undo removes the line its screen showed last, never another phone's newer one."""
    base0, base1 = servers.urls
    owner = Browser()
    match_id = create_match(owner, base0, ["Ann", "Bob", "Cy"])
    other = join(base1, editor_link(owner, base0, match_id))
    for line in ("start: R5", "Ann: R3"):
        endpoint, form = line_form(read_table(owner, base0, match_id), line, secrets.token_hex(8))
        status, body, _ = owner.post(f"{base0}/m/{match_id}/{endpoint}", form)
        assert status == 303, body[:1000]

    # My screen (server 0) shows version 2, its undo button takes back "Ann: R3".
    status, html, _ = owner.get(f"{base0}/m/{match_id}")
    mine = page_of(html)
    (undo,) = [
        Form(f)
        for f in mine.find_all("form")
        if f.get("action", "").split("?")[0].endswith("/undo")
    ]
    assert "Ann" in undo.buttons()[0]["aria-label"]  # it names the line it takes back
    live = f"{base0}/m/{match_id}/live?v=2"
    assert owner.get(live)[0] == 204

    # Meanwhile another phone, on the other server, records Bob's play.
    seen = read_table(other, base1, match_id)
    assert seen.version == 2
    endpoint, form = line_form(seen, "Bob: R4", secrets.token_hex(8))
    status, _, _ = other.post(f"{base1}/m/{match_id}/{endpoint}", form)
    assert status == 303

    # My undo is refused: it would take back Bob's play, which I never saw.
    status, body, _ = owner.post(f"{base0}{undo.action}", undo.values())
    assert status == 409
    assert "Not undone" in body
    assert int(page_of(body).one(id_="table")["data-version"]) == 3
    _, record, _ = owner.get(f"{base0}/m/{match_id}/record.txt")
    assert record.splitlines()[-2:] == ["Ann: R3", "Bob: R4"]
    # My screen's poller hears of the change, from the server that did not record it.
    status, fragment, _ = owner.get(live)
    assert status == 200 and 'data-version="3"' in fragment

    # Undo from the fresh table: Bob's play, and only it, is taken back.
    status, html, _ = owner.get(f"{base0}/m/{match_id}")
    (undo,) = [
        Form(f)
        for f in page_of(html).find_all("form")
        if f.get("action", "").split("?")[0].endswith("/undo")
    ]
    assert "Bob" in undo.buttons()[0]["aria-label"]
    status, _, _ = owner.post(f"{base0}{undo.action}", undo.values())
    assert status == 303
    for base in (base0, base1):
        _, record, _ = owner.get(f"{base}/m/{match_id}/record.txt")
        assert record.splitlines()[-2:] == ["start: R5", "Ann: R3"], base


@contextmanager
def just_before(app: Flask, statement: str, then: Callable[[], None]) -> Iterator[list[str]]:
    """Run `then` (another process's write) once, just before the app's first SQL statement
    starting with `statement`: the moment between a request's check and its write. The
    statements it was run before are listed."""
    ran: list[str] = []

    def hook(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        if not ran and sql.replace('"', "").lstrip().upper().startswith(statement):
            ran.append(sql)
            then()

    with app.app_context():
        engines = list(db.engines.values())
    for engine in engines:
        sa.event.listen(engine, "before_cursor_execute", hook)
    try:
        yield ran
    finally:
        for engine in engines:
            sa.event.remove(engine, "before_cursor_execute", hook)


def writes_a_line(app: Flask) -> str:
    """The first statement of the app's write of a line (PostgreSQL: one WITH statement)."""
    with app.app_context():
        return "WITH" if db.engine.dialect.name == "postgresql" else "INSERT INTO MATCH_LINE"


def test_a_clash_at_insert_never_leaves_the_cached_game_ahead_of_the_database(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    # Regression: another process recorded between our version check and our insert;
    # the insert failed after the cached game had applied the line, and the cache kept
    # it: the next requests replayed a log the game did not match (500s).
    def another_phone_first() -> None:
        a_line_from_elsewhere(app, started, "Ann: R4")

    with just_before(app, writes_a_line(app), another_phone_first) as ran:
        assert tabletop.line(started, "Ann", "R3").status == 409
    assert ran
    assert tabletop.logged(started) == ["start: R5", "Ann: R4"]
    page = tabletop.table(started)
    assert page.version == 2
    assert tabletop.line(started, "Bob", "R6").status == 303


def test_an_undo_racing_a_new_line_leaves_no_gap(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    # Regression: an undo read the match, another process then recorded the next line,
    # and the undo still deleted its line and set the version back: the log had a hole
    # (lines 1 and 3) and a version that named neither.
    tabletop.play_lines(started, "Ann: R3")

    def another_phone_first() -> None:
        a_line_from_elsewhere(app, started, "Bob: R4")

    with just_before(app, "UPDATE MATCH", another_phone_first) as ran:
        assert tabletop.undo(started).status == 409
    assert ran
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]
    page = tabletop.table(started)
    assert page.version == 3 and page.turn == "Cy"
    assert tabletop.undo(started).status == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_an_undo_tapped_twice_on_two_servers_at_once_undoes_once(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    # Both taps passed the check before either wrote: the second must hear "done
    # already" (its key), not "not undone, undo again", which would undo another line.
    tabletop.play_lines(started, "Ann: R3", "Bob: R4")
    page = tabletop.page(started)
    (form,) = page.forms("/undo")
    data = form.values(form.buttons()[0])

    def the_other_tap_first() -> None:  # the same form, on the other server
        with elsewhere(app) as conn:
            previous = conn.execute(
                sa.text("SELECT id FROM match_line WHERE match_id = :m AND seq = 2"),
                {"m": started},
            ).scalar()
            conn.execute(
                sa.text("DELETE FROM match_line WHERE match_id = :m AND seq = 3"), {"m": started}
            )
            conn.execute(
                sa.text("UPDATE match SET version = 2, last_line_id = :i WHERE id = :m"),
                {"i": previous, "m": started},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO used_key (match_id, key, created_at) "
                    "VALUES (:m, :k, CURRENT_TIMESTAMP)"
                ),
                {"m": started, "k": data["key"]},
            )

    with just_before(app, "UPDATE MATCH", the_other_tap_first) as ran:
        answer = tabletop.client.post(form.action, data=data)
    assert ran
    assert answer.status_code == 303  # done already, by the other tap
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
    assert tabletop.table(started).version == 2


def test_a_page_is_made_from_a_table_that_a_later_play_leaves_alone(
    app: Flask, started: str
) -> None:
    """GUNICORN_THREADS > 1: another thread's play for the match must not change a page
    while it is made (it showed the log one line on from its forms, or failed on a game
    undone under it). A page is made from a Table: values that no play changes."""
    editor, _ = share_tokens(app, started)
    phone_ = Phone({started: ["editor", editor]})
    with app.app_context():
        store = current_store()
        table = store.table(started, phone_)

        def seen() -> tuple[Any, ...]:
            return (table.version, table.state.to_json(), [str(s.line) for s in table.recent])

        before = seen()
        read_long_ago = store.taps.stamp(table, at_ms=0)  # a screen the person has read
        played = store.record(
            started, phone_, table.version, table.last_line_id, None, "Ann: R3", read_long_ago
        )
        assert isinstance(played, Recorded)
        assert seen() == before
        assert store.table(started, phone_).version == table.version + 1
        after = store.table(started, phone_)
        undone = store.undo(
            started,
            phone_,
            after.version,
            after.last_line_id,
            None,
            store.taps.stamp(after, at_ms=0),
        )
        assert isinstance(undone, Undone)
        assert seen() == before


def test_a_play_never_lands_on_a_log_that_changed_while_it_was_read(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    # Regression: the match row was read at (version 2, last line L), then, before its
    # lines were read, another phone undid L and recorded another line 2: the play was
    # judged on that new log (its own screen never saw it) and recorded on it.
    tabletop.play_lines(started, "Ann: R3")
    forget_games(app)  # this process must read the lines: the slow path

    def undo_and_play_elsewhere() -> None:
        with elsewhere(app) as conn:
            conn.execute(
                sa.text("DELETE FROM match_line WHERE match_id = :m AND seq = 2"), {"m": started}
            )
            new_id = conn.execute(
                sa.text(
                    "INSERT INTO match_line (match_id, seq, text, created_at) "
                    "VALUES (:m, 2, 'Ann: R7 swap Bob', CURRENT_TIMESTAMP) RETURNING id"
                ),
                {"m": started},
            ).scalar()
            conn.execute(
                sa.text("UPDATE match SET last_line_id = :i WHERE id = :m"),
                {"i": new_id, "m": started},
            )

    with just_before(app, "SELECT MATCH_LINE", undo_and_play_elsewhere) as ran:
        page = tabletop.line(started, "Bob", "R4")
    assert ran
    assert page.status == 409 and any(MOVED_ON in note for note in page.notices)
    assert tabletop.logged(started) == ["start: R5", "Ann: R7 swap Bob"]
    assert tabletop.undo(started).status == 303  # from the table as it is now
    assert tabletop.logged(started) == ["start: R5"]
