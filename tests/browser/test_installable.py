"""Installable: Chromium finds the manifest valid and the app installable, the service
worker becomes active, and with the network gone a page is the app's own offline page;
the worker keeps only the app's static files and that page, never a table."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import CHROMIUM_FLAGS, SMALL_PHONE, axe_violations, chromium_path, shot
from .table import Table

UNO_WINDOW = "players: Ann, Bob, Cy\nstart: R5\nAnn: has 2\nAnn: R3\n"
# The worker's cache, as URL paths, by cache name.
CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map(r => new URL(r.url).pathname + new URL(r.url).search);
  }
  return out;
}"""


@pytest.fixture
def installed(browser: Browser, server: str) -> Iterator[Page]:
    """A phone with a profile of its own (Chromium installs nothing from an incognito
    context, which is what a new context is), on Home once its worker controls it."""
    with tempfile.TemporaryDirectory() as profile:
        context: BrowserContext = browser.browser_type.launch_persistent_context(
            profile,
            executable_path=chromium_path(),
            args=CHROMIUM_FLAGS,
            viewport=SMALL_PHONE,
            is_mobile=True,
            has_touch=True,
        )
        context.set_default_timeout(10_000)
        page = context.pages[0] if context.pages else context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors  # type: ignore[attr-defined]
        page.goto(server + "/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        yield page
        context.close()


def test_the_manifest_and_the_worker_are_served_with_their_types(
    small_phone: Page, server: str
) -> None:
    page = small_phone
    manifest = page.request.get(server + "/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    worker = page.request.get(server + "/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    offline = page.request.get(server + "/offline")
    assert offline.ok and offline.headers["content-type"].startswith("text/html")
    for icon in manifest.json()["icons"]:
        answer = page.request.get(server + icon["src"])
        assert answer.ok and answer.headers["content-type"] == "image/png", icon


def test_chromium_finds_the_app_installable(installed: Page, server: str) -> None:
    page = installed
    state = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.active.state)")
    assert state in ("activating", "activated")
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"] == server + "/manifest.webmanifest"
    assert '"display":"standalone"' in manifest["data"].replace(" ", "")
    colors = page.locator('meta[name="theme-color"]')
    assert [colors.nth(i).get_attribute("media") for i in range(colors.count())] == [
        "(prefers-color-scheme: light)",
        "(prefers-color-scheme: dark)",
    ]
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_offline_a_page_is_the_apps_own_offline_page(installed: Page, server: str) -> None:
    page = installed
    url = Table(page, server).import_record(UNO_WINDOW)
    page.context.set_offline(True)
    try:
        page.goto(url)
        expect(page.locator("h1")).to_have_text("The server can't be reached")
        expect(page.locator("main")).to_contain_text("Your match is safe")
        assert page.url == url  # Try again is the same address
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            assert axe_violations(page) == []
            shot(page, "offline", "phone" if scheme == "light" else "phone-dark")
        page.emulate_media(color_scheme="light")
        # The live poll is never answered by the worker: offline, it fails.
        failed = page.evaluate("(u) => fetch(u + '/live?v=0').then(() => false, () => true)", url)
        assert failed
    finally:
        page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("#table")).to_be_visible()
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_worker_keeps_static_files_and_the_offline_page_only(
    installed: Page, server: str
) -> None:
    page = installed
    t = Table(page, server)
    t.import_record(UNO_WINDOW)
    t.catch("Ann", "Bob")  # a form posted, the table's fragment, its polls
    page.wait_for_timeout(1600)
    caches = page.evaluate(CACHED)
    version = page.request.get(server + "/sw.js").text().split('PREFIX + "')[1].split('"')[0]
    assert list(caches) == [f"nomercy-{version}"]
    (kept,) = caches.values()
    kept = [path.split("?v=")[0] for path in kept]  # each at its versioned address
    assert "/offline" in kept and "/static/app.css" in kept and "/static/pocket.js" in kept
    assert all(
        path.startswith("/static/") for path in kept if path not in ("/offline", "/favicon.ico")
    )
