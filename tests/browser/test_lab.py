"""The house-rule lab on a small phone: a small comparison started through the form, its
progress bar filling (htmx polls it), then its summary, figures and charts; no sideways
scroll and no serious accessibility violation, in the light and the dark scheme
(screenshots)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import SIDEWAYS, axe_violations, shot

# The progress bar's value, or None once the run's result replaced it.
PROGRESS = """() => {
    const bar = document.querySelector("#lab-progress");
    return bar ? Number(bar.getAttribute("value") || 0) : null;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_comparison_runs_and_its_result_fits_a_small_phone(
    small_phone: Page, scheme: str
) -> None:
    page = small_phone
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(page.base_url + "/")  # type: ignore[attr-defined]
    page.click("a:text('House-rule lab')")
    page.check("#b-stack-1")  # B: stack on the total
    page.fill("#hands", "400")
    page.click(".stepper:has(#players) button[data-step='-1']")  # a stepper: 3 players
    assert page.input_value("#players") == "3"
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"lab-form-{scheme}", "small")
    assert axe_violations(page) == []
    page.click("button:text('Compare')")
    page.wait_for_url("**/lab/*")
    # The bar fills while the worker plays: htmx swaps the fresh part in every second.
    # Read in one step: between "is it there" and "its value" the swap that ends the run
    # can take it away (a 10 s wait for a bar that never comes back, once in CI).
    seen = []
    for _ in range(120):
        value = page.evaluate(PROGRESS)
        if value is None:
            break
        seen.append(value)
        page.wait_for_timeout(250)
    assert seen, "no progress bar was shown"
    assert seen == sorted(seen)
    page.wait_for_selector(".lab-summary", timeout=60_000)
    assert "stack=sum" in page.locator(".lab-summary").inner_text()
    assert page.locator("svg.chart[role='img']").count() == 2
    assert page.locator(".lab-figures tbody tr").count() == 9
    assert page.evaluate(SIDEWAYS) <= 0
    shot(page, f"lab-result-{scheme}", "small")
    assert axe_violations(page) == []
    assert page.js_errors == []  # type: ignore[attr-defined]
