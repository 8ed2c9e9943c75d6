"""Load benchmark: the real server (gunicorn) under many simulated tables at once.

Run: .venv/bin/python -m bench.load [--tables 200] [--duration 30] [--db sqlite|postgres|both]
     (or `make load LOAD_ARGS="--db both"`)

For each database it starts `gunicorn -c gunicorn.conf.py bench.bare_wsgi:app` on loopback
(the app plus a bare GET /bench/bare for the floor; see bench/bare_wsgi.py), in the shape
docs/OPERATIONS.md gives many tables (few threads a worker: --threads), with `--proxy
caddy` or `--proxy nginx` behind deploy/'s proxy as in production (plain http), or with
`--server granian` the same app and shape under granian (what another server would
change), then:

1. load: N tables at once, each one editor recording a random legal game (from the
   engine's true-card simulator) with a pause between plays, posting what the table
   screen posts (csrf_token, version, last, a fresh key, and the line's fields from
   the engine's line_fields) and fetching the fragment after each 303 as htmx does;
   four phones, and the editor's screen between its plays, polling /m/<id>/live on
   htmx's clock (every 1.5 s from the last ask, or from a new table's coming); a light
   client times the bare endpoint;
2. page weight: the table page and its scripts and styles, gzipped, and no third-party URL;
3. growth: one long match, ~2,000 lines recorded back to back, the cost of action 20
   against action 2,000.

PostgreSQL is a throwaway server from scripts/test-postgres.sh, in a directory of this
run's own (or --database-url). The load's clients (one cookie jar per editor and per
phone) are asyncio tasks in this one process, sharing the machine with the server, on a
minimal standard-library HTTP/1.1 client (about 0.1 ms of CPU a request). The report
shows the client's CPU and event-loop lag, to tell a slow server from a busy client.

It prints figures beside their targets, PASS or MISS each, and always exits 0 when it
ran: a missed target is a finding, not a failure. Everything is bounded (--duration,
timeouts on every request) and the servers it starts are always stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

from bench.load.phases import measure
from bench.load.report import LATE, app_version, report, summary, sweep
from bench.load.servers import ROOT, Server, test_postgres


def run_backend(
    label: str, database_url: str | None, args: argparse.Namespace, db_pid: int | None = None
) -> dict[str, Any]:
    load1, load5, _ = os.getloadavg()
    print(
        f"\n=== {label}: starting the server ({args.workers} workers); machine load average "
        f"{load1:.2f} (1 min), {load5:.2f} (5 min) ...",
        flush=True,
    )
    server = Server(label.lower(), args, database_url, db_pid)
    problems = ""
    shape: dict[str, Any] = {}
    version = app_version(args.root)  # the code the server loads now
    try:
        server.start()
        shape = server.shape()
        result = asyncio.run(measure(server, args))
    finally:
        server.stop()
        problems = server.log_problems()
        server.cleanup(keep=bool(problems) or args.keep)
    result["db"] = label
    result["server"] = shape
    result["app"] = version
    result["load_average_before"] = [round(load1, 2), round(load5, 2)]
    result["server_log_problems"] = problems
    report(result)
    return result


def table_counts(text: str) -> list[int]:
    """`--tables`: one count, or several separated by commas."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"tables: whole numbers, as 200 or 100,150: {text!r}"
        ) from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"tables: at least 1 each: {text!r}")
    return counts


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--tables",
        type=table_counts,
        default=[200],
        help="simulated tables (200); several, as 100,130,160: a run each, and the most "
        "live tables per core that met the record p99 target",
    )
    parser.add_argument("--duration", type=float, default=30, help="load seconds (30)")
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="sqlite")
    parser.add_argument(
        "--database-url",
        default=None,
        help="an existing PostgreSQL for --db postgres/both (default: a throwaway one from "
        "scripts/test-postgres.sh, in a directory of this run's own)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=max(2, os.cpu_count() or 1),
        help="WEB_CONCURRENCY (gunicorn.conf.py's default: one per core, at least 2)",
    )
    parser.add_argument(
        "--server",
        choices=["gunicorn", "granian"],
        default="gunicorn",
        help="the HTTP server: gunicorn.conf.py's gunicorn, as deployed (default), or "
        "granian (a server written in Rust, a development dependency) with the same "
        "workers and threads, to measure what another server would change",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="GUNICORN_THREADS; by default the shape docs/OPERATIONS.md gives many tables, "
        "a buffering proxy in front and few threads: 1 (as behind nginx, and with no "
        "proxy: the app's own cost), 2 behind Caddy (make serve-https); make serve's "
        "32 for phones straight at gunicorn: --threads 32",
    )
    parser.add_argument(
        "--proxy",
        choices=("none", "caddy", "nginx"),
        default="none",
        help="the clients ask gunicorn (none), or a proxy in front of it: deploy/Caddyfile's "
        "as make serve-https runs it, or deploy/nginx.conf's (both without TLS)",
    )
    parser.add_argument("--phones", type=int, default=4, help="polling phones per table (4)")
    parser.add_argument("--poll", type=float, default=1.5, help="seconds between polls (1.5)")
    parser.add_argument(
        "--updates",
        choices=("polled", "pushed"),
        default="polled",
        help="how phones learn of a new line: they poll (as the app does), or they are "
        "told at no cost to the server and then ask for it (pushed: the best a push could "
        "do, to measure whether one is worth building)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        nargs=2,
        default=(1.0, 3.0),
        metavar=("MIN", "MAX"),
        help="seconds between an editor's plays, uniform (1 3)",
    )
    parser.add_argument("--bare-interval", type=float, default=0.05, help="floor probe (0.05 s)")
    parser.add_argument("--growth-lines", type=int, default=LATE[1], help="long match (2010)")
    parser.add_argument("--growth-timeout", type=float, default=300, help="seconds (300)")
    parser.add_argument("--timeout", type=float, default=10, help="per request, seconds (10)")
    parser.add_argument(
        "--connections",
        choices=("keep-alive", "close"),
        default="keep-alive",
        help="each client keeps its connection open between requests, as a phone's browser "
        "does (keep-alive), or opens one per request (close: the figures before 2026-11-26)",
    )
    parser.add_argument("--setup-timeout", type=float, default=180, help="seconds (180)")
    parser.add_argument("--start-timeout", type=float, default=60, help="server start (60 s)")
    parser.add_argument(
        "--app", default="bench.bare_wsgi:app", help="the WSGI app (bench.bare_wsgi:app)"
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout whose app the server runs (default: this one); the clients and "
        "this report stay this checkout's, so two commits meet the same load",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the server's temp folder")
    args = parser.parse_args()
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads {args.threads}: a worker runs at least one thread")
    return args


def main() -> int:
    args = arguments()

    # SIGTERM unwinds like Ctrl-C, through the finally blocks that stop the servers.
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(f"command: {shlex.join(sys.orig_argv)}", flush=True)
    print(f"app: {app_version(args.root)}", flush=True)
    results: list[dict[str, Any]] = []
    counts = args.tables
    try:
        for count in counts:  # each count a run of its own, on a server of its own
            args.tables = count
            if args.db in ("sqlite", "both"):
                results.append(run_backend("SQLite", None, args))
            if args.db in ("postgres", "both"):
                if args.database_url:
                    results.append(run_backend("PostgreSQL", args.database_url, args))
                else:
                    print()
                    with test_postgres() as (url, pid):
                        results.append(run_backend("PostgreSQL", url, args, pid))
    except KeyboardInterrupt:
        print("\ninterrupted: servers stopped", file=sys.stderr)
        return 130
    except RuntimeError as exc:
        print(f"\nthe benchmark could not run: {exc}", file=sys.stderr)
        summary(results)
        return 1
    summary(results)
    if len(counts) > 1:
        sweep(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
