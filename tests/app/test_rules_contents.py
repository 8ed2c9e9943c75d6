"""The rules page's contents list, a link to every section, and the way back to a table
(`/rules?table=<match id>`, the table's own link to the rules)."""

from __future__ import annotations

import pytest

from tests.app.helpers import Page, Tabletop, phone
from tests.app.test_rules_page import RULE_IDS


def contents_links(page: Page) -> list[str]:
    nav = page.doc.one("nav", id_="contents")
    return [a["href"] for a in nav.find_all("a")]


def back_links(page: Page) -> list[str]:
    return [a["href"] for a in page.doc.find_all("a") if a.text == "Back to the table"]


def test_the_contents_link_to_every_section(tabletop: Tabletop) -> None:
    page = tabletop.get("/rules")
    links = contents_links(page)
    headings = [
        h["id"] for h in page.doc.one("article", cls="rules").iter() if h.tag in ("h2", "h3")
    ]
    assert headings, "the rules have sections"
    assert all(headings), "every section has an id"
    assert [f"#{h}" for h in headings] == [link for link in links if link != "#desk"]
    assert "#desk" in links
    for rule in RULE_IDS:
        assert f"#{rule}" in links, rule


def test_the_contents_show_words_not_rule_ids(tabletop: Tabletop) -> None:
    nav = tabletop.get("/rules").doc.one("nav", id_="contents")
    stacking = nav.one("a", href="#stack")
    assert stacking.text == "Stacking"  # the heading says "Stacking [stack]"


def test_every_section_id_is_unique(tabletop: Tabletop) -> None:
    page = tabletop.get("/rules")
    ids = [n["id"] for n in page.doc.iter() if "id" in n.attrs]
    assert len(ids) == len(set(ids))


def test_the_end_of_the_page_leads_back_to_the_contents(tabletop: Tabletop) -> None:
    page = tabletop.get("/rules")
    assert page.doc.find_all("a", href="#contents")
    assert back_links(page) == []  # not from a table: no way back to one


def test_from_a_table_the_page_leads_back_to_it(tabletop: Tabletop, started: str) -> None:
    page = tabletop.get(f"/rules?table={started}")
    assert page.status == 200
    assert back_links(page) == [f"/m/{started}"] * 2  # at the top and at the end
    assert tabletop.get(back_links(page)[0]).status == 200


def test_a_refusals_rule_link_from_a_table(tabletop: Tabletop, started: str) -> None:
    """The anchor is the browser's: the same page, the same way back."""
    page = tabletop.get(f"/rules?table={started}#stack")
    assert back_links(page) == [f"/m/{started}"] * 2
    assert page.by_id("stack") is not None


def test_the_desk_keeps_the_way_back(tabletop: Tabletop, started: str) -> None:
    page = tabletop.get("/rules", query_string={"table": started})
    form = page.doc.one("form", method="get")
    hidden = form.one("input", name="table")
    assert hidden["value"] == started
    # ?table= alone asks the desk nothing.
    assert page.by_id("desk").find(cls="alert") is None
    asked = tabletop.get(
        "/rules", query_string={"table": started, "top": "R5", "card": "G3", "stack": ""}
    )
    assert "Not allowed" in asked.by_id("desk").one(cls="alert").text
    assert back_links(asked) == [f"/m/{started}"] * 2


@pytest.mark.parametrize(
    "value",
    [
        "",
        "nothing-here",  # the shape of an id, but no match this phone has
        '"><script>alert(1)</script>',
        "javascript:alert(1)",
        "a" * 500,
        "../../new",
    ],
)
def test_no_way_back_to_a_table_this_phone_does_not_have(
    tabletop: Tabletop, started: str, value: str
) -> None:
    page = tabletop.get("/rules", query_string={"table": value})
    assert page.status == 200
    assert back_links(page) == []
    if value:
        assert value not in page.html  # never reflected
    assert page.by_id("desk").find(cls="alert") is None


def test_another_phones_table_gets_no_way_back(tabletop: Tabletop, started: str) -> None:
    stranger = phone(tabletop.app)
    page = stranger.get("/rules", query_string={"table": started})
    assert back_links(page) == []
    assert started not in page.html
