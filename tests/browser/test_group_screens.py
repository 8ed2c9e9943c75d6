"""The group page and a group's new match on a small phone: no sideways scroll, no
serious accessibility violation, in the light and the dark scheme (screenshots)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import axe_violations, shot

SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_group_screens_fit_a_small_phone(small_phone: Page, scheme: str) -> None:
    page = small_phone
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    base = page.base_url  # type: ignore[attr-defined]
    page.goto(base + "/groups/new")
    page.fill("#group-name", "Friday crew")
    page.click("button[type=submit]")
    group_url = page.url
    for name in ("Ann", "Bob", "Cyrielle-Maximilien"):
        page.fill("#new-player", name)
        page.click(".add-player button")
        page.wait_for_selector(f".roster-list strong:text-is('{name}')")
    page.click(".group .actions a:text('New match')")
    page.select_option("#players-0", "Ann")
    page.select_option("#players-1", "Bob")
    page.select_option("#players-2", "Cyrielle-Maximilien")
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"group-new-match-{scheme}", "small")
    assert axe_violations(page) == []
    page.click("button:text('Start the match')")
    page.wait_for_selector("#table")
    page.goto(base + "/")
    assert page.locator(".matches a", has_text="Friday crew").count() == 1
    page.goto(group_url)
    page.click(".roster-list summary >> nth=0")
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"group-{scheme}", "small")
    assert axe_violations(page) == []
    assert page.js_errors == []  # type: ignore[attr-defined]
