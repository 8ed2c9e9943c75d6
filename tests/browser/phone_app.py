"""The app in the phone in a browser (tests/browser/test_standalone*.py): its built site
on a static file server, a phone whose storage outlives the browser, and the app's frame
once it has started (the build: conftest.py's `built`)."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Frame, Page, expect

from .conftest import CHROMIUM_FLAGS, PHONE, QUICK_TAPS, chromium_path

START_SECONDS = 120  # a first start on a loaded machine: download, Python, the app
# The tap guard's quicker timings, as the other browser tests have (conftest.py).
QUICK = json.dumps({key.removeprefix("COMPANION_"): value for key, value in QUICK_TAPS.items()})


class StaticFiles(SimpleHTTPRequestHandler):
    """A static file server, as any host of the built site would be."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def static_site(
    folder: Path, files: type[StaticFiles] = StaticFiles
) -> Iterator[tuple[str, ThreadingHTTPServer]]:
    """`folder` served on loopback (by `files`): the address of its standalone/, and the
    server."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(files, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/standalone/", httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def phone(browser: Browser, profile: Path) -> BrowserContext:
    """Chromium with a profile kept in `profile` (its storage outlives the browser), and
    the quicker taps set before the page starts the app (shell.js hands them over)."""
    context = browser.browser_type.launch_persistent_context(
        profile,
        executable_path=chromium_path(),
        args=CHROMIUM_FLAGS,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(20_000)
    context.add_init_script(f"localStorage.setItem('nomercy.standalone.settings', {QUICK!r})")
    return context


def opened(page: Page) -> Frame:
    """The app's frame, once the app has started and shows a page."""
    expect(page.locator("#app")).to_be_visible(timeout=START_SECONDS * 1000)
    handle = page.locator("#app").element_handle()
    frame = handle.content_frame() if handle else None
    assert frame is not None
    frame.wait_for_selector("main")
    return frame


def fetched(frame: Frame, url: str) -> str:
    """A page of the app as the frame asks for it (through the service worker)."""
    text: str = frame.evaluate("url => fetch(url).then(answer => answer.text())", url)
    return text
