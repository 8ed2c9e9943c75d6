"""Every tap deliberate, on a phone held in one hand (360x640, touch), with the tap
guard as shipped (companion/taps.py): a double tap, 40 to 500 ms apart, on any kind of
key records one line; a phone whose live refresh just brought another phone's play is
told so and records on one more tap; a deliberate second play after the settle time is
recorded. Taps are touches at the key's place on the screen, as a thumb makes them (the
second lands on whatever the first tap brought there)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from companion.taps import SETTLE_MS

from .conftest import SMALL_PHONE, companion, shot
from .table import Table

INTERVALS = (40, 80, 120, 200, 300, 500)  # ms between the two taps of a double tap
ENDS = (40, 500)  # the other kinds of key: the quickest double tap and the slowest
THREE = "players: Ann, Bob, Cy\nstart: R5\n"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with the tap guard's shipped waits (a database of the module's own; on
    PostgreSQL, the suite's, left as it is)."""
    with companion(tmp_path_factory.mktemp("guarded"), {}, fresh=False) as url:
        yield url


@pytest.fixture
def thumb(browser: Browser, guarded: str) -> Iterator[Page]:
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


def lines(page: Page, url: str) -> list[str]:
    answer = page.request.get(url + "/record.txt")
    assert answer.ok
    return [line for line in answer.text().splitlines() if line and not line.startswith("#")]


def settled(page: Page) -> None:
    """The screen has been there long enough to be read: its keys take taps."""
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#table.settling, #table.sending")).to_have_count(0)


# The page's own clock for the taps: each touch, and when the table on screen changed.
WATCH = """() => {
  window.TAPS = { touches: [], changed: null };
  if (window.TAPS_WATCHED) { return; }
  window.TAPS_WATCHED = true;
  document.addEventListener("touchstart", () => TAPS.touches.push(performance.now()), true);
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target && e.detail.target.id === "table" && TAPS.changed === null) {
      TAPS.changed = performance.now();
    }
  });
}"""


def double_tap(page: Page, key: Locator, interval: int) -> bool:
    """Two touches at the key's place, `interval` ms apart; whether they were a double
    tap as the page saw them: the second sooner than the guard's settle time
    (taps.SETTLE_MS) after the first brought a new table. A machine busy with other
    tests can deliver it later, and then it is a deliberate tap by the guard's rule."""
    settled(page)
    box = key.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(WATCH)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(interval)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(800)  # anything the second tap could have sent has come back
    settled(page)
    seen = page.evaluate("() => window.TAPS || null")
    if seen is None or len(seen["touches"]) < 2 or seen["changed"] is None:
        return True  # a page loaded anew, or the second tap came before the new table
    return bool(seen["touches"][1] - seen["changed"] < SETTLE_MS)


def until_a_double_tap(attempt: Callable[[], bool], tries: int = 3) -> None:
    """`attempt()` on a new table each time, until its taps were a double tap as the page
    saw them (it then checks what was recorded, and says True)."""
    for _ in range(tries):
        if attempt():
            return
    raise AssertionError(f"{tries} tries, each second tap past the settle time: no double tap")


def recorded_once(page: Page, url: str, before: list[str], interval: int) -> str:
    after = lines(page, url)
    assert len(after) == len(before) + 1, (interval, after[len(before) - 1 :])
    said = page.locator("section.recorded p")
    expect(said).to_contain_text("Recorded:")
    return after[-1]


def test_a_double_tap_on_a_card_records_one_play(thumb: Page, guarded: str) -> None:
    for interval, number in zip(INTERVALS, (3, 4, 6, 8, 9, 1), strict=True):

        def attempt(interval: int = interval, number: int = number) -> bool:
            t = Table(thumb, guarded)
            url = t.import_record(THREE)
            t.tab("Red")
            before = lines(thumb, url)
            key = thumb.locator(f'.keyboard [aria-label="Red {number}"]')
            if not double_tap(thumb, key, interval):
                return False
            assert recorded_once(thumb, url, before, interval) == f"Ann: R{number}"
            return True

        until_a_double_tap(attempt)
    shot(thumb, "double-tap-card", "small-phone")
    assert thumb.js_errors == []  # type: ignore[attr-defined]


