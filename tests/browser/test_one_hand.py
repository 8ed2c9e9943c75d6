"""The table in one hand: on a small phone (360x640) with six 20-character names, what
the table waits for is on screen unscrolled, and Back, forward and reload never record."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import SIDEWAYS, SIX_LONG_NAMES, axe_violations, shot
from .table import Table

ANN, BART, CORA = SIX_LONG_NAMES[:3]
HEADER = f"players: {', '.join(SIX_LONG_NAMES)}\nstart: R5\n"
# Each situation as a record to import, and what must be on screen in it.
SITUATIONS = {
    "play": HEADER,
    "stack": HEADER + f"{ANN}: R+2\n",
    "roulette": HEADER + f"{ANN}: WCR\n",
    "uno-window": HEADER + f"{ANN}: has 2\n{ANN}: R3\n",
    "reveal": HEADER + f"{BART}: has 3\n{ANN}: has 1\n{ANN}: R3\n",
}
# Every control of the table's actions and its dock (the menu only once opened), but the
# last plays below, which are read, not tapped: where each one is, and whether it shows.
CONTROLS = """() => [...document.querySelectorAll(
    '#table .actions :is(a, button, input, label.button), #table .recorded button,'
    + ' #table .dock :is(a, button, summary)')]
  .filter(el => el.type !== 'hidden' && el.checkVisibility())
  .map(el => {
    const box = el.getBoundingClientRect();
    const name = el.getAttribute('aria-label') || el.innerText.trim() || el.name || el.id;
    return {name: name.slice(0, 40), top: box.top, bottom: box.bottom,
            left: box.left, right: box.right, dock: !!el.closest('.dock')};
  })"""


def import_record(page: Page, text: str) -> str:
    return Table(page, page.base_url).import_record(text)  # type: ignore[attr-defined]


def off_screen(page: Page) -> list[str]:
    """The table's controls not wholly inside the viewport, as it is, unscrolled: above
    the dock fixed at its bottom (the dock's own controls: inside the viewport)."""
    width = page.viewport_size["width"]  # type: ignore[index]
    dock_top = page.locator(".dock").bounding_box()["y"]  # type: ignore[index]
    assert page.evaluate("window.scrollY") == 0
    return [
        f"{c['name']!r} at y={c['top']:.0f}-{c['bottom']:.0f} x={c['left']:.0f}-{c['right']:.0f}"
        for c in page.evaluate(CONTROLS)
        if c["top"] < 0
        or c["left"] < 0
        or c["right"] > width
        or c["bottom"] > (page.viewport_size["height"] if c["dock"] else dock_top)  # type: ignore[index]
    ]


def axe_problems(page: Page, screen: str) -> list[str]:
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        problems += [f"{screen} ({scheme}): {v}" for v in axe_violations(page)]
        shot(page, f"one-hand-{screen}", "phone" if scheme == "light" else "phone-dark")
    page.emulate_media(color_scheme="light")
    return problems


@pytest.mark.parametrize("situation", SITUATIONS)
def test_what_the_table_waits_for_is_on_screen(small_phone: Page, situation: str) -> None:
    page = small_phone
    import_record(page, SITUATIONS[situation])
    waiting_for = {
        "play": page.locator(".keys").get_by_label("Red 4", exact=True),
        "stack": page.get_by_role("button", name="Take 2"),
        "roulette": page.get_by_role("button", name="Record the roulette"),
        "uno-window": page.get_by_role("button", name=f"{ANN} called UNO"),
        "reveal": page.get_by_role("button", name=f"Record {BART}'s cards"),
    }[situation]
    expect(waiting_for).to_be_visible()
    if situation == "stack":  # only the cards that answer it, beside Take 2
        keys = page.locator(".keys .key")
        labels = [keys.nth(i).get_attribute("aria-label") for i in range(keys.count())]
        assert labels and all(("Draw" in k or "Roulette" in k) for k in labels if k), labels
    problems = axe_problems(page, situation) + off_screen(page)
    assert page.evaluate(SIDEWAYS) <= 0
    assert problems == []
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_question_fits_too(small_phone: Page) -> None:
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    import_record(page, SITUATIONS["play"])
    t.tab("Wild")  # on the Playable tab a wild names its colour in one tap
    t.pick("Wild Draw 6")
    expect(page.get_by_role("button", name="Blue (B)")).to_be_visible()
    assert off_screen(page) == []
    assert axe_problems(page, "question") == []
    page.locator(QUESTIONS["correction"][0]).click()
    expect(page.locator("#fix-count")).to_have_value("7")
    assert off_screen(page) == []
    assert axe_problems(page, "correction") == []


def test_a_wild_names_its_colour_in_one_tap(small_phone: Page) -> None:
    """On the Playable tab each wild that names a colour is a key per colour: one tap.
    After a draw, the count's row turns into its stepper and "No play" in its place."""
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = import_record(page, SITUATIONS["play"])
    t.tap("Wild Draw 10, naming Blue")
    assert logged(page, url).splitlines()[-1] == f"{ANN}: W+10 B"
    t.button("Take 10")

    drew = page.locator("p.drew")
    expect(drew.get_by_label("One more")).to_be_hidden()
    t.at_rest()
    drew.get_by_label("Drew 2").click()
    expect(drew.get_by_label("Drew 2")).to_be_hidden()
    expect(page.locator("#drawn")).to_have_value("2")
    expect(drew.get_by_role("button", name="No play")).to_be_visible()
    t.at_rest()  # the keys moved under the thumb: they take no tap for a moment
    drew.get_by_label("One more").click()
    expect(page.locator("#drawn")).to_have_value("3")
    assert off_screen(page) == []
    assert axe_problems(page, "drew") == []
    t.tap("Wild Draw 6, naming Green")
    record = logged(page, url)
    assert record.splitlines()[-1] == f"{CORA}: draw 3, W+6 G"

    for move in (page.go_back, page.go_forward, page.reload):
        move()
    expect(page.locator("#table")).to_be_visible()
    assert logged(page, url) == record
    assert page.js_errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- history


def logged(page: Page, table_url: str) -> str:
    return page.request.get(table_url + "/record.txt").text()


QUESTIONS = {  # each follow-up: the link that opens it, and the button that answers it
    "colour": ('.keys a[aria-label="Wild Draw 6"]', "Green (G)"),
    "swap": ('.keys a[aria-label="Red 7"]', CORA),
    "discard": ('.keys a[aria-label="Red Discard All"]', "Play Red Discard All"),
    "catch": (f'a[aria-label="Caught {ANN} without UNO"]', BART),
    "correction": (f'a.seat-box[aria-label^="Correct {CORA}\'s count"]', "Correct the count"),
}
OPEN = "#table form.follow-up, #fix-count"


@pytest.mark.parametrize("question", QUESTIONS)
def test_back_forward_and_reload_never_record(small_phone: Page, question: str) -> None:
    """The Back bug: Dee played Wild +10 and chose Blue; Back showed "Which colour does
    Ann name?" above the current table, and one tap recorded `Ann: W+10 G`."""
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    record = SITUATIONS["uno-window" if question == "catch" else "play"]
    url = import_record(page, record)
    page.goto(page.base_url + "/")  # type: ignore[attr-defined]
    page.goto(url)
    if question == "colour":  # a wild asks its colour on the Wild tab
        t.tab("Wild")
    entries = page.evaluate("history.length")
    link, answer = QUESTIONS[question]

    # Asked and answered on the table: no history entry; the address stays the table's.
    page.locator(link).click()
    expect(page.locator(OPEN)).to_be_visible()
    assert (page.evaluate("history.length"), page.url) == (entries, url)
    t.button(answer)
    assert (page.evaluate("history.length"), page.url) == (entries, url)
    record = logged(page, url)

    # Back leaves the table (none of its questions is in the history); forward and
    # reload show the table as it is, no question open, nothing recorded.
    page.go_back()
    assert page.url != url and page.locator("#table").count() == 0
    page.go_forward()
    expect(page.locator("#table")).to_be_visible()
    assert page.url == url and page.locator(OPEN).count() == 0
    page.reload()
    expect(page.locator("#table")).to_be_visible()
    assert page.locator(OPEN).count() == 0
    assert logged(page, url) == record


@pytest.mark.parametrize("question", ["colour", "correction"])
def test_a_question_in_the_history_is_closed_once_answered(
    small_phone: Page, question: str
) -> None:
    """Opened by a real navigation (as without JavaScript), a question is in the history:
    Back and forward bring it back after it was answered; it never records again."""
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    url = import_record(page, SITUATIONS["play"])
    link, answer = QUESTIONS[question]
    if question == "colour":
        t.tab("Wild")
    page.goto(page.base_url + (page.locator(link).get_attribute("href") or ""))  # type: ignore[attr-defined]
    expect(page.locator(OPEN)).to_be_visible()
    t.button(answer)
    record, version = logged(page, url), str(t.version)

    for move in (page.go_back, page.go_forward, page.reload):
        move()
        expect(page.locator("#table")).to_be_visible()
        button = page.get_by_role("button", name=answer, exact=True)
        if button.count() and button.is_visible():  # a page the browser kept: tap it
            button.click()
        # The table as it is now (the poller, or the answer to that tap, brings it).
        expect(page.locator("#table")).to_have_attribute("data-version", version)
        assert logged(page, url) == record
    # Shown afresh, the question's address says the table moved on, and asks nothing.
    page.goto(page.url)
    expect(page.locator(".alert.notice")).to_contain_text("moved on since that question")
    assert page.locator(OPEN).count() == 0
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_knockout_leaves_the_next_players_keys_above_the_dock(small_phone: Page) -> None:
    """The bug: the knockout's notice pushed the answering keys under the bottom bar.
    Now the knockout is the line at the top, two lines at most, the keys where they were."""
    page = small_phone
    t = Table(page, page.base_url)  # type: ignore[attr-defined]
    import_record(page, HEADER + f"{BART}: has 23\n{ANN}: R+2\n")
    t.button("Take 2")
    expect(page.locator("section.recorded")).to_contain_text("is knocked out")
    t.expect_turn(CORA)
    expect(page.locator(".keys").get_by_label("Red 4", exact=True)).to_be_visible()
    assert off_screen(page) == []
    shot(page, "one-hand-knockout", "phone")
