"""The referee desk opened from a table: the table's own position, a card tapped (a
link: no JavaScript needed), the answer above the cards."""

from __future__ import annotations

from tests.app.helpers import Page, Tabletop, tab_name


def desk_link(page: Page) -> str:
    (link,) = [a for a in page.doc.find_all("a") if a.text == "Referee desk"]
    return str(link["href"])


def key(page: Page, name: str) -> str:
    (link,) = [a for a in page.doc.find_all("a", cls="key") if a.get("aria-label") == name]
    return str(link["href"])


def tab(page: Page, title: str) -> str:
    (link,) = [a for a in page.doc.find_all("a", cls="tab") if tab_name(a) == title]
    return str(link["href"])


def test_the_desk_starts_from_the_tables_position(tabletop: Tabletop) -> None:
    match_id = tabletop.create(("Ann", "Bob", "Cy"), stack="sum")
    table = tabletop.play_lines(match_id, "start: R5", "Ann: R+4", "Bob: W+6 G")
    desk = tabletop.get(desk_link(table))
    assert desk.status == 200
    said = desk.doc.one(cls="desk-position").text
    assert "Wild Draw 6 on top, on Green (G)" in said
    assert "A stack of +10 is pending." in said and "At least the total" in said
    # The active colour's cards first: the question is one tap away.
    assert tab_name(desk.doc.one("a", cls="active")) == "Green"
    answered = tabletop.get(key(desk, "Green Draw 4"))
    alert = answered.doc.one(cls="desk-answer").one(cls="alert")
    assert "Green Draw 4: not allowed." in alert.text
    assert "a stacked card must reach the pending total, +10 or more" in alert.text
    assert "Rule: stack" in alert.text
    wilds = tabletop.get(tab(answered, "Wild"))
    answered = tabletop.get(key(wilds, "Wild Draw 10"))
    assert "Wild Draw 10: allowed." in answered.doc.one(cls="desk-answer").text
    back = [a for a in answered.doc.find_all("a") if a.text == "Back to the table"]
    assert [a["href"] for a in back] == [f"/m/{match_id}"]


def test_a_desk_on_a_table_with_no_card_yet_says_so(tabletop: Tabletop) -> None:
    match_id = tabletop.create(("Ann", "Bob"))
    desk = tabletop.get(f"/m/{match_id}/desk", query_string={"card": "R5"})
    assert desk.status == 200
    assert "The table has no card to rule on now" in desk.text
    assert desk.doc.find(cls="keys") is None


def test_a_card_the_desk_does_not_know_is_answered_in_plain_words(
    tabletop: Tabletop, started: str
) -> None:
    for code in ("R11", "Z9", "<b>"):
        desk = tabletop.get(f"/m/{started}/desk", query_string={"card": code, "tab": "nope"})
        assert desk.status == 200
        assert desk.doc.one(cls="desk-answer").one(cls="alert").text
        assert tab_name(desk.doc.one("a", cls="active")) == "Red"  # the table's colour


def test_another_position_opens_the_full_desk_filled_in(tabletop: Tabletop, started: str) -> None:
    desk = tabletop.get(f"/m/{started}/desk", query_string={"card": "G3"})
    (link,) = [a for a in desk.doc.find_all("a") if a.text == "Another position"]
    full = tabletop.get(str(link["href"]))
    assert "Not allowed." in full.by_id("desk").one(cls="alert").text  # type: ignore[union-attr]


def test_a_phone_without_the_table_gets_no_desk(tabletop: Tabletop, started: str) -> None:
    stranger = Tabletop(tabletop.app, tabletop.app.test_client())
    assert stranger.get(f"/m/{started}/desk").status in (403, 404)
