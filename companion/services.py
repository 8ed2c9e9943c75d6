"""The app's services, one each in `app.extensions`: the match store ("store"), each
match's statistics ("match_stats"), each group's history ("group_histories"), the
groups ("groups"), the house-rule lab ("lab") and the table screen's parts rendered once
("rendered_parts"). The views reach them through
`current_store()`, `current_groups()`, `current_lab()`."""

from __future__ import annotations

from flask import Flask

from companion.extensions import db
from companion.games import MAX_LINES, GameCache
from companion.group_history import GroupHistories
from companion.groups import Groups
from companion.lab import DEFAULTS as LAB_DEFAULTS
from companion.lab import Lab
from companion.match_stats import MatchStatsCache
from companion.rendered import RenderedParts
from companion.settings import MAX_MATCH_LINES, max_match_lines
from companion.store import Store
from companion.taps import REFRESH_MS, SETTLE_MS, TapGuard, milliseconds


def init_services(app: Flask) -> None:
    config = app.config
    # The games this process rebuilt from the matches' logs (one cache per app).
    with app.app_context():
        engines = dict(db.engines)  # made by init_database, for the app's whole life
    store = Store(
        engines,
        GameCache(config.get("GAME_CACHE_LINES", MAX_LINES)),
        # A tap on a screen nobody could have read yet is not taken (companion/taps.py).
        TapGuard(
            config["SECRET_KEY"],
            settle_ms=milliseconds("TAP_SETTLE_MS", config.get("TAP_SETTLE_MS", SETTLE_MS)),
            refresh_ms=milliseconds("TAP_REFRESH_MS", config.get("TAP_REFRESH_MS", REFRESH_MS)),
        ),
        max_lines=max_match_lines(config.get("MAX_MATCH_LINES", MAX_MATCH_LINES)),
        keyed=bool(config.get("RECORD_KEYS")),  # the app in the phone (companion/standalone.py)
    )
    app.extensions["store"] = store
    # Each match's statistics, kept beside its game (companion/match_stats.py).
    app.extensions["match_stats"] = MatchStatsCache(store)
    # Each group's matches and statistics added up, kept per process and checked against
    # the database on each request (companion/group_history.py).
    app.extensions["group_histories"] = GroupHistories()
    # Groups: their rosters and matches, through the same store (companion/groups.py).
    app.extensions["groups"] = Groups(
        store, app.extensions["match_stats"], app.extensions["group_histories"]
    )
    # The house-rule lab: runs in worker processes of their own (companion/lab.py).
    for key, value in LAB_DEFAULTS.items():
        config.setdefault(key, value)
    app.extensions["lab"] = Lab(db, config)
    # Parts of the table's screen rendered once for every phone (companion/rendered.py).
    app.extensions["rendered_parts"] = RenderedParts()