def test_a_deliberate_second_play_after_the_settle_time_is_recorded(
    thumb: Page, guarded: str
) -> None:
    t = Table(thumb, guarded)
    url = t.import_record(THREE)
    t.tab("Red")
    settled(thumb)
    version = t.version
    thumb.locator('.keyboard [aria-label="Red 3"]').tap()
    expect(thumb.locator("#table")).to_have_attribute("data-version", str(version + 1))
    thumb.wait_for_timeout(650)  # read, then the next player's card
    thumb.locator('.keyboard [aria-label="Red 4"]').tap()
    expect(thumb.locator("#table")).to_have_attribute("data-version", str(version + 2))
    assert lines(thumb, url)[-2:] == ["Ann: R3", "Bob: R4"]


# The table's looks as they change (its classes, and a key's opacity), by the page's clock.
LOOKS = """() => {
  window.LOOKS = [];
  const seen = () => {
    const table = document.getElementById("table");
    const key = table && table.querySelector("form[method=post] button");
    LOOKS.push({at: performance.now(), classes: table ? table.className.split(" ") : [],
                opacity: key ? getComputedStyle(key).opacity : null});
  };
  new MutationObserver(seen).observe(document.body,
    {subtree: true, childList: true, attributes: true, attributeFilter: ["class"]});
}"""


@dataclass(frozen=True)
class Look:
    at: float  # the page's clock, ms
    classes: list[str]  # the table's
    opacity: str | None  # its first key's


def looks_of_a_tap(page: Page, key: str, held_ms: int = 0) -> list[Look]:
    """The table's looks from a tap on `key` to the new table; the post held `held_ms`
    on its way (a slow network)."""

    def hold(route: Route) -> None:
        if route.request.method == "POST":
            time.sleep(held_ms / 1000)
        route.continue_()

    settled(page)
    version = page.locator("#table").get_attribute("data-version")
    page.evaluate(LOOKS)
    page.route("**/line*", hold)
    page.locator(f'.keyboard [aria-label="{key}"]').tap()
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(version))
    page.unroute("**/line*")
    return [Look(**look) for look in page.evaluate("LOOKS")]


def first(looks: list[Look], name: str) -> Look:
    found = next((look for look in looks if name in look.classes), None)
    assert found is not None, f"the table never had the class {name!r}: {looks}"
    return found


def test_the_keys_look_taken_while_a_late_answer_keeps_the_table_waiting(
    thumb: Page, guarded: str
) -> None:
    """Dimmed while a tap is on its way only once its answer is late (static/app.js):
    a quick answer's new table comes dimmed as it settles, and dimming the old one first
    repainted every key for nothing. The keys take no tap all the while either way."""
    t = Table(thumb, guarded)
    t.import_record(THREE)
    t.tab("Red")
    held = 1500  # a slow network; the dim is due after 200 ms (app.js, SENDING_LOOK_MS)
    late = looks_of_a_tap(thumb, "Red 3", held_ms=held)
    dimmed = first(late, "still-sending")
    assert dimmed.opacity == "0.6", late
    assert 150 < dimmed.at - first(late, "sending").at < held, late
    quick = looks_of_a_tap(thumb, "Red 4")
    if first(quick, "settling").at - first(quick, "sending").at < 150:  # not a busy machine
        assert not any("still-sending" in look.classes for look in quick), quick


@pytest.mark.parametrize("interval", ENDS)
def test_a_double_tap_on_a_wild_colour_key_records_one_play(
    thumb: Page, guarded: str, interval: int
) -> None:
    def attempt() -> bool:
        url = Table(thumb, guarded).import_record(THREE)
        before = lines(thumb, url)
        key = thumb.locator('.keyboard [aria-label="Wild Draw 6, naming Blue"]')
        if not double_tap(thumb, key, interval):
            return False
        assert recorded_once(thumb, url, before, interval) == "Ann: W+6 B"
        return True

    until_a_double_tap(attempt)


@pytest.mark.parametrize("interval", ENDS)
def test_a_double_tap_on_a_swap_partner_records_one_swap(
    thumb: Page, guarded: str, interval: int
) -> None:
    """The bug: the second tap landed on the next player's swap buttons, "swapped hands
    with Ana", a partner nobody chose."""

    def attempt() -> bool:
        t = Table(thumb, guarded)
        url = t.import_record(THREE)
        t.tab("Red")
        t.pick("Red 7")
        before = lines(thumb, url)
        partner = thumb.locator(".follow-up").get_by_role("button", name="Bob", exact=False).first
        if not double_tap(thumb, partner, interval):
            return False
        assert recorded_once(thumb, url, before, interval) == "Ann: R7 swap Bob"
        return True

    until_a_double_tap(attempt)


