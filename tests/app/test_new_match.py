"""The new-match form: what it offers, the match it creates, and every refusal beside its field."""

from __future__ import annotations

import pytest
from flask import Flask

from engine import HouseRules, rule_fields
from tests.app.helpers import Page, Tabletop


def test_the_form_offers_six_seats_and_the_official_rules(tabletop: Tabletop) -> None:
    page = tabletop.get("/new")
    assert page.status == 200
    (form,) = page.forms("/new")
    values = form.values()
    assert [values.get(f"players-{i}") for i in range(7)] == [""] * 6 + [None]
    assert "dealer" not in values  # no row ticked yet: the last name listed deals
    assert values["mode"] == "referee"
    official = rule_fields(HouseRules())
    assert {k: values.get(k) for k in official} == official  # unticked boxes send nothing
    radios = [r["value"] for r in page.doc.find_all("input", type="radio", name="dealer")]
    assert radios == ["1", "2", "3", "4", "5", "6"]  # one beside each name row


def test_a_new_match_goes_to_its_table(tabletop: Tabletop, app: Flask) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"])
    page = tabletop.pages[match_id]
    assert page.status == 303 and page.response.status_code == 200
    assert page.version == 0
    assert "Cy deals. Ann plays first." in page.text
    with app.app_context():
        match = tabletop.match(match_id)
        assert (match.players, match.dealer, match.rules, match.mode) == (
            "Ann, Bob, Cy",
            "Cy",
            "official",
            "referee",
        )
    assert tabletop.logged(match_id) == []


def test_names_are_tidied_and_empty_seats_skipped(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["  Ann   Lee ", "", "Bob", "", "", ""])
    state = tabletop.state(match_id)
    assert state["players"] == ["Ann Lee", "Bob"]
    assert state["dealer"] == "Bob"


def test_dealer_seat_and_house_rules_reach_the_match(tabletop: Tabletop, app: Flask) -> None:
    rules = HouseRules(
        stack="sum", draw="one", mercy=30, final_draw=True, seven=False, zero=False,
        target=500, scoring="low",
    )  # fmt: skip
    match_id = tabletop.create(["Ann", "Bob", "Cy", "Dee"], dealer="2", **rule_fields(rules))
    with app.app_context():
        match = tabletop.match(match_id)
        assert match.dealer == "Bob"
        assert HouseRules.parse(match.rules) == rules
    state = tabletop.state(match_id)
    assert state["dealer"] == "Bob" and state["rules"] == str(rules)
    assert "Cy plays first" in tabletop.table(match_id).text


def test_mercy_can_be_switched_off(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"], mercy_on=None, mercy="")
    assert HouseRules.parse(tabletop.state(match_id)["rules"]).mercy is None
    assert "/25" not in tabletop.table(match_id).doc.one(cls="seats").text


def test_quick_mode_is_kept(tabletop: Tabletop, app: Flask) -> None:
    match_id = tabletop.create(["Ann", "Bob"], mode="quick")
    with app.app_context():
        assert tabletop.match(match_id).mode == "quick"


def test_same_players_link_prefills_the_names(tabletop: Tabletop) -> None:
    page = tabletop.get("/new", query_string={"players": "Ann, Bob ,Cy"})
    values = page.forms("/new")[0].values()
    assert [values[f"players-{i}"] for i in range(4)] == ["Ann", "Bob", "Cy", ""]


# ---------------------------------------------------------------- refusals


def error_beside(page: Page, field_id: str) -> str:
    """The error shown next to the field (the macro's <p class=error id=FIELD-error>)."""
    node = page.by_id(f"{field_id}-error")
    assert node is not None, f"no error beside {field_id}: {page.doc.find_all(cls='error')}"
    field = page.by_id(field_id)
    assert field is not None
    # The message is in the same block as the field (its <li> or its <div class=field>).
    box = node.parent
    assert box is not None and field in list(box.iter()), "the error is not beside the field"
    return node.text


@pytest.mark.parametrize(
    ("players", "fields", "field_id", "message"),
    [
        (["Ann", "ann", "Cy"], {}, "players-1", "same name"),
        (["ANN", "Bob", "ann"], {}, "players-2", "same name"),
        (["Ann", "B" * 21], {}, "players-1", "longer than 20"),
        (["Ann", "Bo:b"], {}, "players-1", "can't contain"),
        (["Ann", "Bo,b"], {}, "players-1", "can't contain"),
        (["Ann", "Bo#b"], {}, "players-1", "can't contain"),
        (["Ann", "Bob", "Cy"], {"dealer": "4"}, "dealer-4", "The dealer's row has no name."),
        (["Ann", "Bob"], {"dealer": "6"}, "dealer-6", "The dealer's row has no name."),
        (["Ann", "Bob"], {"mercy": ""}, "mercy", "Mercy limit"),
        (["Ann", "Bob"], {"mercy": "7"}, "mercy", "From 8 to 100"),
        (["Ann", "Bob"], {"mercy": "101"}, "mercy", "From 8 to 100"),
        (["Ann", "Bob"], {"target": "0"}, "target", "From 1 to 100000"),
        (["Ann", "Bob"], {"target": "100001"}, "target", "From 1 to 100000"),
        (["Ann", "Bob"], {"target": "-5"}, "target", "From 1 to 100000"),
        (["Ann", "Bob"], {"target": ""}, "target", "score that ends the match"),
    ],
)
def test_refused_beside_the_field(
    tabletop: Tabletop, players: list[str], fields: dict[str, str], field_id: str, message: str
) -> None:
    data = tabletop.new_match_values(players, **fields)
    page = tabletop.post("/new", data)
    assert page.status == 422
    assert message in error_beside(page, field_id)
    assert tabletop.match_count() == 0
    # What was typed is still there.
    values = page.forms("/new")[0].values()
    assert [values[f"players-{i}"] for i in range(len(players))] == players


def test_fewer_than_two_names(tabletop: Tabletop) -> None:
    for names in (["Ann"], [], ["", " ", "Ann"]):
        page = tabletop.post("/new", tabletop.new_match_values(names))
        assert page.status == 422
        names_box = page.by_id("players-0").ancestor("fieldset")
        assert names_box is not None and "Enter at least 2 names." in names_box.text
    assert tabletop.match_count() == 0


def test_a_header_word_is_not_a_name(tabletop: Tabletop) -> None:
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "Start"]))
    assert page.status == 422
    assert "header word" in page.by_id("players-0").ancestor("fieldset").text
    assert tabletop.match_count() == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"dealer": "abc"},
        {"dealer": ""},
        {"dealer": "0"},
        {"dealer": "-1"},
        {"dealer": "9" * 5000},
        {"dealer": "٣"},
        {"mode": "turbo"},
        {"stack": "most"},
        {"scoring": ""},
        {"mercy": "lots"},
        {"target": "1e3"},
        {"target": "9" * 5000},
    ],
)
def test_values_no_field_offers_are_refused(tabletop: Tabletop, fields: dict[str, str]) -> None:
    page = tabletop.post("/new", tabletop.new_match_values(["Ann", "Bob"], **fields))
    assert page.status == 422
    assert page.doc.find(cls="error") is not None
    assert tabletop.match_count() == 0


def test_nothing_is_created_by_a_get(tabletop: Tabletop) -> None:
    page = tabletop.get("/new", query_string={"players-0": "Ann", "players-1": "Bob"})
    assert page.status == 200
    assert tabletop.match_count() == 0
