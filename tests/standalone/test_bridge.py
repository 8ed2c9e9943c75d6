"""The app with no server (companion/standalone.py), here in this Python: the requests a
page sends, handed to the app as WSGI calls by the bridge the standalone build runs in
the phone's browser. The bridge keeps the app's cookies itself (a service worker's answer
can't set one) in the folder that holds the database, so the phone's roles and its
matches outlast a restart."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

from companion.standalone import STANDALONE, Standalone, compile_templates, kept_cookies
from tests.standalone.scenario import LINES, SETTLE, new_match, play, record, undo


def listed_match(phone: Standalone) -> str:
    """The id of the first match the phone's home page lists."""
    home = phone.answer("GET", "/", []).body.decode()
    return home.split('href="/m/', 1)[1].split('"', 1)[0]


def test_a_hand_is_refereed_through_the_bridge(tmp_path: Path) -> None:
    played = play(Standalone(tmp_path, SETTLE))
    assert set(played["statuses"]) == {303}
    key, rest = played["record"].split("\n", 1)
    assert re.fullmatch(r"record: [\w-]{16,64}", key)  # sent to a server later: one match
    assert rest.startswith("players: Ann, Bob, Cy\ndealer: Cy\nstart: R5\n")
    assert "Undone: Bob played Green 7" in played["text"]


def test_the_phone_keeps_its_matches_and_its_role_after_a_restart(tmp_path: Path) -> None:
    play(Standalone(tmp_path, SETTLE))
    restarted = Standalone(tmp_path, SETTLE)  # a reload: a new app on the same folder
    table = listed_match(restarted)
    answer = record(restarted, f"/m/{table}", "Bob: G7 swap Cy")  # still its editor
    assert answer.status == 303
    assert restarted.answer("GET", f"/m/{table}/record.txt", []).body.endswith(b"swap Cy\n")


def test_a_phone_without_the_cookies_may_not_edit(tmp_path: Path) -> None:
    play(Standalone(tmp_path / "phone", SETTLE))
    match = listed_match(Standalone(tmp_path / "phone", SETTLE))
    (tmp_path / "phone" / "cookies.json").unlink()  # the same database, none of its links
    stranger = Standalone(tmp_path / "phone", SETTLE)
    assert 'href="/m/' not in stranger.answer("GET", "/", []).body.decode()
    assert stranger.answer("GET", f"/m/{match}", []).status == 403


def test_the_cookies_an_answer_sets_and_deletes() -> None:
    cookies = {"session": "old", "other": "x"}
    cookies = kept_cookies(cookies, ["session=new; HttpOnly; Path=/; SameSite=Lax"])
    assert cookies == {"session": "new", "other": "x"}
    deleted = "session=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"
    assert kept_cookies(cookies, [deleted]) == {"other": "x"}


def test_the_app_answers_under_the_path_its_page_gives_it(tmp_path: Path) -> None:
    # The built site may sit anywhere on a static host: its pages link under that path.
    phone = Standalone(tmp_path, SETTLE, root="/games/standalone/app")
    home = phone.answer("GET", "/games/standalone/app/", [])
    assert home.status == 200
    assert 'href="/games/standalone/app/new"' in home.body.decode()
    assert 'href="/new"' not in home.body.decode()


def test_an_answer_says_whether_it_changed_the_folder(tmp_path: Path) -> None:
    # The page writes the folder to the browser's storage only after an answer that did.
    phone = Standalone(tmp_path, SETTLE)
    assert phone.answer("GET", "/", []).wrote  # the first visit's cookie
    assert not phone.answer("GET", "/rules", []).wrote
    played = play(phone)
    assert played["statuses"]
    assert not phone.answer("GET", "/", []).wrote


