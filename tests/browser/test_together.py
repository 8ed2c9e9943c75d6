"""Two phones at one table, a record exported and imported, and quick score."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE, shot
from .table import Table


def test_a_viewer_sees_the_editors_play_within_two_seconds(browser: Browser, server: str) -> None:
    editor_ctx = browser.new_context(viewport=PHONE)
    viewer_ctx = browser.new_context(viewport=PHONE)
    try:
        editor = Table(editor_ctx.new_page(), server)
        url = editor.new_match(["Ann", "Bob", "Cy"])
        editor.start("Red 5")
        editor.page.goto(url + "/share")
        viewer_link = editor.page.locator("section.share", has_text="Viewer link").locator("a")
        link = viewer_link.get_attribute("href")
        assert link and "/v/" in link
        shot(editor.page, "share", "phone")

        viewer = viewer_ctx.new_page()
        viewer.goto(link)
        expect(viewer.locator("h1.turn")).to_have_text("Ann")
        # No way to record: no keyboard, no undo, no count corrections (no form that posts).
        expect(viewer.locator(".watching")).to_be_visible()
        assert viewer.locator(".keyboard, .undo-bar, form[method=post]").count() == 0

        editor.page.goto(url)
        editor.tap("Red Draw 2")
        expect(viewer.locator(".banner.stack")).to_contain_text("+2 pending", timeout=2000)
        expect(viewer.locator("h1.turn")).to_have_text("Bob", timeout=2000)
        shot(viewer, "viewer", "phone")

        # A write from the viewer is refused, plainly.
        response = viewer.request.post(url + "/undo", form={"version": "2"})
        assert response.status in (400, 403)
    finally:
        editor_ctx.close()
        viewer_ctx.close()


def test_export_then_import_gives_the_same_scoreboard(page: Page, server: str) -> None:
    t = Table(page, server)
    url = t.new_match(["Ann", "Bob"])
    t.tab("Green")
    t.start("Green 3")
    t.correct("Bob", 3)
    t.correct("Ann", 1)
    t.tab("Green")
    t.tap("Green 8")  # Ann's last card
    t.reveal("Bob", "B2 Y9 W+6")
    page.goto(url + "/scores")
    before = page.locator("ol.totals").inner_text()

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the record").click()
    path = download.value.path()

    page.goto(server + "/import")
    page.set_input_files("#record", path)
    page.get_by_role("button", name="Import").click()
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    assert page.url != url
    page.goto(page.url + "/scores")
    assert page.locator("ol.totals").inner_text() == before
    assert "Ann 61" in before


def test_quick_score_two_hands(page: Page, server: str) -> None:
    t = Table(page, server)
    t.new_match(["Ann", "Bob", "Cy"], mode="quick")
    t.button("Ann won")
    t.button("Bob was knocked out")
    t.quick_points("Cy", 30)
    t.button("Next hand: Ann deals")
    t.button("Cy won")
    for name, points in (("Ann", 10), ("Bob", 20)):
        t.quick_points(name, points)
    page.get_by_role("link", name="Scoreboard").first.click()
    totals = page.locator("ol.totals").inner_text()
    assert "Ann 280" in totals and "Cy 30" in totals
    expect(page.locator("svg.chart polyline")).to_have_count(3)
    expect(page.locator("table.hands tbody tr")).to_have_count(2)
    shot(page, "quick-scoreboard", "phone")
