"""Groups: a roster (the engine's name rule, one player per name, renamed everywhere,
retired, never deleted with matches), matches started from it or moved into it, the
group page and its leaderboard, and who may do what (editor and viewer links)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from companion import create_app
from companion.extensions import db
from companion.group_reads import SHOWN_MATCHES
from tests.app.group_helpers import Crew
from tests.app.helpers import Page, Tabletop


@pytest.fixture
def crew(tabletop: Tabletop) -> Crew:
    return Crew(tabletop)


@pytest.fixture
def group(crew: Crew) -> str:
    """Friday crew, with Ann, Bob and Cy on its roster."""
    group_id = crew.create()
    crew.add(group_id, "Ann", "Bob", "Cy")
    return group_id


def refusal(page: Page) -> str:
    return page.doc.one(cls="refused").text


def share_links(tabletop: Tabletop, group_id: str) -> dict[str, str]:
    page = tabletop.get(f"/g/{group_id}/share")
    assert page.status == 200
    links = [a["href"] for a in page.doc.find_all("a", cls="link")]
    return {re.sub(r"^http://[^/]+", "", url).split("/")[1]: url for url in links}


def other_phone(app: Flask) -> Tabletop:
    return Tabletop(app, app.test_client())


def finish_quick_match(tabletop: Tabletop, match_id: str, winner: str, *losers: str) -> None:
    """One quick-score hand that ends a match to 100: `winner` wins, each loser shows 60."""
    assert tabletop.line(match_id, winner, "wins").status == 303
    for loser in losers:
        assert tabletop.reveal(match_id, loser, points=60).status == 303
    assert tabletop.state(match_id)["status"] == "match_over"


# ---------------------------------------------------------------- a group and its roster


def test_a_group_made_from_home_is_listed_there_and_its_maker_edits_it(
    crew: Crew, tabletop: Tabletop
) -> None:
    group_id = crew.create("Friday crew")
    page = crew.page(group_id)
    assert page.doc.one("h1").text == "Friday crew"
    assert page.doc.find("form", action=f"/g/{group_id}/players") is not None
    home = tabletop.get("/")
    assert f"/g/{group_id}" in [a["href"] for a in home.doc.find_all("a")]


def test_a_group_needs_a_name(tabletop: Tabletop) -> None:
    (form,) = tabletop.get("/groups/new").forms("/groups/new")
    page = tabletop.post("/groups/new", form.values() | {"name": "   "})
    assert page.status == 422 and "Give the group a name" in page.text


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ann", "Ann is on this group's roster already"),  # the engine's comparison
        ("ＡＮＮ", "Ann is on this group's roster already"),
        ("\u0410nn", "looks like 'Ann'"),  # a Cyrillic А: the app's look-alike rule
        ("start", "header word"),  # the engine's name rule
        ("Al: B", "can't contain"),
        ("A" * 21, "longer than 20"),
        ("", "Type the player's name"),
    ],
)
def test_a_roster_name_follows_the_engines_name_rule(
    crew: Crew, group: str, name: str, why: str
) -> None:
    page = crew.add(group, name)
    assert page.status == 422
    assert why in refusal(page)
    assert list(crew.roster(group)) == ["Ann", "Bob", "Cy"]


def test_a_new_name_is_kept_as_the_engine_tidies_it(crew: Crew, group: str) -> None:
    assert crew.add(group, "  Dee   Dee ").status == 303
    assert "Dee Dee" in crew.roster(group)


def test_a_player_without_matches_can_be_taken_off_but_one_with_matches_only_retired(
    crew: Crew, group: str
) -> None:
    assert crew.remove(group, "Cy").status == 303
    assert list(crew.roster(group)) == ["Ann", "Bob"]
    crew.start(group, ["Ann", "Bob"])
    # No button to take Ann off; a form posted anyway is refused.
    page = crew.page(group)
    assert page.doc.find("form", action=re.compile(r".*/remove")) is None
    ann_id = crew.form(group, "/retired", "Ann").action.split("/")[-2]
    token = crew.form(group, "/players").values()["csrf_token"]
    page = crew.t.post(f"/g/{group}/players/{ann_id}/remove", {"csrf_token": token})
    assert page.status == 422 and "retire them instead" in refusal(page)
    assert crew.retire(group, "Ann").status == 303
    assert crew.roster(group)["Ann"] == "1 match · retired"


def test_a_retired_player_is_not_offered_in_a_new_match_until_brought_back(
    crew: Crew, group: str
) -> None:
    crew.start(group, ["Ann", "Bob", "Cy"])
    crew.retire(group, "Cy")
    page, data = crew.new_match_form(group)
    offered = [o.text for o in page.doc.one("select", id="players-0").find_all("option")]
    assert offered == ["Empty seat", "Ann", "Bob"]
    assert [data[f"players-{i}"] for i in range(3)] == ["Ann", "Bob", ""]  # Cy left out
    crew.retire(group, "Cy")  # Bring back
    page, _ = crew.new_match_form(group)
    offered = [o.text for o in page.doc.one("select", id="players-0").find_all("option")]
    assert "Cy" in offered


# ---------------------------------------------------------------- new matches


def test_a_new_match_offers_the_last_seating_and_takes_a_newcomer(
    crew: Crew, group: str, tabletop: Tabletop
) -> None:
    _, data = crew.new_match_form(group)
    assert [data[f"players-{i}"] for i in range(6)] == [""] * 6  # no match yet
    first = crew.start(group, ["Cy", "Ann"], newcomer="Dee", dealer="1")
    assert isinstance(first, str)
    assert tabletop.match(first).player_names == ["Cy", "Ann", "Dee"]
    assert tabletop.match(first).dealer == "Cy"
    assert crew.roster(group)["Dee"] == "1 match"
    _, data = crew.new_match_form(group)
    assert [data[f"players-{i}"] for i in range(4)] == ["Cy", "Ann", "Dee", ""]
    second = crew.start(group)  # the seating offered, as it is
    assert isinstance(second, str) and tabletop.match(second).player_names == ["Cy", "Ann", "Dee"]
    playing = crew.match_links(group, "playing")
    assert [href.rsplit("/", 1)[1] for href, _ in playing] == [second, first]  # newest first


def test_a_new_match_in_a_group_is_refused_like_any_new_match(crew: Crew, group: str) -> None:
    page = crew.start(group, ["Ann"])
    assert isinstance(page, Page) and page.status == 422
    assert "Enter at least 2 names" in page.text
    page = crew.start(group, ["Ann", "Bob", "Cy", "Ann"])
    assert isinstance(page, Page) and "Two players can't have the same name" in page.text
    page = crew.start(group, ["Ann", "Bob", "Cy", "Bob", "Ann", "Cy"], newcomer="Dee")
    assert isinstance(page, Page) and "Every seat is taken" in page.text


def test_the_group_page_lists_winners_and_a_leaderboard(
    crew: Crew, group: str, tabletop: Tabletop
) -> None:
    for winner in ("Bob", "Ann", "Bob"):
        match_id = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="100")
        assert isinstance(match_id, str)
        tabletop.table(match_id)
        finish_quick_match(tabletop, match_id, winner, *{"Ann", "Bob", "Cy"} - {winner})
    playing = crew.start(group, ["Ann", "Cy"])
    assert isinstance(playing, str), playing.text
    ((_href, in_progress),) = crew.match_links(group, "playing")
    assert "Waiting for the start card; Ann plays first." in in_progress
    assert re.search(r"Last play \d+ seconds? ago", in_progress), in_progress
    finished = crew.match_links(group, "finished")
    # Regression: the list's loop variable hid the times ("Last play" and nothing).
    assert all(re.search(r"Last play \d+ seconds? ago", text) for _, text in finished)
    assert [text.split(" Won by ")[1].split(" · ")[0] for _, text in finished] == [
        "Bob",
        "Ann",
        "Bob",
    ]
    assert crew.leaderboard(group) == [
        ["Bob", "2", "3", "240"],
        ["Ann", "1", "3", "120"],
        ["Cy", "0", "3", "0"],
    ]
    # A finished match opens on its scoreboard.
    href, _ = finished[0]
    assert tabletop.client.get(href).headers["Location"].endswith("/scores")


def test_a_groups_page_has_one_new_match_in_the_group(crew: Crew, group: str) -> None:
    page = crew.page(group)
    new = {a["href"] for a in page.doc.find_all("a") if a.text == "New match"}
    assert new == {f"/g/{group}/new"}


# ---------------------------------------------------------------- renaming


def test_renaming_a_player_renames_them_in_every_match_and_record(
    crew: Crew, group: str, tabletop: Tabletop, app: Flask
) -> None:
    one = crew.start(group, ["Ann", "Bob", "Cy"])
    two = crew.start(group, ["Cy", "Ann"])
    assert isinstance(one, str) and isinstance(two, str)
    tabletop.play_lines(one, "start: R5", "Ann: has 4", "Ann: R7 swap Cy")
    stale = tabletop.hidden(one)  # a form made before the rename
    page = crew.rename(group, "Cy", "Cyril")
    assert page.status == 303 and "Renamed Cyril everywhere" in page.text
    assert list(crew.roster(group)) == ["Ann", "Bob", "Cyril"]
    # A line of each match's log: every line before it stays as it was written.
    record = tabletop.client.get(f"/m/{one}/record.txt").get_data(as_text=True)
    assert record.splitlines()[:2] == ["players: Ann, Bob, Cy", "dealer: Cy"]
    assert record.splitlines()[-2:] == ["Ann: R7 swap Cy", "rename: Cy, Cyril"]
    assert tabletop.match(two).current_names == ["Cyril", "Ann"]
    assert tabletop.table(two).recorded == "Recorded: Cy is called Cyril from now on."
    # The table is the renamed game at once, and plays go on with the new name.
    assert "Cyril" in tabletop.table(one).seats()
    refused = tabletop.client.post(f"/m/{one}/line", data=stale | {"player": "Bob", "action": "R4"})
    assert refused.status_code == 409
    tabletop.table(one)
    assert tabletop.line(one, "Bob", "R4").status == 303
    assert tabletop.line(one, "Cyril", "R6").status == 303


def test_a_renamed_match_is_replayed_by_every_process(
    crew: Crew, group: str, tabletop: Tabletop, app: Flask
) -> None:
    """Another process on the same database has the game cached: after the rename it
    shows the new name, and a form made before the rename is refused there too."""
    match_id = crew.start(group, ["Ann", "Bob"])
    assert isinstance(match_id, str)
    tabletop.play_lines(match_id, "start: R5", "Ann: R3")
    process = create_app(
        {
            key: app.config[key]
            for key in (
                "SQLALCHEMY_DATABASE_URI",
                "SECRET_KEY",
                "TESTING",
                "RATELIMIT_ENABLED",
                "TAP_SETTLE_MS",
            )
        }
        | {"AUTO_MIGRATE": False}
    )
    try:
        there = other_phone(process)
        there.client.get(share_links(tabletop, group)["gj"])
        there.client.get(f"/g/{group}/m/{match_id}")
        assert there.table(match_id).seats().keys() == {"Ann", "Bob"}  # cached there
        stale = there.hidden(match_id)
        assert crew.rename(group, "Bob", "Robert").status == 303
        assert there.table(match_id).seats().keys() == {"Ann", "Robert"}
        line = stale | {"player": "Bob", "action": "R6"}
        assert there.client.post(f"/m/{match_id}/line", data=line).status_code == 409
        assert there.line(match_id, "Robert", "R6").status == 303
        assert "Robert: R6" in tabletop.client.get(f"/m/{match_id}/record.txt").get_data(
            as_text=True
        )
    finally:
        with process.app_context():
            for engine in db.engines.values():
                engine.dispose()


def test_a_rename_to_anothers_name_is_refused_and_changes_nothing(
    crew: Crew, group: str, tabletop: Tabletop
) -> None:
    match_id = crew.start(group, ["Ann", "Bob"])
    assert isinstance(match_id, str)
    page = crew.rename(group, "Bob", "ANN")
    assert page.status == 422 and "Ann is on this group's roster already" in refusal(page)
    assert tabletop.match(match_id).current_names == ["Ann", "Bob"]
    assert "rename" not in tabletop.client.get(f"/m/{match_id}/record.txt").get_data(as_text=True)


def test_the_group_page_lists_the_newest_matches_and_all_on_asking(
    crew: Crew, group: str, tabletop: Tabletop
) -> None:
    """A season of matches is not one phone screen: the newest SHOWN_MATCHES finished,
    a link to all of them; the leaderboard counts every match either way."""
    for n in range(SHOWN_MATCHES + 2):
        match_id = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="100")
        assert isinstance(match_id, str)
        tabletop.table(match_id)
        finish_quick_match(
            tabletop, match_id, "Bob" if n else "Ann", "Cy", "Bob" if not n else "Ann"
        )
    finished = crew.match_links(group, "finished")
    links = [href for href, _text in finished]
    assert len(links) == SHOWN_MATCHES + 1  # the newest ten, and the link to all
    assert links[-1] == f"/g/{group}?all=1#finished"
    assert "All 12 finished matches" in finished[-1][1]
    assert crew.leaderboard(group)[:2] == [["Bob", "11", "12", "1320"], ["Ann", "1", "12", "120"]]
    every = tabletop.get(f"/g/{group}?all=1")
    block = every.doc.one(id_="finished").parent
    assert block is not None and len(block.find_all("a")) == SHOWN_MATCHES + 2
    assert "Won by Ann" in block.find_all("a")[-1].text  # the oldest, last


# ---------------------------------------------------------------- moving a match in


def test_a_match_moved_in_maps_its_names_to_the_roster(
    crew: Crew, group: str, tabletop: Tabletop
) -> None:
    match_id = tabletop.create(["ann", "Bob", "Eve"], mode="quick", target="100")
    finish_quick_match(tabletop, match_id, "Eve", "ann", "Bob")
    page = tabletop.get(f"/m/{match_id}/group")
    (form,) = page.forms(f"/m/{match_id}/group")
    moved = tabletop.follow(tabletop.client.post(form.action, data=form.values()))
    assert moved.status == 303 and "The match is in the group now" in moved.text
    assert tabletop.match(match_id).current_names == ["Ann", "Bob", "Eve"]  # the roster's Ann
    record = tabletop.client.get(f"/m/{match_id}/record.txt").get_data(as_text=True)
    assert record.splitlines()[0] == "players: ann, Bob, Eve"
    assert record.splitlines()[-1] == "rename: ann, Ann"
    assert crew.roster(group)["Eve"] == "1 match"
    assert crew.leaderboard(group)[0] == ["Eve", "1", "1", "120"]
    again = tabletop.get(f"/m/{match_id}/group")
    assert "This match is in the group Friday crew" in again.text


# ---------------------------------------------------------------- who may do what


def test_a_viewer_sees_the_group_but_changes_nothing(
    crew: Crew, group: str, tabletop: Tabletop, app: Flask
) -> None:
    match_id = crew.start(group, ["Ann", "Bob"])
    links = share_links(tabletop, group)
    viewer = other_phone(app)
    assert viewer.get(f"/g/{group}").status == 403  # no link yet
    assert viewer.client.get(links["gv"]).status_code == 303
    page = viewer.get(f"/g/{group}")
    assert page.status == 200 and "Ann" in page.text
    assert page.doc.find("form", action=f"/g/{group}/players") is None
    assert page.doc.find("a", href=f"/g/{group}/new") is None
    token = page.doc.one("body")["hx-headers"].split('"')[3]
    for url, data in [
        (f"/g/{group}/players", {"name": "Mallory"}),
        (f"/g/{group}/players/1/name", {"name": "Mallory"}),
        (f"/g/{group}/players/1/retired", {"retired": "1"}),
        (f"/g/{group}/new", {}),
        (f"/g/{group}/share/renew", {}),
    ]:
        assert viewer.client.post(url, data=data | {"csrf_token": token}).status_code == 403
    assert viewer.get(f"/g/{group}/new").status == 403
    # The group's matches open for watching only.
    opened = viewer.client.get(f"/g/{group}/m/{match_id}")
    assert opened.status_code == 303
    assert viewer.get(f"/m/{match_id}").doc.find("form", action=f"/m/{match_id}/line") is None
    assert list(crew.roster(group)) == ["Ann", "Bob", "Cy"]
    assert viewer.get("/g/nosuchgroup").status == 404


def test_an_editor_link_lets_another_phone_run_the_group(
    crew: Crew, group: str, tabletop: Tabletop, app: Flask
) -> None:
    links = share_links(tabletop, group)
    other = other_phone(app)
    other.client.get(links["gj"])
    assert Crew(other).add(group, "Dee").status == 303
    match_id = Crew(other).start(group, ["Ann", "Dee"])
    assert isinstance(match_id, str)
    # The group's editor opens a match another phone started as an editor.
    assert tabletop.client.get(f"/g/{group}/m/{match_id}").status_code == 303
    tabletop.table(match_id)
    assert tabletop.line(match_id, "", "start: R5").status == 303


def test_renewed_links_lock_out_the_old_ones_and_the_matches_opened_through_them(
    crew: Crew, group: str, tabletop: Tabletop, app: Flask
) -> None:
    match_id = crew.start(group, ["Ann", "Bob"])
    links = share_links(tabletop, group)
    other = other_phone(app)
    other.client.get(links["gj"])
    other.client.get(f"/g/{group}/m/{match_id}")
    assert other.table(match_id).status == 200
    (form,) = tabletop.get(f"/g/{group}/share").forms(f"/g/{group}/share/renew")
    renewed = tabletop.follow(tabletop.client.post(form.action, data=form.values()))
    assert renewed.status == 303 and "New links made" in renewed.text
    assert share_links(tabletop, group) != links
    assert other.get(f"/g/{group}").status == 403
    assert other.table(match_id).status == 403
    assert other.client.get(links["gj"]).status_code == 403
    # This phone stays an editor of the group, and of its matches through it.
    assert crew.page(group).status == 200
    assert tabletop.client.get(f"/g/{group}/m/{match_id}").status_code == 303
    assert tabletop.table(match_id).status == 200


def test_a_match_outside_groups_keeps_working_and_only_its_editor_moves_it(
    tabletop: Tabletop, app: Flask
) -> None:
    match_id = tabletop.create(["Ann", "Bob"])
    page = tabletop.get(f"/m/{match_id}/group")
    assert "editor of no group yet" in page.text
    viewer = other_phone(app)
    assert viewer.get(f"/m/{match_id}/group").status == 403


def test_a_group_in_the_phone_shows_no_link_that_names_the_phone(app_with: Any) -> None:
    # The app in the phone (companion/standalone.py): its links would start with an
    # address that means the phone itself on whichever phone opens them.
    app = app_with(SHARE_LINKS=False)
    phone = Tabletop(app, app.test_client())
    group_id = Crew(phone).create()
    page = phone.get(f"/g/{group_id}/share")
    assert page.status == 200
    assert "kept in this phone only" in page.doc.one(cls="in-this-phone").text
    assert page.doc.find_all("a", cls="link") == [] and page.doc.find_all("form") == []
