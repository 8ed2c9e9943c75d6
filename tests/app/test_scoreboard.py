"""The scoreboard: totals, the hand-by-hand table, the chart, and the winner celebrated."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.app.helpers import Page, Tabletop


def play_hand(tabletop: Tabletop, match_id: str, winner: str, card: str, **reveals: int) -> Page:
    """A short hand: the winner corrects to one card and plays it; the others reveal points."""
    tabletop.play_lines(match_id, f"{winner}: has 1", f"{winner}: {card}")
    page = tabletop.page(match_id)
    for name, points in reveals.items():
        page = tabletop.reveal(match_id, name, points=points)
        assert page.status == 303, tabletop.problem(page)
    return page


def totals(page: Page) -> list[str]:
    return [li.text for li in page.doc.one("ol", cls="totals").find_all("li")]


def test_before_any_hand(tabletop: Tabletop, started: str) -> None:
    page = tabletop.get(f"/m/{started}/scores")
    assert page.status == 200
    assert "No hand scored yet." in page.text
    assert "Totals (target 1000)" in page.text
    assert [t.split()[:2] for t in totals(page)] == [["Ann", "0"], ["Bob", "0"], ["Cy", "0"]]
    assert page.doc.find(cls="celebrate") is None


def test_totals_hands_and_chart(tabletop: Tabletop, started: str) -> None:
    play_hand(tabletop, started, "Ann", "R3", Bob=40, Cy=15)
    tabletop.press(started, text="Next hand")
    tabletop.play_lines(started, "start: G3")
    play_hand(tabletop, started, "Bob", "G4", Ann=20, Cy=100)

    page = tabletop.get(f"/m/{started}/scores")

    assert page.status == 200
    assert tabletop.state(started)["scores"] == {"Ann": 55, "Bob": 120, "Cy": 0}
    assert [t.split()[:2] for t in totals(page)] == [["Bob", "120"], ["Ann", "55"], ["Cy", "0"]]
    assert "880 to go" in totals(page)[0]
    rows = page.doc.one("table", cls="hands").one("tbody").find_all("tr")
    cells = [[c.text for c in row.children if not isinstance(c, str)] for row in rows]
    # The winner's cell says so (a drawn trophy, and words for a screen reader).
    assert cells == [["1", "won, 55", "", ""], ["2", "", "won, 120", ""]]
    svg = page.doc.one("svg")
    lines = svg.find_all("polyline")
    assert len(lines) == 3
    assert all(len(line["points"].split()) == 3 for line in lines)  # start, hand 1, hand 2
    # Lines that run together stay apart without colour: each its own dashes.
    assert len({line.get("stroke-dasharray", "solid") for line in lines}) == 3
    units = [t.text for t in svg.find_all("text") if "unit" in t.classes]
    assert units == ["points", "hands"]
    assert "Ann" in page.doc.one(cls="legend").text
    links = [a["href"] for a in page.doc.find_all("a")]
    assert f"/m/{started}" in links and f"/m/{started}/record.txt" in links


def test_the_match_winner_is_celebrated(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], dealer="2", target="100")
    tabletop.play_lines(match_id, "start: R5")
    play_hand(tabletop, match_id, "Cy", "R3", Ann=60, Bob=45)

    page = tabletop.get(f"/m/{match_id}/scores")

    celebrate = page.doc.one(cls="celebrate")
    assert "Cy wins the match!" in celebrate.text
    assert "105 points" in celebrate.text
    (link,) = [a for a in celebrate.find_all("a") if "New match, same players" in a.text]
    assert parse_qs(urlsplit(link["href"]).query) == {"players": ["Ann, Bob, Cy"]}
    again = tabletop.get(link["href"])
    values = again.forms("/new")[0].values()
    assert [values[f"players-{i}"] for i in range(4)] == ["Ann", "Bob", "Cy", ""]
    assert "reached the target" in totals(page)[0]


def test_low_scoring_celebrates_the_lowest(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], scoring="low", target="30")
    tabletop.play_lines(match_id, "start: R5")
    play_hand(tabletop, match_id, "Ann", "R3", Bob=12, Cy=40)
    page = tabletop.get(f"/m/{match_id}/scores")
    assert "Ann wins the match!" in page.doc.one(cls="celebrate").text
    assert "lowest total" in page.doc.one(cls="celebrate").text
    assert [t.split()[:2] for t in totals(page)] == [["Ann", "0"], ["Bob", "12"], ["Cy", "40"]]


def test_a_knockout_is_marked_in_its_hand(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Bob: has 20", "Ann: W+6 B", "Bob: take")
    play_hand(tabletop, started, "Cy", "B5", Ann=10)
    page = tabletop.get(f"/m/{started}/scores")
    row = page.doc.one("table", cls="hands").one("tbody").one("tr")
    assert "(out)" in row.text
    assert tabletop.state(started)["scores"]["Cy"] == 260


def test_an_unknown_scoreboard_is_a_404(tabletop: Tabletop) -> None:
    page = tabletop.get("/m/unknown/scores")
    assert page.status == 404 and "Nothing here" in page.text
