"""A match stored by an earlier version that this one no longer replays (a name a newer
rule refuses, a rule or a play it no longer reads): its pages answer with a page of its
own that says what is wrong, never a 500; Home still lists it; its record, as stored, is
downloaded; its editor may remove it; `flask matches check` lists it (issue 29)."""

from __future__ import annotations

import io
import logging
import zipfile
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import update

from companion.models import LINES, MATCHES
from companion.store import current_store
from tests.app.group_helpers import Crew
from tests.app.helpers import Page, Tabletop, phone, share_tokens
from tests.app.test_transfer import import_text, new_id

# Each rule a stored match can break, as an earlier version could have stored it: the
# row's values (players, names, rules) or its first play's text, and what is said.
HEADER = "In its players, dealer or rules:"
BROKEN = {
    "a header word": ({"players": "Ann, Players, Cy"}, None, HEADER),
    "a control character": ({"players": "Ann, B\x07ob, Cy"}, None, "control character"),
    "a name too long": ({"players": "Ann, " + "B" * 45 + ", Cy"}, None, "longer than 40"),
    "one player twice": ({"players": "Ann, ANN, Cy"}, None, "In its players, dealer or rules:"),
    "a rule it no longer reads": (
        {"rules": "stack=sometimes"},
        None,
        "In its players, dealer or rules:",
    ),
    "a play it no longer reads": ({}, "start: R99", "In play 1:"),
}


def stored_broken(app: Flask, match_id: str, row: dict[str, Any], play: str | None) -> None:
    """The match's rows as an earlier version left them (written directly: no use case of
    this version writes what it refuses), and this process's copy of its game let go."""
    with app.app_context():
        store = current_store()
        with store.engine.begin() as connection:
            if row:
                names = row.get("players")
                connection.execute(
                    update(MATCHES)
                    .where(MATCHES.c.id == match_id)
                    .values(**row, **({"names": names} if names else {}))
                )
            if play is not None:
                connection.execute(
                    update(LINES)
                    .where(LINES.c.match_id == match_id, LINES.c.seq == 1)
                    .values(text=play)
                )
        store.games.clear()


@pytest.fixture(params=sorted(BROKEN))
def broken(request: pytest.FixtureRequest, app: Flask, started: str) -> tuple[str, str]:
    row, play, said = BROKEN[request.param]
    stored_broken(app, started, row, play)
    return started, said


def test_every_page_of_it_says_what_is_wrong_never_a_500(
    tabletop: Tabletop, broken: tuple[str, str]
) -> None:
    match_id, said = broken
    table = tabletop.get(f"/m/{match_id}")
    assert table.status == 409
    assert "This match can't be opened" in table.text and said in table.text
    for path in ("/log", "/scores", "/live?v=0"):
        assert tabletop.get(f"/m/{match_id}{path}").status == 409, path
    assert tabletop.get(f"/m/{match_id}/share").status == 200  # its links need no game
    live = tabletop.client.get(f"/m/{match_id}/live?v=0", headers={"HX-Request": "true"})
    assert live.status_code == 409 and live.headers["HX-Refresh"] == "true"
    played = tabletop.post(f"/m/{match_id}/line", {"csrf_token": table.token, "version": "2"})
    assert played.status == 409
    home = tabletop.get("/")
    assert home.status == 200 and f"/m/{match_id}" in home.html


def test_its_record_is_downloaded_as_stored(tabletop: Tabletop, app: Flask, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    stored_broken(app, started, {"players": "Ann, Players, Cy"}, None)
    record = tabletop.export(started)
    stored = ["players: Ann, Players, Cy", "dealer: Cy", "start: R5", "Ann: R3"]
    assert record.splitlines()[-4:] == stored


def test_its_editor_removes_it_once_the_box_is_ticked(
    tabletop: Tabletop, broken: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    match_id, _said = broken
    page = tabletop.get(f"/m/{match_id}")
    (form,) = page.forms(f"/m/{match_id}/remove")
    unticked = tabletop.follow(tabletop.client.post(form.action, data=form.values()))
    assert "Tick the box first" in unticked.text and tabletop.match_count() == 1
    with caplog.at_level(logging.INFO, logger="companion.audit"):
        removed = tabletop.client.post(form.action, data=form.values() | {"sure": "y"})
    assert removed.status_code == 303 and removed.headers["Location"] == "/"
    assert "The match was removed." in Page(tabletop.client.get("/")).text
    assert tabletop.match_count() == 0
    assert tabletop.get(f"/m/{match_id}").status == 404
    audited = " ".join(r.getMessage() for r in caplog.records)
    assert "removed" in audited and "dealer: Cy" in audited and "record:" not in audited


def test_a_match_that_replays_is_never_removed(tabletop: Tabletop, started: str) -> None:
    token = tabletop.page(started).token
    answer = tabletop.client.post(f"/m/{started}/remove", data={"csrf_token": token, "sure": "y"})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/m/{started}"
    assert tabletop.match_count() == 1


def test_a_watcher_sees_the_page_without_the_remove(
    app: Flask, tabletop: Tabletop, broken: tuple[str, str]
) -> None:
    match_id, _said = broken
    watcher = phone(app, "/v/" + share_tokens(app, match_id)[1])
    page = watcher.get(f"/m/{match_id}")
    assert page.status == 409 and not page.forms(f"/m/{match_id}/remove")
    assert "Download the record" in page.text


def test_the_check_lists_each_match_that_no_longer_replays(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    runner = app.test_cli_runner()
    clean = runner.invoke(args=["matches", "check"])
    assert clean.exit_code == 0 and "Every match replays." in clean.output
    stored_broken(app, started, {"players": "Ann, Players, Cy"}, None)
    found = runner.invoke(args=["matches", "check"])
    assert found.exit_code == 1
    assert (
        f"{started}  Ann, Players, Cy  players, dealer or rules: A player can't be called"
        in found.output
    )


def test_its_group_renames_its_other_matches_and_exports_its_record_as_stored(
    app: Flask, tabletop: Tabletop
) -> None:
    crew = Crew(tabletop)
    group_id = crew.create("Friday crew")
    crew.add(group_id, "Ann", "Bob", "Cy")
    kept, broken = (crew.start(group_id, ["Ann", "Bob", "Cy"]) for _ in range(2))
    assert isinstance(kept, str) and isinstance(broken, str)
    tabletop.play_lines(broken, "start: R5")
    stored_broken(app, broken, {}, "start: R99")
    renamed = crew.rename(group_id, "Bob", "Robert")  # not held up by the match it can't add to
    assert renamed.status in (200, 303) and "Robert" in crew.roster(group_id)
    assert tabletop.export(kept).endswith("rename: Bob, Robert\n")
    assert tabletop.export(broken).endswith("dealer: Cy\nstart: R99\n")
    zipped = zipfile.ZipFile(io.BytesIO(tabletop.client.get(f"/g/{group_id}/records.zip").data))
    assert any("start: R99" in zipped.read(name).decode() for name in zipped.namelist())


def test_its_record_sent_again_is_answered_with_its_page(app: Flask, tabletop: Tabletop) -> None:
    keyed = "record: sent-from-Anns-phone-1\nplayers: Ann, Bob, Cy\nstart: R5\n"
    match_id = new_id(tabletop, import_text(tabletop, keyed))
    for row in ({"rules": "stack=sometimes"}, {"players": "Ann, Players, Cy", "rules": "official"}):
        stored_broken(app, match_id, row, None)
        page = import_text(tabletop, keyed + "Ann: R3\n")
        assert page.status == 409 and "This match can't be opened" in page.text
    assert tabletop.match_count() == 1