def test_each_tap_says_it_wrote_between_reads_that_did_not(tmp_path: Path) -> None:
    # The folder is scanned once an answer (the last answer's scan is the next one's
    # "before"): every write is still said, however reads and writes follow each other.
    phone = Standalone(tmp_path, SETTLE)
    table = new_match(phone)
    for line in LINES:
        phone.answer("GET", table, [])  # the table after a change (its message shown)
        assert not phone.answer("GET", table, []).wrote  # and again: a read
        tapped = record(phone, table, line)
        assert tapped.status == 303 and tapped.wrote, line
    assert undo(phone, table).wrote


def test_a_session_only_signed_again_is_not_a_write(tmp_path: Path) -> None:
    """Regression: once a match is remembered the session is permanent, and the app signs
    it again on every request; a second later its cookie differed by its time alone, and
    each answer (every tap) wrote the folder to the browser's storage (a flaky test
    above, in CI). Kept for the answer; written only with news, or once a day."""
    phone = Standalone(tmp_path, SETTLE)
    play(phone)
    jar = (tmp_path / "cookies.json").read_text()
    time.sleep(1.1)  # a new second: the session's signature changes
    answer = phone.answer("GET", "/", [])
    assert phone.cookies["session"] != json.loads(jar)["session"]  # signed again
    assert not answer.wrote and (tmp_path / "cookies.json").read_text() == jar
    # News is written at once: a new match remembered.
    assert phone.answer("GET", "/new", []).status == 200
    play(phone)
    assert (tmp_path / "cookies.json").read_text() != jar
    # And a restart reads the jar: the phone is still its matches' editor.
    again = Standalone(tmp_path, SETTLE)
    assert again.answer("GET", "/", []).body.count(b'href="/m/') >= 2


def test_the_app_in_the_phone_is_framed_by_its_page_only_and_registers_no_worker(
    tmp_path: Path,
) -> None:
    phone = Standalone(tmp_path, SETTLE)
    home = phone.answer("GET", "/", [])
    headers = dict(home.headers)
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
    assert "data-worker" not in home.body.decode()  # its page's worker is the only one


def test_the_phone_s_table_asks_for_no_refresh_only_its_own_taps_change_it(
    tmp_path: Path,
) -> None:
    # One page runs the app (another tab is told it runs elsewhere): a poll every 1.5 s
    # would only cost the phone's battery. A server's table polls (tests/app).
    phone = Standalone(tmp_path, SETTLE)
    play(phone)
    table = phone.answer("GET", f"/m/{listed_match(phone)}", []).body.decode()
    assert 'id="table"' in table and 'class="live"' not in table and "/live?" not in table


def test_the_lab_says_it_needs_a_server(tmp_path: Path) -> None:
    phone = Standalone(tmp_path, SETTLE)
    for url in ("/lab", "/lab?match=x", "/lab/abcdefgh12345678"):  # the form, a run's page
        page = phone.answer("GET", url, [("Accept-Language", "en")])
        assert page.status == 200
        assert "runs only where the app has a server" in page.body.decode()


def test_a_build_migrates_the_phone_s_database_at_its_first_start_only(tmp_path: Path) -> None:
    # Alembic and the migrations' scripts cost the phone about a second at each start.
    first = Standalone(tmp_path, SETTLE)
    assert first.app.config["AUTO_MIGRATE"] and (tmp_path / "migrated").exists()
    again = Standalone(tmp_path, SETTLE)
    assert not again.app.config["AUTO_MIGRATE"]
    assert "migrate" not in again.app.extensions  # Flask-Migrate not even bound
    (tmp_path / "migrated").write_text("a build with other migrations")
    assert Standalone(tmp_path, SETTLE).app.config["AUTO_MIGRATE"]  # a new build's start


def test_a_first_start_opens_the_database_the_build_made(tmp_path: Path) -> None:
    # The build keeps the empty database its own start migrated (standalone/ahead.mjs):
    # a phone's first start copies it, with no alembic (about a second there).
    made = sqlite3.connect(tmp_path / "built.sqlite3")
    Standalone(tmp_path / "build", SETTLE)
    sqlite3.connect(tmp_path / "build" / "companion.sqlite3").backup(made)
    made.close()
    first = Standalone(tmp_path / "phone", SETTLE, built=tmp_path / "built.sqlite3")
    assert not first.app.config["AUTO_MIGRATE"] and "migrate" not in first.app.extensions
    assert set(play(first)["statuses"]) == {303}
    # A later start keeps the phone's own database, its matches in it.
    again = Standalone(tmp_path / "phone", SETTLE, built=tmp_path / "built.sqlite3")
    assert 'href="/m/' in again.answer("GET", "/", []).body.decode()


