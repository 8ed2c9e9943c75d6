"""Never a lost tap: a play or an undo that gets no answer (the network cut before the
tap, the answer lost after the server acted, a proxy's 503) is said "Not sent" at once,
kept (a reload too) and sent again by the person's tap with the same form key: nothing
lost, nothing doubled, nothing sent by itself."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from .conftest import SHOTS, axe_violations
from .table import Table

RECORD = "players: Ann, Bob, Cy\nstart: R5\n"
NOTICE = "#unsent"


def lines(page: Page, table_url: str) -> list[str]:
    """The match's record lines, as its export has them (through the network, so online)."""
    text = page.request.get(table_url + "/record.txt").text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def answer_lost(route: Route) -> None:
    """The tap reaches the server, which acts on it; its answer never reaches the phone."""
    route.fetch(max_redirects=0)
    route.abort("connectionreset")


def proxy_down(route: Route) -> None:
    """A proxy in front answers for the server, which never sees the tap."""
    route.fulfill(status=503, body="Service Unavailable")


def database_out(route: Route) -> None:
    """The server answers as it does when its database is out (its 503 and header:
    tests/app/test_database_errors.py), and records nothing."""
    route.fulfill(status=503, headers={"Companion-Outage": "database"}, body="Unreachable")


def cut(page: Page, how: str, path: str) -> Callable[[], None]:
    """Make the next post to `path` get no answer, `how`; returns what restores it."""
    if how == "offline":
        page.context.set_offline(True)
        return lambda: page.context.set_offline(False)
    handlers = {"answer lost": answer_lost, "proxy 503": proxy_down, "database out": database_out}
    handler = handlers[how]
    url = re.compile(re.escape(path) + r"(\?.*)?$")  # a table form's action names its screen
    page.route(url, handler, times=1)
    return lambda: page.unroute(url, handler)


def open_table(page: Page) -> tuple[Table, str]:
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    return t, t.import_record(RECORD)


def not_sent(page: Page, play: str, why: str = "Not sent: no connection.") -> None:
    notice = page.locator(NOTICE)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(why)
    expect(notice).to_contain_text(f"“{play}” is kept on this phone.")


def send_again(page: Page) -> None:
    page.locator(NOTICE).get_by_role("button", name="Send again").click()
    expect(page.locator(NOTICE)).to_be_hidden()


@pytest.mark.parametrize("how", ["offline", "answer lost", "proxy 503", "database out"])
def test_a_play_that_got_no_answer_is_sent_again_once(small_phone: Page, how: str) -> None:
    page = small_phone
    t, url = open_table(page)
    before, version = lines(page, url), t.version

    restore = cut(page, how, "/line")
    page.locator('.keyboard [aria-label="Red 4"]').click()
    if how == "database out":  # said as such, not as the phone's connection
        not_sent(page, "Red 4", "Not sent: the server's database is unreachable.")
    else:
        not_sent(page, "Red 4")
    with page.expect_response(lambda r: "/live" in r.url and r.ok):  # the poll goes on
        restore()
    if how == "answer lost":  # it did arrive: the live table catches up by itself
        expect(page.locator("#table")).to_have_attribute("data-version", str(version + 1))
        t.expect_turn("Bob")
        expect(page.locator(NOTICE)).to_be_visible()  # until the person sends or drops it
    else:
        assert lines(page, url) == before

    # Another play while this one is kept: not sent on top of it; the notice says why.
    if how != "answer lost":
        page.locator('.keyboard [aria-label="Red 6"]').click()
        expect(page.locator(NOTICE)).to_contain_text("nothing else is sent before it")
        assert lines(page, url) == before

    send_again(page)
    t.expect_turn("Bob")
    assert lines(page, url) == [*before, "Ann: R4"]
    expect(page.locator(".alert.refused")).to_have_count(0)  # already recorded: no error
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", ["offline", "answer lost"])
def test_an_undo_that_got_no_answer_undoes_once(small_phone: Page, how: str) -> None:
    page = small_phone
    t, url = open_table(page)
    t.tap("Red 4")
    t.tap("Red 6")
    played = lines(page, url)
    label = page.locator(".undo-bar button").get_attribute("aria-label")
    assert label == "Undo: Bob played Red 6."

    restore = cut(page, how, "/undo")
    page.locator(".undo-bar button").click()
    not_sent(page, label or "")
    restore()
    send_again(page)
    t.expect_turn("Bob")
    assert lines(page, url) == played[:-1]  # one undo, not two
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_reveal_whose_answer_was_lost_counts_once(small_phone: Page) -> None:
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = t.import_record(RECORD + "Bob: has 3\nAnn: has 1\nAnn: R3\n")
    before = lines(page, url)
    form = page.locator("form.reveal", has_text="Bob reveals")
    form.locator("details.reveal-codes summary").click()
    form.locator('input[name="cards"]').fill("R1 R2 G7")

    restore = cut(page, "answer lost", "/reveal")
    form.get_by_role("button", name="Record Bob's cards").click()
    not_sent(page, "Record Bob's cards")
    restore()
    expect(page.locator("form.reveal", has_text="Bob reveals")).to_have_count(0)  # live
    send_again(page)
    assert len(lines(page, url)) == len(before) + 1
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_reload_keeps_the_offer_and_sends_nothing(small_phone: Page) -> None:
    page = small_phone
    t, url = open_table(page)
    before = lines(page, url)
    page.context.set_offline(True)
    page.locator('.keyboard [aria-label="Red 4"]').click()
    not_sent(page, "Red 4")
    looks_right(page)
    page.context.set_offline(False)

    page.reload()
    not_sent(page, "Red 4")
    page.wait_for_timeout(2000)  # a live poll or more
    assert lines(page, url) == before
    page.locator(NOTICE).get_by_role("button", name="Drop it").click()
    expect(page.locator(NOTICE)).to_be_hidden()
    page.reload()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator(NOTICE)).to_be_hidden()
    t.tap("Red 4")  # taps go through again
    assert lines(page, url) == [*before, "Ann: R4"]
    assert page.js_errors == []  # type: ignore[attr-defined]


def looks_right(page: Page) -> None:
    """The notice just above the dock, inside the screen, axe clean; a screenshot each."""
    notice = page.locator(NOTICE).bounding_box()
    dock = page.locator(".dock").bounding_box()
    assert notice is not None and dock is not None
    assert notice["y"] >= 0 and notice["y"] + notice["height"] <= dock["y"]
    assert notice["x"] >= 0 and notice["x"] + notice["width"] <= 360
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        problems += [f"{scheme}: {v}" for v in axe_violations(page)]
        name = "phone" if scheme == "light" else "phone-dark"
        SHOTS.mkdir(parents=True, exist_ok=True)  # the screen as seen: 360x640, unscrolled
        page.screenshot(path=str(SHOTS / f"{name}-not-sent.png"))
    page.emulate_media(color_scheme="light")
    assert problems == []


def test_the_notice_names_the_whole_kept_line(small_phone: Page) -> None:
    """The bug: a draw then a play, kept offline, was named by its card alone ("Red 8"),
    as if nothing had been drawn."""
    page = small_phone
    t, url = open_table(page)
    before = lines(page, url)
    page.locator("[data-drew] [data-set='3']").click()
    restore = cut(page, "offline", "/line")
    page.locator('.keyboard [aria-label="Red 8"]').click()
    not_sent(page, "drew 3, then Red 8")
    restore()
    send_again(page)
    t.expect_turn("Bob")
    assert lines(page, url) == [*before, "Ann: draw 3, R8"]
    assert page.js_errors == []  # type: ignore[attr-defined]
