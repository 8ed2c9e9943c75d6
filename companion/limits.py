"""Limits on the work one client can ask of the server: requests per client address.

Creating a match, importing a record and writing to a match (a line, an undo, a reveal,
new links) are rate-limited per client address, at rates a real table never reaches
(six phones behind one home router recording a fast game, a family starting several
matches in an evening) but a script does. Reads (the table, its 1.5 s poll, static
files, /healthz) are never limited, and pay nothing for the limits: only the limited
views check them. The limit on lines per match is the store's (`Store.max_lines`,
`MAX_MATCH_LINES`).

The counting is the `limits` library's (fixed windows, the rate strings "10 per minute;
60 per hour"), in a storage named by RATELIMIT_STORAGE_URI (companion/limit_storage.py),
imported only when limits are on: the app in the phone has none, and its start is quicker
without (limits imports its asyncio storages too).

Settings (docs/OPERATIONS.md), from the environment with the COMPANION_ prefix:
RATELIMIT_NEW_MATCH, RATELIMIT_IMPORT, RATELIMIT_WRITE, RATELIMIT_LAB,
RATELIMIT_ENABLED, RATELIMIT_STORAGE_URI.

A storage that does not answer (Redis down) lets every request through, with a warning
in the log when the counting stops and a line when it starts again: a limit is a guard
against scripts, never a reason to refuse a table its play.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from flask import Flask, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import TooManyRequests

from companion.extensions import htmx
from companion.settings import switched_on

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # the limits library is imported only when limits are on (not in a phone)
    from limits import RateLimitItem
    from limits.storage import Storage

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
    "RATELIMIT_ENABLED": True,
    # One process's memory: nothing to install (each gunicorn worker counts on its own).
    "RATELIMIT_STORAGE_URI": "memory://",
}

# Each limit: its setting, the endpoints it covers (POST only: a form's page is a read),
# and what a client that reached it did too often. Each limit is one budget shared by
# its endpoints.
LIMITS = (
    ("RATELIMIT_NEW_MATCH", ("main.new_match",), "new matches"),
    ("RATELIMIT_IMPORT", ("transfer.import_record", "sending.receive"), "imports"),
    ("RATELIMIT_LAB", ("lab.start", "lab.again"), "lab runs"),
    (
        "RATELIMIT_WRITE",
        ("table.record_line", "table.undo", "scores.reveal", "share.renew"),
        "plays and changes",
    ),
)


class TooMany(TooManyRequests):
    """A client reached a limit: what it did too often, the limit, when its window ends."""

    def __init__(self, what: str, item: RateLimitItem, reset_at: float) -> None:
        super().__init__(what)
        self.what = what
        self.item = item
        self.reset_at = reset_at


class RateLimits:
    """The app's limits (app.extensions["rate_limits"]): each client address's requests
    counted per limit, in `storage`."""

    def __init__(self, storage: Storage | None) -> None:
        """Counting in `storage`; none: limits off (RATELIMIT_ENABLED false), nothing
        counted, and no storage made (the memory one starts a thread, which a browser's
        Python can't)."""
        self.storage = storage
        self.counter = None
        # Whether the last count failed (the storage did not answer): the log says so
        # once when it stops and once when it answers again.
        self.failing = False
        if storage is not None:
            from limits.strategies import FixedWindowRateLimiter

            self.counter = FixedWindowRateLimiter(storage)

    @property
    def per_process(self) -> bool:
        """Whether each process counts on its own (memory://): under gunicorn, a client
        may reach each limit once per worker (gunicorn.conf.py warns at start)."""
        if self.storage is None:  # limits off: the library is never imported
            return False
        from limits.storage import MemoryStorage

        return isinstance(self.storage, MemoryStorage)

    def check(self, scope: str, items: list[RateLimitItem], what: str) -> None:
        """Count this request against `scope`'s limits; TooMany at the first reached.
        Behind a proxy (BEHIND_PROXY), ProxyFix has put the real client's address in
        the request, so each client counts apart."""
        if self.counter is None:
            return
        from limits.errors import StorageError

        client = request.remote_addr or "127.0.0.1"
        try:
            for item in items:
                if not self.counter.hit(item, scope, client):
                    reset_at = self.counter.get_window_stats(item, scope, client).reset_time
                    raise TooMany(what, item, reset_at)
        except StorageError as error:  # let through: see the module's docstring
            if not self.failing:
                self.failing = True
                log.warning(
                    "Rate limits not counted: their storage (RATELIMIT_STORAGE_URI) does "
                    "not answer (%s). Every request is let through until it does.",
                    error.storage_error,
                )
            return
        if self.failing:
            self.failing = False
            log.warning("Rate limits counted again: their storage answers.")


def init_limits(app: Flask) -> RateLimits:
    """The app's limits, checked by the views `register` added (POSTs only), and the 429
    page."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.register_error_handler(TooMany, too_many)
    if not switched_on(app.config["RATELIMIT_ENABLED"]):
        app.extensions["rate_limits"] = limits = RateLimits(None)
        return limits  # no view counts anything
    from limits import parse_many

    from companion.limit_storage import storage_for

    limits = RateLimits(storage_for(str(app.config["RATELIMIT_STORAGE_URI"])))
    app.extensions["rate_limits"] = limits
    for setting, endpoints, what in LIMITS:
        # The shortest window first (as Flask-Limiter did): a request refused by the
        # minute's limit does not spend the hour's.
        items = sorted(parse_many(str(app.config[setting])))
        for endpoint in endpoints:
            view: Callable[..., Any] = app.view_functions[endpoint]
            app.view_functions[endpoint] = limited(view, limits, setting.lower(), items, what)
    return limits


def limited(
    view: Callable[..., Any], limits: RateLimits, scope: str, items: list[RateLimitItem], what: str
) -> Callable[..., Any]:
    """`view`, its POSTs counted against the limit first."""

    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if request.method == "POST":
            limits.check(scope, items, what)
        return view(*args, **kwargs)

    return checked


def too_many(error: TooMany) -> tuple[str, int, dict[str, str]]:
    """429 with a sentence and Retry-After; to htmx, a notice put on top of the table
    (the table stays as it is: nothing was recorded)."""
    wait = max(1, math.ceil(error.reset_at - time.time()))  # seconds until the window ends
    item = error.item
    message = too_many_sentence(error.what, window(item.GRANULARITY.name, item.multiples), wait)
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
