"""A record sent twice is one match: its key (`record: KEY`, the engine's notation) names
the match it was imported as, so a phone that sends it again (twice, or after the answer
was lost) is shown that match, never a second one; sent again after it was played on, the
lines played since are added to that match. A record without a key is a new match at
every import, as before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, update

from companion import models
from companion.imports import lines_to_add
from companion.models import MATCHES
from companion.store import current_store
from engine import Line, RenameLine, parse_line, renamed
from tests.app.conftest import app_on, dispose
from tests.app.group_helpers import Crew
from tests.app.helpers import Tabletop
from tests.app.test_transfer import import_file, import_text, new_id

KEYED = "record: sent-from-Anns-phone-1\nplayers: Ann, Bob, Cy\nstart: R5\nAnn: R3\n"
# As the server exports it: with the dealer it took (the last player listed).
EXPORTED = KEYED.replace("Cy\n", "Cy\ndealer: Cy\n", 1)
AGAIN = "This record was imported before: here is the match it made."
ADDED_ONE = "This record was imported before: the line played since was added to the match it made."


def test_the_same_record_sent_twice_is_one_match(tabletop: Tabletop) -> None:
    first = import_text(tabletop, KEYED)
    match_id = new_id(tabletop, first)
    assert AGAIN not in first.text
    again = import_file(tabletop, KEYED)
    assert new_id(tabletop, again) == match_id
    assert AGAIN in again.doc.one(cls="notice").text
    assert tabletop.match_count() == 1
    # Its record carries its key: sent on from here, it is still the same match.
    assert tabletop.export(match_id) == EXPORTED
    assert new_id(tabletop, import_text(tabletop, tabletop.export(match_id))) == match_id


def test_another_phone_sending_it_again_gets_the_same_match(app: Flask) -> None:
    ann, bob = Tabletop(app, app.test_client()), Tabletop(app, app.test_client())
    match_id = new_id(ann, import_text(ann, KEYED))
    # Whoever holds the record holds its key: the match is theirs to edit too.
    assert new_id(bob, import_text(bob, KEYED)) == match_id
    assert bob.line(match_id, "Bob", "R4").status == 303
    assert ann.match_count() == 1


def test_two_phones_sending_it_at_the_same_moment_make_one_match(app: Flask) -> None:
    phones = [Tabletop(app, app.test_client()) for _ in range(4)]
    forms = [
        phone.get("/import").forms("/import")[0].values() | {"text": KEYED} for phone in phones
    ]

    def send(n: int) -> str:
        answer = phones[n].client.post("/import", data=forms[n])
        assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
        return answer.headers["Location"].rsplit("/", 1)[-1]

    with ThreadPoolExecutor(len(phones)) as threads:
        made = set(threads.map(send, range(len(phones))))
    assert len(made) == 1
    assert phones[0].match_count() == 1


def test_a_record_without_a_key_is_a_new_match_each_time(tabletop: Tabletop) -> None:
    plain = KEYED.split("\n", 1)[1]  # the same record, without its key
    first = new_id(tabletop, import_text(tabletop, plain))
    second = new_id(tabletop, import_text(tabletop, plain))
    assert first != second and tabletop.match_count() == 2
    assert tabletop.export(first) == EXPORTED.split("\n", 1)[1]


def test_a_malformed_key_is_refused_with_its_line(tabletop: Tabletop) -> None:
    page = import_text(tabletop, "record: no\n" + KEYED.split("\n", 1)[1])
    assert page.status == 422
    assert "Line 1" in page.text and "[syntax]" in page.text
    assert tabletop.match_count() == 0


def test_a_watcher_exports_the_record_without_its_key(tabletop: Tabletop, app: Flask) -> None:
    """Whoever imports a record with the key gets the match to edit: only its editors
    are given the key."""
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    share = tabletop.get(f"/m/{match_id}/share").text
    link = re.search(r"/v/[\w-]+", share)
    assert link is not None
    watcher = Tabletop(app, app.test_client())
    assert watcher.client.get(link.group(0)).status_code == 303
    exported = watcher.export(match_id)
    assert "record:" not in exported and exported == EXPORTED.split("\n", 1)[1]
    # Imported by the watcher, it is a copy of its own, not the editor's match.
    copy = new_id(watcher, import_text(watcher, exported))
    assert copy != match_id and watcher.line(match_id, "Bob", "R4").status == 403


def test_a_record_played_on_after_it_was_sent_adds_the_lines_played_since(
    tabletop: Tabletop,
) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    page = import_text(tabletop, KEYED + "Bob: R4\n")  # played on in the phone, sent again
    assert new_id(tabletop, page) == match_id
    assert ADDED_ONE in page.doc.one(cls="notice").text
    page = import_text(tabletop, KEYED + "Bob: R4\nCy: R6\nAnn: R2\n")
    assert new_id(tabletop, page) == match_id
    assert "the 2 lines played since were added" in page.doc.one(cls="notice").text
    assert tabletop.export(match_id) == EXPORTED + "Bob: R4\nCy: R6\nAnn: R2\n"
    # The same record once more (its answer was lost): nothing more to add.
    page = import_text(tabletop, KEYED + "Bob: R4\nCy: R6\nAnn: R2\n")
    assert AGAIN in page.doc.one(cls="notice").text
    assert tabletop.match_count() == 1


def test_a_record_and_its_match_gone_on_differently_are_refused_and_neither_changes(
    tabletop: Tabletop,
) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    assert tabletop.line(match_id, "Bob", "R4").status == 303  # played on, on the server
    page = import_text(tabletop, KEYED + "Bob: R6\n")  # and otherwise in the phone
    assert page.status == 422
    assert "went on with different lines: nothing was imported" in page.text
    assert tabletop.match_count() == 1
    assert tabletop.export(match_id) == EXPORTED + "Bob: R4\n"


def test_a_line_undone_on_the_server_does_not_come_back_with_the_record_sent_again(
    tabletop: Tabletop,
) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    assert tabletop.undo(match_id).status == 303  # Ann's R3 taken back, on the server
    page = import_text(tabletop, KEYED)  # the same record again (its answer was lost)
    assert page.status == 422 and "went on with different lines" in page.text
    page = import_text(tabletop, KEYED + "Bob: R4\n")  # or played on in the phone too
    assert page.status == 422
    assert tabletop.export(match_id) == EXPORTED.replace("Ann: R3\n", "")


def test_a_match_imported_before_its_lines_were_counted_counts_them_when_sent_again(
    app: Flask, tabletop: Tabletop
) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    with app.app_context(), current_store().engine.begin() as connection:
        connection.execute(  # as migration a1c0ffee0012 left it: not counted
            update(MATCHES).where(MATCHES.c.id == match_id).values(record_lines=None)
        )
    assert AGAIN in import_text(tabletop, KEYED).doc.one(cls="notice").text  # counted now
    assert tabletop.undo(match_id).status == 303
    assert import_text(tabletop, KEYED).status == 422  # the undone line stays undone


def test_a_rename_made_on_both_sides_is_made_once_and_a_clash_is_named_by_its_line(
    tabletop: Tabletop,
) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    crew = Crew(tabletop)
    group_id = crew.create("Friday crew")
    page = tabletop.get(f"/m/{match_id}/group")
    (form,) = page.forms(f"/m/{match_id}/group")
    tabletop.client.post(form.action, data=form.values() | {"group": group_id})
    crew.rename(group_id, "Bob", "Robert")
    crew.rename(group_id, "Cy", "Dee")
    # The phone played on, and renamed Bob to Robert too: the match calls him so already.
    played = KEYED + "Bob: R4\nrename: Bob, Robert\nCy: R6\n"
    page = import_text(tabletop, played)
    assert "the 2 lines played since were added" in page.doc.one(cls="notice").text
    assert tabletop.export(match_id).endswith("rename: Cy, Dee\nRobert: R4\nDee: R6\n")
    assert AGAIN in import_text(tabletop, played).doc.one(cls="notice").text
    # The phone called Ann what the group calls Cy: refused, by its line in the record.
    page = import_text(tabletop, played + "rename: Ann, Dee\n")
    assert page.status == 422 and "Line 8 [" in page.text, page.text[:1500]


def test_the_record_sent_again_after_the_match_moved_on_is_that_match(tabletop: Tabletop) -> None:
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    assert tabletop.line(match_id, "Bob", "R4").status == 303  # played on, on the server
    assert new_id(tabletop, import_text(tabletop, KEYED)) == match_id
    assert tabletop.match_count() == 1


def test_look_alike_names_are_refused_at_the_seating_line(tabletop: Tabletop) -> None:
    page = import_text(
        tabletop, "# from a phone\nrecord: sent-from-Anns-phone-1\nplayers: Ann, \u0391nn\n"
    )
    assert page.status == 422 and "Line 3" in page.text


SEATED = ("Ann", "Bob", "Cy")
TEXTS = ["Ann: R3", "Bob: draw 2, R7 swap Ann", "Cy: take", "Ann: catch Bob", "hand: 2"]
LINES = st.lists(st.sampled_from(TEXTS), max_size=12)
Log = list[tuple[Line, tuple[str, ...]]]


def parsed(texts: list[str]) -> list[Line]:
    lines = [parse_line(text, SEATED) for text in texts]
    assert all(lines)
    return [line for line in lines if line is not None]


def log_of(lines: list[Line]) -> tuple[Log, tuple[str, ...]]:
    """The lines as a log: each with its players as called before it; and at its end."""
    log, called = [], list(SEATED)
    for line in lines:
        log.append((line, tuple(called)))
        if isinstance(line, RenameLine):
            called[called.index(line.old)] = line.new
    return log, tuple(called)


def renaming(lines: list[Line], at: int, seat: int, new: str) -> list[Line]:
    """The lines with the player at `seat` renamed `new` before line `at` (as a group
    renames a player in each of their matches): the lines after it say `new`."""
    old = log_of(lines[:at])[1][seat]
    return [*lines[:at], RenameLine(old, new), *(renamed(line, {old: new}) for line in lines[at:])]


@given(LINES, st.data())
def test_a_record_sent_again_adds_exactly_what_its_match_lacks(
    played: list[str], data: st.DataObject
) -> None:
    lines = parsed(played)
    sent, _ = log_of(lines)
    then = data.draw(st.integers(0, len(lines)))  # the match took this much then
    now = data.draw(st.integers(0, len(lines)))  # and the phone sends this much now
    # The server's match: what it took, and its group's renames anywhere in it since
    # (Bob called Robert; Ann spelt ANN, as the group's roster spells her).
    theirs = lines[:then]
    for seat, new in data.draw(st.lists(st.sampled_from([(1, "Robert"), (0, "ANN")]), unique=True)):
        theirs = renaming(theirs, data.draw(st.integers(0, len(theirs))), seat, new)
    logged, called = log_of(theirs)
    names = dict(zip(SEATED, called, strict=True))
    expected = [(then + i, renamed(line, names)) for i, line in enumerate(lines[then:now])]
    assert lines_to_add(logged, sent[:now], called, then) == expected
    # A line received then and undone since: never added again.
    if then and now >= then:
        undone, _ = log_of(lines[: then - 1])
        assert lines_to_add(undone, sent[:now], SEATED, then) is None


@given(LINES, st.sampled_from(["Bob: R9", "Cy: W+6 B"]), st.data())
def test_a_record_and_a_match_gone_on_differently_add_nothing(
    played: list[str], other: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(played)))
    mine, called = log_of(parsed([*played[:at], "Ann: R1", *played[at:]]))
    theirs, _ = log_of(parsed([*played[:at], other]))
    assert lines_to_add(theirs, mine, called) is None
    assert lines_to_add(mine, theirs, called) is None


@pytest.fixture
def another_worker(app: Flask) -> Iterator[Flask]:
    """The app again, on the same database: another worker of the server."""
    worker = app_on(app.config["SQLALCHEMY_DATABASE_URI"], {})
    yield worker
    dispose(worker)


def test_a_record_sent_while_its_match_is_played_on_elsewhere_adds_nothing_until_sent_again(
    app: Flask, tabletop: Tabletop, another_worker: Flask
) -> None:
    """MATCH_BUSY: the match a record made is played on by another phone, through another
    server worker, each time this import is about to write the lines it judged (three
    times running): nothing is added, and the page says to send it again. The other
    phone records the record's own lines, so the record never goes on differently."""
    match_id = new_id(tabletop, import_text(tabletop, KEYED))
    played_on = ["Bob: R4", "Cy: R6", "Ann: R2"]
    sent = KEYED + "".join(f"{line}\n" for line in played_on) + "Bob: R1\n"
    other = Tabletop(another_worker, another_worker.test_client())
    assert new_id(other, import_text(other, KEYED)) == match_id  # the record's key: an editor

    playing = list(played_on)

    def another_phone_plays_first(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if playing and statement.lstrip().upper().startswith(
            f"INSERT INTO {models.LINES.name.upper()}"
        ):
            player, action = playing.pop(0).split(": ")
            assert other.line(match_id, player, action).status == 303

    with app.app_context():
        engine = current_store().engine
    event.listen(engine, "before_cursor_execute", another_phone_plays_first)
    try:
        page = import_text(tabletop, sent)
    finally:
        event.remove(engine, "before_cursor_execute", another_phone_plays_first)
    assert not playing  # three writes, each too late
    assert page.status == 422, page.text[:500]
    assert "being played on the server right now: nothing was added" in page.text
    assert tabletop.export(match_id) == EXPORTED + "".join(f"{line}\n" for line in played_on)

    # Sent again once the table is still: the one line it still has of its own is added.
    page = import_text(tabletop, sent)
    assert new_id(tabletop, page) == match_id
    assert ADDED_ONE in page.doc.one(cls="notice").text
    assert tabletop.export(match_id) == EXPORTED + sent.removeprefix(KEYED)
