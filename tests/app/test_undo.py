"""Undo takes back exactly the last line; a stale screen never records or undoes anything."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from engine import Game
from tests.app.helpers import (
    Tabletop,
    a_line_from_elsewhere,
    elsewhere,
    forget_games,
    share_tokens,
)


def engine_state(*lines: str) -> dict:
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    for line in lines:
        game.apply(line)
    return game.to_json()


def test_undo_takes_back_exactly_the_last_line(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: R3", "Bob: R+2")
    assert page.version == 3
    assert page.undo_label == "Undo: " + page.undo_label.removeprefix("Undo: ")
    assert "Bob" in page.undo_label and "Draw 2" in page.undo_label

    page = tabletop.undo(started)

    assert page.status == 303
    assert page.version == 2
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
    assert tabletop.state(started) == engine_state("start: R5", "Ann: R3")
    assert "Undone: Bob played Red Draw 2: Cy faces +2." in page.notices  # a sentence
    assert page.turn == "Bob"
    assert "Ann" in page.undo_label and "Red 3" in page.undo_label
    # Once shown, the notice is gone.
    assert not any("Undone" in n for n in tabletop.table(started).notices)


def test_undo_back_to_the_start(tabletop: Tabletop, started: str) -> None:
    page = tabletop.undo(started)
    assert page.status == 303 and page.version == 0
    assert tabletop.logged(started) == []
    assert page.undo_label is None
    page = tabletop.undo(started, version=0)
    assert page.status == 422
    assert "nothing to undo" in page.refusal.text.lower()


def test_undo_with_a_stale_version_changes_nothing(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3", "Bob: R4")
    before = tabletop.state(started)
    for stale in (2, 0, 4, 99):
        page = tabletop.undo(started, version=stale)
        assert page.status == 409, stale
        assert page.version == 3
        assert any("Not undone" in n for n in page.notices)
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4"]
    assert tabletop.state(started) == before


def test_an_action_from_a_stale_screen_is_refused(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    page = tabletop.line(started, "Bob", "R4", version=1)
    assert page.status == 409
    assert any("moved on" in n for n in page.notices)
    assert page.version == 2  # the table as it is now
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
    page = tabletop.line(started, "Bob", "R4", version=3)  # from the future
    assert page.status == 409
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
    tabletop.play_lines(started, "Bob: R4")
    assert tabletop.logged(started)[-1] == "Bob: R4"


def test_a_stale_reveal_is_refused(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 1", "Ann: R3")
    page = tabletop.reveal(started, "Bob", points=10, version=2)
    assert page.status == 409
    assert len(tabletop.logged(started)) == 3


def test_a_double_submit_records_once(tabletop: Tabletop, started: str) -> None:
    page = tabletop.page(started)
    form, button = page.form_with("R3")
    data = form.values(button)
    first = tabletop.client.post(form.action, data=data)
    second = tabletop.client.post(form.action, data=data)
    # The same rendered form (same idempotency key) counts once, and says nothing alarming.
    assert first.status_code == 303
    assert second.status_code == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_a_resubmitted_form_without_its_key_is_stopped_by_the_version(
    tabletop: Tabletop, started: str
) -> None:
    page = tabletop.page(started)
    form, button = page.form_with("R3")
    data = {k: v for k, v in form.values(button).items() if k != "key"}
    assert tabletop.client.post(form.action, data=data).status_code == 303
    assert tabletop.client.post(form.action, data=data).status_code == 409
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_a_form_resubmitted_after_its_line_was_undone_records_nothing(
    tabletop: Tabletop, started: str
) -> None:
    """The line is gone but its form stays used: the version alone would let it in again."""
    page = tabletop.page(started)
    form, button = page.form_with("R3")
    data = form.values(button)
    assert tabletop.client.post(form.action, data=data).status_code == 303
    tabletop.table(started)
    assert tabletop.undo(started).status == 303
    assert tabletop.page(started).version == int(data["version"])  # back where the form was
    assert tabletop.client.post(form.action, data=data).status_code == 303  # "done already"
    assert tabletop.logged(started) == ["start: R5"]
    # A new form from the same screen still records.
    tabletop.play_lines(started, "Ann: R3")
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_forms_from_before_an_undo_and_a_new_line_elsewhere_do_nothing(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The version came back to what my screen shows, but not the line: my undo would
    take back a play I never saw, my play would follow one I never saw."""
    from tests.app.helpers import phone, share_tokens

    mine = tabletop.play_lines(started, "Ann: R3")
    (undo_form,) = mine.forms("/undo")
    undo_data = undo_form.values(undo_form.buttons()[0])
    other = phone(app, f"/j/{share_tokens(app, started)[0]}")
    other.table(started)
    assert other.undo(started).status == 303
    assert other.line(started, "Ann", "R4").status == 303
    assert tabletop.client.post(undo_form.action, data=undo_data).status_code == 409
    form, button = mine.form_with("R6")  # Bob's turn on my screen
    assert tabletop.client.post(form.action, data=form.values(button)).status_code == 409
    assert tabletop.logged(started) == ["start: R5", "Ann: R4"]


