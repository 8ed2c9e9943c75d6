"""Browser tests: the real app on a free local port, driven in the system Chromium.

Chromium comes from Debian's package (`make test` installs it when missing);
Playwright never downloads a browser here. If it can't start, the tests fail:
they are never skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.databases import postgres_url, reset_postgres
from tests.servers import TEST_RATE_LIMITS, free_port

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}  # what the table must fit, unscrolled
# Six players with 20-character names: the most a table holds, the longest names typed.
SIX_LONG_NAMES = [
    "Annabelle Fitzgerald",
    "Bartholomew Kingsley",
    "Cornelia Whitmoreton",
    "Desmond Featherstone",
    "Evangeline Hargreave",
    "Florentina Blackwood",
]
DESKTOP = {"width": 1280, "height": 800}


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(
        "Chromium is not installed: `make test` installs Debian's chromium package; "
        "run it, or apt-get install chromium chromium-driver."
    )


# The tap guard (companion/taps.py) for the suite: keys settle briefly after each change,
# as on a phone, so the tests tap as a person would (Playwright waits for a key to take
# taps); no refusal after another phone's refresh. tests/browser/test_double_taps.py
# runs a server of its own with the guard as shipped.
QUICK_TAPS = {"COMPANION_TAP_SETTLE_MS": "120", "COMPANION_TAP_REFRESH_MS": "0"}


@contextmanager
def companion(instance: Path, settings: dict[str, str], fresh: bool = True) -> Iterator[str]:
    """`python -m companion` on a free port with `instance` as its folder (its SQLite
    database, or PostgreSQL when the tests run on it: emptied first when `fresh`, never
    under another server using it), and `settings` in its environment."""
    port = free_port()
    env = {**os.environ, "COMPANION_INSTANCE": str(instance), **TEST_RATE_LIMITS, **settings}
    env.pop("DATABASE_URL", None)
    if url := postgres_url():
        if fresh:
            reset_postgres(url)
        env["DATABASE_URL"] = url
    log = open(instance / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "the app did not start: " + (instance / "server.log").read_text()
                    ) from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app for the suite, with its own SQLite database (or PostgreSQL)."""
    with companion(tmp_path_factory.mktemp("instance"), QUICK_TAPS) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(params=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def context(browser: Browser, viewport: str) -> Iterator[BrowserContext]:
    size = PHONE if viewport == "phone" else DESKTOP
    ctx = browser.new_context(
        viewport=size,
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
        accept_downloads=True,
    )
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext, server: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.base_url = server  # type: ignore[attr-defined]
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture
def small_phone(browser: Browser, server: str) -> Iterator[Page]:
    """A page on a small phone held in one hand (360x640, touch), its errors collected."""
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.base_url = server  # type: ignore[attr-defined]
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


# How far the page scrolls sideways (0 or less: it fits its viewport's width).
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def axe_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page, at
    rest (a table's keys dim for a moment after each change: static/app.js)."""
    from axe_playwright_python.sync_playwright import Axe

    if page.locator("#table").count():
        expect(page.locator("#table.settling, #table.sending")).to_have_count(0)

    return [
        f"axe {v['impact']} {v['id']}: {v['help']} {[n['target'] for n in v['nodes']][:3]}"
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def shot(page: Page, name: str, viewport: str) -> None:
    """Save a screenshot of the screen as a test artifact (artifacts/ is git-ignored), at
    rest."""
    if page.locator("#table").count():
        expect(page.locator("#table.settling, #table.sending")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{viewport}-{name}.png"), full_page=True)


# ---------------------------------------------------------------- the app in the phone

STANDALONE_BUILD = ROOT / "build" / "standalone"


@pytest.fixture(scope="session")
def built() -> Path:
    """The build (made if missing: `make test` makes it first)."""
    if not (STANDALONE_BUILD / "build.js").exists():
        subprocess.run([sys.executable, "scripts/build_standalone.py"], cwd=ROOT, check=True)
    return STANDALONE_BUILD
