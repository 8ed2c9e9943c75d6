"""The screens of the usability fixes at 360x640, light and dark: nothing wider than
the screen, 44 px controls, axe clean, a screenshot each (artifacts/screenshots/)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.app.test_scoreboard_six import SIX_LONG_NAMES, six_hands_record

from .conftest import axe_violations, shot
from .table import Table
from .test_look import SIDEWAYS, SMALL_CONTROLS

SMALL_PHONE = {"width": 360, "height": 640}
# Anything drawn past the screen's right edge (body hides overflow, so the page itself
# may not scroll: the content is then cut off instead, which is no better).
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('main *')) {
    const box = el.getBoundingClientRect();
    const what = `${el.tagName}.${el.className.baseVal ?? el.className}`;
    if (box.width > 1 && box.right > width + 0.5)
      out.push(`${what} ends at ${Math.round(box.right)}px`);
  }
  return out.slice(0, 8);
}"""


@pytest.fixture(params=["light", "dark"])
def phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    scheme: Literal["light", "dark"] = request.param
    context = browser.new_context(
        viewport=SMALL_PHONE, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    page = context.new_page()
    page.scheme = scheme  # type: ignore[attr-defined]
    yield page
    context.close()


def looks_right(page: Page, name: str) -> None:
    page.wait_for_load_state()
    problems = []
    if (extra := page.evaluate(SIDEWAYS)) > 0:
        problems.append(f"scrolls sideways by {extra}px")
    problems += page.evaluate(PAST_THE_EDGE)
    problems += [f"control under 44px: {c}" for c in page.evaluate(SMALL_CONTROLS)]
    problems += axe_violations(page)
    scheme = page.scheme  # type: ignore[attr-defined]
    shot(page, name, "phone" if scheme == "light" else "phone-dark")
    assert problems == [], f"{name} ({scheme}):\n" + "\n".join(problems)


def new_match(page: Page, server: str, names: list[str]) -> str:
    page.goto(server + "/new")
    for i, name in enumerate(names):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    return page.url.rsplit("/", 1)[1]


def test_new_match_names_the_dealer(phone: Page, server: str) -> None:
    phone.goto(server + "/new")
    for i, name in enumerate(SIX_LONG_NAMES):
        phone.fill(f"#players-{i}", name)
    phone.get_by_label("Player 2 deals").check()
    looks_right(phone, "new-match")
    phone.get_by_role("button", name="Start the match").click()
    phone.wait_for_url(re.compile(r"/m/[^/]+$"))
    expect(phone.locator("main")).to_contain_text(
        f"{SIX_LONG_NAMES[1]} deals. {SIX_LONG_NAMES[2]} plays first."
    )


def test_the_rules_from_a_table(phone: Page, server: str) -> None:
    match_id = new_match(phone, server, ["Ann", "Bob", "Cy"])
    phone.goto(f"{server}/rules?table={match_id}#stack")
    expect(phone.locator("#stack")).to_be_in_viewport()
    phone.goto(f"{server}/rules?table={match_id}")
    looks_right(phone, "rules")
    phone.locator("#contents").get_by_role("link", name="Colour Roulette").click()
    expect(phone.locator("#roulette")).to_be_in_viewport()
    phone.get_by_role("link", name="Back to the table").last.click()
    phone.wait_for_url(f"{server}/m/{match_id}")


def test_the_scoreboard_with_six_long_names(phone: Page, server: str) -> None:
    Table(phone, server).import_record(six_hands_record())
    phone.goto(phone.url + "/scores")
    expect(phone.locator("table.hands")).to_be_visible()
    looks_right(phone, "scoreboard-six")


def test_share_on_the_servers_own_address_warns(phone: Page, server: str) -> None:
    """The test server is opened at 127.0.0.1: links other phones can't open."""
    match_id = new_match(phone, server, ["Ann", "Bob", "Cy"])
    phone.goto(f"{server}/m/{match_id}/share")
    expect(phone.locator(".loopback")).to_contain_text("Other phones can't open these links.")
    looks_right(phone, "share-loopback")
