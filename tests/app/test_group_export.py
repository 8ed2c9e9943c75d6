"""A group's export: every hand and every match as CSV, every record in a zip.

The files are fetched through the links the group page shows, parsed back (csv,
zipfile), and each record replays through `python -m engine check`'s code path."""

from __future__ import annotations

import csv
import io
import re
import zipfile

import pytest
from flask import Flask

from engine.tools.cli import EXIT_OK, check_text
from tests.app.group_helpers import Crew
from tests.app.helpers import Tabletop
from tests.app.test_groups import finish_quick_match, other_phone, share_links


@pytest.fixture
def crew(tabletop: Tabletop) -> Crew:
    return Crew(tabletop)


@pytest.fixture
def group(crew: Crew, tabletop: Tabletop) -> str:
    """Friday crew: a finished quick match (Ann, Bob and =Eve, whose name starts like a
    spreadsheet formula; Ann wins), then a referee match, Ann and Bob, whose first hand
    Ann wins as the last player left by knocking Bob out with a +10."""
    group_id = crew.create()
    crew.add(group_id, "Ann", "Bob", "=Eve")
    quick = crew.start(group_id, ["Ann", "Bob", "=Eve"], mode="quick", target="100")
    assert isinstance(quick, str)
    finish_quick_match(tabletop, quick, "Ann", "Bob", "=Eve")
    referee = crew.start(group_id, ["Ann", "Bob"])
    assert isinstance(referee, str)
    tabletop.play_lines(referee, "start: R5", "Bob: has 20", "Ann: W+10 B", "Bob: take")
    return group_id


def export_links(tabletop: Tabletop, group_id: str) -> dict[str, str]:
    """The group page's export links, by the file they fetch (hands.csv, ...)."""
    page = tabletop.get(f"/g/{group_id}")
    section = page.doc.one(id_="export").parent
    assert section is not None
    return {a["href"].rsplit("/", 1)[1]: a["href"] for a in section.find_all("a")}


def fetch(tabletop: Tabletop, url: str) -> tuple[bytes, str, str]:
    response = tabletop.client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response.data, response.content_type, response.headers["Content-Disposition"]


def rows(body: bytes) -> list[dict[str, str]]:
    text = body.decode("utf-8")
    assert text.startswith("\ufeff")  # spreadsheets read the names as UTF-8
    return list(csv.DictReader(io.StringIO(text[1:], newline="")))


def test_every_hand_is_a_row_per_player(group: str, tabletop: Tabletop) -> None:
    body, kind, disposition = fetch(tabletop, export_links(tabletop, group)["hands.csv"])
    assert kind == "text/csv; charset=utf-8"
    assert disposition == "attachment; filename=no-mercy-Friday-crew-hands.csv"
    assert b"\r\n" in body  # RFC 4180 lines
    table = rows(body)
    assert [(r["hand"], r["player"], r["seat"]) for r in table] == [
        ("1", "Ann", "1"),
        ("1", "Bob", "2"),
        ("1", "'=Eve", "3"),  # never a formula in a spreadsheet
        ("1", "Ann", "1"),
        ("1", "Bob", "2"),
    ]
    assert len({r["match"] for r in table[:3]} | {r["match"] for r in table[3:]}) == 2
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", r["date"]) for r in table)
    quick_ann, _bob, _eve, ann, bob = table
    assert quick_ann["quick"] == "1" and quick_ann["won"] == "1"
    assert quick_ann["cards_at_end"] == ""  # a quick hand counts no cards
    assert (ann["won"], ann["won_by"], ann["points"], ann["quick"]) == (
        "1",
        "last_standing",
        "250",
        "0",
    )
    assert (ann["knockouts_dealt"], ann["biggest_stack_sent"], ann["cards_at_end"]) == (
        "1",
        "10",
        "6",
    )
    assert (bob["knocked_out"], bob["knocked_out_by"], bob["biggest_stack_taken"]) == (
        "1",
        "Ann",
        "10",
    )
    assert bob["won"] == "0" and bob["won_by"] == "" and bob["cards_at_end"] == ""


