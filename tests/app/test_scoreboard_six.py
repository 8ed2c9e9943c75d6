"""The scoreboard with six long names: short column heads that tell them apart, the
full names for a screen reader and in a key, and drawn icons (no emoji, no symbol font)."""

from __future__ import annotations

import re

from companion.views.scores import short_names
from tests.app.helpers import Tabletop

SIX_LONG_NAMES = [
    "Alexandra Whitefield",
    "Alexander Whitefield",
    "Bartholomew Fontaine",
    "Christabel Montagues",
    "Maximilian Ashcrofts",
    "Evangeline Rosewoods",
]  # the longest a typed name may be, the first two alike for 5 letters


def six_hands_record() -> str:
    """Two hands: the first won by seat 1, the second by seat 2; the others reveal."""
    names = SIX_LONG_NAMES
    lines = ["players: " + ", ".join(names), "start: R5", f"{names[0]}: has 1", f"{names[0]}: R3"]
    lines += [f"{name}: reveals {10 * seat}" for seat, name in enumerate(names[1:], start=1)]
    lines += ["hand: 2", "start: G3", f"{names[1]}: has 1", f"{names[1]}: G4"]
    lines += [f"{name}: reveals {5 * seat}" for seat, name in enumerate(names) if seat != 1]
    return "\n".join(lines) + "\n"


def imported(tabletop: Tabletop) -> str:
    page = tabletop.get("/import")
    (form,) = page.forms("/import")
    response = tabletop.client.post("/import", data=form.values() | {"text": six_hands_record()})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"].rsplit("/", 1)[1]


def test_heads_are_short_and_tell_players_apart() -> None:
    assert short_names(["Ann", "Bob", "Cy"]) == ["Ann", "Bob", "Cy"]
    assert short_names(["Ann", "Anna"]) == ["Ann", "Anna"]
    assert short_names(["Alexandra W", "Alexis B", "Bob"]) == ["Alexa", "Alexi", "Bob"]
    heads = short_names(SIX_LONG_NAMES)
    assert heads == ["Ale1", "Ale2", "Bar3", "Chr4", "Max5", "Eva6"]
    assert short_names(["ann", "ANNIE"]) == ["ann", "ANNI"]  # names differ in case only


def test_six_long_names_on_the_scoreboard(tabletop: Tabletop) -> None:
    match_id = imported(tabletop)
    page = tabletop.get(f"/m/{match_id}/scores")
    assert page.status == 200
    table = page.doc.one("table", cls="hands")
    heads = table.one("thead").find_all("th")[1:]
    # Seen: the short head; read out: the whole name.
    assert [h.one("abbr").text for h in heads] == short_names(SIX_LONG_NAMES)
    assert [h.one("abbr")["title"] for h in heads] == SIX_LONG_NAMES
    assert [h.one(cls="sr-only").text for h in heads] == SIX_LONG_NAMES
    key = page.doc.one("ul", cls="heads").text
    for head, name in zip(short_names(SIX_LONG_NAMES), SIX_LONG_NAMES, strict=True):
        assert f"{head} {name}" in key
    rows = table.one("tbody").find_all("tr")
    won = [[i for i, td in enumerate(row.find_all("td")) if "won" in td.classes] for row in rows]
    assert won == [[0], [1]]
    assert rows[0].find_all("td")[0].find("svg") is not None  # the drawn trophy


def test_short_names_need_no_key(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 1", "Ann: R3")
    tabletop.reveal(started, "Bob", points=10)
    tabletop.reveal(started, "Cy", points=10)
    page = tabletop.get(f"/m/{started}/scores")
    assert page.doc.find("ul", cls="heads") is None


def test_the_chart_markers_are_drawn(tabletop: Tabletop) -> None:
    page = tabletop.get(f"/m/{imported(tabletop)}/scores")
    chart = page.doc.one("svg", cls="chart")
    markers = chart.find_all("path", cls="marker")
    assert len(markers) == 6 and all(m["d"] for m in markers)
    assert chart.find("text", cls="marker") is None
    legend = page.doc.one("ul", cls="legend")
    assert len(legend.find_all("svg")) == 6
    assert [li.text for li in legend.find_all("li")] == SIX_LONG_NAMES


def test_no_emoji_or_symbol_font_on_the_scoreboard(tabletop: Tabletop) -> None:
    """Latin-1 at most (the "·" in the title): a glyph from outside needs a font the
    phone may lack, and an emoji looks different on every phone."""
    match_id = imported(tabletop)
    for page in (tabletop.get(f"/m/{match_id}/scores"), tabletop.get("/rules")):
        beyond = sorted(set(re.findall(r"[^\x00-\xff]", page.html)))
        assert beyond == [], beyond


def test_the_match_winners_trophy_is_drawn(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"], target="100")
    tabletop.play_lines(match_id, "start: R5", "Ann: has 1", "Ann: R3")
    tabletop.reveal(match_id, "Bob", points=150)
    page = tabletop.get(f"/m/{match_id}/scores")
    trophy = page.doc.one(cls="celebrate").one(cls="trophy")
    assert trophy.one("svg")["aria-hidden"] == "true"
    assert trophy.text == ""