def test_a_double_undo_undoes_once(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3", "Bob: R4")
    page = tabletop.page(started)
    (form,) = page.forms("/undo")
    data = form.values(form.buttons()[0])
    assert tabletop.client.post(form.action, data=data).status_code == 303
    assert tabletop.client.post(form.action, data=data).status_code == 303  # same key
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_two_phones_at_one_table(app: Flask, tabletop: Tabletop, started: str) -> None:
    other = Tabletop(app, app.test_client())  # its own session and CSRF token
    token, _ = share_tokens(app, started)
    assert other.client.get(f"/j/{token}").status_code == 303  # the editor link
    mine = tabletop.table(started)
    theirs = other.table(started)
    assert mine.token != theirs.token
    assert other.line(started, "Ann", "R3").status == 303
    # My screen still shows version 1: my play is refused, theirs stands.
    page = tabletop.line(started, "Ann", "R4", version=mine.version)
    assert page.status == 409
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
    # Their undo, then my undo from the old screen: only theirs happens.
    page = other.undo(started)
    assert page.status == 303
    assert tabletop.undo(started, version=2).status == 409
    assert tabletop.logged(started) == ["start: R5"]


def test_the_game_cache_follows_the_database(app: Flask, tabletop: Tabletop, started: str) -> None:
    """Another process may change the log: the next request sees the database, not the cache.

    A writer moves the match row with the log (its version and last line's id): that is
    what a process checks its cached game against.
    """
    tabletop.play_lines(started, "Ann: R3")
    added = a_line_from_elsewhere(app, started, "Bob: R4")
    page = tabletop.table(started)
    assert page.version == 3 and page.turn == "Cy"
    with elsewhere(app) as conn:  # another process undoes it
        before = conn.execute(
            sa.text("SELECT id FROM match_line WHERE match_id = :m AND seq = 2"), {"m": started}
        ).scalar()
        conn.execute(sa.text("DELETE FROM match_line WHERE id = :i"), {"i": added})
        conn.execute(
            sa.text("UPDATE match SET version = 2, last_line_id = :i WHERE id = :m"),
            {"i": before, "m": started},
        )
    assert tabletop.table(started).version == 2
    forget_games(app)
    assert tabletop.table(started).turn == "Bob"


def test_undo_reopens_a_finished_match(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"], mode="quick", target="50")
    tabletop.line(match_id, "Ann", "wins")
    page = tabletop.reveal(match_id, "Bob", points=60)
    assert page.turn == "Ann wins the match!"
    assert f"/m/{match_id}/scores" in [a["href"] for a in tabletop.get("/").doc.find_all("a")]

    page = tabletop.undo(match_id)

    assert page.status == 303 and page.turn == "Ann wins the hand"
    assert tabletop.state(match_id)["match_winner"] is None
    home = [a["href"] for a in tabletop.get("/").doc.find_all("a")]
    assert f"/m/{match_id}" in home and f"/m/{match_id}/scores" not in home