@pytest.mark.parametrize("interval", ENDS)
def test_a_double_tap_on_take_records_one_take(thumb: Page, guarded: str, interval: int) -> None:
    def attempt() -> bool:
        url = Table(thumb, guarded).import_record(THREE + "Ann: R+2\n")
        before = lines(thumb, url)
        if not double_tap(thumb, thumb.get_by_role("button", name="Take 2", exact=True), interval):
            return False
        assert recorded_once(thumb, url, before, interval) == "Bob: take"
        return True

    until_a_double_tap(attempt)


@pytest.mark.parametrize("interval", ENDS)
def test_a_double_tap_on_a_quick_count_records_one_roulette(
    thumb: Page, guarded: str, interval: int
) -> None:
    def attempt() -> bool:
        url = Table(thumb, guarded).import_record(THREE + "Ann: WCR\n")
        thumb.locator("form.roulette label", has_text="Green").click()
        before = lines(thumb, url)
        if not double_tap(thumb, thumb.locator("form.roulette [data-set='3']"), interval):
            return False
        assert recorded_once(thumb, url, before, interval) == "Bob: roulette G 3"
        return True

    until_a_double_tap(attempt)


def test_the_drawn_counts_quick_count_double_tapped_records_nothing(
    thumb: Page, guarded: str
) -> None:
    """The drawn count's row turns into a stepper and "No play" under the thumb: a second
    tap must not land on "No play" (a line nobody made) nor count one more."""
    t = Table(thumb, guarded)
    url = t.import_record(THREE)
    before = lines(thumb, url)
    double_tap(thumb, thumb.locator("[data-drew] [data-set='2']"), 120)
    assert lines(thumb, url) == before
    expect(thumb.locator("#drawn")).to_have_value("2")


def test_the_two_phone_refresh_race_records_one_line_and_tells_the_second_phone(
    browser: Browser, guarded: str
) -> None:
    """Phone B records Ann's Red 9; the refresh redraws phone A just before its user taps
    Red 9 too: the tap is not Bob's play, phone A is told, and one more tap records it."""
    contexts = [
        browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True) for _ in range(2)
    ]
    try:
        a, b = (Table(c.new_page(), guarded) for c in contexts)
        url = a.import_record(THREE)
        a.page.goto(url + "/share")
        editor_link = a.page.locator("section.share", has_text="Editor link").locator("a")
        b.page.goto(editor_link.get_attribute("href") or "")
        a.page.goto(url)
        for phone in (a, b):
            phone.tab("Red")
            settled(phone.page)

        version = a.version
        b.tap("Red 9")
        # Phone A's refresh brings it; its user, about to tap Red 9, taps as it arrives.
        expect(a.page.locator("#table")).to_have_attribute(
            "data-version", str(version + 1), timeout=4000
        )
        expect(a.page.locator("section.recorded")).to_contain_text(
            "From another phone: Ann played Red 9."
        )
        tab = a.page.locator("nav.tabs .tab.active").inner_text()
        key = a.page.locator('.keyboard [aria-label="Red 9"]')
        key.tap(timeout=2000)  # taken once the keys settle, inside the refresh's wait
        refused = a.page.locator(".not-taken")
        expect(refused).to_contain_text(
            "Not recorded: another phone has just recorded “Ann played Red 9”. "
            "Tap again if this is a new play."
        )
        assert lines(a.page, url)[-2:] == ["start: R5", "Ann: R9"]  # and nothing more
        shot(a.page, "refresh-race-told", "small-phone")
        expect(a.page.locator("nav.tabs .tab.active")).to_have_text(tab)  # the same keys
        a.page.locator('.keyboard [aria-label="Red 9"]').tap()  # one more: a new play
        expect(a.page.locator("#table")).to_have_attribute("data-version", str(version + 2))
        assert lines(a.page, url)[-2:] == ["Ann: R9", "Bob: R9"]
        expect(b.page.locator("section.recorded")).to_contain_text(
            "From another phone: Bob played Red 9.", timeout=4000
        )
    finally:
        for context in contexts:
            context.close()
