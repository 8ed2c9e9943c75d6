"""The matches a phone remembers (issue 13, finding 7): at most access.REMEMBERED, the
least recently used forgotten first, and Home warns which one goes next, with the link
that keeps it."""

from __future__ import annotations

from flask import Flask

from companion.access import REMEMBERED
from tests.app.helpers import Tabletop, phone, share_tokens

COOKIE_LIMIT = 4096  # what every browser keeps of one cookie (name, value and attributes)


def create_many(tabletop: Tabletop, count: int) -> list[str]:
    """`count` matches created by this phone, oldest first (seat names say which)."""
    return [tabletop.create([f"Ann{i}", "Bob"], dealer="2") for i in range(count)]


def session_cookie_size(tabletop: Tabletop) -> int:
    cookie = tabletop.client.get_cookie("session")
    assert cookie is not None
    return len(cookie.key) + len(cookie.value) + len("; Expires=Sun, 22 Nov 2026 00:00:00 GMT")


def warning_text(tabletop: Tabletop) -> str | None:
    box = tabletop.get("/").doc.find(cls="forgetting")
    return None if box is None else box.text


def test_the_least_recently_opened_match_is_forgotten(tabletop: Tabletop, app: Flask) -> None:
    assert REMEMBERED == 40
    ids = create_many(tabletop, REMEMBERED)
    assert session_cookie_size(tabletop) < COOKIE_LIMIT
    # Opening a match's page is a use: the first one created is now the newest.
    assert tabletop.table(ids[0]).status == 200
    assert tabletop.get(f"/m/{ids[2]}/scores").status == 200  # the scoreboard too
    newest = tabletop.create(["Ann40", "Bob"], dealer="2")
    assert session_cookie_size(tabletop) < COOKIE_LIMIT
    # The 41st forgot the least recently used: ids[1], never opened since it was made.
    assert tabletop.table(ids[1]).status == 403
    kept = [ids[0], *ids[2:], newest]
    assert len(kept) == REMEMBERED
    assert all(tabletop.table(match_id).status == 200 for match_id in kept)
    home = tabletop.get("/").text
    assert "Ann1, Bob" not in home and all(f"Ann{i}, Bob" in home for i in (0, *range(2, 41)))


def test_home_warns_which_match_goes_next_with_its_editor_link(
    tabletop: Tabletop, app: Flask
) -> None:
    ids = create_many(tabletop, REMEMBERED - 1)
    assert warning_text(tabletop) is None  # room for one more: nothing to warn about
    ids.append(tabletop.create(["Ann39", "Bob"], dealer="2"))
    tabletop.table(ids[0])  # the oldest is opened: the second oldest goes next
    warning = warning_text(tabletop)
    assert warning is not None, "Home should warn once the phone holds the most it remembers"
    editor, _ = share_tokens(app, ids[1])
    assert f"remembers {REMEMBERED} matches" in warning
    assert "Ann1, Bob" in warning and f"/j/{editor}" in warning
    link = tabletop.get("/").doc.one(cls="forgetting").one("a")["href"]
    assert link == f"http://localhost/j/{editor}"
    # Keeping it: opening the link makes it the newest; the warning moves on.
    assert tabletop.client.get(link).status_code == 303
    warning = warning_text(tabletop)
    assert warning is not None and "Ann2, Bob" in warning


def test_a_watching_phone_is_shown_the_viewer_link_never_the_editor_one(
    tabletop: Tabletop, app: Flask
) -> None:
    ids = create_many(tabletop, REMEMBERED)
    watcher = phone(app)
    for match_id in ids:
        _, viewer = share_tokens(app, match_id)
        assert watcher.client.get(f"/v/{viewer}").status_code == 303
    warning = watcher.get("/").doc.one(cls="forgetting")
    editor, viewer = share_tokens(app, ids[0])
    assert "Ann0, Bob" in warning.text and "viewer link" in warning.text
    assert warning.one("a")["href"].endswith(f"/v/{viewer}")
    assert editor not in watcher.get("/").html


def test_a_cookie_from_before_the_order_was_kept_still_opens_its_matches(
    tabletop: Tabletop, app: Flask
) -> None:
    match_id = tabletop.create()
    editor, _ = share_tokens(app, match_id)
    other = phone(app)
    with other.client.session_transaction() as session:
        session["matches"] = {match_id: ["editor", editor]}  # the old shape: an object
    assert other.table(match_id).status == 200
    assert match_id in other.get("/").html


def test_matches_whose_links_were_renewed_are_dropped_from_the_list(
    tabletop: Tabletop, app: Flask
) -> None:
    """A renewed link can never open the match again: Home forgets it, so it takes no
    place among the matches the phone remembers."""
    match_id = tabletop.create()
    editor, _ = share_tokens(app, match_id)
    other = phone(app, f"/j/{editor}")
    tabletop.press(match_id, page=tabletop.get(f"/m/{match_id}/share"), text="Make new links")
    other.get("/")
    with other.client.session_transaction() as session:
        assert session["matches"] == []
