"""Awake and felt: a table keeps the screen on (a wake lock, taken again when the page is
visible again) and vibrates once per new line, a short tick for an ordinary line and
longer for a knockout, a UNO window, a catch or a hand's end, on the phone that recorded
it and on those that see it arrive live; each with a setting in the More menu. Where a
phone lacks the API, nothing breaks."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import shot
from .table import Table

UNO_WINDOW = "players: Ann, Bob, Cy\nstart: R5\nAnn: has 2\nAnn: R3\n"
LAST_CARD = "players: Ann, Bob, Cy\nstart: R5\nBob: has 3\nAnn: has 1\n"
# The phone's vibrations and screen locks, recorded instead of felt (before any script).
RECORDER = """
window.vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true,
  value: function (pattern) { window.vibrations.push(pattern); return true; }});
window.locks = {taken: 0, released: 0, held: null};
const wakeLock = {request: function (type) {
  window.locks.taken++;
  const sentinel = new EventTarget();
  sentinel.type = type;
  sentinel.release = function () {
    window.locks.released++;
    window.locks.held = null;
    sentinel.dispatchEvent(new Event("release"));
    return Promise.resolve();
  };
  window.locks.held = sentinel;
  return Promise.resolve(sentinel);
}};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => wakeLock});
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock; delete Navigator.prototype.vibrate;"


def open_menu(page: Page) -> None:
    page.locator(".more summary").click()
    expect(page.locator(".more .menu")).to_be_visible()


def vibrations(page: Page) -> list[object]:
    """The vibrations so far, once the table's swap has settled (htmx:load)."""
    page.wait_for_timeout(150)
    return page.evaluate("window.vibrations")  # type: ignore[no-any-return]


def felt(page: Page) -> list[object]:
    """The vibrations, once there is one."""
    page.wait_for_function("() => window.vibrations.length > 0", timeout=5000)
    return vibrations(page)


def test_the_screen_stays_on_while_a_table_is_open(small_phone: Page) -> None:
    page = small_phone
    page.context.add_init_script(RECORDER)
    Table(page, page.base_url).import_record(UNO_WINDOW)  # type: ignore[attr-defined]
    page.wait_for_function("() => window.locks.held !== null")
    open_menu(page)
    toggle = page.get_by_role("button", name="Keep screen on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Vibrate")).to_have_attribute("aria-pressed", "true")
    shot(page, "settings", "phone")
    page.emulate_media(color_scheme="dark")
    shot(page, "settings", "phone-dark")
    page.emulate_media(color_scheme="light")

    toggle.click()  # off: the lock is let go, and stays off after a reload
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.locks") == {"taken": 1, "released": 1, "held": None}
    page.reload()
    page.wait_for_load_state()
    assert page.evaluate("window.locks.taken") == 0
    open_menu(page)
    expect(toggle).to_have_attribute("aria-pressed", "false")

    toggle.click()  # on again; the system lets go (the page hidden), visible: taken again
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("() => window.locks.held !== null")
    page.evaluate("window.locks.held.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.locks.taken === 2 && window.locks.held !== null")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_without_the_apis_the_settings_are_hidden_and_nothing_breaks(small_phone: Page) -> None:
    page = small_phone
    page.context.add_init_script(NO_WAKE_LOCK)
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    t.import_record(UNO_WINDOW)
    assert page.evaluate("'wakeLock' in navigator || 'vibrate' in navigator") is False
    open_menu(page)
    expect(page.get_by_role("link", name="All matches")).to_be_visible()
    expect(page.locator("[data-setting]")).to_have_count(2)
    for setting in page.locator("[data-setting]").all():
        expect(setting).to_be_hidden()
    t.catch("Ann", "Bob")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_catch_is_felt_once_by_every_phone_at_the_table(small_phone: Page) -> None:
    page = small_phone
    page.context.add_init_script(RECORDER)
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = t.import_record(UNO_WINDOW)
    watching = page.context.new_page()  # another phone at the table, polling
    watching.goto(url)
    expect(page.locator("#table")).to_have_attribute("data-events", "uno")
    assert vibrations(page) == [] and vibrations(watching) == []  # a line seen before

    t.catch("Ann", "Bob")
    assert "catch" in (page.locator("#table").get_attribute("data-events") or "").split()
    assert felt(page) == [70]
    line = page.locator("#table").get_attribute("data-line")
    expect(watching.locator("#table")).to_have_attribute("data-line", line or "", timeout=5000)
    assert felt(watching) == [70]

    page.reload()  # the same line again: not felt again
    expect(page.locator("#table")).to_have_attribute("data-line", line or "")
    page.wait_for_timeout(200)
    assert vibrations(page) == []
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_end_of_a_hand_is_felt_unless_turned_off(small_phone: Page) -> None:
    page = small_phone
    page.context.add_init_script(RECORDER)
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    t.import_record(LAST_CARD)
    t.tap("Red 6")  # Ann plays down to no card... a play that is nothing to feel
    assert page.locator("#table").get_attribute("data-events") == "hand"
    assert felt(page) == [[90, 50, 90]]

    t.import_record(UNO_WINDOW)
    t.tap("Red 9")  # Bob plays an ordinary card: a tick
    assert page.locator("#table").get_attribute("data-events") == ""
    assert felt(page) == [25]
    t.undo()  # and undone: the line before it is not felt again
    assert vibrations(page) == [25]

    t.import_record(LAST_CARD)
    open_menu(page)
    page.get_by_role("button", name="Vibrate").click()
    expect(page.get_by_role("button", name="Vibrate")).to_have_attribute("aria-pressed", "false")
    page.locator(".more summary").click()  # closed again
    t.tap("Red 6")
    assert page.locator("#table").get_attribute("data-events") == "hand"
    assert vibrations(page) == []
    assert page.js_errors == []  # type: ignore[attr-defined]
