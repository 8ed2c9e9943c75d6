"""Every recorded line confirmed where the eye already is: a whole hand played at 360x640
with six 20-character names, in each of the five languages, light and dark. After every
line (a play, a skip, a 0 that passes hands, a 7's swap, a stack taken into a Mercy
knockout, count corrections, the hand's last card) the banner at the top of the table
names the line as the engine wrote it (the newest of the last plays), Undo beside it,
both inside the screen unscrolled; axe finds nothing serious."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import SHOTS, SIX_LONG_NAMES, SMALL_PHONE, axe_violations
from .table import Table

A, B, C, D, E, F = SIX_LONG_NAMES
# What is tapped, by the form fields the screen posts (the same in every language).
HAND: list[tuple[str, str]] = [
    ("key", "R3"),  # A plays
    ("key", "RS"),  # B skips C
    ("key", "R0"),  # D: every hand passes on
    ("seven", "R7"),  # E swaps, with B
    ("swap", f"R7 swap {B}"),
    ("key", "R+2"),  # F: A faces +2
    ("fix", f"{A}=23"),  # A's count corrected
    ("take", "take"),  # A takes 2: 25 cards, knocked out
    ("fix", f"{B}=1"),
    ("key", "R8"),  # B's last card: the hand is won
]
# The banner's first word, by language: this phone recorded the line.
RECORDED = {
    "en": "Recorded:",
    "de": "Eingetragen:",
    "es": "Anotado:",
    "fr": "Noté",
    "pt-BR": "Registrado:",
}


# Labels wider than their tab, button, key or badge (cut or spilling over its edge).
LABELS_CUT = """() => [...document.querySelectorAll(
    '.tab, .button, .key, .badge, .reveal-tab, .chip, .swatch, .seat-box, summary')]
  .filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.className}: "${e.textContent.trim().slice(0, 30)}"`)"""
# Each colour's letter as the keys, the tabs and the top card draw it.
LETTERS = """() => {
  const seen = {};
  const add = (colour, letter) => (seen[colour] ??= new Set()).add(letter.trim());
  for (const key of document.querySelectorAll('.keys .key:not(.names)'))
    add(['red', 'yellow', 'green', 'blue', 'wild'].find(c => key.classList.contains(c)),
        key.querySelector('b').textContent);
  for (const tab of document.querySelectorAll('.tabs .tab:not(.p)'))
    add({r: 'red', y: 'yellow', g: 'green', b: 'blue', w: 'wild'}[tab.classList[1]],
        tab.querySelector('b').textContent);
  const top = document.querySelector('.status .card');
  add(['red', 'yellow', 'green', 'blue', 'wild'].find(c => top.classList.contains(c)),
      top.querySelector('b').textContent);
  return Object.fromEntries(Object.entries(seen).map(([c, s]) => [c, [...s]]));
}"""


def on_screen(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL_PHONE["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"], (selector, box)


def step(page: Page, kind: str, value: str) -> None:
    """One tap (or a correction's few), as the person makes it, then the new table."""
    table = page.locator("#table")
    version = table.get_attribute("data-version")
    expect(page.locator("#table.settling, #table.sending")).to_have_count(0)
    if kind == "seven":  # a card that asks a question: the question opens, nothing recorded
        page.locator(f'.keyboard a.key[href*="card={value}"]').tap()
        expect(page.locator(".follow-up")).to_be_visible()
        return
    if kind == "fix":
        name, count = value.split("=")
        page.locator(f'a[href*="fix={name.replace(" ", "+")}"]').first.tap()
        page.locator("#fix-count").fill(count)
        page.locator("form:has(#fix-count) button[type=submit]").last.tap()
    else:
        page.locator(f'#table button[name=action][value="{value}"]').tap()
    expect(table).not_to_have_attribute("data-version", version or "", timeout=5000)


@pytest.mark.parametrize(
    ("language", "scheme"),
    [("en", "light"), ("de", "dark"), ("es", "light"), ("fr", "dark"), ("pt-BR", "light")],
)
def test_every_line_of_a_hand_is_confirmed_at_the_top(
    browser: Browser, server: str, language: str, scheme: str
) -> None:
    context = browser.new_context(
        viewport=SMALL_PHONE,
        is_mobile=True,
        has_touch=True,
        locale=language,
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        t = Table(page, server)
        page.goto(server + "/import")
        page.locator("textarea").fill(f"players: {', '.join(SIX_LONG_NAMES)}\nstart: R5\n")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(re.compile(r"/m/[^/]+$"))
        assert t.version >= 1
        # One letter per colour on keys, tabs and the top card, the language's, and no
        # two colours (or the wilds) sharing one.
        page.locator("nav.tabs a.tab.w").tap()
        expect(page.locator("nav.tabs a.tab.w")).to_have_attribute("aria-current", "true")
        letters = page.evaluate(LETTERS)
        assert all(len(drawn) == 1 for drawn in letters.values()), letters
        assert len({drawn[0] for drawn in letters.values()}) == len(letters) == 5, letters
        page.locator("nav.tabs a.tab.p").tap()
        # Each tab open before the next tap: under load a swap landing late undoes a tap.
        expect(page.locator("nav.tabs a.tab.p")).to_have_attribute("aria-current", "true")
        cut: list[str] = []
        for kind, value in HAND:
            step(page, kind, value)
            cut += page.evaluate(LABELS_CUT)
            if kind == "seven":
                continue
            banner = page.locator("section.recorded p")
            newest = page.locator(".log ol li").first.inner_text()
            expect(banner).to_contain_text(RECORDED[language])
            expect(banner).to_contain_text(newest)  # the engine's sentence, whole
            on_screen(page, "section.recorded")
            on_screen(page, "section.recorded .undo-bar button")
            if kind == "take":
                assert "warning" in (page.locator("section.recorded").get_attribute("class") or "")
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"recorded-knockout-{language}-{scheme}.png"))
        page.screenshot(path=str(SHOTS / f"recorded-hand-won-{language}-{scheme}.png"))
        cut += page.evaluate(LABELS_CUT)
        assert cut == [], f"{language}: labels cut at 360 px"
        problems = [f"{scheme}: {v}" for v in axe_violations(page)]
        assert problems == []
        assert errors == []
    finally:
        context.close()
