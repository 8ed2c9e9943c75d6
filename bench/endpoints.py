"""What one request to each of the table's endpoints costs in-process, on SQLite.

No server, no network, no load: the Flask test client against a fresh database, so two
checkouts can be compared on one machine in one sitting. `bench/web.py` (`make
bench-web`) runs this file once per checkout, alternating, and prints the ratios; by
itself it measures the checkout it is run from (or the one `--root` names):

    .venv/bin/python bench/endpoints.py [--root DIR] [--requests N] [--json]

It creates a 4-player match through the new-match form, records a few plays and count
corrections through the table's form (as the screen posts them: version, last line, the
screen's stamp, a fresh key), then prints the median milliseconds of: a bare endpoint
added to the same app (no database, no template: what Flask and the app's extensions
cost every request), recording a line, an unchanged poll (204), a changed poll (200, the
fragment) and the table's fragment. It reads each page as a phone does, so it runs
against older checkouts too (one before the screen's stamp sends none).

The test client costs about 0.2 ms a request itself (it builds the request's environ and
wraps the answer), so the unchanged poll, the cheapest of them, is also timed as the
server calls the app: the app's WSGI callable given a ready environ ("the same, WSGI
call"), what an unchanged poll costs the server beyond its HTTP parsing.

Those four ask for one table again and again: whatever a checkout keeps per table version
is warm. A live table is not like that: every play makes a new version, which each phone
then asks for once. So it also times a play's round as a table lives it: a play recorded,
the editor's fragment after the 303, and two watching phones' polls that find the table
changed (two: a load's four phones split over two workers), each round a new version.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from werkzeug.test import EnvironBuilder

HX = {"HX-Request": "true"}
# Every phone's browser asks for its languages, and the app works out one from them.
ACCEPT_LANGUAGE = "en-US,en;q=0.9"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "", ""]
RULES = {"stack": "last", "draw": "until", "mercy_on": "y", "mercy": "25", "seven": "y"}
RULES |= {"zero": "y", "target": "100000", "scoring": "high"}
# What each figure is, in the order printed.
ENDPOINTS = {
    "bare": "bare endpoint (200)",
    "record": "record a line (303)",
    "unchanged": "poll unchanged (204)",
    "unchanged_wsgi": "  the same, WSGI call",
    "changed": "poll changed (200)",
    "fragment": "table fragment (200)",
    "round": "play's round (4 req)",
}


class Table:
    """One 4-player match in the app of the checkout at `root`, an editor (this process's
    test client) and two phones watching through the viewer link; each request as the
    screen makes it."""

    def __init__(self, root: Path) -> None:
        os.chdir(root)
        sys.path.insert(0, str(root))
        # The instance folder and the database, gone with the process.
        self.folder = tempfile.TemporaryDirectory()
        os.environ["COMPANION_INSTANCE"] = str(Path(self.folder.name) / "instance")
        from companion import create_app

        database = Path(self.folder.name) / "bench.db"
        config: dict[str, Any] = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
        config["SECRET_KEY"] = "x"
        # The rate limiter runs, and is measured, at a rate this loop never reaches.
        config["RATELIMIT_WRITE"] = config["RATELIMIT_NEW_MATCH"] = "1000000 per minute"
        # The tap guard judges each post (measured), without the wait a person needs.
        config["TAP_SETTLE_MS"] = config["TAP_REFRESH_MS"] = "0"
        self.app = app = create_app(config)
        # The floor: the same app and extensions, an endpoint that does nothing.
        app.add_url_rule("/bench/bare", "bench_bare", lambda: "ok")
        self.client = client = app.test_client()
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = ACCEPT_LANGUAGE
        page = client.get("/new").get_data(as_text=True)
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        assert found is not None
        self.token = found.group(1)
        form = {"csrf_token": self.token, "dealer": "last", "mode": "referee", **RULES}
        form |= {f"players-{i}": name for i, name in enumerate(PLAYERS)}
        self.id = client.post("/new", data=form).headers["Location"].rsplit("/", 1)[1]
        for line in ("start: R5", "Ann: R3", "Bob: R4", "Cy: R6", "Dee: R8"):
            self.record(line)
        # Two phones that watch the table through its viewer link.
        share = client.get(f"/m/{self.id}/share").get_data(as_text=True)
        link = re.search(r"/v/([\w-]+)", share)
        assert link is not None, "no viewer link on the share page"
        self.watchers = [app.test_client() for _ in range(2)]
        for watcher in self.watchers:
            watcher.environ_base["HTTP_ACCEPT_LANGUAGE"] = ACCEPT_LANGUAGE
            assert watcher.get(f"/v/{link.group(1)}").status_code == 303
        self.plays = 0

    def shown(self) -> dict[str, str]:
        """The hidden fields the table's form carries, read off the fragment."""
        html = self.client.get(f"/m/{self.id}", headers=HX).get_data(as_text=True)
        fields = {"csrf_token": self.token}
        for name, pattern in (
            ("version", r'data-version="(\d+)"'),
            ("last", r"last=(\d+)"),
            ("shown", r'name="shown" value="([^"]+)"'),
        ):
            value = re.search(pattern, html)
            if value is not None:
                fields[name] = value.group(1)
        assert "version" in fields, "no table version on the fragment"
        return fields

    def record(self, line: str, fields: dict[str, str] | None = None) -> float:
        """Post a line from the screen's form (read off the fragment unless `fields` are
        given); the seconds the post took."""
        fields = dict(self.shown() if fields is None else fields)
        who, _, action = line.partition(":")
        fields["key"] = os.urandom(6).hex()
        if who in ("start", "hand"):
            fields |= {"player": "", "action": line}
        else:
            fields |= {"player": who.strip(), "action": action.strip()}
        start = time.perf_counter()
        answer = self.client.post(f"/m/{self.id}/line", data=fields, headers=HX)
        took = time.perf_counter() - start
        assert answer.status_code == 303, (line, answer.status_code)
        return took

    def correct(self, fields: dict[str, str] | None = None) -> float:
        """A play that changes the table and leaves it as playable: a count corrected."""
        self.plays += 1
        return self.record(f"Ann: has {8 if self.plays % 2 == 0 else 7}", fields)

    def play_round(self) -> float:
        """A play (timed by record(), without its read of the screen's fields), the
        editor's fragment, and each watcher's poll finding the new version."""
        seen = self.shown()
        posted = self.correct(seen)
        start = time.perf_counter()
        self.client.get(f"/m/{self.id}", headers=HX)
        polled = f"/m/{self.id}/live?v={seen['version']}&last={seen.get('last', 0)}"
        for watcher in self.watchers:
            assert watcher.get(polled, headers=HX).status_code == 200
        return posted + time.perf_counter() - start

    def fragment(self) -> None:
        self.client.get(f"/m/{self.id}", headers=HX)

    def changed(self) -> None:
        self.client.get(f"/m/{self.id}/live?v=0&last=0", headers=HX)

    def bare(self) -> None:
        self.client.get("/bench/bare")

    def unchanged(self) -> Callable[[], None]:
        """The table's current poll, as a phone asks it while nothing changes."""
        fields = self.shown()
        url = f"/m/{self.id}/live?v={fields['version']}&last={fields.get('last', 0)}"
        return lambda: self.client.get(url, headers=HX) and None

    def unchanged_wsgi(self) -> Callable[[], None]:
        """The same poll as the server calls the app: the environ the test client would
        send (a watcher's cookie included), copied for each call as a server makes one."""
        fields = self.shown()
        query = f"v={fields['version']}&last={fields.get('last', 0)}"
        watcher = self.watchers[0]
        assert watcher.get(f"/m/{self.id}/live?{query}", headers=HX).status_code == 204
        cookie = watcher.get_cookie(self.app.config["SESSION_COOKIE_NAME"])
        assert cookie is not None, "the watcher has no session cookie"
        environ = EnvironBuilder(path=f"/m/{self.id}/live", query_string=query, headers=HX)
        ready = environ.get_environ()
        ready["HTTP_COOKIE"] = f"{cookie.key}={cookie.value}"
        ready["HTTP_ACCEPT_LANGUAGE"] = ACCEPT_LANGUAGE
        statuses: list[str] = []

        def call() -> None:
            answer = self.app(
                dict(ready), lambda status, headers, exc=None: statuses.append(status)
            )
            b"".join(answer)
            getattr(answer, "close", lambda: None)()  # as a server does: the app's teardown

        call()
        assert statuses == ["204 NO CONTENT"], statuses
        return call


def measure(root: Path, requests: int) -> dict[str, float]:
    """Median milliseconds per endpoint, for the app of the checkout at `root`."""
    table = Table(root)

    def median_ms(request: Callable[[], object]) -> float:
        taken = []
        for _ in range(requests):
            start = time.perf_counter()
            request()
            taken.append(time.perf_counter() - start)
        return 1000 * statistics.median(taken)

    posts = [table.correct() for _ in range(requests)]
    rounds = [table.play_round() for _ in range(requests // 2)]
    return {
        "bare": median_ms(table.bare),
        "record": 1000 * statistics.median(posts[len(posts) // 2 :]),
        "unchanged": median_ms(table.unchanged()),
        "unchanged_wsgi": median_ms(table.unchanged_wsgi()),
        "changed": median_ms(table.changed),
        "fragment": median_ms(table.fragment),
        "round": 1000 * statistics.median(rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the checkout to measure")
    parser.add_argument("--requests", type=int, default=200, help="requests per endpoint")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    figures = measure(options.root.resolve(), options.requests)
    if options.json:
        print(json.dumps(figures))
        return
    for key, what in ENDPOINTS.items():
        print(f"{what:<22}{figures[key]:.3f} ms")


if __name__ == "__main__":
    main()
