"""An argument at a 360x640 table settled on the referee desk in under 5 taps: the
table's position already set, the answer on screen where the card was tapped."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import SIX_LONG_NAMES, axe_violations, shot
from .table import Table

ANN, BART = SIX_LONG_NAMES[:2]


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]  # type: ignore[index]


def test_a_stack_argument_is_settled_in_four_taps(small_phone: Page, server: str) -> None:
    page = small_phone
    Table(page, server).import_record(
        "players: " + ", ".join(SIX_LONG_NAMES) + "\nrules: stack=sum\nstart: R5\n"
        f"{ANN}: R+4\n{BART}: W+6 G\n"
    )
    taps = [
        page.locator(".more summary"),
        page.get_by_role("link", name="Referee desk"),
        page.get_by_role("link", name="Wild", exact=True),
        page.get_by_role("link", name="Wild Draw 10"),
    ]
    for tap in taps:
        tap.tap()
    answer = page.locator(".desk-answer .alert")
    expect(answer).to_contain_text("Wild Draw 10: allowed.")
    expect(answer).to_contain_text("the next player faces +20")
    assert in_view(page, ".desk-answer .alert") and in_view(page, ".desk-position")
    assert axe_violations(page) == []
    shot(page, "desk-from-table", "phone")
    # The next question is one tap: the cards stay under the answer.
    page.get_by_role("link", name="Green", exact=True).tap()
    page.get_by_role("link", name="Green Draw 4").tap()
    expect(answer).to_contain_text("Green Draw 4: not allowed.")
    assert in_view(page, ".desk-answer .alert")
    assert in_view(page, '.keys [aria-label="Green Draw 4"]')
    page.get_by_role("link", name="Back to the table").tap()
    expect(page.locator(".turn")).to_have_text(SIX_LONG_NAMES[2])
    assert page.js_errors == []  # type: ignore[attr-defined]
