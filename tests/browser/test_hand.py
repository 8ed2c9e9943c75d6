"""A whole hand played by tapping, as a phone (and a desktop) would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from engine.tools.cli import check_text

from .conftest import shot
from .table import Table


def test_a_hand_by_tapping(page: Page, viewport: str) -> None:
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = t.new_match(["Ann", "Bob", "Cy"])
    shot(page, "table-deal", viewport)
    t.start("Red 5")
    t.expect_turn("Ann")

    # A stack: +2, +4, a Wild Draw 6 with a colour chosen, then taken.
    t.tap("Red Draw 2")
    expect(page.locator(".banner.stack")).to_contain_text("+2 pending")
    t.tab("Blue")
    t.tap("Blue Draw 4")
    t.tab("Wild")
    t.pick("Wild Draw 6")
    shot(page, "follow-up-colour", viewport)
    t.button("Green (G)")
    expect(page.locator(".banner.stack")).to_contain_text("+12 pending: stacks +6 or more")
    t.expect_turn("Ann")
    shot(page, "stack", viewport)
    t.button("Take 12")
    assert t.count("Ann") == "18/25"

    # A 7 swap.
    t.expect_turn("Bob")
    t.pick("Green 7")
    t.button("Ann")
    assert t.count("Ann") == "5/25" and t.count("Bob") == "18/25"

    # A colour roulette.
    t.tab("Wild")
    t.tap("Wild Colour Roulette")
    expect(page.locator(".banner.roulette")).to_be_visible()
    shot(page, "roulette", viewport)
    t.roulette("Yellow (Y)", 3)
    assert t.count("Ann") == "8/25"

    # A Discard All taking two more yellow cards.
    t.expect_turn("Bob")
    t.discard_all("Yellow Discard All", 2)
    assert t.count("Bob") == "15/25"

    # An illegal tap is explained, with the rule.
    t.expect_turn("Cy")
    t.tab("Red")
    text = t.refused_tap("Red 3")
    assert "Cy can't play Red 3" in text
    expect(page.locator('.alert.refused a[href$="#match"]')).to_be_visible()
    shot(page, "refused", viewport)

    # A mis-tap, undone.
    t.tab("Yellow")
    t.tap("Yellow 3")
    assert t.undo() == "Undo: Cy played Yellow 3."
    t.expect_turn("Cy")
    t.tap("Yellow 4")

    # A Mercy knockout: Bob really holds 24, takes 2 and is out at the first (25).
    t.correct("Bob", 24)
    t.expect_turn("Ann")
    t.tap("Yellow Draw 2")
    t.button("Take 2")
    expect(page.locator(".recorded")).to_contain_text("Bob reached 25 cards and is knocked out")
    expect(page.locator(".seat", has_text="Bob").locator(".badge")).to_have_text("OUT")

    # A UNO catch.
    t.correct("Cy", 2)
    t.expect_turn("Cy")
    t.tap("Yellow 5")
    expect(page.locator(".uno-row")).to_contain_text("Cy has one card")
    shot(page, "uno", viewport)
    t.catch("Cy", "Ann")
    assert t.count("Cy") == "3/25"

    # The winning card, the reveals, the score.
    t.correct("Ann", 1)
    t.tap("Yellow 9")
    t.expect_turn("Ann wins the hand")
    shot(page, "reveal", viewport)
    t.reveal("Cy", "R1 G2 B3")
    t.expect_turn("Hand 1 scored")
    expect(page.locator(".actions")).to_contain_text(
        "Ann scores 256 = 6 from Cy + 250 for Bob, knocked out"
    )
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
