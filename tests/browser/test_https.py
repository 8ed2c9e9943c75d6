"""`make serve-https` in Chromium (issue 29, point 1): a browser that trusts the server's
own CA (added to its NSS store with certutil, as a phone installs it from /trust) opens
the app over https at a name that is no secure context over plain http, and the app's
service worker registers; a browser that does not trust it gets no page at all."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error

from tests.browser.conftest import CHROMIUM_FLAGS, PHONE, SHOTS, chromium_path
from tests.databases import postgres_url, reset_postgres
from tests.servers import HttpsServer


@pytest.fixture
def https(tmp_path: Path) -> Iterator[HttpsServer]:
    if url := postgres_url():
        reset_postgres(url)
    server = HttpsServer(tmp_path / "server")
    server.instance.mkdir()
    try:
        server.start()
        yield server
    finally:
        server.stop()


def home_trusting(folder: Path, root: Path | None) -> Path:
    """A home folder whose NSS store (Chromium's on Linux) trusts `root` to name sites."""
    store = folder / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    if root is not None:
        subprocess.run(
            ["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "nomercy", "-i", root],
            check=True,
        )
    return folder


def open_app(suite: Browser, https: HttpsServer, home: Path) -> tuple[str, object]:
    """Another Chromium (by the suite's Playwright) with `home`, the test name mapped to
    loopback: the title of /trust and what the app's page says of its service worker
    (its scope and whether the page is a secure context, or "none" after 10 s)."""
    browser = suite.browser_type.launch(
        executable_path=chromium_path(),
        args=[*CHROMIUM_FLAGS, f"--host-resolver-rules=MAP {HttpsServer.HOST} 127.0.0.1"],
        env={"HOME": str(home)},
    )
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"https://{HttpsServer.HOST}:{https.port}/")
        worker = page.evaluate(
            """async () => {
                const ready = await Promise.race([
                    navigator.serviceWorker.ready,
                    new Promise((done) => setTimeout(() => done(null), 10000)),
                ]);
                return ready ? [ready.scope, window.isSecureContext] : "none";
            }"""
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        # Over https: the app's HSTS now sends this name's plain http there (on its
        # default ports, 80 to 443, the same page).
        page.goto(f"https://{HttpsServer.HOST}:{https.port}/trust")
        page.screenshot(path=str(SHOTS / "trust-page.png"), full_page=True)
        return page.title(), worker
    finally:
        browser.close()


def test_a_browser_trusting_the_servers_ca_gets_the_app_and_its_service_worker(
    browser: Browser, https: HttpsServer, tmp_path: Path
) -> None:
    title, worker = open_app(browser, https, home_trusting(tmp_path / "home", https.root))
    assert worker == [f"https://{HttpsServer.HOST}:{https.port}/", True]
    assert "Trust this server" in title


def test_a_browser_that_does_not_trust_it_gets_no_page(
    browser: Browser, https: HttpsServer, tmp_path: Path
) -> None:
    with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
        open_app(browser, https, home_trusting(tmp_path / "home", None))
