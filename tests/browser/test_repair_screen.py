"""A match stored with a name this version refuses, on a small phone (issue 29, point 4):
what is wrong, what each name becomes, Repair and the record are on screen without
scrolling at 360x640, and one tap on Repair opens the match again."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.app.conftest import dispose, make_app
from tests.app.helpers import Tabletop, share_tokens
from tests.app.test_name_repair import PLAYS, stored_as
from tests.browser.conftest import QUICK_TAPS, SHOTS, SMALL_PHONE, companion


@pytest.fixture
def stored_long_ago(tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """A server whose database holds a match with Bob stored as "B\\x07ob" (made by the
    app in this process, then broken, then served by a server that never saw it whole);
    its address, the match and its editor link."""
    (tmp_path / "made").mkdir()
    made = make_app(tmp_path / "made")
    tabletop = Tabletop(made, made.test_client())
    match_id = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(match_id, *PLAYS)
    stored_as(made, match_id, "B\x07ob")
    editor = share_tokens(made, match_id)[0]
    dispose(made)
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copy(tmp_path / "made" / "t.db", instance / "companion.sqlite3")
    with companion(instance, QUICK_TAPS, fresh=False) as url:
        yield url, match_id, editor


def test_the_ways_out_fit_a_small_phone_and_repair_opens_the_match(
    browser: Browser, stored_long_ago: tuple[str, str, str]
) -> None:
    url, match_id, editor = stored_long_ago
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{url}/j/{editor}")
        expect(page.locator("h1")).to_have_text("This match can't be opened")
        expect(page.get_by_text("“B[U+0007 BELL]ob” becomes “Bob”")).to_be_visible()
        expect(page.get_by_text("Ann, B[U+0007 BELL]ob, Cy")).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "unreplayable-small-phone.png"))
        # Removing (behind a tick, never undone) may take a scroll; the rest may not.
        for name in ("Repair the names", "Download the record"):
            box = page.get_by_role("button", name=name).or_(page.get_by_role("link", name=name))
            found = box.bounding_box()
            assert found is not None and found["y"] + found["height"] <= SMALL_PHONE["height"], name
        page.get_by_role("button", name="Repair the names").tap()
        expect(page.locator("#table")).to_be_visible()
        expect(page.get_by_text("Name repaired (“B[U+0007 BELL]ob” becomes “Bob”)")).to_be_visible()
        assert page.url == f"{url}/m/{match_id}"
    finally:
        context.close()
