"""The figures against their targets: percentiles, PASS or MISS, and the printed report."""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.load.scenario import FRAGMENT
from bench.load.servers import ROOT

# Targets (from the issue). KB = 1,000 bytes.
RECORD_VS_BARE = 3.0
# An unchanged poll is one read of the match row: a local file on SQLite, a round trip
# to the server on PostgreSQL (so its target is looser there).
POLL_VS_BARE = {"SQLite": 1.5, "PostgreSQL": 2.0}
RECORD_P99_MS = 50.0
GROWTH_RATIO = 1.5
WEIGHT_KB = 60.0
EARLY = (10, 30)  # actions timed for the growth ratio (1-based, inclusive)
LATE = (1990, 2010)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0, "p50": float("nan"), "p95": float("nan"), "p99": float("nan")}
    if len(values) == 1:
        v = values[0]
        return {"count": 1, "p50": v, "p95": v, "p99": v}
    q = statistics.quantiles(values, n=100, method="inclusive")
    return {"count": len(values), "p50": q[49], "p95": q[94], "p99": q[98]}


def app_version(root: Path = ROOT) -> str:
    """The commit measured (the checkout at `root`), and whether tracked files differ from it."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True
        )
        return done.stdout.strip()

    try:
        commit = git("log", "-1", "--format=%h %s")
        changed = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return commit[:90] + (" + uncommitted changes" if changed else "")


def cpu_a_line_ms(r: dict[str, Any]) -> float:
    """The server's CPU (gunicorn or granian, its proxy, PostgreSQL) for each line recorded during
    the load, in milliseconds: what a live table costs, its polls included (and the floor
    probe's 20 requests a second: a few percent of it under load, most of it when idle)."""
    pct = r["server_cpu_pct"] + (r.get("proxy_cpu_pct") or 0) + (r.get("db_cpu_pct") or 0)
    lines = r["lines_recorded"]
    return 10 * pct * r["seconds"] / lines if lines else float("nan")


def tables_per_core(results: list[dict[str, Any]]) -> dict[str, tuple[int, int] | None]:
    """For each database, of the table counts run: the most whose record p99 met the
    target, and how many were run (None: none met it)."""
    counts: dict[str, list[tuple[int, bool]]] = {}
    for r in results:
        met = r["latency_ms"].get("record", {}).get("p99", float("nan")) < RECORD_P99_MS
        counts.setdefault(r["db"], []).append((r["tables"], met))
    return {
        db: (max((n for n, met in runs if met), default=0), len(runs))
        if any(met for _, met in runs)
        else None
        for db, runs in counts.items()
    }


def server_name(r: dict[str, Any]) -> str:
    """The HTTP server the load ran against (gunicorn unless --server said another)."""
    return str((r.get("server") or {}).get("name", "gunicorn"))


def server_shape(r: dict[str, Any]) -> str:
    """The workers and threads the server said it runs (its startup line)."""
    shape = r.get("server") or {}
    if not shape:
        return "gunicorn (its shape not found in its log)"
    served = (
        f"{server_name(r)} {shape['workers']} workers x {shape['threads']} threads "
        f"({shape['class']})"
    )
    return served + (f" behind {shape['proxy']} (no TLS)" if shape.get("proxy") else "")


def connections(r: dict[str, Any]) -> str:
    """How the clients used their connections (older reports: one per request)."""
    if r.get("keep_alive", False):
        return "each client's connection kept alive"
    return "a connection per request"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def targets(r: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    lat = r["latency_ms"]
    nan = {"p50": float("nan"), "p99": float("nan")}
    bare = lat.get("bare", nan)["p50"]
    rec = lat.get("record", nan)
    poll = lat.get("poll unchanged (204)", nan)
    poll_target = POLL_VS_BARE.get(r["db"], min(POLL_VS_BARE.values()))
    growth = r["growth"]
    weight = r["weight"]
    total_kb = weight.get("total_gzip", float("nan")) / 1000
    errors = sum(r["errors"].values())
    return [
        (
            "record p50 / bare p50",
            f"{rec['p50'] / bare:.2f}x",
            f"<= {RECORD_VS_BARE:g}x",
            rec["p50"] / bare <= RECORD_VS_BARE,
        ),
        (
            "poll (204) p50 / bare p50",
            f"{poll['p50'] / bare:.2f}x",
            f"<= {poll_target:g}x",
            poll["p50"] / bare <= poll_target,
        ),
        (
            "record p99",
            f"{rec['p99']:.1f} ms",
            f"< {RECORD_P99_MS:g} ms",
            rec["p99"] < RECORD_P99_MS,
        ),
        (
            "action 2,000 / action 20",
            f"{growth['ratio']:.2f}x" if growth["lines"] >= LATE[1] else "not run",
            f"<= {GROWTH_RATIO:g}x",
            growth["ratio"] <= GROWTH_RATIO and growth["lines"] >= LATE[1],
        ),
        (
            "page weight (gzip)",
            f"{total_kb:.1f} KB",
            f"<= {WEIGHT_KB:g} KB",
            total_kb <= WEIGHT_KB,
        ),
        (
            "third-party URLs",
            str(len(weight.get("third_party", ["?"]))),
            "0",
            not weight.get("third_party", ["?"]),
        ),
        ("errors", str(errors), "0", errors == 0),
    ]


def report(r: dict[str, Any]) -> None:
    print(f"\n--- {r['db']} (app: {r['app']}) ---")
    print(f"server: {server_shape(r)}")
    print(
        f"load: {r['tables']} tables ({r['tables']} editors, {r['phones']} phones; "
        f"{connections(r)}) for "
        f"{r['seconds']:g} s: {r['requests']:,} requests, {r['requests_per_s']:.0f} req/s; "
        f"{r['lines_recorded']:,} lines recorded; polls {r['polls_per_s']:.0f}/s "
        + (
            f"(the phones' planned {r['polls_planned_per_s']:.0f}/s, and the editors' own)"
            if r.get("polls_planned_per_s")
            else "(pushed: each phone asks only when told of a new line, told for free)"
        )
    )
    print(
        f"cpu: server ({server_name(r)}) {r['server_cpu_pct']:.0f}%, "
        + (f"proxy {r['proxy_cpu_pct']:.0f}%, " if r.get("proxy_cpu_pct") is not None else "")
        + (f"PostgreSQL {r['db_cpu_pct']:.0f}%, " if r.get("db_cpu_pct") is not None else "")
        + f"load client {r['client_cpu_pct']:.0f}%, everything else "
        f"{r['other_cpu_pct']:.0f}%, stolen {r['steal_cpu_pct']:.0f}% "
        f"(100% = one core of {os.cpu_count()}); client loop lag p99 "
        f"{r['client_loop_lag_ms']['p99']:.1f} ms; the server drained its queue "
        f"{r['drain_s']:g} s after the load"
    )
    print(
        f"server CPU a line recorded: {cpu_a_line_ms(r):.1f} ms ({server_name(r)}"
        + (", its proxy" if r.get("proxy_cpu_pct") is not None else "")
        + (", PostgreSQL" if r.get("db_cpu_pct") is not None else "")
        + f"; {r['requests'] / max(1, r['lines_recorded']):.1f} requests a line)"
    )
    if sessions := r.get("db_sessions"):
        print(
            f"PostgreSQL sessions: {sessions['opened']:,} opened during the load; connected "
            f"{sessions['connected_before']} at its start, {sessions['connected_after']} "
            "after it"
        )
    print(f"{'latency, ms':<26}{'p50':>8}{'p95':>8}{'p99':>8}{'count':>9}")
    order = ["record", FRAGMENT, "poll unchanged (204)", "poll changed (200)", "bare"]
    for kind in order + sorted(set(r["latency_ms"]) - set(order)):
        if kind in r["latency_ms"]:
            p = r["latency_ms"][kind]
            name = "record a play (303)" if kind == "record" else kind
            if kind == "bare":
                name = "bare endpoint (floor)"
            print(f"{name:<26}{p['p50']:>8.1f}{p['p95']:>8.1f}{p['p99']:>8.1f}{p['count']:>9,}")
    g = r["growth"]
    print(
        f"growth: {g['lines']:,} lines back to back; POST median of actions "
        f"{EARLY[0]}-{EARLY[1]}: {g['early_ms']:.1f} ms, {LATE[0]}-{LATE[1]}: {g['late_ms']:.1f} ms"
    )
    if g.get("fragment_early_ms") is not None and g.get("fragment_late_ms") is not None:
        print(
            f"        (info: the fragment GET after the post: {g['fragment_early_ms']:.1f} ms "
            f"-> {g['fragment_late_ms']:.1f} ms)"
        )
    w = r["weight"]
    if "items" in w:
        for item in w["items"]:
            print(
                f"weight: {item['name']:<40} {item['raw']:>8,} B raw {item['gzip']:>8,} B "
                f"gzip ({item['how']})"
            )
        print(
            f"weight: {w['urls_checked']} src/href/action URLs checked; "
            f"third-party: {w['third_party'] or 'none'}"
        )
    if r["errors"]:
        print("errors (requests answered otherwise than expected, or failed):")
        for what, count in sorted(r["errors"].items()):
            print(f"  {count:>6}  {what}")
    if r["notes"]:
        print("so:")
        for what, count in sorted(r["notes"].items()):
            print(f"  {count:>6}  {what}")
    if r["server_log_problems"]:
        print("server log (first problems):")
        print(r["server_log_problems"])
    print(f"{'target':<28}{'measured':>12}  {'target':<10} result")
    for name, measured, target, ok in targets(r):
        print(f"{name:<28}{measured:>12}  {target:<10} {verdict(ok)}")


def summary(results: list[dict[str, Any]]) -> None:
    print("\n=== summary ===")
    print(f"command: {shlex.join(sys.orig_argv)}")
    apps = " / ".join(dict.fromkeys(str(r.get("app")) for r in results))
    print(f"app: {apps or app_version()}")
    shapes = " / ".join(dict.fromkeys(server_shape(r) for r in results)) or "gunicorn not started"
    print(
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {shapes}; "
        "load client: standard-library asyncio, on the same machine"
    )
    if not results:
        return
    several = len({r["tables"] for r in results}) > 1
    width = max(22, *(len(column(r, several)) + 2 for r in results))
    head = f"{'':<28}" + "".join(f"{column(r, several):>{width}}" for r in results) + "  target"
    print(head)

    def row(name: str, cells: list[str], target: str = "") -> None:
        print(f"{name:<28}" + "".join(f"{c:>{width}}" for c in cells) + f"  {target}")

    row("requests/s", [f"{r['requests_per_s']:.0f}" for r in results])
    row("server CPU a line, ms", [f"{cpu_a_line_ms(r):.1f}" for r in results])
    row(
        "db sessions opened (load)",
        [f"{s['opened']:,}" if (s := r.get("db_sessions")) else "-" for r in results],
    )
    for kind, name in (
        ("record", "record p50/p95/p99 ms"),
        ("poll unchanged (204)", "poll 204 p50/p95/p99 ms"),
        ("poll changed (200)", "poll 200 p50/p95/p99 ms"),
        ("bare", "bare p50/p95/p99 ms"),
    ):
        cells = []
        for r in results:
            p = r["latency_ms"].get(kind)
            cells.append(f"{p['p50']:.1f}/{p['p95']:.1f}/{p['p99']:.1f}" if p else "-")
        row(name, cells)
    checks = [targets(r) for r in results]
    for i, (name, _, _, _) in enumerate(checks[0]):
        # One target, or one per database where they differ.
        target = " / ".join(dict.fromkeys(c[i][2] for c in checks))
        row(name, [f"{c[i][1]} {verdict(c[i][3])}" for c in checks], target)


def column(r: dict[str, Any], several: bool) -> str:
    """A run's column in the summary: its database, and its tables when runs differ."""
    return f"{r['db']}, {r['tables']} tables" if several else str(r["db"])


def sweep(results: list[dict[str, Any]]) -> None:
    """With several table counts: the most live tables a core served at record p99 under
    the target, of the counts run (the machine's cores, the load client's share on them
    included)."""
    cores = os.cpu_count() or 1
    for db, found in tables_per_core(results).items():
        if found is None:
            print(f"{db}: no table count run met record p99 < {RECORD_P99_MS:g} ms")
            continue
        most, runs = found
        print(
            f"{db}: live tables per core at record p99 < {RECORD_P99_MS:g} ms: "
            f"{most / cores:g} ({most} tables on {cores} cores, the most of the {runs} "
            "counts run that met it)"
        )
