"""Limits on work (issue 13, finding 3): lines per imported record and per match, and
requests per client address (new matches, imports, writes), answered with a sentence."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask

from companion.limit_storage import SWEEP_EVERY, SweptMemoryStorage, storage_for
from companion.limits import DEFAULTS
from companion.store import MAX_MATCH_LINES, current_store
from tests.app.helpers import Page, Tabletop
from tests.app.test_transfer import LONG_MATCH, import_text

HX = {"HX-Request": "true"}


def phone_at(app: Flask, address: str, **environ: str) -> Tabletop:
    """A phone whose requests come from `address` (and carry `environ`, such as a proxy's
    X-Forwarded-For)."""
    client = app.test_client()
    client.environ_base |= {"REMOTE_ADDR": address, **environ}
    return Tabletop(app, client)


def post_new_match(phone: Tabletop) -> Page:
    return phone.post("/new", data=phone.new_match_values(("Ann", "Bob", "Cy")))


# ---------------------------------------------------------------- lines per import


def test_a_record_longer_than_a_match_is_refused_before_it_is_replayed(app_with: Any) -> None:
    app = app_with(MAX_MATCH_LINES=10)
    tabletop = phone_at(app, "10.0.0.1")
    # 51 lines, every one after the second illegal: counted, not replayed.
    page = import_text(tabletop, "players: Ann, Bob\n" + "Ann: R5\n" * 50)
    assert page.status == 422
    assert "This record has 51 lines; a match holds at most 10" in page.text
    assert tabletop.match_count() == 0


def test_a_record_whose_log_is_over_the_limit_is_refused(app_with: Any) -> None:
    # LONG_MATCH: players, dealer and rules, then 22 lines of log.
    tabletop = phone_at(app_with(MAX_MATCH_LINES=21), "10.0.0.1")
    page = import_text(tabletop, LONG_MATCH)
    assert page.status == 422
    assert "This record has 25 lines; a match holds at most 21" in page.text
    assert tabletop.match_count() == 0
    # Without dealer and rules lines a record passes the count made before the replay,
    # and is refused after it.
    tabletop = phone_at(app_with(MAX_MATCH_LINES=3), "10.0.0.1")
    page = import_text(tabletop, "players: Ann, Bob, Cy\nstart: R5\nAnn: R3\nBob: R4\nCy: R6\n")
    assert page.status == 422
    assert "This record has 5 lines; a match holds at most 3" in page.text
    assert tabletop.match_count() == 0


def test_a_record_at_the_limit_imports(app_with: Any) -> None:
    tabletop = phone_at(app_with(MAX_MATCH_LINES=22), "10.0.0.1")
    page = import_text(tabletop, LONG_MATCH)
    assert page.status == 303 and page.version == 22
    assert tabletop.match_count() == 1


def test_the_import_page_states_the_limits(app_with: Any) -> None:
    page = phone_at(app_with(), "10.0.0.1").get("/import")
    assert f"up to {MAX_MATCH_LINES:,} lines" in page.text and "1 MB" in page.text


# ---------------------------------------------------------------- lines per match


def test_a_full_match_refuses_a_new_line_and_suggests_a_new_match(app_with: Any) -> None:
    tabletop = phone_at(app_with(MAX_MATCH_LINES=3), "10.0.0.1")
    match_id = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(match_id, "start: R5", "Ann: R3", "Bob: R4")
    page = tabletop.play(match_id, "Cy: R6")
    assert page.status == 422
    assert page.refusal is not None
    assert "This match is full: a match holds at most 3 lines" in page.refusal.text
    new = [a["href"] for a in page.refusal.find_all("a")]
    assert new == ["/new?players=Ann,+Bob,+Cy"]
    assert tabletop.match(match_id).version == 3
    # The htmx table says it too, in its fragment.
    fields = tabletop.hidden(match_id) | {"player": "Cy", "action": "R6"}
    answer = tabletop.client.post(f"/m/{match_id}/line", data=fields, headers=HX)
    assert answer.status_code == 422 and "This match is full" in answer.get_data(as_text=True)
    # Undo still works, and then there is room for a line again.
    assert tabletop.undo(match_id).status == 303
    tabletop.play_lines(match_id, "Bob: R4")
    assert tabletop.match(match_id).version == 3


def test_the_lines_limit_comes_from_the_environment(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_MAX_MATCH_LINES", "7")
    with app_with().app_context():
        assert current_store().max_lines == 7
    monkeypatch.setenv("COMPANION_MAX_MATCH_LINES", "lots")
    with pytest.raises(ValueError, match="COMPANION_MAX_MATCH_LINES"):
        app_with()


# ---------------------------------------------------------------- requests per client


def test_production_defaults_limit_new_matches(app_with: Any) -> None:
    """The finding: 693 new matches in 10 s from one client, never a 429."""
    app = app_with(RATELIMIT_ENABLED=True)
    assert {key: app.config[key] for key in DEFAULTS} == DEFAULTS
    phone = phone_at(app, "10.0.0.1")
    answers = [post_new_match(phone).status for _ in range(11)]
    assert answers == [303] * 10 + [429]


def test_too_many_new_matches_from_one_address(app_with: Any) -> None:
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_NEW_MATCH="2 per minute")
    phone, other = phone_at(app, "10.0.0.1"), phone_at(app, "10.0.0.2")
    assert [post_new_match(phone).status for _ in range(2)] == [303, 303]
    page = post_new_match(phone)
    assert page.status == 429
    assert (
        "Too many new matches from this address in a minute: wait a moment and try again."
        in page.text
    )
    assert page.doc.find("a", href="/") is not None  # the app's error page
    assert 1 <= int(page.response.headers["Retry-After"]) <= 60
    assert phone.match_count() == 2
    # Reading is never limited, and another address is not affected.
    assert phone.get("/new").status == 200 and phone.get("/").status == 200
    assert post_new_match(other).status == 303


def test_too_many_imports_from_one_address(app_with: Any) -> None:
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_IMPORT="1 per hour")
    phone = phone_at(app, "10.0.0.1")
    assert import_text(phone, LONG_MATCH).status == 303
    page = import_text(phone, LONG_MATCH)
    assert page.status == 429 and "Too many imports from this address in an hour" in page.text
    assert int(page.response.headers["Retry-After"]) > 60
    assert "wait about" in page.text and phone.match_count() == 1
    assert import_text(phone_at(app, "10.0.0.2"), LONG_MATCH).status == 303


def test_writes_share_one_limit_and_reads_are_free(app_with: Any) -> None:
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_WRITE="3 per minute")
    phone = phone_at(app, "10.0.0.1")
    match_id = phone.create(("Ann", "Bob", "Cy"))
    phone.play_lines(match_id, "start: R5", "Ann: R3")
    assert phone.undo(match_id).status == 303
    page = phone.play(match_id, "Ann: R3")
    assert page.status == 429
    assert "Too many plays and changes from this address in a minute" in page.text
    assert "This one was not recorded." in page.text
    assert phone.match(match_id).version == 1
    # The table, its poll and the static files still answer.
    assert phone.table(match_id).status == 200
    assert phone.client.get(f"/m/{match_id}/live?v=0&last=0", headers=HX).status_code == 200
    assert phone.client.get("/static/app.css").status_code == 200
    assert phone.client.get("/healthz").status_code == 200


def test_too_many_writes_to_htmx_is_a_notice_on_the_table(app_with: Any) -> None:
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_WRITE="1 per minute")
    phone = phone_at(app, "10.0.0.1")
    match_id = phone.create(("Ann", "Bob", "Cy"))
    phone.play_lines(match_id, "start: R5")
    fields = phone.hidden(match_id) | {"player": "Ann", "action": "R3"}
    answer = phone.client.post(f"/m/{match_id}/line", data=fields, headers=HX)
    assert answer.status_code == 429 and answer.headers["Retry-After"]
    # htmx puts the notice on top of the table (base.html swaps a 429 too).
    assert answer.headers["HX-Retarget"] == "#table"
    assert answer.headers["HX-Reswap"] == "afterbegin"
    fragment = Page(answer)
    notice = fragment.doc.one(cls="too-many")
    assert notice.get("role") == "alert" and notice.ancestor("html") is None
    assert "Too many plays and changes" in notice.text
    assert answer.headers["HX-Reselect"] == ".too-many"


def test_behind_a_proxy_each_client_counts_apart(app_with: Any) -> None:
    """ProxyFix puts the real client's address in the request: the limiter keys on it,
    not on the proxy's."""
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_NEW_MATCH="1 per minute", BEHIND_PROXY=True)
    ann = phone_at(app, "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
    bob = phone_at(app, "127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert post_new_match(ann).status == 303
    assert post_new_match(ann).status == 429
    assert post_new_match(bob).status == 303


def test_the_limits_can_be_raised_or_switched_off(app_with: Any) -> None:
    raised = app_with(RATELIMIT_ENABLED=True, RATELIMIT_NEW_MATCH="100 per minute")
    switched_off = app_with(RATELIMIT_ENABLED=False, RATELIMIT_NEW_MATCH="1 per minute")
    for app in (raised, switched_off):
        phone = phone_at(app, "10.0.0.1")
        assert [post_new_match(phone).status for _ in range(12)] == [303] * 12


# ---------------------------------------------------------------- the counts in memory


def test_a_limited_write_starts_no_thread(app_with: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: limits' own memory storage started a timer thread on about every other
    write of a busy server (0.1-0.25 ms each); the counts now expire when read or swept."""
    app = app_with(RATELIMIT_ENABLED=True, RATELIMIT_WRITE="1000 per minute")
    phone = phone_at(app, "10.0.0.1")
    match_id = phone.create(("Ann", "Bob", "Cy"))
    started: list[threading.Thread] = []
    real_start = threading.Thread.start

    def start(thread: threading.Thread) -> None:
        started.append(thread)
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    phone.play_lines(match_id, "start: R5", "Ann: R3", "Bob: R4")
    for _ in range(5):
        time.sleep(0.02)  # past limits' timer of 0.01 s, which would start again
        assert phone.undo(match_id).status == 303
        phone.play_lines(match_id, "Bob: R4")
    assert started == []


def test_ended_windows_are_dropped_when_read_and_swept() -> None:
    storage = SweptMemoryStorage()
    storage.incr("a", expiry=0.05)
    storage.incr("b", expiry=0.05)
    storage.incr("c", expiry=60)
    assert storage.incr("a", expiry=0.05) == 2
    time.sleep(0.06)
    assert storage.get("a") == 0  # its window ended: counted afresh
    assert storage.incr("a", expiry=60) == 1
    storage.sweep()
    assert "b" not in storage.storage and "b" not in storage.expirations
    assert storage.get("c") == 1 and storage.get("a") == 1
    # A sweep comes by itself every SWEEP_EVERY writes.
    storage.incr("d", expiry=0.01)
    time.sleep(0.02)
    for _ in range(SWEEP_EVERY):
        storage.incr("c", expiry=60)
    assert "d" not in storage.storage


def test_the_limits_of_redis_are_the_limits_librarys() -> None:
    """Another storage URI is the limits library's own; memory:// is the swept one."""
    assert isinstance(storage_for("memory://"), SweptMemoryStorage)
    with pytest.raises(ValueError, match="asyncio"):
        storage_for("async+memory://")
