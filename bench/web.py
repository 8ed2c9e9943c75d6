"""The table's endpoints in-process, against a bare endpoint and against another commit.

    .venv/bin/python bench/web.py [--against REF] [--rounds N] [--requests N] [--quick]

(`make bench-web`, `make bench-web BENCH_WEB_ARGS="--against 5ddf7f6"`.) It checks the
commit REF out into a temporary folder (`git archive`), then runs `bench/endpoints.py`
on this checkout and on that one in turn, `--rounds` times, alternating which goes
first, each run a fresh process and database. It prints each endpoint's median
milliseconds (min / median / max over the rounds), its ratio to the bare endpoint of
the same app (Flask and the app's extensions, nothing else), and its ratio to REF, the
rounds paired. REF is by default the newest release tag, else BASELINE below.

`.ci/run` runs the quick form (`--quick`: one round, fewer requests) to print the
ratios into CI's log: figures to read, never a timed test (a loaded machine is slow for
both alike, and the ratios are what this prints for).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from endpoints import ENDPOINTS

ROOT = Path(__file__).resolve().parent.parent
# The commit issue 27 measures against: the request path before the limits, the
# languages and the groups (docs/PERFORMANCE.md).
BASELINE = "e464541"
# Made by `make`, not in git: a checkout from `git archive` takes this checkout's.
UNTRACKED = ("static/vendor/htmx.min.js",)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def default_against() -> str:
    """The newest release tag, else BASELINE."""
    found = subprocess.run(
        ["git", "describe", "--tags", "--abbrev=0"], cwd=ROOT, capture_output=True, text=True
    )
    return found.stdout.strip() if found.returncode == 0 else BASELINE


def checkout(ref: str, into: Path) -> Path:
    """The tree of `ref` under `into` (no .git: nothing to clean up but the folder)."""
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    for name in UNTRACKED:
        if (ROOT / name).exists() and not (into / name).exists():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


def run(root: Path, requests: int) -> dict[str, float]:
    """One fresh process measuring the checkout at `root`."""
    worker = Path(__file__).resolve().parent / "endpoints.py"
    done = subprocess.run(
        [sys.executable, str(worker), "--root", str(root), "--requests", str(requests), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def spread(values: list[float], digits: int = 3) -> str:
    """min / median / max, or the one value."""
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{low:.{digits}f} / {mid:.{digits}f} / {high:.{digits}f}"


def report(head: list[dict[str, float]], against: list[dict[str, float]], ref: str) -> str:
    rows = [
        f"{'endpoint':<22}{'head ms':<26}{ref + ' ms':<26}{'head/' + ref:<22}head/bare",
    ]
    for key, what in ENDPOINTS.items():
        mine = [run[key] for run in head]
        theirs = [run[key] for run in against]
        ratios = [m / t for m, t in zip(mine, theirs, strict=True)]
        to_bare = [run[key] / run["bare"] for run in head]
        rows.append(
            f"{what:<22}{spread(mine):<26}{spread(theirs):<26}"
            f"{spread(ratios, 2) + 'x':<22}{spread(to_bare, 1)}x"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help=f"a commit or tag (default: newest tag, else {BASELINE})")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=200, help="requests per endpoint a run")
    parser.add_argument("--quick", action="store_true", help="one round of 100 requests (CI)")
    options = parser.parse_args()
    if options.quick:
        options.rounds, options.requests = 1, 100
    ref = options.against or default_against()
    label = git("rev-parse", "--short", ref)
    head: list[dict[str, float]] = []
    against: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        theirs = checkout(ref, Path(folder))
        for round_ in range(options.rounds):
            pair = [(ROOT, head), (theirs, against)]
            for root, runs in pair if round_ % 2 == 0 else reversed(pair):
                runs.append(run(root, options.requests))
    print(
        f"In-process (Flask test client, SQLite), median of {options.requests} requests a run,"
        f" {options.rounds} round(s) alternating; head = {git('rev-parse', '--short', 'HEAD')}"
        f"{' with uncommitted changes' if git('status', '--porcelain', '-uno') else ''}"
    )
    print(report(head, against, label))


if __name__ == "__main__":
    main()
