"""A whole hand of the reference scenario, played by tapping on a table's screen: a
stack, a 7 swap, a colour roulette, a Discard All, a refusal, an undo, a Mercy knockout,
a UNO catch, the win, a reveal and the score (tests/browser/test_hand.py on the server,
tests/browser/test_standalone.py in the phone)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from .table import Table


def play_the_hand(t: Table, shots: Callable[[str], None] = lambda name: None) -> None:
    """From the deal of a new match of Ann, Bob and Cy to hand 1 scored (Ann 256)."""
    t.start("Red 5")
    t.expect_turn("Ann")

    # A stack: +2, +4, a Wild Draw 6 with a colour chosen, then taken.
    t.tap("Red Draw 2")
    expect(t.page.locator(".banner.stack")).to_contain_text("+2 pending")
    t.tab("Blue")
    t.tap("Blue Draw 4")
    t.tab("Wild")
    t.pick("Wild Draw 6")
    shots("follow-up-colour")
    t.button("Green (G)")
    expect(t.page.locator(".banner.stack")).to_contain_text("+12 pending: stacks +6 or more")
    t.expect_turn("Ann")
    shots("stack")
    t.button("Take 12")
    assert t.count("Ann") == "18/25"

    # A 7 swap.
    t.expect_turn("Bob")
    t.pick("Green 7")
    t.button("Ann")
    assert t.count("Ann") == "5/25" and t.count("Bob") == "18/25"

    # A colour roulette.
    t.tab("Wild")
    t.tap("Wild Colour Roulette")
    expect(t.page.locator(".banner.roulette")).to_be_visible()
    shots("roulette")
    t.roulette("Yellow (Y)", 3)
    assert t.count("Ann") == "8/25"

    # A Discard All taking two more yellow cards.
    t.expect_turn("Bob")
    t.discard_all("Yellow Discard All", 2)
    assert t.count("Bob") == "15/25"

    # An illegal tap is explained, with the rule.
    t.expect_turn("Cy")
    t.tab("Red")
    text = t.refused_tap("Red 3")
    assert "Cy can't play Red 3" in text
    expect(t.page.locator('.alert.refused a[href$="#match"]')).to_be_visible()
    shots("refused")

    # A mis-tap, undone.
    t.tab("Yellow")
    t.tap("Yellow 3")
    assert t.undo() == "Undo: Cy played Yellow 3."
    t.expect_turn("Cy")
    t.tap("Yellow 4")

    # A Mercy knockout: Bob really holds 24, takes 2 and is out at the first (25).
    t.correct("Bob", 24)
    t.expect_turn("Ann")
    t.tap("Yellow Draw 2")
    t.button("Take 2")
    expect(t.page.locator(".recorded")).to_contain_text("Bob reached 25 cards and is knocked out")
    expect(t.page.locator(".seat", has_text="Bob").locator(".badge")).to_have_text("OUT")

    # A UNO catch.
    t.correct("Cy", 2)
    t.expect_turn("Cy")
    t.tap("Yellow 5")
    expect(t.page.locator(".uno-row")).to_contain_text("Cy has one card")
    shots("uno")
    t.catch("Cy", "Ann")
    assert t.count("Cy") == "3/25"

    # The winning card, the reveals, the score.
    t.correct("Ann", 1)
    t.tap("Yellow 9")
    t.expect_turn("Ann wins the hand")
    shots("reveal")
    t.reveal("Cy", "R1 G2 B3")
    t.expect_turn("Hand 1 scored")
    expect(t.page.locator(".actions")).to_contain_text(
        "Ann scores 256 = 6 from Cy + 250 for Bob, knocked out"
    )
