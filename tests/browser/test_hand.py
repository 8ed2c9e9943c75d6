"""A whole hand played by tapping, as a phone (and a desktop) would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from engine.tools.cli import check_text

from .conftest import shot
from .hand import play_the_hand
from .table import Table


def test_a_hand_by_tapping(page: Page, viewport: str) -> None:
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = t.new_match(["Ann", "Bob", "Cy"])
    shot(page, "table-deal", viewport)
    play_the_hand(t, lambda name: shot(page, name, viewport))
    page.get_by_role("link", name="Scoreboard").first.click()
    expect(page.locator("ol.totals li").first).to_contain_text("Ann 256")
    shot(page, "scoreboard", viewport)

    # The engine, given the exported record, agrees with what the screen showed.
    match_id = url.rsplit("/", 1)[1]
    record = page.request.get(f"{page.base_url}/m/{match_id}/record.txt").text()  # type: ignore[attr-defined]
    code, state = check_text(record)
    assert code == 0
    assert state["scores"] == {"Ann": 256, "Bob": 0, "Cy": 0}
    assert state["out"] == ["Bob"]
    assert not re.search(r"Cy: Y3", record)  # the undone mis-tap left no trace
    assert page.js_errors == []  # type: ignore[attr-defined]
