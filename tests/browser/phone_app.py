"""The app in the phone in a browser (tests/browser/test_standalone*.py): its frame, once
it has started (the build: conftest.py's `built`)."""

from __future__ import annotations

from playwright.sync_api import Frame, Page, expect

START_SECONDS = 120  # a first start on a loaded machine: download, Python, the app


def opened(page: Page) -> Frame:
    """The app's frame, once the app has started and shows a page."""
    expect(page.locator("#app")).to_be_visible(timeout=START_SECONDS * 1000)
    handle = page.locator("#app").element_handle()
    frame = handle.content_frame() if handle else None
    assert frame is not None
    frame.wait_for_selector("main")
    return frame
