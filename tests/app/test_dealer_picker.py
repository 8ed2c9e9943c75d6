"""The new-match form's dealer: a radio beside each name row, so the table picks a name
it typed, not "Player 3"; none ticked (or "last") is the last name listed."""

from __future__ import annotations

import pytest

from tests.app.helpers import Page, Tabletop, dealer_field


def ticked(page: Page) -> list[str]:
    return [
        r["value"]
        for r in page.doc.find_all("input", type="radio", name="dealer")
        if "checked" in r.attrs
    ]


def test_each_name_row_has_its_dealer_radio(tabletop: Tabletop) -> None:
    page = tabletop.get("/new")
    for row in range(1, 7):
        name = page.by_id(f"players-{row - 1}")
        radio = page.by_id(f"dealer-{row}")
        assert name is not None and radio is not None
        # Beside the name, in the same row, with a label that says which row it is.
        assert name.parent is not None and radio in list(name.parent.iter())
        label = radio.ancestor("label")
        assert label is not None and label.text == f"Player {row} deals"
    assert ticked(page) == []  # nothing typed yet: the help says who deals then
    assert "last name listed deals" in page.text


def test_the_same_players_tick_the_last_name(tabletop: Tabletop) -> None:
    page = tabletop.get("/new", query_string={"players": "Ann, Bob, Cy"})
    assert ticked(page) == ["3"]


def test_the_ticked_row_deals(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], dealer="1")
    assert tabletop.state(match_id)["dealer"] == "Ann"
    assert "Ann deals. Bob plays first." in tabletop.pages[match_id].text


@pytest.mark.parametrize("dealer", [None, "last"])
def test_none_ticked_the_last_name_deals(tabletop: Tabletop, dealer: str | None) -> None:
    """A form from before the radios posted "last"; one with none ticked posts nothing."""
    match_id = tabletop.create(["Ann", "", "Bob", "", "Cy", ""], dealer=dealer)
    assert tabletop.state(match_id)["dealer"] == "Cy"


def test_a_row_counts_as_typed_even_after_a_gap(tabletop: Tabletop) -> None:
    """Row 3 is the third row on the screen, whatever the rows above hold."""
    match_id = tabletop.create(["Ann", "", "Bob", "Cy"], dealer="3")
    assert tabletop.state(match_id)["dealer"] == "Bob"


@pytest.mark.parametrize("row", ["2", "4", "6"])
def test_a_dealer_row_without_a_name_is_refused(tabletop: Tabletop, row: str) -> None:
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "", "Cy"], dealer=row))
    assert page.status == 422
    error = page.by_id(f"dealer-{row}-error")
    assert error is not None and error.text == "The dealer's row has no name."
    assert error.parent is not None and page.by_id(f"dealer-{row}") in list(error.parent.iter())
    assert page.by_id(f"dealer-{row}")["aria-describedby"] == f"dealer-{row}-error"
    assert ticked(page) == [row]  # what was chosen stays chosen
    assert tabletop.match_count() == 0


def test_a_refusal_elsewhere_keeps_the_dealer(tabletop: Tabletop) -> None:
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "ann", "Cy"], dealer="1"))
    assert page.status == 422
    assert ticked(page) == ["1"]
    # And unticked, the page ticks the last name typed: what it would have done.
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "ann", "Cy"]))
    assert ticked(page) == ["3"]


def test_a_value_no_radio_offers_is_said_plainly(tabletop: Tabletop) -> None:
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "Bob"], dealer="7"))
    assert page.status == 422
    error = page.by_id("dealer-error")
    assert error is not None and error.text.startswith("Dealer:")
    assert tabletop.match_count() == 0


@pytest.mark.parametrize("dealer", ["Ann", "bob", "  Cy  Lee "])
def test_dealer_field_is_the_inverse_of_the_form(tabletop: Tabletop, dealer: str) -> None:
    players = ["Ann", "Bob", "Cy Lee"]
    match_id = tabletop.create(players, dealer=dealer_field(players, dealer))
    assert tabletop.state(match_id)["dealer"].casefold() == " ".join(dealer.split()).casefold()
