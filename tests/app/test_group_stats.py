"""A group's statistics in the app: the leaderboard from the engine's statistics, a
player's page with their figures, results over time and head-to-heads, the charts with
their text alternative, the match's awards beside its winner, kept per match beside its
cached game; a viewer sees it all and changes nothing."""

from __future__ import annotations

from flask import Flask

from companion.match_stats import MatchStatsCache
from tests.app.group_helpers import Crew
from tests.app.helpers import Page, Tabletop
from tests.app.test_groups import finish_quick_match, other_phone, share_links
from tests.app.test_transfer import import_text, new_id
from tests.engine.test_stats import FRIDAY


def moved_in(tabletop: Tabletop, match_id: str) -> Page:
    """More → Group: the match moved into the phone's group (the one offered)."""
    page = tabletop.get(f"/m/{match_id}/group")
    (form,) = page.forms(f"/m/{match_id}/group")
    return tabletop.follow(tabletop.client.post(form.action, data=form.values()))


def friday_group(tabletop: Tabletop) -> tuple[Crew, str, str]:
    """A group holding the hand-written FRIDAY match (five hands, Ann wins), imported
    as "ann, Bob, Cy" and moved in: its ann is the roster's Ann."""
    crew = Crew(tabletop)
    group = crew.create()
    crew.add(group, "Ann")
    match_id = new_id(tabletop, import_text(tabletop, FRIDAY.replace("Ann", "ann")))
    assert moved_in(tabletop, match_id).status == 303
    return crew, group, match_id


def player_link(crew: Crew, group: str, name: str) -> str:
    table = crew.page(group).doc.one("table", cls="leaderboard")
    (link,) = [a["href"] for a in table.find_all("a") if a.text == name]
    return link


def figures(page: Page) -> dict[str, str]:
    listed = page.doc.one("dl", cls="figures")
    return {div.one("dt").text: div.one("dd").text for div in listed.find_all("div")}


def test_the_leaderboard_ranks_by_the_engines_statistics(tabletop: Tabletop) -> None:
    crew, group, _match = friday_group(tabletop)
    assert crew.leaderboard(group) == [
        ["Ann", "1", "1", "1050"],
        ["Bob", "0", "1", "500"],
        ["Cy", "0", "1", "290"],
    ]


def test_a_players_page_has_their_figures_from_a_moved_in_record(tabletop: Tabletop) -> None:
    crew, group, _match = friday_group(tabletop)
    ann = tabletop.get(player_link(crew, group, "Ann"))
    assert ann.status == 200
    assert figures(ann) == {
        "Matches won": "1 of 1",
        "Hands won": "3 of 5",
        "Points": "1050",
        "Hands won by emptying the hand": "2",
        "Hands won as the last player left": "1",
        "Knockouts dealt": "0",
        "Knockouts suffered": "1",
        "Biggest stack taken": "–",
        "Biggest stack sent": "+10",
        "UNO calls missed": "1",
        "Missed UNOs caught": "0",
        "Average cards at a hand's end": "3.0",
    }
    bob = figures(tabletop.get(player_link(crew, group, "Bob")))
    assert (bob["Knockouts dealt"], bob["Missed UNOs caught"]) == ("2", "1")
    assert (bob["Biggest stack taken"], bob["Average cards at a hand's end"]) == ("+10", "10.5")
    versus = ann.doc.one("table", cls="versus").one("tbody").find_all("tr")
    rows = [[c.text for c in row.iter() if c.tag in ("th", "td")] for row in versus]
    assert rows == [["Bob", "1", "1–0", "3–1", "0–0"], ["Cy", "1", "1–0", "3–1", "0–0"]]


def test_the_charts_come_with_their_numbers_in_text(tabletop: Tabletop) -> None:
    crew, group, _match = friday_group(tabletop)
    page = crew.page(group)
    charts = page.doc.find_all("svg", cls="chart")
    assert len(charts) == 2
    for chart in charts:
        assert chart["role"] == "img" and chart.one("title").text
    tables = [t for t in page.doc.find_all("table") if "sr-only" in t.classes]
    wins, knockouts = [
        [[c.text for c in r.iter() if c.tag in ("th", "td")] for r in t.one("tbody").find_all("tr")]
        for t in tables
    ]
    assert wins == [["Ann", "1 · 100%"], ["Bob", "0 · 0%"], ["Cy", "0 · 0%"]]
    assert knockouts == [["Ann", "0", "1"], ["Bob", "2", "2"], ["Cy", "0", "3"]]
    ann = tabletop.get(player_link(crew, group, "Ann"))
    (over_time,) = ann.doc.find_all("svg", cls="chart")
    assert over_time["role"] == "img"
    (table,) = [t for t in ann.doc.find_all("table") if "sr-only" in t.classes]
    (row,) = table.one("tbody").find_all("tr")
    assert [c.text for c in row.iter() if c.tag == "td"] == ["1050", "yes"]


