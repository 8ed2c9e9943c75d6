"""Every screen, as a person sees it: no sideways scroll at 360 px, 44 px controls,
no serious or critical accessibility violations (axe-core), a screenshot each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE, SIDEWAYS, shot
from .table import Table

NARROW = {"width": 360, "height": 740}
SMALL_CONTROLS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('a, button, input, select, textarea, summary')) {
    if (el.type === 'hidden') continue;
    const target = (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label') : el;
    const box = (target || el).getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown
    const what = (el.innerText || el.name || '').trim().slice(0, 30);
    if (box.height < 44) out.push(`${el.tagName} "${what}" ${Math.round(box.height)}px`);
  }
  return out;
}"""


def screens(t: Table, base: str) -> list[tuple[str, Callable[[], None]]]:
    """Each screen and how to get to it, in an order that builds a match as it goes."""
    page = t.page

    def table_in_play() -> None:
        t.new_match(["Ann", "Bob", "Cy"])
        t.start("Red 5")

    def stack() -> None:
        t.tap("Red Draw 2")

    def follow_up() -> None:
        t.tab("Wild")
        t.pick("Wild Draw 6")

    def refused() -> None:
        page.get_by_role("link", name="Back to the cards").click()
        t.tab("Red")
        t.refused_tap("Red 3")

    def roulette() -> None:
        t.tab("Wild")
        t.pick("Wild Draw 10")  # Bob stacks +10 and names red...
        t.button("Red (R)")
        t.button("Take 12")
        t.tab("Wild")
        t.tap("Wild Colour Roulette")

    def reveal() -> None:
        t.roulette("Blue (B)", 1)  # Bob names blue and turns up one card
        t.correct("Cy", 1)
        t.tab("Blue")
        t.tap("Blue 4")  # Cy's last card

    def hand_over() -> None:
        t.reveal("Ann", "R1 R2 R3 R4 R6")
        t.reveal("Bob", "G0 G1 G2 G3 G4 G5 G6")

    return [
        ("home", lambda: page.goto(base + "/")),
        ("new-match", lambda: page.goto(base + "/new")),
        ("new-match-errors", lambda: page.get_by_role("button", name="Start the match").click()),
        ("table", table_in_play),
        ("table-stack", stack),
        ("follow-up", follow_up),
        ("refused", refused),
        ("roulette", roulette),
        ("reveal", reveal),
        ("hand-over", hand_over),
        ("scoreboard", lambda: page.get_by_role("link", name="Scoreboard").first.click()),
        ("share", lambda: page.goto(page.url.replace("/scores", "/share"))),
        ("rules", lambda: page.goto(base + "/rules")),
        ("desk", lambda: page.goto(base + "/rules?top=W%2B6&color=G&stack=6&card=R%2B4")),
        ("import", lambda: page.goto(base + "/import")),
        ("not-found", lambda: page.goto(base + "/m/nothing-here")),
        ("offline", lambda: page.goto(base + "/offline")),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_fits_a_phone_and_passes_axe(
    browser: Browser, server: str, scheme: Literal["light", "dark"]
) -> None:
    """In the phone's light and dark colour scheme (the CSS follows it)."""
    context = browser.new_context(
        viewport=NARROW, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    page = context.new_page()
    t = Table(page, server)
    axe = Axe()
    problems: list[str] = []
    for name, go in screens(t, server):
        go()
        page.wait_for_load_state()
        expect(page.locator("h1").first).to_be_visible()
        if (extra := page.evaluate(SIDEWAYS)) > 0:
            problems.append(f"{name}: scrolls sideways by {extra}px at 360px")
        problems += [f"{name}: control under 44px: {c}" for c in page.evaluate(SMALL_CONTROLS)]
        if page.locator("#table").count():  # at rest: a table's keys dim for a moment
            expect(page.locator("#table.settling, #table.sending")).to_have_count(0)
        results = axe.run(page)
        for v in results.response["violations"]:
            if v["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in v["nodes"]][:3]
                problems.append(f"{name}: axe {v['impact']} {v['id']}: {v['help']} {targets}")
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            shot(page, f"screen-{name}", label if scheme == "light" else f"{label}-dark")
        page.set_viewport_size(NARROW)
    context.close()
    assert problems == [], "\n".join(problems)


def test_a_phone_never_loads_anything_from_elsewhere(page: Page, server: str) -> None:
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server) else None)
    page.goto(server + "/new")
    page.goto(server + "/rules")
    assert outside == []
