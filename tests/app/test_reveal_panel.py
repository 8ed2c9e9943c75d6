"""The end of a hand: the reveal panel (one loser at a time, a card keyboard whose keys
carry the engine's points), a refused reveal shown at its form with what was entered,
and the hand-over screen with the hand's breakdown and the match totals."""

from __future__ import annotations

import pytest

from engine import ALL_CARDS, EngineError, Game, score_breakdown
from tests.app.helpers import Node, Page, Tabletop

WON = ("Ann: has 1", "Ann: R3")  # Ann wins hand 1 of the `started` match; Bob and Cy reveal


def reveal_form(page: Page, player: str) -> Node:
    (form,) = [f for f in page.forms("/reveal") if f.values()["player"] == player]
    return form.node


def chosen(page: Page) -> list[str]:
    """The losers whose form the screen shows first (the script shows that one alone)."""
    return [f.values()["player"] for f in page.forms("/reveal") if "data-chosen" in f.node.attrs]


def engine_refusal(*lines: str) -> str:
    game = Game(["Ann", "Bob", "Cy"])
    for line in lines[:-1]:
        game.apply(line)
    with pytest.raises(EngineError) as refused:
        game.apply(lines[-1])
    return refused.value.message


def test_a_refused_reveal_comes_back_with_the_cards_and_the_reason_at_the_form(
    tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, *WON)
    page = tabletop.reveal(started, "Cy", cards="R5 W+6")  # Cy holds 7

    assert page.status == 422
    assert chosen(page) == ["Cy"]  # the loser it was for, not the first one
    form = reveal_form(page, "Cy")
    assert form.one("input", name="cards")["value"] == "R5 W+6"
    alert = form.one(cls="reveal-refused")
    assert alert["role"] == "alert"
    assert engine_refusal("start: R5", *WON, "Cy: reveals R5 W+6") in alert.text
    assert [a["href"].rsplit("#", 1)[1] for a in alert.find_all("a")] == ["cards"]
    # Bob's form is as it was: nothing of Cy's in it, no reason.
    bob = reveal_form(page, "Bob")
    assert bob.one("input", name="cards").get("value") == ""
    assert bob.find(cls="reveal-refused") is None


def test_a_reveal_that_does_not_match_the_count_offers_the_correction_in_place(
    tabletop: Tabletop, started: str
) -> None:
    """Plain words, never the record's wording ("has 2"), and the correction one tap away
    from the very form, its cards kept for the second try."""
    tabletop.play_lines(started, *WON)
    page = tabletop.reveal(started, "Cy", cards="R5 W+6")  # Cy holds 7 by the count
    alert = reveal_form(page, "Cy").one(cls="reveal-refused")
    assert "Cy showed 2 cards, but the table counted 7 cards" in alert.text
    assert "has 2" not in alert.text
    page = tabletop.press(started, "has", page=page)
    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Cy: has 2"
    assert tabletop.reveal(started, "Cy", cards="R5 W+6").status == 303


def test_every_losers_count_is_correctable_at_the_end_of_the_hand(
    tabletop: Tabletop, started: str
) -> None:
    page = tabletop.play_lines(started, *WON)
    for name in ("Bob", "Cy"):
        # Without JavaScript under its heading; with the keyboard beside the count.
        plain, keyed = reveal_form(page, name).find_all("a", cls="fix-count")
        assert plain.text.strip() == "Correct the count"
        assert keyed["aria-label"] == f"Correct {name}'s count (7 cards)"
        assert plain["href"] == keyed["href"]
        fix = tabletop.get(keyed["href"])
        assert fix.doc.one("form", cls="fix").one("input", name="count")["value"] == "7"


def test_refused_points_and_an_empty_reveal_are_kept_at_the_form(
    tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, *WON)
    page = tabletop.reveal(started, "Bob")
    assert page.status == 422 and chosen(page) == ["Bob"]
    assert "Enter Bob's cards" in reveal_form(page, "Bob").one(cls="reveal-refused").text

    page = tabletop.reveal(started, "Cy", points="-5")
    assert page.status == 422 and chosen(page) == ["Cy"]
    assert reveal_form(page, "Cy").one("input", name="points")["value"] == "-5"


