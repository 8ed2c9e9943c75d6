"""The group page and a group's new match on a small phone: no sideways scroll, no
serious accessibility violation, in the light and the dark scheme (screenshots)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import SIDEWAYS, axe_violations, shot
from tests.browser.table import Table


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_group_screens_fit_a_small_phone(small_phone: Page, scheme: str) -> None:
    page = small_phone
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    base = page.base_url  # type: ignore[attr-defined]
    group_url = Table(page, base).new_group("Friday crew", "Ann", "Bob", "Cyrielle-Maximilien")
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
