"""The table's endpoints counted in CPU instructions, against another commit.

    .venv/bin/python bench/instructions.py [--against REF] [--requests N]

(`make bench-instructions`.) This machine's speed changes by a third between two runs
minutes apart and by 2-3x between days (docs/PERFORMANCE.md), so a 10% change is lost
in `make bench-web`'s milliseconds. The instructions a request executes barely change
from run to run: each figure here is the count under valgrind (`cachegrind`, no cache
simulation: Debian's `valgrind` package) of a process that makes the request N times,
less that of one that makes it none, over N. They are the work a request does, not its
time (cache misses and waits are not in them), so they say whether a change made the
request path cheaper; the milliseconds under load say whether it made it faster.

Each process builds the same table as `bench/endpoints.py` (a 4-player match, two
watching phones) in the app of its checkout, then makes one kind of request N times:

- a play recorded (303), its form's fields those the screen would carry (the next
  version and last line, and the screen's stamp);
- a play as the editor's phone makes it: the play, then the fragment the 303 points to;
- a play's round: that, and both watchers' polls finding the new version;
- the table's fragment, and a poll that finds the table changed, asked again and again
  (what is kept per table version is warm);
- an unchanged poll, as the server calls the app (a WSGI call).

It checks REF out like `bench/web.py` and prints each figure, its ratio to REF, and how
it splits (a play's fragment and the watchers' polls, by difference).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

from endpoints import HX, Table
from web import checkout, default_against, git

ROOT = Path(__file__).resolve().parent.parent
KINDS = {
    "record": "record a play (303)",
    "play": "  and its fragment (303, 200)",
    "round": "  and 2 watchers' polls (4 req)",
    "fragment": "table fragment, warm (200)",
    "changed": "poll changed, warm (200)",
    "unchanged": "poll unchanged, WSGI call (204)",
}
COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")


def repeat(root: Path, kind: str, times: int) -> None:
    """Build the table in the app at `root`, then make the request `times` times."""
    table = Table(root)
    for _ in range(10):  # everything the first requests load, loaded
        table.play_round()
    table.fragment()
    table.changed()
    unchanged = table.unchanged_wsgi()
    fields = table.shown()
    version, last = int(fields["version"]), int(fields["last"])
    # The screen's stamp, as the tap guard makes it (checkouts from before it: none).
    guard = getattr(table.app.extensions.get("store"), "taps", None)
    for _ in range(times):
        if kind in ("record", "play", "round"):
            if guard is not None:
                match = SimpleNamespace(id=table.id)
                screen = SimpleNamespace(match=match, version=version, last_line_id=last)
                fields["shown"] = guard.stamp(screen)
            fields |= {"version": str(version), "last": str(last)}
            table.correct(fields)
            if kind != "record":
                table.fragment()
            if kind == "round":
                polled = f"/m/{table.id}/live?v={version}&last={last}"
                for watcher in table.watchers:
                    assert watcher.get(polled, headers=HX).status_code == 200
            version, last = version + 1, last + 1  # one line more, its row the next
        elif kind == "fragment":
            table.fragment()
        elif kind == "changed":
            table.changed()
        else:
            unchanged()


def instructions(root: Path, kind: str, times: int) -> int:
    """The instructions of a process that builds the table and makes `times` requests."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("bench/instructions.py counts with valgrind: apt-get install valgrind")
    command = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    command += [sys.executable, __file__, "--inside", str(root), kind, str(times)]
    # The same hash seed for every process: a set's or dict's order is the same each time.
    env = os.environ | {"PYTHONHASHSEED": "0"}
    run = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = COUNTED.search(run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"{' '.join(command)} failed:\n{run.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def per_request(roots: list[Path], requests: int, jobs: int) -> list[dict[str, float]]:
    """Millions of instructions a request, for each kind, at each root (`jobs` processes
    at a time: instructions do not depend on what else runs)."""
    kinds = [("fragment", 0), *((kind, requests) for kind in KINDS)]
    runs = [(root, kind, n) for root in roots for kind, n in kinds]
    with ThreadPoolExecutor(jobs) as pool:
        counted = dict(zip(runs, pool.map(lambda run: instructions(*run), runs), strict=True))
    return [
        {
            kind: (counted[root, kind, requests] - counted[root, "fragment", 0]) / requests / 1e6
            for kind in KINDS
        }
        for root in roots
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=None, help="the commit to compare with")
    parser.add_argument("--requests", type=int, default=100, help="requests a process (100)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes at once")
    parser.add_argument("--inside", nargs=3, metavar=("ROOT", "KIND", "N"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.inside:
        root, kind, times = options.inside
        repeat(Path(root), kind, int(times))
        return
    ref = options.against or default_against()
    with tempfile.TemporaryDirectory() as folder:
        other = checkout(ref, Path(folder))
        head, theirs = per_request([ROOT, other], options.requests, options.jobs)
    print(
        f"Instructions a request (millions; valgrind, {options.requests} requests a process); "
        f"head = {git('rev-parse', '--short', 'HEAD')}"
    )
    print(f"{'request':<34}{'head':>8}{ref:>10}{'head/' + ref:>16}")
    for kind, what in KINDS.items():
        print(f"{what:<34}{head[kind]:8.2f}{theirs[kind]:10.2f}{head[kind] / theirs[kind]:15.2f}x")
    for name, figures in (("head", head), (ref, theirs)):
        fragment, polls = figures["play"] - figures["record"], figures["round"] - figures["play"]
        print(f"{name}: the fragment after a play {fragment:.2f}, the watchers' polls {polls:.2f}")


if __name__ == "__main__":
    main()
