"""Limits on the work one client can ask of the server: requests per client address.

Creating a match, importing a record and writing to a match (a line, an undo, a reveal,
new links) are rate-limited per client address with Flask-Limiter, at rates a real
table never reaches (six phones behind one home router recording a fast game, a family
starting several matches in an evening) but a script does. Reads (the table, its 1.5 s
poll, static files, /healthz) are never limited. The limit on lines per match is the
store's (`Store.max_lines`, `MAX_MATCH_LINES`).

Settings (docs/OPERATIONS.md), from the environment with the COMPANION_ prefix:
RATELIMIT_NEW_MATCH, RATELIMIT_IMPORT, RATELIMIT_WRITE (Flask-Limiter's rate strings,
"10 per minute; 60 per hour"), RATELIMIT_ENABLED, RATELIMIT_STORAGE_URI (memory:// by
default: each process counts on its own; redis://... to count across processes and
hosts).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from companion.extensions import htmx

DEFAULTS = {
    # A family starts a few matches in an evening; a script started 693 in 10 s.
    "RATELIMIT_NEW_MATCH": "10 per minute; 60 per hour",
    # An import replays the whole record (up to MAX_MATCH_LINES lines, about 0.4 s).
    "RATELIMIT_IMPORT": "10 per minute; 60 per hour",
    # Every write to any match, one budget: a fast table records a line every few
    # seconds, whichever of its six phones taps; several tables behind one router (a
    # cafe) still fit. A script wrote hundreds a second.
    "RATELIMIT_WRITE": "240 per minute",
    # A lab run keeps a core busy for a while (LAB_MAX_RUNNING caps them at once).
    "RATELIMIT_LAB": "5 per minute; 30 per hour",
    # One process's memory: nothing to install (each gunicorn worker counts on its own).
    "RATELIMIT_STORAGE_URI": "memory://",
}

# Each limit: its setting, the endpoints it covers (POST only: a form's page is a read),
# and what a client that reached it did too often. The write limit is one budget
# shared by its endpoints.
LIMITS = (
    ("RATELIMIT_NEW_MATCH", ("main.new_match",), "new matches"),
    ("RATELIMIT_IMPORT", ("transfer.import_record",), "imports"),
    ("RATELIMIT_LAB", ("lab.start", "lab.again"), "lab runs"),
    (
        "RATELIMIT_WRITE",
        ("table.record_line", "table.undo", "scores.reveal", "share.renew"),
        "plays and changes",
    ),
)


def init_limits(app: Flask) -> Limiter:
    """The app's limiter (kept in app.extensions["rate_limiter"]), its limits on the
    views `register` added, and its 429 page. Behind a proxy (BEHIND_PROXY), ProxyFix
    has put the real client's address in the request, so each client counts apart."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    limiter = Limiter(key_func=get_remote_address)
    limiter.init_app(app)
    # Reading is never limited: a GET (the table's 1.5 s poll above all) skips the
    # limiter's work on every request but this check.
    limiter.request_filter(lambda: request.method in ("GET", "HEAD", "OPTIONS"))
    app.extensions["rate_limiter"] = limiter
    for setting, endpoints, what in LIMITS:
        value = str(app.config[setting])
        if len(endpoints) == 1:
            limit = limiter.limit(value, methods=["POST"], error_message=what)
        else:
            limit = limiter.shared_limit(
                value, scope=setting.lower(), methods=["POST"], error_message=what
            )
        for endpoint in endpoints:
            view: Callable[..., Any] = app.view_functions[endpoint]
            app.view_functions[endpoint] = limit(view)
    app.register_error_handler(RateLimitExceeded, too_many)
    return limiter


def too_many(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """429 with a sentence and Retry-After; to htmx, a notice put on top of the table
    (the table stays as it is: nothing was recorded)."""
    limiter: Limiter = current_app.extensions["rate_limiter"]
    breached = limiter.current_limit
    reset_at = breached.window.reset_time if breached is not None else time.time() + 60
    wait = max(1, math.ceil(reset_at - time.time()))  # seconds until the window ends
    item = error.limit.limit
    message = too_many_sentence(
        error.description or "requests", window(item.GRANULARITY.name, item.multiples), wait
    )
    headers = {"Retry-After": str(wait)}
    if htmx:
        headers |= {"HX-Retarget": "#table", "HX-Reswap": "afterbegin", "HX-Reselect": ".too-many"}
        return render_template("partials/too_many.html", message=message), 429, headers
    page = render_template("error.html", title=_("Too many requests"), message=message)
    return page, 429, headers


def window(unit: str, n: int) -> str:
    """A limit's window, as "in ..." ends: "a minute", "an hour", "10 seconds"."""
    windows = {
        "second": ngettext("a second", "%(num)d seconds", n),
        "minute": ngettext("a minute", "%(num)d minutes", n),
        "hour": ngettext("an hour", "%(num)d hours", n),
        "day": ngettext("a day", "%(num)d days", n),
        "month": ngettext("a month", "%(num)d months", n),
        "year": ngettext("a year", "%(num)d years", n),
    }
    return str(windows.get(unit, f"{n} {unit}"))


def too_many_sentence(what: str, window: str, wait: int) -> str:
    """What a client that reached a limit did too often, in `window`, and how long to
    wait (seconds), in one sentence."""
    later = (
        _("a moment")
        if wait <= 90
        else ngettext("about %(num)d minute", "about %(num)d minutes", round(wait / 60))
    )
    if what == "new matches":
        return str(
            _(
                "Too many new matches from this address in %(window)s: wait %(later)s and "
                "try again.",
                window=window,
                later=later,
            )
        )
    if what == "imports":
        return str(
            _(
                "Too many imports from this address in %(window)s: wait %(later)s and try again.",
                window=window,
                later=later,
            )
        )
    if what == "lab runs":
        return str(
            _(
                "Too many comparisons started from this address in %(window)s: wait %(later)s "
                "and try again.",
                window=window,
                later=later,
            )
        )
    if what == "plays and changes":
        return str(
            _(
                "Too many plays and changes from this address in %(window)s: wait %(later)s and "
                "try again. This one was not recorded.",
                window=window,
                later=later,
            )
        )
    return str(
        _(
            "Too many requests from this address in %(window)s: wait %(later)s and try again.",
            window=window,
            later=later,
        )
    )
