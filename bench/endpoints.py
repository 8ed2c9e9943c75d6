"""What one request to each of the table's endpoints costs in-process, on SQLite.

No server, no network, no load: the Flask test client against a fresh database, so two
checkouts can be compared on one machine in one sitting (run it from each):

    .venv/bin/python bench/endpoints.py

It creates a 4-player match through the new-match form, records a few plays and 200
count corrections through the table's form (as the screen posts them: version, last
line, key), then prints the median milliseconds of: recording a line, an unchanged
poll (204), a changed poll (200, the fragment) and the table's fragment.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
os.environ["COMPANION_INSTANCE"] = tempfile.mkdtemp()

from companion import create_app

HX = {"HX-Request": "true"}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "", ""]
RULES = {"stack": "last", "draw": "until", "mercy_on": "y", "mercy": "25", "seven": "y"}
RULES |= {"zero": "y", "target": "100000", "scoring": "high"}


def main() -> None:
    database = Path(tempfile.mkdtemp()) / "bench.db"
    config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "x"}
    # The rate limiter runs, and is measured, at a rate this loop never reaches.
    config["RATELIMIT_WRITE"] = config["RATELIMIT_NEW_MATCH"] = "1000000 per minute"
    # The tap guard judges each post (measured), without the wait a person needs.
    config["TAP_SETTLE_MS"] = config["TAP_REFRESH_MS"] = "0"
    app = create_app(config)
    client = app.test_client()
    page = client.get("/new").get_data(as_text=True)
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert found is not None
    token = found.group(1)
    form = {"csrf_token": token, "dealer": "last", "mode": "referee", **RULES}
    form |= {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    match_id = client.post("/new", data=form).headers["Location"].rsplit("/", 1)[1]

    def shown() -> tuple[str, str, str]:
        html = client.get(f"/m/{match_id}", headers=HX).get_data(as_text=True)
        version = re.search(r'data-version="(\d+)"', html)
        last = re.search(r"last=(\d+)", html)
        stamp = re.search(r'name="shown" value="([^"]+)"', html)
        assert version is not None and last is not None and stamp is not None
        return version.group(1), last.group(1), stamp.group(1)

    def record(line: str) -> float:
        version, last, stamp = shown()
        who, _, action = line.partition(":")
        fields = {"csrf_token": token, "version": version, "last": last, "shown": stamp}
        fields["key"] = os.urandom(6).hex()
        if who in ("start", "hand"):
            fields |= {"player": "", "action": line}
        else:
            fields |= {"player": who.strip(), "action": action.strip()}
        start = time.perf_counter()
        answer = client.post(f"/m/{match_id}/line", data=fields, headers=HX)
        took = time.perf_counter() - start
        assert answer.status_code == 303, (line, answer.status_code)
        return took

    for line in ("start: R5", "Ann: R3", "Bob: R4", "Cy: R6", "Dee: R8"):
        record(line)
    posts = [record(f"Ann: has {8 if i % 2 == 0 else 7}") for i in range(200)]
    version, last, _stamp = shown()

    def median_ms(request: Callable[[], object], times: int = 300) -> float:
        taken = []
        for _ in range(times):
            start = time.perf_counter()
            request()
            taken.append(time.perf_counter() - start)
        return 1000 * statistics.median(taken)

    print(f"record a line (303)   {1000 * statistics.median(posts[-100:]):.3f} ms")
    unchanged = f"/m/{match_id}/live?v={version}&last={last}"
    print(f"poll unchanged (204)  {median_ms(lambda: client.get(unchanged, headers=HX)):.3f} ms")
    changed = f"/m/{match_id}/live?v=0&last=0"
    print(f"poll changed (200)    {median_ms(lambda: client.get(changed, headers=HX)):.3f} ms")
    fragment = f"/m/{match_id}"
    print(f"table fragment (200)  {median_ms(lambda: client.get(fragment, headers=HX)):.3f} ms")


if __name__ == "__main__":
    main()
