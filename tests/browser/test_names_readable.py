"""Six names at a 360x640 table, Alexandra and Alexander among them: every seat readable
and told apart (the engine's short form), the full name in every sentence, who is next
never cut, and no button breaking a word."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from engine import short_names

from .conftest import axe_violations, shot
from .table import Table

NAMES = [
    "Alexandra Montgomery",
    "Alexander Montgomery",
    "Jean-Baptiste Dupont",
    "Maximilian Schneider",
    "Ana",
    "Bartholomew Kingsley",
]
# Each seat's name as drawn: one line, nothing cut or past its box.
SEAT_NAMES = """() => [...document.querySelectorAll('.seat')].map(seat => {
  const name = seat.querySelector('.seat-name strong'), box = seat.querySelector('.seat-box');
  const line = parseFloat(getComputedStyle(name).lineHeight);
  return {text: name.textContent, oneLine: name.getBoundingClientRect().height < 1.5 * line,
          fits: name.scrollWidth <= name.clientWidth && box.scrollWidth <= box.clientWidth};
})"""
# Words a button's label breaks across lines (a break at a space or a hyphen is a line's
# end, any other is a word broken).
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const button of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def test_six_names_are_readable_and_told_apart(small_phone: Page, server: str) -> None:
    page, table = small_phone, Table(small_phone, server)
    table.import_record("players: " + ", ".join(NAMES) + "\nstart: R5\n")
    table.tap("Red 3")

    seats = page.evaluate(SEAT_NAMES)
    assert [seat["text"] for seat in seats] == list(short_names(NAMES))
    assert seats[0]["text"] == "Alexandra" and seats[1]["text"] == "Alexander"
    assert all(seat["oneLine"] and seat["fits"] for seat in seats), seats
    # A screen reader, a sentence and the turn heading say the full name.
    expect(page.locator(".seat-box").nth(3)).to_have_accessible_name(
        "Correct Maximilian Schneider's count (7 cards)"
    )
    expect(page.locator(".turn")).to_have_text("Alexander Montgomery")
    expect(page.locator(".recorded")).to_contain_text("Alexandra Montgomery played Red 3.")
    # Who is next is said whole (on a second line if need be), never cut.
    direction = page.locator(".direction")
    expect(direction).to_contain_text("next: Jean-Baptiste Dupont")
    assert direction.evaluate("p => p.scrollWidth <= p.clientWidth")
    assert axe_violations(page) == []
    shot(page, "names-six", "phone")

    # The 7's partners: full names, each on buttons that break no word.
    table.pick("Red 7")
    partners = page.locator(".follow-up .choices .button")
    expect(partners).to_have_count(5)
    expect(partners.first).to_have_text("Alexandra Montgomery")
    assert page.evaluate(BROKEN_WORDS, ".follow-up .button") == []
    shot(page, "names-swap", "phone")
