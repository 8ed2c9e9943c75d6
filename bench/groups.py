"""What a group with a long history costs: 500 matches, about 50,000 record lines.

In-process, on SQLite, through the Flask test client (no server, no network), so two
checkouts can be compared on one machine in one sitting:

    .venv/bin/python bench/groups.py [--matches 500] [--requests 50] [--seed 1]
                                     [--cache-lines N]

It makes a group through the new-group form, then adds each match the way a phone
does: a simulated match (engine/tools/simulator.py, 3 to 6 players, played to 300 points) is
imported through the import form and moved into the group through its form (More →
Group). Then it prints, measured in this one run:

- adding a match (import, then move into the group): the median of matches 41-60 and
  of the last 20, and their ratio (target: the last at most 1.5x the 50th);
- p50 and p95 over `--requests` requests, the cache warm (one request first), of the
  group page at 50 matches and at the end, of its CSV and zip exports at the end, and
  of a player's stats page (PLAYER_PAGE below) at 50 matches and at the end (target: p50
  under 100 ms for both pages, and at the end at most 1.5x at 50).

No figure is asserted: the output is the measure (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
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

from flask.testing import FlaskClient

from companion import create_app
from engine import HouseRules
from engine.tools import Simulation

RULES = HouseRules.parse("target=300")
# A player's stats page: a URL with {group} and {player} (a roster player's id).
PLAYER_PAGE = "/g/{group}/p/{player}"
WINDOW = 20  # matches whose adding is timed, around the 50th and at the end


def simulated(seed: int) -> str:
    """A simulated match's table record, played to its end."""
    sim = Simulation(3 + seed % 4, rules=RULES, seed=seed)
    while sim.game.state.status != "match_over":
        sim.play_hand()
    return sim.game.record()


def token(client: FlaskClient, url: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(url).get_data(True))
    assert found is not None, url
    return found.group(1)


