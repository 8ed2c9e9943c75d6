"""The end of a hand on a small phone (360x640), six players with long names: each loser's
cards tapped in on the reveal keyboard, a refused reveal that keeps them, the hand over."""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Page, expect

from .conftest import SIDEWAYS, SIX_LONG_NAMES, axe_violations, shot
from .table import Table

NAMES = SIX_LONG_NAMES
ANN, BART, CORA = NAMES[:3]
# Ann wins hand 1 with her last card; Bart holds 3 cards, the others 7.
RECORD = f"""players: {", ".join(NAMES)}
start: R5
{BART}: has 3
{ANN}: has 1
{ANN}: R3
"""
PANEL_MAX = 380  # px: the rest of 640 is the status line, the players and the bottom bar
SMALL_CONTROLS = """(root) => [...root.querySelectorAll('a, button, input')]
  .filter(el => el.type !== 'hidden')
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([el, box]) => box.width > 0 && (box.height < 44 || box.width < 44))
  .map(([el, box]) => `${el.getAttribute('aria-label') || el.innerText || el.name}: `
                      + `${Math.round(box.width)}x${Math.round(box.height)}`)"""
# From the top of the name chips to the bottom of the record button: the panel for one loser.
PANEL_HEIGHT = """() => {
  const top = document.querySelector('.reveal-chips').getBoundingClientRect().top;
  const form = [...document.querySelectorAll('form.reveal')].find(f => !f.hidden);
  return form.querySelector('button[type=submit]').getBoundingClientRect().bottom - top;
}"""


@pytest.fixture
def phone(small_phone: Page) -> Page:
    return small_phone


def looks_right(page: Page, screen: str) -> list[str]:
    """No sideways scroll, nothing under 44 px in the reveal panel, axe clean in the light
    and the dark scheme; the screenshots."""
    problems = []
    if (extra := page.evaluate(SIDEWAYS)) > 0:
        problems.append(f"{screen}: scrolls sideways by {extra}px")
    scheme: Literal["light", "dark"]
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems += [f"{screen} ({scheme}): {v}" for v in axe_violations(page)]
        shot(page, screen, "phone" if scheme == "light" else "phone-dark")
    page.emulate_media(color_scheme="light")
    return problems


def count_line(page: Page) -> str:
    return page.locator("form.reveal:visible .reveal-count").inner_text()


def test_revealing_by_tapping_on_a_small_phone(phone: Page, server: str) -> None:
    page = phone
    t = Table(page, server)
    t.import_record(RECORD)
    t.expect_turn(f"{ANN} wins the hand")

    # The first loser is chosen; the count starts from the cards the engine says they hold.
    expect(page.locator(".reveal-chips [aria-pressed=true]")).to_have_accessible_name(BART)
    assert count_line(page) == "0 of 3 cards, 0 points"

    # Tabs switch the keys here, with no request and no history entry.
    history, url = page.evaluate("history.length"), page.url
    t.collect(BART, "Red 5", "Wild Draw 6", "Blue Skip")
    assert (page.evaluate("history.length"), page.url) == (history, url)
    assert count_line(page) == "3 of 3 cards, 75 points"
    page.get_by_role("button", name="Remove Wild Draw 6").click()
    assert count_line(page) == "2 of 3 cards, 25 points"
    assert page.locator("form.reveal:visible input[name=cards]").input_value() == "R5 BS"

    panel = page.locator(".reveal-panel")
    height = page.evaluate(PANEL_HEIGHT)
    assert height <= PANEL_MAX, f"the reveal panel is {height}px tall"
    problems = [f"under 44px: {c}" for c in panel.evaluate(SMALL_CONTROLS)]
    problems += looks_right(page, "reveal")

    # Two cards of three: refused; the cards are still there, the reason at the form.
    page.get_by_role("button", name=f"Record {BART}'s cards").click()
    alert = page.locator("form.reveal:visible [role=alert]")
    expect(alert).to_contain_text("3")
    expect(page.locator(".reveal-chips [aria-pressed=true]")).to_have_accessible_name(BART)
    assert count_line(page) == "2 of 3 cards, 25 points"
    expect(page.get_by_role("button", name="Remove Blue Skip")).to_be_visible()
    problems += looks_right(page, "reveal-refused")

    t.reveal_by_tapping(BART, "Wild Draw 6")
    expect(page.locator(".reveal-chips [aria-pressed=true]")).to_have_accessible_name(CORA)
    assert count_line(page) == "0 of 7 cards, 0 points"

    # The other losers type their points, each chosen by their chip.
    for name, points in zip(NAMES[2:], ("12", "30", "7", "51"), strict=True):
        t.choose_loser(name)
        page.locator("form.reveal:visible input[name=points]").fill(points)
        t.button(f"Record {name}'s cards")

    t.expect_turn("Hand 1 scored")
    actions = page.locator(".actions")
    expect(actions).to_contain_text(f"{ANN} scores 175 = 75 from {BART} + 12 from {CORA}")
    totals = page.locator("table.hand-totals tbody tr")
    expect(totals.first).to_contain_text(f"{ANN} 175 +175 825")
    expect(totals).to_have_count(6)
    expect(page.get_by_role("button", name=f"Next hand: {ANN} deals")).to_be_visible()
    problems += looks_right(page, "hand-over")

    assert problems == [], "\n".join(problems)
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_live_update_keeps_what_this_phone_was_entering(phone: Page, server: str) -> None:
    """Another phone records a reveal while this one taps a loser's cards: the table is
    swapped in live, and the chosen loser and the cards tapped so far stay."""
    page = phone
    t = Table(page, server)
    t.import_record(RECORD)
    t.collect(CORA, "Green 2", "Wild Colour Roulette")

    # Bart's reveal, posted as his form would post it (from elsewhere: no swap here).
    bart = page.locator("form.reveal", has_text=f"{BART} reveals")
    fields = {
        name: bart.locator(f'input[name="{name}"]').input_value()
        for name in ("csrf_token", "version", "last", "key", "shown", "player")
    }
    before = t.version
    response = page.request.post(
        page.url + "/reveal", form=fields | {"cards": "", "points": "20"}, max_redirects=0
    )
    assert response.status == 303
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(before))

    expect(page.locator(".tally")).to_contain_text(f"{BART}: 20")
    expect(page.locator(".reveal-chips [aria-pressed=true]")).to_have_accessible_name(CORA)
    assert count_line(page) == "2 of 7 cards, 52 points"
    expect(page.get_by_role("button", name="Remove Wild Colour Roulette")).to_be_visible()
    assert page.js_errors == []  # type: ignore[attr-defined]
