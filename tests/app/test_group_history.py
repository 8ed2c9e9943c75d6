"""A group's history kept per process (companion/group_history.py): the group page and a
player's page are made from it, exactly as from every match read afresh, and a change in
any of the group's matches (a new line, an undo, a rename, a match moved in) shows at
once, in another process on the same database too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial

import pytest
from flask import Flask

from companion import create_app
from companion.extensions import db
from companion.group_history import MAX_DERIVED, GroupHistories, History
from engine.tools.stats import group_stats
from tests.app.group_helpers import Crew
from tests.app.helpers import Tabletop
from tests.app.test_group_stats import figures, friday_group, moved_in, player_link
from tests.app.test_groups import finish_quick_match, other_phone, share_links
from tests.app.test_transfer import import_text, new_id
from tests.engine.test_stats import FRIDAY


@pytest.fixture
def process(app: Flask) -> Iterator[Flask]:
    """Another process on the app's database (a second gunicorn worker)."""
    config = (
        "SQLALCHEMY_DATABASE_URI",
        "SECRET_KEY",
        "TESTING",
        "RATELIMIT_ENABLED",
        "TAP_SETTLE_MS",
    )
    other = create_app({key: app.config[key] for key in config} | {"AUTO_MIGRATE": False})
    yield other
    with other.app_context():
        for engine in db.engines.values():
            engine.dispose()


def without_tokens(html: str) -> str:
    """A page with its per-request tokens (CSRF, form keys) and its clock ("Last play
    5 seconds ago" turns into "6 seconds ago" on a slow machine) taken out."""
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    html = re.sub(r'<small class="when">[^<]*</small>', "", html)
    return re.sub(r'value="[\w.-]{16,}"', "", html)


def test_a_kept_history_shows_what_every_match_read_afresh_shows(
    tabletop: Tabletop, app: Flask
) -> None:
    crew, group, _match = friday_group(tabletop)
    playing = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="100")
    assert isinstance(playing, str)
    assert tabletop.line(playing, "Bob", "wins").status == 303  # a hand under way
    urls = [f"/g/{group}", f"/g/{group}?all=1", player_link(crew, group, "Ann")]
    urls += [player_link(crew, group, "Bob"), f"/g/{group}/hands.csv", f"/g/{group}/new"]
    kept = [without_tokens(tabletop.get(url).text) for url in urls]
    histories: GroupHistories = app.extensions["group_histories"]
    history = histories.get(group)
    assert history is not None and len(history.matches) == 2
    assert [without_tokens(tabletop.get(url).text) for url in urls] == kept
    assert histories.get(group) is history  # nothing moved: the same history
    histories.clear()
    app.extensions["match_stats"].clear()
    app.extensions["store"].games.clear()
    assert [without_tokens(tabletop.get(url).text) for url in urls] == kept


def test_every_change_in_a_groups_match_shows_at_once_in_another_process(
    tabletop: Tabletop, app: Flask, process: Flask
) -> None:
    crew, group, _match = friday_group(tabletop)
    there = other_phone(process)
    there.client.get(share_links(tabletop, group)["gv"])
    seen = Crew(there)
    assert seen.leaderboard(group) == crew.leaderboard(group)  # kept there now
    ann = player_link(crew, group, "Ann")
    assert figures(there.get(ann))["Matches won"] == "1 of 1"

    # A new line (the last of a match: it is won).
    played = crew.start(group, ["Ann", "Bob", "Cy"], mode="quick", target="100")
    assert isinstance(played, str)
    finish_quick_match(tabletop, played, "Bob", "Ann", "Cy")
    assert seen.leaderboard(group)[:2] == [["Ann", "1", "2", "1050"], ["Bob", "1", "2", "620"]]
    assert figures(there.get(ann))["Matches won"] == "1 of 2"

    # An undo: its one hand is not scored any more, so the match counts for nothing yet.
    assert tabletop.undo(played).status == 303
    assert seen.leaderboard(group)[:2] == [["Ann", "1", "1", "1050"], ["Bob", "0", "1", "500"]]
    assert seen.leaderboard(group) == crew.leaderboard(group)

    # A rename: in every match, on the leaderboard and on the player's page.
    assert crew.rename(group, "Bob", "Robert").status == 303
    assert [row[0] for row in seen.leaderboard(group)] == ["Ann", "Robert", "Cy"]
    robert = there.get(player_link(seen, group, "Robert"))
    assert robert.status == 200 and "Robert" in robert.doc.one("h1").text

    # A match moved in.
    again = new_id(tabletop, import_text(tabletop, FRIDAY))
    assert moved_in(tabletop, again).status == 303
    assert seen.leaderboard(group)[0] == ["Ann", "2", "2", "2100"]
    assert figures(there.get(ann))["Matches won"] == "2 of 2"
    assert seen.leaderboard(group) == crew.leaderboard(group)


def test_what_pages_derive_is_made_once_per_history_and_only_the_last_few_kept() -> None:
    history = History({}, (), (), {}, {}, group_stats([]))
    made: list[int] = []

    def make(n: int) -> int:
        made.append(n)
        return n

    assert history.derived("lists", lambda: make(1)) == 1
    assert history.derived("lists", lambda: make(2)) == 1 and made == [1]
    for n in range(MAX_DERIVED):
        history.derived(("chart", n), partial(make, n))
    assert history.derived("lists", lambda: make(3)) == 3  # the oldest was dropped
