"""A group's statistics on a small phone: a group made through the screens, a
hand-written match imported and moved into it through the screens, then the
leaderboard, a player's page and the charts; no sideways scroll, no serious
accessibility violation, light and dark (screenshots phone-group-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import SIDEWAYS, axe_violations, shot
from tests.browser.table import Table
from tests.engine.test_stats import FRIDAY


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_groups_statistics_on_a_small_phone(small_phone: Page, scheme: str) -> None:
    page = small_phone
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    base = page.base_url  # type: ignore[attr-defined]
    group_url = Table(page, base).new_group("Friday crew")
    table_url = Table(page, base).import_record(FRIDAY)
    page.goto(table_url + "/group")
    page.click("button:text('Move the match')")
    page.wait_for_url(group_url)
    assert page.locator("table.leaderboard tbody th").all_inner_texts() == ["Ann", "Bob", "Cy"]
    assert page.locator("svg.chart[role=img]").count() == 2
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"group-stats-{scheme}", "phone")
    assert axe_violations(page) == []
    page.click("table.leaderboard a:text('Bob')")
    page.wait_for_selector("dl.figures")
    assert page.locator("h1").inner_text() == "Bob"
    assert page.locator("svg.chart[role=img]").count() == 1
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"group-player-{scheme}", "phone")
    assert axe_violations(page) == []
    page.goto(table_url + "/scores")
    assert "Bob dealt 2 knockouts" in page.locator("ul.awards").inner_text()
    shot(page, f"group-awards-{scheme}", "phone")
    assert axe_violations(page) == []
    assert page.js_errors == []  # type: ignore[attr-defined]