def test_the_first_loser_is_chosen_and_a_reveal_leaves_nothing_behind(
    tabletop: Tabletop, started: str
) -> None:
    page = tabletop.play_lines(started, *WON)
    assert chosen(page) == ["Bob"]
    chips = page.doc.one(cls="reveal-chips").find_all("button")
    assert [(c.text, c["aria-pressed"]) for c in chips] == [("Bob", "true"), ("Cy", "false")]

    page = tabletop.reveal(started, "Bob", cards="R1 R2 R3 R4 R5 R6 R7")
    assert page.status == 303
    assert chosen(page) == ["Cy"]
    assert page.doc.find(cls="reveal-chips") is None  # one loser left: nobody to choose
    assert reveal_form(page, "Cy").one("input", name="cards").get("value") == ""
    assert page.doc.find(cls="reveal-refused") is None


def test_each_key_carries_the_engines_points(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, *WON)
    keys = page.doc.one(cls="reveal-keys").find_all("button", cls="reveal-key")
    assert [k["data-code"] for k in keys] == [str(card) for card in ALL_CARDS]
    for key, card in zip(keys, ALL_CARDS, strict=True):
        assert key["data-points"] == str(card.points)
        assert key["aria-label"] == card.name
        assert key["type"] == "button"  # a key collects a card; it never posts
    tabs = page.doc.one(cls="reveal-tabs").find_all("button")
    assert [t.text for t in tabs] == ["R Red", "Y Yellow", "G Green", "B Blue", "W Wild"]


def test_the_count_is_the_engines_in_a_played_hand(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Bob: has 12", *WON)
    state = tabletop.state(started)
    for name in ("Bob", "Cy"):
        form = reveal_form(page, name)
        assert form["data-held"] == str(state["hands"][name])
        assert f"{name} reveals {state['hands'][name]} cards" in form.text


def test_a_quick_hand_gives_no_count(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick")
    page = tabletop.line(match_id, "Ann", "wins")
    # A quick hand's losers come up on the keypad, one at a time, points only.
    (form,) = page.forms("/reveal")
    assert "data-held" not in form.node.attrs
    assert form.node.one("h3").text == "Bob"
    assert "7 cards" not in page.doc.one(cls="actions").text


def hand_over_totals(page: Page) -> list[list[str]]:
    table = page.doc.one("table", cls="hand-totals")
    return [
        [cell.text for cell in row.children if not isinstance(cell, str)]
        for row in table.one("tbody").find_all("tr")
    ]


def test_the_hand_over_shows_the_breakdown_and_the_match_totals(
    tabletop: Tabletop, started: str
) -> None:
    tabletop.play_lines(started, *WON)
    tabletop.reveal(started, "Bob", points=40)
    page = tabletop.reveal(started, "Cy", cards="R5 W+6 G2 Y0 B9 R+2 WCR")
    assert page.status == 303 and page.turn == "Hand 1 scored"

    actions = page.doc.one(cls="actions")
    game = Game(["Ann", "Bob", "Cy"])
    for line in ("start: R5", *WON, "Bob: reveals 40", "Cy: reveals R5 W+6 G2 Y0 B9 R+2 WCR"):
        game.apply(line)
    state = game.state
    breakdown = score_breakdown(state)
    assert breakdown is not None and breakdown in actions.text
    target = state.rules.target
    assert f"Match totals, target {target}" in actions.one("caption").text
    ann = state.scores[0]
    assert hand_over_totals(page) == [
        ["Ann", str(ann), f"+{ann}", str(target - ann)],
        ["Bob", "0", "", str(target)],
        ["Cy", "0", "", str(target)],
    ]
    assert "Next hand: Ann deals" in actions.text


def test_a_quick_hand_scored_shows_the_totals_too(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick")
    tabletop.line(match_id, "Bob", "wins")
    tabletop.reveal(match_id, "Cy", points=30)
    page = tabletop.reveal(match_id, "Ann", points=12)
    assert page.turn == "Hand 1 scored"
    rows = hand_over_totals(page)
    assert rows[0][:3] == ["Bob", "42", "+42"]
    assert {row[0] for row in rows} == {"Ann", "Bob", "Cy"}
    assert "Bob scores 42" in page.doc.one(cls="actions").text
