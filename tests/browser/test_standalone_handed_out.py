"""The app in the phone handed out by the app server (companion/views/phone.py), in the
real Chromium: the build from the server's own path starts, its page running WebAssembly
under the server's headers, and the app opens in it. (A file of its own: the test runs
beside tests/browser/test_standalone.py's, on another worker.)"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from .conftest import PHONE
from .phone_app import opened


def test_the_server_hands_out_the_app_in_the_phone(
    browser: Browser, built: Path, server: str
) -> None:
    # The same build, from the app server's own path (companion/views/phone.py): its
    # page runs WebAssembly under the server's headers, and the app opens in it.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/phone")
    expect(page.locator(".qr svg")).to_be_visible()
    page.get_by_role("link", name=server + "/standalone/").click()
    frame = opened(page)
    expect(frame.get_by_role("heading", name="Matches")).to_be_visible()
    assert frame.url == server + "/standalone/app/"
    context.close()
    assert errors == []
