"""The rules page: an anchor for every rule id refusals link to, and the referee desk."""

from __future__ import annotations

import pytest

from tests.app.helpers import Node, Tabletop

RULE_IDS = [
    "cards", "setup", "turn", "match", "stack", "wild-color", "swap", "discard-all",
    "roulette", "draw", "mercy", "uno", "scoring", "hand-over", "syntax",
]  # fmt: skip


def desk(tabletop: Tabletop, **query: str) -> tuple[int, Node]:
    page = tabletop.get("/rules", query_string=query)
    box = page.by_id("desk")
    assert box is not None
    return page.status, box


def test_every_rule_id_has_an_anchor(tabletop: Tabletop) -> None:
    page = tabletop.get("/rules")
    assert page.status == 200
    for rule in RULE_IDS:
        node = page.by_id(rule)
        assert node is not None, f"no element with id={rule}"
        assert f"[{rule}]" in node.text
        # The id is the rule's alone: a /rules#stack link lands on the rule, not a field.
        assert len(page.doc.find_all(id_=rule)) == 1, rule
        assert node.tag in ("h2", "h3", "h4", "section"), node.tag


def test_every_refusal_rule_links_to_an_anchor(tabletop: Tabletop) -> None:
    from engine.core import errors

    page = tabletop.get("/rules")
    known = {n["id"] for n in page.doc.iter() if "id" in n.attrs}
    assert set(RULE_IDS) <= known
    rules_named = {v for k, v in vars(errors).items() if k.isupper() and isinstance(v, str)}
    assert rules_named <= known | {""}


def test_the_desk_refuses_a_card_that_does_not_match(tabletop: Tabletop) -> None:
    status, box = desk(tabletop, top="R5", color="", stack="", stack_rule="last", card="G3")
    assert status == 200
    alert = box.one(cls="alert")
    assert "Not allowed" in alert.text
    assert alert.find("a", href="#match") is not None


def test_the_desk_allows_a_match(tabletop: Tabletop) -> None:
    _, box = desk(tabletop, top="R5", color="", stack="", stack_rule="last", card="G5")
    alert = box.one(cls="alert")
    assert "Allowed" in alert.text and "Not allowed" not in alert.text
    assert alert.find("a", href="#match") is not None


def test_the_desk_on_a_stack(tabletop: Tabletop) -> None:
    position = {"top": "R+4", "color": "", "stack": "8"}
    _, box = desk(tabletop, **position, stack_rule="last", card="W+6")
    assert "Allowed" in box.one(cls="alert").text and "+14" in box.one(cls="alert").text
    _, box = desk(tabletop, **position, stack_rule="sum", card="W+6")
    alert = box.one(cls="alert")
    assert "Not allowed" in alert.text and alert.find("a", href="#stack") is not None
    _, box = desk(tabletop, **position, stack_rule="last", card="RS")
    alert = box.one(cls="alert")
    assert "Not allowed" in alert.text and alert.find("a", href="#stack") is not None


def test_the_desk_keeps_the_position_in_the_form(tabletop: Tabletop) -> None:
    page = tabletop.get("/rules", query_string={"top": "W+6", "color": "G", "card": "G3"})
    values = page.doc.one("form", method="get").find_all("select")
    chosen = {
        s["name"]: [o["value"] for o in s.find_all("option") if "selected" in o.attrs]
        for s in values
    }
    assert chosen["top"] == ["W+6"] and chosen["color"] == ["G"] and chosen["card"] == ["G3"]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"top": "R5", "stack": "4", "card": "R+2"}, "only when a Draw card is on top"),
        ({"top": "W+6", "color": "", "card": "R+2"}, "say which colour"),
        ({"top": "R+4", "stack": "2", "card": "R+4"}, "at least +4"),
        ({"top": "ZZ", "card": "R+2"}, "top"),
        ({"top": "R5", "card": "R55"}, "card"),
        ({"top": "R+2", "stack": "lots", "card": "R+2"}, "stack"),
        ({"top": "R+2", "stack": "9" * 5000, "card": "R+2"}, "stack"),
        ({"top": "R5", "stack_rule": "most", "card": "R+2"}, "stack_rule"),
        ({"top": "R5", "color": "purple", "card": "R+2"}, "color"),
    ],
)
def test_a_bad_position_gets_a_clear_message(
    tabletop: Tabletop, query: dict[str, str], words: str
) -> None:
    status, box = desk(tabletop, **query)
    assert status == 200
    alert = box.one(cls="alert")
    assert words in alert.text
    assert "Allowed" not in alert.text


def test_a_negative_stack_is_not_a_position(tabletop: Tabletop) -> None:
    status, box = desk(tabletop, top="R+2", stack="-3", card="R+2")
    assert status == 200
    alert = box.one(cls="alert")
    assert "Allowed" not in alert.text
    assert "+-" not in alert.text  # a clear message, not "at least +2, not +-3"


def test_a_stack_no_deck_can_make_is_not_a_position(tabletop: Tabletop) -> None:
    _, box = desk(tabletop, top="R+2", stack="99999999999999999999", card="R+2")
    assert "Allowed" not in box.one(cls="alert").text