def timed(request: Callable[[], object], times: int) -> tuple[float, float]:
    """p50 and p95 in milliseconds of `times` requests, after one to warm the cache."""
    request()
    taken = []
    for _ in range(times):
        start = time.perf_counter()
        request()
        taken.append(1000 * (time.perf_counter() - start))
    return _percentiles(taken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cache-lines", type=int, default=None, help="GAME_CACHE_LINES (the app's default)"
    )
    args = parser.parse_args()
    database = Path(tempfile.mkdtemp()) / "bench.db"
    config: dict[str, object] = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
    config["SECRET_KEY"] = "x"
    config["RATELIMIT_ENABLED"] = False  # one address adds 500 matches in seconds
    if args.cache_lines:
        config["GAME_CACHE_LINES"] = args.cache_lines
    app = create_app(config)
    client = app.test_client()

    csrf = token(client, "/groups/new")

    def new_group(name: str) -> str:
        made = client.post("/groups/new", data={"csrf_token": csrf, "name": name})
        return str(made.headers["Location"].rsplit("/", 1)[1])

    def add(group: str, record: str) -> float:
        """Import a record and move it into the group, as a phone does: milliseconds."""
        start = time.perf_counter()
        imported = client.post("/import", data={"csrf_token": csrf, "text": record})
        assert imported.status_code == 303, imported.get_data(True)[:300]
        match = imported.headers["Location"].rsplit("/", 1)[1]
        moved = client.post(f"/m/{match}/group", data={"csrf_token": csrf, "group": group})
        assert moved.status_code == 303, moved.get_data(True)[:300]
        return 1000 * (time.perf_counter() - start)

    def get(url: str) -> Callable[[], object]:
        def request() -> object:
            answer = client.get(url)
            assert answer.status_code == 200, (url, answer.status_code)
            return answer

        return request

    def player_page(group: str) -> str:
        """A player's page: the roster's first (Ann, at every match)."""
        found = re.search(rf"/g/{group}/players/(\d+)/", client.get(f"/g/{group}").get_data(True))
        assert found is not None
        return PLAYER_PAGE.format(group=group, player=found.group(1))

    group = new_group("Friday crew")
    page = f"/g/{group}"
    records = [simulated(args.seed * 100_000 + n) for n in range(1, args.matches + 1)]
    lines = sum(record.count("\n") for record in records)
    adding: list[float] = []
    at_fifty: tuple[float, float] | None = None
    player_at_fifty: tuple[float, float] | None = None
    started = time.perf_counter()
    for n, record in enumerate(records, 1):
        adding.append(add(group, record))
        if n == 50:
            at_fifty = timed(get(page), args.requests)
            player_at_fifty = timed(get(player_page(group)), args.requests)
    built = time.perf_counter() - started

    print(f"group: {args.matches} matches, {lines:,} record lines (added in {built:.1f} s)")
    early = statistics.median(adding[40:60])
    late = statistics.median(adding[-WINDOW:])
    print(f"add a match (import + move in), median of matches 41-60   {early:8.2f} ms")
    print(f"add a match (import + move in), median of the last {WINDOW}    {late:8.2f} ms")
    print(f"  ratio last / 50th: {late / early:.2f} (target at most 1.5)")

    def show(label: str, figures: tuple[float, float]) -> None:
        print(f"{label:<42} p50 {figures[0]:8.2f} ms   p95 {figures[1]:8.2f} ms")

    if at_fifty is not None:
        show("group page, 50 matches", at_fifty)
    at_end = timed(get(page), args.requests)
    show(f"group page, {args.matches} matches", at_end)
    if at_fifty is not None:
        print(f"  ratio {args.matches} / 50 matches (p50): {at_end[0] / at_fifty[0]:.2f}")
    if player_at_fifty is not None:
        show("player page, 50 matches", player_at_fifty)
    player_at_end = timed(get(player_page(group)), args.requests)
    show(f"player page, {args.matches} matches", player_at_end)
    if player_at_fifty is not None:
        ratio = player_at_end[0] / player_at_fifty[0]
        print(f"  ratio {args.matches} / 50 matches (p50): {ratio:.2f}")
    exports = max(5, args.requests // 5)
    for name in ("hands.csv", "matches.csv", "records.zip"):
        show(f"export {name}, {args.matches} matches", timed(get(f"{page}/{name}"), exports))

    # Side by side: a second group of the first 50 matches in the same process and
    # database, each request alternating between the two groups, so what the machine
    # does meanwhile (other work, a bigger process) weighs on both alike.
    small = new_group("Side by side")
    for record in records[:50]:
        add(small, record)
    print(f"side by side, a group of 50 and the group of {args.matches}, alternating:")
    for label, urls in (
        ("group page", (f"/g/{small}", page)),
        ("player page", (player_page(small), player_page(group))),
    ):
        fifty, full = alternating(get(urls[0]), get(urls[1]), args.requests)
        show(f"{label}, 50 matches", fifty)
        show(f"{label}, {args.matches} matches", full)
        print(f"  ratio {args.matches} / 50 matches (p50): {full[0] / fifty[0]:.2f}")
    spare = [simulated(args.seed * 100_000 + args.matches + n) for n in range(1, 2 * WINDOW + 1)]
    small_adds = [add(small if n % 2 else group, r) for n, r in enumerate(spare)]
    early, late = statistics.median(small_adds[1::2]), statistics.median(small_adds[0::2])
    print(f"add a match to the group of 50, median of {WINDOW}            {early:8.2f} ms")
    print(
        f"add a match to the group of {args.matches}, median of {WINDOW}           {late:8.2f} ms"
    )
    print(f"  ratio: {late / early:.2f}")


def alternating(
    first: Callable[[], object], second: Callable[[], object], times: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """p50 and p95 of each of two requests, made in turn (after one each to warm)."""
    taken: tuple[list[float], list[float]] = ([], [])
    for request in (first, second):
        request()
    for _ in range(times):
        for side, request in enumerate((first, second)):
            start = time.perf_counter()
            request()
            taken[side].append(1000 * (time.perf_counter() - start))
    return _percentiles(taken[0]), _percentiles(taken[1])


def _percentiles(taken: list[float]) -> tuple[float, float]:
    taken = sorted(taken)
    return statistics.median(taken), taken[min(len(taken) - 1, round(0.95 * len(taken)))]


if __name__ == "__main__":
    main()