def test_the_share_page_in_the_phone_shows_no_link_that_names_the_phone(tmp_path: Path) -> None:
    # Its links would start http://localhost: on another phone, that phone itself.
    phone = Standalone(tmp_path, SETTLE)
    play(phone)
    table = listed_match(phone)
    page = phone.answer("GET", f"/m/{table}/share", []).body.decode()
    assert "kept in this phone only" in page
    assert "localhost" not in page and "/j/" not in page and "<svg" not in page.split("<main")[1]
    assert f'href="/m/{table}/send"' in page and f'href="/m/{table}/record.txt"' in page


def test_the_build_s_compiled_templates_show_the_same_pages(tmp_path: Path) -> None:
    compiled = tmp_path / "compiled"
    compiled.mkdir()
    plain = Standalone(tmp_path / "plain", SETTLE)
    assert compile_templates(plain.app, compiled) == len(plain.app.jinja_env.list_templates())
    phone = Standalone(tmp_path / "phone", SETTLE, templates=compiled)
    token = re.compile(r"[\w-]{20,}\.[\w-]{6}\.[\w-]{20,}")  # a CSRF token
    for page in ("/", "/new", "/rules", "/lab", "/import"):
        shown = [token.sub("", s.answer("GET", page, []).body.decode()) for s in (plain, phone)]
        assert shown[0] == shown[1], page
    here, there = play(plain), play(phone)
    assert (here["statuses"], here["text"]) == (there["statuses"], there["text"])
    # The same record but for its key (`record:`): each match in a phone has its own.
    assert here["record"].split("\n", 1)[1] == there["record"].split("\n", 1)[1]
    # Each render came from the compiled modules (no template was compiled here), each
    # named by its own name.
    cached = phone.app.jinja_env.cache
    assert cached is not None and len(cached) > 10
    assert {t.root_render_func.__code__.co_filename[:5] for t in cached.values()} == {"tmpl_"}
    assert all(t.filename == t.name for t in cached.values())


def test_a_tap_writes_little_to_the_phone_s_storage_not_a_growing_log(tmp_path: Path) -> None:
    """Regression: the phone's storage keeps whole files, written after each change
    (standalone/site/worker.js), and SQLite's log grew to 4 MB before it was copied into
    the database: a tap wrote 3 MB there on average, more and more slowly as a hand went
    on. The log is now cut back at SQLITE_LOG_PAGES (companion/standalone.py)."""
    phone = Standalone(tmp_path, SETTLE)
    play(phone)
    table = "/m/" + listed_match(phone)
    log = tmp_path / "companion.sqlite3-wal"
    # At most the pages of the log's bound, and one commit's more (a frame: a header of
    # 24 bytes and a page; the log's header: 32 bytes).
    most = 32 + (STANDALONE["SQLITE_LOG_PAGES"] + 16) * (24 + 4096)

    def files() -> dict[str, tuple[int, int]]:
        return {f.name: (f.stat().st_size, f.stat().st_mtime_ns) for f in tmp_path.iterdir()}

    written = []
    for _ in range(60):  # a play taken back, 60 times: 120 taps
        for tap in (lambda: record(phone, table, "Bob: G4"), lambda: undo(phone, table)):
            before = files()
            assert tap().status == 303
            after = files()
            written.append(
                sum(size for name, (size, _) in after.items() if before.get(name) != after[name])
            )
            assert not log.exists() or log.stat().st_size <= most
    assert sum(written) / len(written) < 300_000  # about 150 KB: the database is 150 KB
