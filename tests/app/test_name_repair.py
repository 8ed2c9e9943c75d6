"""A match stored with a name this version's rules refuse, repaired by its editor (issue
29, point 4): its page says what each name becomes, one tap repairs the header and every
play that names it (each kept), and the match opens again; the stored record goes to the
audit log. A match a repair would not make replay is never offered one."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import update

from companion.models import LINES, MATCHES
from companion.store import current_store
from tests.app.helpers import Tabletop, phone, share_tokens
from tests.app.test_unreplayable import stored_broken

PLAYS = ("start: R5", "Ann: R3", "Bob: R8", "Cy: R9")

# Bob, as an earlier version could have stored him: each rule his name breaks, what the
# page shows of the stored name, and what he is called once repaired.
BROKEN_NAMES = {
    "a control character": ("B\x07ob", "B[U+0007 BELL]ob", "Bob"),
    "an invisible character": ("Bo\u200bb", "Bo[U+200B ZERO WIDTH SPACE]b", "Bob"),
    "a header word": ("Players", "Players", "Players 2"),
    "a name too long": ("B" * 45, "B" * 45, "B" * 40),
    "one player twice": ("ANN", "ANN", "ANN 2"),
}


def stored_as(app: Flask, match_id: str, bob: str) -> None:
    """The match as an earlier version stored it with Bob called `bob`: its header and
    every play that names him."""
    with app.app_context():
        store = current_store()
        with store.engine.begin() as connection:
            players = f"Ann, {bob}, Cy"
            row = MATCHES.c.id == match_id
            connection.execute(update(MATCHES).where(row).values(players=players, names=players))
            for seq, text in enumerate(PLAYS, 1):
                if text.startswith("Bob:"):
                    new = text.replace("Bob", bob, 1)
                    where = (LINES.c.match_id == match_id, LINES.c.seq == seq)
                    connection.execute(update(LINES).where(*where).values(text=new))
        store.games.clear()


@pytest.fixture(params=sorted(BROKEN_NAMES))
def broken_name(
    request: pytest.FixtureRequest, app: Flask, tabletop: Tabletop
) -> tuple[str, str, str]:
    match_id = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(match_id, *PLAYS)
    stored, shown, repaired = BROKEN_NAMES[request.param]
    stored_as(app, match_id, stored)
    return match_id, shown, repaired


def test_the_editor_repairs_the_names_and_every_play_is_kept(
    tabletop: Tabletop, broken_name: tuple[str, str, str], caplog: pytest.LogCaptureFixture
) -> None:
    match_id, shown, repaired = broken_name
    page = tabletop.get(f"/m/{match_id}")
    assert page.status == 409
    assert f"“{shown}” becomes “{repaired}”" in page.text
    (form,) = page.forms(f"/m/{match_id}/repair")
    with caplog.at_level(logging.INFO, logger="companion.audit"):
        answer = tabletop.client.post(form.action, data=form.values())
    assert answer.status_code == 303 and answer.headers["Location"] == f"/m/{match_id}"
    table = tabletop.table(match_id)
    assert table.status == 200
    assert f"Name repaired (“{shown}” becomes “{repaired}”): every play is kept." in table.text
    record = tabletop.export(match_id).splitlines()
    assert f"players: Ann, {repaired}, Cy" in record
    assert record[-4:] == ["start: R5", "Ann: R3", f"{repaired}: R8", "Cy: R9"]
    # A second tap (the first one's answer lost) changes nothing and says nothing.
    again = tabletop.client.post(form.action, data=form.values())
    assert again.status_code == 303 and tabletop.export(match_id) == "\n".join(record) + "\n"
    assert "could not be repaired" not in tabletop.table(match_id).text
    # It is a match again: the next play is recorded.
    tabletop.play_lines(match_id, "Ann: R1")
    audited = " ".join(r.getMessage() for r in caplog.records)
    assert "repaired names" in audited and "Cy: R9" in audited  # the stored record


def test_a_watcher_is_offered_no_repair_and_can_make_none(
    app: Flask, tabletop: Tabletop, broken_name: tuple[str, str, str]
) -> None:
    match_id, _shown, _repaired = broken_name
    watcher = phone(app, "/v/" + share_tokens(app, match_id)[1])
    page = watcher.get(f"/m/{match_id}")
    assert page.status == 409 and not page.forms(f"/m/{match_id}/repair")
    token = json.loads(page.doc.one("body")["hx-headers"])["X-CSRFToken"]  # as htmx sends
    answer = watcher.client.post(f"/m/{match_id}/repair", data={"csrf_token": token})
    assert answer.status_code == 403
    assert tabletop.get(f"/m/{match_id}").status == 409


@pytest.mark.parametrize(
    "row, play",
    [({"rules": "stack=sometimes"}, None), ({"players": "Ann, B\x07ob, Cy"}, "start: R99")],
    ids=["a rule it no longer reads", "a play it no longer reads"],
)
def test_a_match_a_repair_would_not_open_is_offered_none(
    app: Flask, tabletop: Tabletop, started: str, row: dict[str, Any], play: str | None
) -> None:
    stored_broken(app, started, row, play)
    page = tabletop.get(f"/m/{started}")
    assert page.status == 409 and not page.forms(f"/m/{started}/repair")
    assert page.forms(f"/m/{started}/remove")  # its record and Remove are still there
    answer = tabletop.client.post(f"/m/{started}/repair", data={"csrf_token": page.token})
    assert answer.status_code == 303
    page = tabletop.get(f"/m/{started}")
    assert page.status == 409 and "Its names could not be repaired here" in page.text


def test_a_match_that_replays_is_left_as_it_is(tabletop: Tabletop, started: str) -> None:
    before = tabletop.export(started)
    token = tabletop.page(started).token
    answer = tabletop.client.post(f"/m/{started}/repair", data={"csrf_token": token})
    assert answer.status_code == 303 and tabletop.export(started) == before


class KeptLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.said.append(record.getMessage())


def test_the_upgrade_repairs_every_match_its_names_alone_keep_from_replaying(
    app: Flask, tabletop: Tabletop
) -> None:
    """a1c0ffee0013, on records made to break each name rule: each match opens again with
    its names repaired and every play kept; one that a repair would not open (a play this
    version no longer reads) is left as it was stored."""
    broken: dict[str, str] = {}
    for stored, _shown, repaired in BROKEN_NAMES.values():
        match_id = tabletop.create(("Ann", "Bob", "Cy"))
        tabletop.play_lines(match_id, *PLAYS)
        stored_as(app, match_id, stored)
        broken[match_id] = repaired
    kept = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(kept, "start: R5")
    stored_broken(app, kept, {"players": "Ann, B\x07ob, Cy"}, "start: R99")
    as_stored = tabletop.export(kept)
    audit = logging.getLogger("companion.audit")
    kept_lines = KeptLines()  # on the logger itself: alembic sets up the logging its way
    audit.addHandler(kept_lines)
    try:
        with app.app_context():
            downgrade(revision="a1c0ffee0012")
            upgrade()
            current_store().games.clear()
    finally:
        audit.removeHandler(kept_lines)
    audited = [line for line in kept_lines.said if "repaired names" in line]
    assert len(audited) == len(BROKEN_NAMES)  # each with its record as it was stored
    assert all("Ann: R3" in line and "players: Ann, " in line for line in audited)
    for match_id, repaired in broken.items():
        assert tabletop.table(match_id).status == 200, repaired
        record = tabletop.export(match_id).splitlines()
        assert f"players: Ann, {repaired}, Cy" in record
        assert record[-4:] == ["start: R5", "Ann: R3", f"{repaired}: R8", "Cy: R9"]
    assert tabletop.get(f"/m/{kept}").status == 409
    assert tabletop.export(kept) == as_stored
