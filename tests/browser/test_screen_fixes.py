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


def test_the_house_rules_show_they_open(phone: Page, server: str) -> None:
    """The bug: the house rules' summary was drawn as plain bold text (its disclosure
    triangle gone with display: flex): nothing said it opens."""
    phone.goto(server + "/new")
    summary = phone.locator("details.opens > summary")
    chevron = summary.locator("svg.icon")
    expect(chevron).to_be_visible()
    assert summary.evaluate("s => getComputedStyle(s).borderTopStyle") == "solid"
    closed = chevron.evaluate("c => getComputedStyle(c).transform")
    summary.click()
    expect(phone.locator("details.opens")).to_have_attribute("open", "")
    expect(phone.locator("#target")).to_be_visible()
    phone.wait_for_timeout(200)  # the chevron's turn
    assert chevron.evaluate("c => getComputedStyle(c).transform") != closed
    looks_right(phone, "new-match-rules-open")


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
    # Laid out for 360 px: its two paragraphs one under the other, not squeezed side by side.
    first, second = (phone.locator(".loopback p").nth(i).bounding_box() for i in (0, 1))
    assert first is not None and second is not None
    assert second["y"] >= first["y"] + first["height"], (first, second)
    assert first["width"] > 240 and second["width"] > 240, (first, second)
    looks_right(phone, "share-loopback")


# The contrast of two CSS colours (WCAG's relative luminance), in the page.
CONTRAST = """([a, b]) => {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}"""


def test_the_roulette_key_stands_out_in_either_scheme(phone: Page, server: str) -> None:
    """The bug: in dark mode the Colour Roulette's black key sat on the near-black page
    with a black edge: no key to see. Its edge against the page: at least 3:1 (WCAG's
    non-text contrast); its mark against its face: at least 4.5:1."""
    Table(phone, server).import_record("players: Ann, Bob, Cy\nstart: R5\n")
    key = phone.locator('.keyboard [aria-label="Wild Colour Roulette"]')
    expect(key).to_be_visible()
    edge, face, mark = key.evaluate(
        "k => [getComputedStyle(k).borderTopColor, getComputedStyle(k).backgroundColor,"
        " getComputedStyle(k).color]"
    )
    page_colour = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert phone.evaluate(CONTRAST, [edge, page_colour]) >= 3, (edge, page_colour)
    assert phone.evaluate(CONTRAST, [mark, face]) >= 4.5, (mark, face)
    looks_right(phone, "roulette-key")