def test_the_winners_screen_shows_the_matchs_awards(tabletop: Tabletop) -> None:
    _crew, _group, match_id = friday_group(tabletop)
    board = tabletop.get(f"/m/{match_id}/scores")
    awards = [li.text for li in board.doc.one("ul", cls="awards").find_all("li")]
    assert "Bob dealt 2 knockouts" in awards and "Bob caught 1 missed UNO" in awards
    assert "Bob survived a +10" in awards and "Ann sent the biggest stack: +10" in awards
    table = tabletop.table(match_id)
    assert "Bob dealt 2 knockouts" in table.doc.one("ul", cls="awards").text


def test_a_match_s_statistics_are_read_once_until_it_moves_on(
    tabletop: Tabletop, app: Flask
) -> None:
    crew, group, _match = friday_group(tabletop)
    cache: MatchStatsCache = app.extensions["match_stats"]
    crew.page(group)
    first = len(cache)
    crew.page(group)
    assert len(cache) == first == 1
    played = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="100")
    assert isinstance(played, str)
    finish_quick_match(tabletop, played, "Bob", "Ann", "Cy")
    assert crew.leaderboard(group)[:2] == [["Ann", "1", "2", "1050"], ["Bob", "1", "2", "620"]]
    assert len(cache) == 2
    crew.rename(group, "Bob", "Robert")  # the renamed match is read again
    assert [row[0] for row in crew.leaderboard(group)] == ["Ann", "Robert", "Cy"]


def test_a_viewer_sees_the_statistics_and_changes_nothing(tabletop: Tabletop, app: Flask) -> None:
    crew, group, _match = friday_group(tabletop)
    viewer = other_phone(app)
    viewer.client.get(share_links(tabletop, group)["gv"])
    page = viewer.get(f"/g/{group}")
    assert page.status == 200 and len(page.doc.find_all("svg", cls="chart")) == 2
    ann = viewer.get(player_link(Crew(viewer), group, "Ann"))
    assert ann.status == 200 and figures(ann)["Points"] == "1050"
    assert ann.doc.find_all("form") == [] or all(
        f.get("method", "get").lower() == "get" for f in ann.doc.find_all("form")
    )
    (player_id,) = [m for m in player_link(crew, group, "Ann").split("/") if m.isdigit()]
    refused = viewer.client.post(f"/g/{group}/players/{player_id}/name", data={"name": "Annie"})
    assert refused.status_code in (400, 403)


def test_a_player_who_is_not_on_the_roster_is_not_found(tabletop: Tabletop) -> None:
    _crew, group, _match = friday_group(tabletop)
    assert tabletop.client.get(f"/g/{group}/p/999999").status_code == 404
    assert tabletop.client.get(f"/g/{group}/p/x").status_code == 404


def test_a_match_still_being_played_is_not_counted_as_lost(tabletop: Tabletop) -> None:
    """The bug: a match in progress counted as played and not won, on the player's page
    and in their chart."""
    crew, group, _match = friday_group(tabletop)
    played = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="5000")
    assert isinstance(played, str)
    tabletop.line(played, "Bob", "wins")
    tabletop.reveal(played, "Ann", points=40)
    tabletop.reveal(played, "Cy", points=10)
    ann = tabletop.get(player_link(crew, group, "Ann"))
    assert figures(ann)["Matches won"] == "1 of 1"
    (table,) = [t for t in ann.doc.find_all("table") if "sr-only" in t.classes]
    rows = [[c.text for c in r.iter() if c.tag == "td"] for r in table.one("tbody").find_all("tr")]
    assert rows == [["1050", "yes"], ["0", "still being played"]]
    chart = ann.doc.one("figure", cls="stat-chart")
    units = [t.text for t in chart.one("svg").find_all("text") if "unit" in t.classes]
    assert units == ["points", "matches"]
    assert len(chart.one("svg").find_all("path", cls="playing")) == 1
    assert "still being played" in chart.one("figcaption").text
