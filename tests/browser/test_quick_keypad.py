"""Quick score at keypad speed, on a small phone held in one hand (360x640, touch, six
20-character names): the winner first, then each other player in turn, "knocked out" in
one tap or points on the keypad, the next one coming up by itself.

The usual six-player hand, measured (`python -m engine lab --players 6 --a official --b
official --hands 500 --policy table`): 75% end by knockout, the winner the last player
standing, so the usual hand is a winner and five knockouts. Its taps are counted: at
most 7. A hand with a loser's points is counted and reported (pytest -s)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from .conftest import SIX_LONG_NAMES, SMALL_PHONE, axe_violations, shot
from .table import Table


class Thumb:
    """Taps, counted; each waits for the screen to take taps (the tap guard's settle)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, target: Locator) -> None:
        expect(self.page.locator("#table.settling, #table.sending")).to_have_count(0)
        in_view(target)
        target.tap()
        self.taps += 1


def in_view(target: Locator) -> None:
    """On screen as it is, unscrolled, above the dock."""
    box = target.bounding_box()
    dock = target.page.locator(".dock").bounding_box()
    assert box is not None and dock is not None
    assert target.page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= dock["y"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"], box


def quick_match(page: Page) -> Table:
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    t.new_match(SIX_LONG_NAMES, mode="quick", target=5000)  # the match goes on
    return t


def next_loser(page: Page, name: str) -> None:
    expect(page.locator(".keypad-who span")).to_have_text(name)


def test_the_usual_hand_takes_six_taps(small_phone: Page) -> None:
    page, thumb = small_phone, Thumb(small_phone)
    t = quick_match(page)
    winner, *others = SIX_LONG_NAMES[::-1]  # the last seat won: the others in seat order
    thumb.tap(page.locator(".quick-winner").get_by_role("button", name=f"{winner} won"))
    for name in reversed(others):
        next_loser(page, name)
        thumb.tap(page.get_by_role("button", name=f"{name} was knocked out"))
    t.expect_turn("Hand 1 scored")
    print(f"\nquick score, a winner and five knockouts: {thumb.taps} taps")
    assert thumb.taps <= 7
    page.goto(page.url + "/scores")
    expect(page.locator("ol.totals")).to_contain_text(f"{winner}")
    expect(page.locator("ol.totals li").first).to_contain_text("1250")


def test_a_hand_with_a_losers_points_on_the_keypad(small_phone: Page) -> None:
    page, thumb = small_phone, Thumb(small_phone)
    quick_match(page)
    first, second, *rest = SIX_LONG_NAMES
    thumb.tap(page.locator(".quick-winner").get_by_role("button", name=f"{second} won"))
    shot(page, "quick-winner-then-keypad", "small-phone")
    next_loser(page, first)
    keys = page.locator("[data-keypad-keys]")
    for digit in "23":
        thumb.tap(keys.get_by_role("button", name=digit, exact=True))
    expect(page.locator("#quick-points")).to_have_value("23")
    assert page.evaluate("document.activeElement.id") != "quick-points"  # no phone keyboard
    thumb.tap(keys.get_by_role("button", name=f"Record {first}'s points"))
    expect(page.locator(".tally")).to_contain_text(f"{first}: 23 points")
    for name in rest:
        next_loser(page, name)
        thumb.tap(page.get_by_role("button", name=f"{name} was knocked out"))
    expect(page.locator("h1.turn")).to_have_text("Hand 1 scored")
    print(f"\nquick score, a winner, four knockouts and 23 points: {thumb.taps} taps")
    assert thumb.taps == 8  # 1 winner, 2 digits and Record, 4 knockouts
    assert axe_violations(page) == []
    page.goto(page.url + "/scores")
    expect(page.locator("ol.totals li").first).to_contain_text(f"{4 * 250 + 23}")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_keypad_fits_and_reads_in_the_dark(small_phone: Page) -> None:
    page = small_phone
    page.emulate_media(color_scheme="dark")
    quick_match(page)
    page.locator(".quick-winner button").first.tap()
    expect(page.locator("[data-keypad-keys]")).to_be_visible()
    expect(page.locator("[data-keypad-plain]")).to_be_hidden()  # the keypad's Record instead
    for button in page.locator("[data-keypad-keys] button, .quick-losers .knocked-out").all():
        in_view(button)
    assert axe_violations(page) == []
    shot(page, "quick-keypad", "small-phone-dark")
