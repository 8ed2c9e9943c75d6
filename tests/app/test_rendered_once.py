"""The parts of the table screen rendered once for every phone showing the same
(companion/rendered.py): the card keys, as the most varied of them (kept per table
version, role, tab, cards drawn first and language), the seats per role, the dock per
match, a watcher's whole fragment; never a phone's own."""

from __future__ import annotations

from flask import Flask, template_rendered
from jinja2 import Template

from tests.app.helpers import Page, Tabletop, phone, share_tokens


def keys_of(page: Page) -> list[tuple[str | None, str | None]]:
    """Each key's name and what it posts, as the screen shows them."""
    keys = page.doc.one(cls="keys")
    return [(k.get("aria-label"), k.get("value") or k.get("href")) for k in keys.find_all("button")]


def test_phones_on_the_same_table_share_its_keys(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    parts = app.extensions["rendered_parts"]
    first = tabletop.table(started)
    kept = len(parts)
    again = tabletop.table(started)
    assert len(parts) == kept  # the same table, tab and language: rendered once
    assert keys_of(again) == keys_of(first)
    # Each form's own fields are still its own: a fresh key and the screen's stamp.
    assert again.forms("/line")[0].values()["key"] != first.forms("/line")[0].values()["key"]


def test_a_play_a_tab_and_a_language_each_have_keys_of_their_own(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    before = keys_of(tabletop.table(started))
    page = tabletop.play_lines(started, "Ann: R3")
    after = keys_of(tabletop.table(started))
    assert after != before  # Bob's keys on R3, not Ann's on R5
    assert page.turn == "Bob"
    blue = keys_of(tabletop.tab(started, "Blue"))
    assert blue != after and all(name and "Blue" in name for name, _ in blue)
    german = tabletop.get(f"/m/{started}", headers={"Accept-Language": "de"})
    names = [name for name, _ in keys_of(german)]
    assert names and not any(name and "Red" in name for name in names)
    assert keys_of(tabletop.table(started)) == after  # English again, as kept


def test_an_undo_shows_the_keys_of_the_table_it_brings_back(
    tabletop: Tabletop, started: str
) -> None:
    before = keys_of(tabletop.table(started))
    tabletop.play_lines(started, "Ann: R3")
    tabletop.undo(started)
    assert keys_of(tabletop.table(started)) == before


def test_an_editor_and_a_watcher_each_see_their_own_seats(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """The seats are kept per role: an editor corrects a count from its seat, a watcher
    can't, whoever asked first."""
    _, viewer = share_tokens(app, started)
    watcher = phone(app, f"/v/{viewer}")
    watched = watcher.table(started).doc.one(cls="seats")
    edited = tabletop.table(started).doc.one(cls="seats")
    assert watched.find("a", cls="seat-box") is None
    assert len(edited.find_all("a", cls="seat-box")) == 3
    assert watcher.table(started).doc.one(cls="seats").find("a", cls="seat-box") is None


def test_a_table_that_moved_on_renders_again_only_what_shows_it(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """After a play the editor's screen renders the table's new status, seats, last
    plays and keys; a watcher then renders only its own seats (no keys, no way to
    correct a count): the status and the last plays are the same for both, and the
    dock (its links) the same at every version of the match."""
    _, viewer = share_tokens(app, started)
    watcher = phone(app, f"/v/{viewer}")
    watcher.table(started)
    parts = app.extensions["rendered_parts"]
    tabletop.play_lines(started, "Ann: R3")
    kept = len(parts)
    watched = watcher.table(started)
    assert len(parts) == kept + 1
    assert watched.turn == "Bob" and "Ann played Red 3" in watched.doc.one(cls="log").text

    # Each role keeps its own dock: only an editor moves a match into a group.
    def dock_links(page: Page) -> list[str | None]:
        return [a.get("href") for a in page.doc.one(cls="dock").find_all("a")]

    groups = f"/m/{started}/group"
    assert groups not in dock_links(watched)
    assert groups in dock_links(tabletop.table(started))


def test_watchers_of_a_table_that_moved_on_share_its_fragment(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """A watching phone's fragment holds nothing of its own: the second watcher's poll
    renders nothing; an editor's always has its own forms."""
    _, viewer = share_tokens(app, started)
    watchers = [phone(app, f"/v/{viewer}") for _ in range(2)]
    live = watchers[0].table(started).table.one(cls="live")["hx-get"]
    tabletop.play_lines(started, "Ann: R3")
    first = watchers[0].get(live, headers={"HX-Request": "true"})
    rendered: list[str] = []

    def seen(sender: Flask, template: Template, context: dict[str, object]) -> None:
        rendered.append(str(template.name))

    with template_rendered.connected_to(seen, app):
        second = watchers[1].get(live, headers={"HX-Request": "true"})
    assert rendered == []
    assert second.text == first.text and first.turn == "Bob"
    # Another language is another fragment.
    with template_rendered.connected_to(seen, app):
        german = watchers[1].get(live, headers={"HX-Request": "true", "Accept-Language": "de"})
    assert "partials/table_body.html" in rendered and german.text != first.text
    assert "Watching" in first.text
    keys = [tabletop.table(started).forms("/line")[0].values()["key"] for _ in range(2)]
    assert keys[0] != keys[1]
