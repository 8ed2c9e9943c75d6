"""A group's history made at the table: a group and its roster made through the screens,
two quick-score matches and a referee match started from the roster and played by
tapping, then the leaderboard, a player's statistics and the charts; a viewer of the
group sees them and cannot change the roster."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.table import Table

PLAYERS = ("Ann", "Bob", "Cy")
TARGET = 100  # short matches: one hand each


def new_group_match(page: Page, group_url: str, seating: tuple[str, ...], mode: str) -> Table:
    """The group's New match: the seating from the roster, a mode, the target."""
    page.goto(group_url)
    page.click(".group .actions a:text('New match')")
    for seat, name in enumerate(seating):
        page.select_option(f"#players-{seat}", name)
    if mode == "quick":
        page.get_by_label("Quick score (results only)").check()
    page.locator("details summary").click()
    page.fill("#target", str(TARGET))
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_selector("#table")
    return Table(page, page.base_url)  # type: ignore[attr-defined]


def quick_match(page: Page, group_url: str, winner: str, points: dict[str, int]) -> None:
    t = new_group_match(page, group_url, PLAYERS, "quick")
    t.button(f"{winner} won")
    for name, value in points.items():  # in seat order: each comes up in turn
        t.quick_points(name, value)
    expect(page.locator("#table")).to_contain_text(f"{winner} wins the match")


def test_a_group_plays_three_matches_and_sees_its_history(
    small_phone: Page, browser: Browser
) -> None:
    page = small_phone
    base = page.base_url  # type: ignore[attr-defined]
    group_url = Table(page, base).new_group("Friday crew", *PLAYERS)

    # Two quick-score matches: Ann wins the first, Bob the second.
    quick_match(page, group_url, "Ann", {"Bob": 60, "Cy": 50})
    quick_match(page, group_url, "Bob", {"Ann": 120, "Cy": 10})

    # A referee match: Bob knocks Cy out with a stack, Ann goes out with her last card.
    t = new_group_match(page, group_url, PLAYERS, "referee")
    t.start("Red 5")
    t.correct("Cy", 24)
    t.tap("Red 4")  # Ann
    t.tap("Red Draw 2")  # Bob: Cy faces +2 with 24 cards
    t.button("Take 2")  # Cy reaches 26: knocked out (Mercy)
    t.correct("Ann", 1)
    t.tap("Red 3")  # Ann's last card: she wins the hand
    form = page.locator("form.reveal", has_text="Bob reveals")
    form.locator('input[name="points"]').fill("40")
    t._then_new_version(form.locator("button[type=submit]").click)
    expect(page.locator("#table")).to_contain_text("Ann wins the match")

    # The group: the leaderboard from the three matches, its charts.
    page.goto(group_url)
    board = page.locator("table.leaderboard tbody th")
    assert board.all_inner_texts() == ["Ann", "Bob", "Cy"]
    expect(page.locator("svg.chart[role=img]")).to_have_count(2)
    ann = page.locator("table.leaderboard tbody tr", has_text="Ann")
    cells = ann.locator("td").all_inner_texts()
    assert cells[:2] == ["2", "3"], cells  # won 2, played 3

    # Bob's page: the knockout he dealt, his results over time.
    page.click("table.leaderboard a:text('Bob')")
    page.wait_for_selector("dl.figures")
    figures = page.locator("dl.figures").inner_text()
    assert re.search(r"dealt\s*1\b", figures, re.I), figures
    expect(page.locator("svg.chart[role=img]")).to_have_count(1)
    assert page.js_errors == []  # type: ignore[attr-defined]

    # A viewer of the group: sees the leaderboard, cannot change the roster.
    page.goto(group_url + "/share")
    viewer_link = page.locator("section.share a.link").last.get_attribute("href") or ""
    viewer = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        other = viewer.new_page()
        other.goto(viewer_link)
        other.wait_for_url(group_url)
        expect(other.locator("table.leaderboard tbody th").first).to_have_text("Ann")
        assert other.locator(".add-player, .roster-list form").count() == 0
        # Even posting what an editor's page would post is refused.
        other.goto(base + "/language")
        csrf = other.locator("input[name=csrf_token]").first.get_attribute("value") or ""
        answer = other.request.post(
            group_url + "/players", form={"name": "Dee", "csrf_token": csrf}
        )
        assert answer.status == 403, answer.status
    finally:
        viewer.close()
