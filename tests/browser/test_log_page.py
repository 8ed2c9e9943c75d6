"""The match's log page on a phone: read from a link, no sideways scroll, axe clean."""

from __future__ import annotations

import re
from typing import Literal

import pytest
from playwright.sync_api import Browser, expect

from engine import HouseRules
from engine.tools.simulator import Simulation

from .conftest import axe_violations, shot
from .table import Table
from .test_look import SIDEWAYS, SMALL_CONTROLS

PHONE_360 = {"width": 360, "height": 640}


def a_long_record() -> str:
    """Two simulated hands at four seats, both scored: a long log to scroll."""
    sim = Simulation(4, rules=HouseRules.parse("target=100000"), seed=7)
    sim.play_hands(2)
    return sim.game.record()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_log_reads_on_a_phone(
    browser: Browser, server: str, scheme: Literal["light", "dark"]
) -> None:
    context = browser.new_context(
        viewport=PHONE_360, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A match from a record, through the import page; then its log from the URL.
    Table(page, server).import_record(a_long_record())
    page.goto(page.url + "/log")

    expect(page.locator("h1")).to_have_text("Log of the match")
    expect(page.locator("section.log-hand#hand-1 h2")).to_contain_text("Hand 1")
    expect(page.locator("section.log-hand#hand-2 .log-result")).to_contain_text("Scored.")
    problems = [f"scrolls sideways by {x}px at 360px" for x in [page.evaluate(SIDEWAYS)] if x > 0]
    problems += [f"control under 44px: {c}" for c in page.evaluate(SMALL_CONTROLS)]
    problems += axe_violations(page)
    shot(page, "log", "phone" if scheme == "light" else "phone-dark")

    # One tap reaches the latest play, and the way back is there.
    latest = page.locator("#latest")
    page.get_by_role("link", name="Jump to the latest").click()
    expect(page).to_have_url(re.compile(r"/log#latest$"))
    expect(latest).to_be_in_viewport()
    expect(page.get_by_role("link", name="Back to the table").last).to_be_in_viewport()
    page.get_by_role("link", name="Back to the table").last.click()
    expect(page.locator("#table")).to_be_visible()
    context.close()
    assert problems == [] and errors == [], "\n".join(problems + errors)


def test_the_log_opens_over_the_table_and_closes_to_it(browser: Browser, server: str) -> None:
    """The dock's Log opens the log as a panel over the live table: no history entry,
    the latest play in view, and "Back to the table" closes it where it was."""
    context = browser.new_context(viewport=PHONE_360, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    Table(page, server).import_record(a_long_record())
    url, entries = page.url, page.evaluate("history.length")

    page.locator(".dock").get_by_role("link", name="Log").click()
    panel = page.locator("dialog#log-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h1")).to_have_text("Log of the match")
    expect(panel.locator("#latest")).to_be_in_viewport()
    panel.get_by_role("link", name="Jump to the latest").click()
    problems = [f"control under 44px: {c}" for c in page.evaluate(SMALL_CONTROLS)]
    problems += axe_violations(page)
    shot(page, "log-panel", "phone")
    assert page.url == url and page.evaluate("history.length") == entries

    panel.get_by_role("button", name="Back to the table").click()
    expect(panel).to_be_hidden()
    expect(page.locator("#table")).to_be_visible()
    assert page.url == url and page.evaluate("history.length") == entries
    context.close()
    assert problems == [] and errors == [], "\n".join(problems + errors)