def test_every_match_is_a_row_per_player(group: str, tabletop: Tabletop) -> None:
    body, kind, disposition = fetch(tabletop, export_links(tabletop, group)["matches.csv"])
    assert kind == "text/csv; charset=utf-8"
    assert disposition == "attachment; filename=no-mercy-Friday-crew-matches.csv"
    table = rows(body)
    assert [(r["player"], r["finished"], r["won_match"]) for r in table] == [
        ("Ann", "1", "1"),
        ("Bob", "1", "0"),
        ("'=Eve", "1", "0"),
        ("Ann", "0", "0"),  # the referee match goes on (to 1000)
        ("Bob", "0", "0"),
    ]
    quick_ann, quick_bob, *_rest, ann, bob = table
    assert quick_ann["players"] == "3" and quick_ann["score"] == quick_ann["points"]
    assert int(quick_ann["points"]) > 0 and quick_bob["points"] == "0"
    assert (ann["hands"], ann["hands_won"], ann["won_last_standing"], ann["score"]) == (
        "1",
        "1",
        "1",
        "250",
    )
    assert (ann["knockouts_dealt"], bob["knockouts_suffered"]) == ("1", "1")
    assert (ann["average_cards_at_end"], bob["average_cards_at_end"]) == ("6.00", "")


def test_every_record_is_in_the_zip_and_replays(group: str, tabletop: Tabletop) -> None:
    body, kind, disposition = fetch(tabletop, export_links(tabletop, group)["records.zip"])
    assert kind == "application/zip"
    assert disposition == "attachment; filename=no-mercy-Friday-crew-records.zip"
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert archive.testzip() is None
        records = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    names = sorted(records)
    assert [re.sub(r"^\d{4}-\d\d-\d\d-", "", n) for n in names] == [
        "Ann-Bob-Eve.txt",
        "Ann-Bob.txt",
    ]
    for name, text in records.items():
        code, state = check_text(text)
        assert code == EXIT_OK, (name, state)
    # The same text as each match's own record download.
    finished = [a for a in Crew(tabletop).match_links(group, "finished")]
    (href, _text) = finished[0]
    match_id = href.rsplit("/", 1)[1]  # /g/<group>/m/<match>
    own = tabletop.client.get(f"/m/{match_id}/record.txt").get_data(as_text=True)
    assert own in records.values()


def test_two_matches_of_one_day_and_players_get_two_names(crew: Crew, tabletop: Tabletop) -> None:
    group_id = crew.create("Ünïcode crew")
    crew.add(group_id, "Ann", "Bob")
    for _ in range(2):
        assert isinstance(crew.start(group_id, ["Ann", "Bob"]), str)
    body, _kind, disposition = fetch(tabletop, f"/g/{group_id}/records.zip")
    assert "filename*=UTF-8''no-mercy-%C3%9Cn%C3%AFcode-crew-records.zip" in disposition
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        names = [re.sub(r"^\d{4}-\d\d-\d\d-", "", n) for n in archive.namelist()]
    assert sorted(names) == ["Ann-Bob-2.txt", "Ann-Bob.txt"]


def test_a_group_without_matches_exports_headers_only(crew: Crew, tabletop: Tabletop) -> None:
    group_id = crew.create()
    body, _kind, _disposition = fetch(tabletop, f"/g/{group_id}/hands.csv")
    assert body.decode("utf-8-sig").startswith("match,date,hand,seat,player,")
    assert rows(body) == []
    body, _kind, _disposition = fetch(tabletop, f"/g/{group_id}/records.zip")
    assert zipfile.ZipFile(io.BytesIO(body)).namelist() == []


def test_a_viewer_may_export(group: str, tabletop: Tabletop, app: Flask) -> None:
    viewer = other_phone(app)
    assert viewer.client.get(f"/g/{group}/hands.csv").status_code == 403  # no link yet
    assert viewer.client.get(share_links(tabletop, group)["gv"]).status_code == 303
    links = export_links(viewer, group)
    assert sorted(links) == ["hands.csv", "matches.csv", "records.zip"]
    for url in links.values():
        assert viewer.client.get(url).status_code == 200


def test_an_unknown_group_or_file_is_404(tabletop: Tabletop, crew: Crew) -> None:
    group_id = crew.create()
    for url in (
        "/g/nosuchgroup/hands.csv",
        "/g/nosuchgroup/records.zip",
        f"/g/{group_id}/records.csv",
        f"/g/{group_id}/hands.zip",
        f"/g/{group_id}/everything.csv",
    ):
        assert tabletop.client.get(url).status_code == 404, url
