"""The app in the phone (`make standalone`, issue 28) in the real Chromium: the built
site served by a plain static file server on loopback, no app server behind it. A first
visit downloads and keeps it (or says it could not keep it, until it can), and Chromium
finds it installable; from then on, offline, it referees a whole hand, keeps every line
across a reload and a browser restart, records nothing on Back, and shows the same
screens as the server app given the same record."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Frame, Page, expect

from engine.tools.cli import check_text

from .conftest import PHONE, shot
from .hand import play_the_hand
from .phone_app import START_SECONDS, StaticFiles, fetched, opened, phone, static_site
from .table import Table


class HeldBack(StaticFiles):
    """A static host that holds the app's packages back until `released`, and notes the
    path of each request (a class of its own for each test: `held_back`)."""

    released: threading.Event
    asked: list[str]

    def do_GET(self) -> None:
        self.asked.append(self.path)
        if self.path.endswith("/python/site.zip.gz"):
            self.released.wait(START_SECONDS)
        super().do_GET()


def held_back() -> type[HeldBack]:
    return type("Held", (HeldBack,), {"released": threading.Event(), "asked": []})


@pytest.fixture
def site(built: Path) -> Iterator[tuple[str, ThreadingHTTPServer, type[HeldBack]]]:
    """The built site at /standalone/ of a static server on loopback; the server, to
    stop it; what it was asked, and its packages released (HeldBack)."""
    host = held_back()
    with static_site(built.parent, host) as (url, httpd):
        try:
            yield url, httpd, host
        finally:
            host.released.set()  # a request still held lets go


def test_the_app_in_the_phone_referees_a_hand_offline_and_keeps_it(
    browser: Browser,
    site: tuple[str, ThreadingHTTPServer, type[HeldBack]],
    server: str,
    tmp_path: Path,
) -> None:
    url, httpd, host = site
    profile = tmp_path / "profile"
    context = phone(browser, profile)
    page = context.pages[0]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The app's packages are needed last (KEPT_LAST, standalone/site/files.js): its
    # worker starts, loading Pyodide's runtime, while they download. Held back here by the
    # host, they keep the app from starting, not its worker from being made.
    # The first start's write refused (the phone's storage full): the app runs, and
    # says its database is not kept until a tap on Keep it keeps it. The worker is told
    # to refuse as it starts, seconds before its first write (after Python's start).
    with page.expect_worker(timeout=60_000) as starting:
        page.goto(url)
    starting.value.evaluate(REFUSE)
    expect(page.locator("#figures")).to_be_visible()  # still downloading
    host.released.set()
    frame = opened(page)
    # The packages asked of the host once each, packed: the service worker waited for
    # the page's download of them (sw.js), and asked for them neither itself nor unpacked.
    zips = [path for path in host.asked if "/python/" in path]
    assert sorted(zips) == ["/standalone/python/app.zip.gz", "/standalone/python/site.zip.gz"]
    started = page.evaluate("self.STARTED")
    assert started["download"] > 0 and started["runtime"] > 0 and started["app"] > 0
    assert started["worker"] < started["download"]  # made while the packages came
    notice = page.locator("#unkept")
    # The start's own write, not a change of the table's, is what was refused.
    expect(notice).to_contain_text("refused what the app wrote as it started")
    shot(page, "standalone-unkept-at-start", "phone")
    starting.value.evaluate(GIVE_BACK)
    notice.get_by_role("button", name="Keep it").click()
    expect(notice).to_be_hidden()
    shot(page, "standalone-home", "phone")
    # Installable from where it was opened: its manifest read without an error, and
    # nothing Chromium would refuse to install (the checks of its install prompt).
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == url + "manifest.webmanifest" and manifest["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    cdp.detach()

    # Offline from now on: the whole hand refereed by the app in the phone.
    context.set_offline(True)
    t = Table(frame, url + "app")
    statics: list[str] = []
    page.on(
        "request", lambda asked: statics.append(asked.url) if "/app/static/" in asked.url else None
    )
    match_url = t.new_match(["Ann", "Bob", "Cy"])
    # The app's static files, named by their digests as on a server, are kept by the
    # page: no table shown after a play asks for one again (the icons' sprite was asked
    # of the service worker at every play).
    assert statics and all("?v=" in address for address in statics), statics
    statics.clear()
    play_the_hand(t)
    assert statics == []
    shot(page, "standalone-scored", "phone")
    # What the app spent on each answer, for the measurements (bench/standalone.py).
    answered = page.evaluate("self.ANSWERED")
    assert any(a["method"] == "POST" and a["app"] > 0 for a in answered), answered
    # Only this page's taps change its table: it asks the app nothing while it waits
    # (a server's table polls every 1.5 s for other phones' lines).
    page.evaluate("self.ANSWERED.length = 0")
    frame.wait_for_timeout(2000)
    assert page.evaluate("self.ANSWERED") == []
    record = fetched(frame, match_url + "/record.txt")
    code, state = check_text(record)
    assert code == 0 and state["scores"] == {"Ann": 256, "Bob": 0, "Cy": 0}

    # Back, forward and a reload record nothing; the reload reopens the table.
    # (Playwright's go_back waits for the page itself to load: the frame moves instead.)
    page.evaluate("history.back()")
    expect(frame.get_by_role("button", name="Start the match")).to_be_visible()
    page.evaluate("history.forward()")
    frame.wait_for_url(match_url)
    page.reload()
    frame = opened(page)
    assert frame.url == match_url
    t = Table(frame, url + "app")
    t.expect_turn("Hand 1 scored")
    assert fetched(frame, match_url + "/record.txt") == record

    # German chosen on the app's Language page: the phone's own page speaks it too
    # (its start, its notices), though this browser asks for English.
    frame.goto(url + "app/")
    frame.get_by_role("link", name="Language: English").click()
    frame.locator('button[name="language"][value="de"]').click()
    frame.wait_for_url(url + "app/")  # back where it was picked, in the app's own address
    expect(page.locator("html")).to_have_attribute("lang", "de")
    frame.goto(match_url)

    # The browser closed, the site's server gone: the app opens again, with the match.
    context.close()
    httpd.shutdown()
    context = phone(browser, profile)
    page = context.pages[0]
    page.on("pageerror", lambda error: errors.append(str(error)))
    context.set_offline(True)
    page.goto(url)
    assert page.evaluate("[document.documentElement.lang, _('Starting the app…')]") == [
        "de",
        "Die App startet…",
    ]
    frame = opened(page)
    assert frame.url == match_url
    frame.goto(url + "app/")
    frame.get_by_role("link", name="Sprache: Deutsch").click()
    frame.locator('button[name="language"][value="en"]').click()
    frame.wait_for_url(url + "app/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    frame.goto(match_url)
    assert page.evaluate("self.STARTED.download") < 1000  # nothing downloaded again
    Table(frame, url + "app").expect_turn("Hand 1 scored")
    assert fetched(frame, match_url + "/record.txt") == record
    # (The site's server no longer answers, its socket still open: a host on a bad
    # network. A reload once waited for the browser's check of it, for good.)
    kept_when_the_storage_refuses(page, url)
    frame = opened(page)
    frame.goto(match_url)
    in_the_phone = {
        "table": frame.locator("main").inner_text(),
        "scores": scoreboard(frame),
    }

    # Back online: the match sent to a group on a server, by the group's editor link;
    # sent twice (its answer lost, say), it is one match there.
    server_page = browser.new_page(viewport=PHONE)
    group_url = Table(server_page, server).new_group("Friday crew")
    server_page.goto(group_url + "/share")
    link = server_page.locator(".share a.link").first.get_attribute("href")
    assert link is not None and "/gj/" in link
    context.set_offline(False)
    frame.goto(match_url + "/send")
    frame.get_by_label("The group's editor link").fill(link)
    frame.get_by_role("button", name="Next").click()
    for said in ("Received: the match is in Friday crew now.", "This record was sent before"):
        with context.expect_page() as new_tab:
            frame.get_by_role("button", name="Send to the server").click()
        expect(new_tab.value.locator(".alert").first).to_contain_text(said)
        new_tab.value.close()
    server_page.goto(group_url)
    expect(server_page.locator("main")).to_contain_text("Ann")
    context.close()

    # The server app, given the same record, shows the same screens (without its key:
    # a copy, not the match sent).
    assert record.startswith("record: ")
    server_url = Table(server_page, server).import_record(record.split("\n", 1)[1])
    on_the_server = {
        "table": server_page.locator("main").inner_text(),
        "scores": scoreboard(server_page.main_frame),
    }
    server_page.close()
    assert in_the_phone["scores"] == on_the_server["scores"]
    assert without_notices(in_the_phone["table"]) == without_notices(on_the_server["table"])
    assert server_url != match_url
    assert errors == []


# The browser's IndexedDB refusing every write, as when the phone is full.
REFUSE = """() => {
  self.put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function () {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  };
}"""
GIVE_BACK = "() => { IDBObjectStore.prototype.put = self.put; }"
# The requests the app had answered when the page showed that a write was refused (the
# worker's messages come in the order it sent them).
ANSWERED_AT_NOTICE = """() => {
  self.ANSWERED.length = 0;
  const notice = document.getElementById("unkept");
  const seen = new MutationObserver(() => {
    if (!notice.hidden) { self.AT_NOTICE = self.ANSWERED.map((a) => a.method); seen.disconnect(); }
  });
  seen.observe(notice, {attributes: true});
}"""


def kept_when_the_storage_refuses(page: Page, url: str) -> None:
    """A line recorded while the browser refuses to keep it: the table shows it and the
    page says it is not kept, until a tap on Keep it (with the storage back) keeps it;
    a reload then still has it."""
    t = Table(opened(page), url + "app")
    other = t.new_match(["Dee", "Eve"])
    (worker,) = page.workers
    worker.evaluate(REFUSE)
    page.evaluate(ANSWERED_AT_NOTICE)
    t.start("Red 5")
    t.expect_turn("Dee")  # the app has the line
    notice = page.locator("#unkept")
    expect(notice).to_contain_text("This phone did not keep the last change")
    # The tap's 303 left before its write; the table it sent the page on to waited for
    # that write (here refused, and said so) before Python answered it.
    assert page.evaluate("self.AT_NOTICE") == ["POST"]
    shot(page, "standalone-unkept", "phone")
    worker.evaluate(GIVE_BACK)
    notice.get_by_role("button", name="Keep it").click()
    expect(notice).to_be_hidden()
    page.reload()
    frame = opened(page)
    assert frame.url == other
    assert "start: R5" in fetched(frame, other + "/record.txt")


def scoreboard(frame: Frame) -> str:
    """The scoreboard's words, in order (where a line wraps depends on the layout of the
    moment: a total and its "to go" were one line or two)."""
    frame.get_by_role("link", name="Scoreboard").first.click()
    expect(frame.locator("ol.totals li").first).to_contain_text("Ann 256")
    return " ".join(frame.locator("main").inner_text().split())


def without_notices(text: str) -> str:
    """A table's text without the bar on top that says what this phone last saw (a line
    it recorded, or the last line of a table it opens), and without blank lines."""
    kept = [line for line in text.splitlines() if line.strip()]
    return "\n".join(line for line in kept if not re.match(r"\s*(Recorded|Last):", line))
