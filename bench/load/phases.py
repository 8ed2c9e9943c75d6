"""The three phases of a run against one server: load, page weight and growth."""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import statistics
import time
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from bench.load.report import EARLY, LATE, percentiles
from bench.load.scenario import Clients, Post, Table, simulated_game
from bench.load.servers import Server, machine_cpu
from engine import HouseRules


async def measure(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    needed = int(args.duration / max(args.pause[0], 0.1)) + 10
    games = [simulated_game(args.seed + i, HouseRules(), needed) for i in range(args.tables)]
    long_rules = HouseRules(target=100_000)  # a match that never ends
    long_game = simulated_game(args.seed + 99_999, long_rules, args.growth_lines)
    clients = Clients("127.0.0.1", server.port, args)
    result = await load_phase(clients, server, games)
    ready: list[Table] = result.pop("tables_ready")
    print("  page weight ...", flush=True)
    result["weight"] = (
        await page_weight(clients, ready[0]) if ready else {"error": "no table was set up"}
    )
    print(f"  growth: one match, {args.growth_lines} lines back to back ...", flush=True)
    try:
        result["growth"] = await growth_phase(clients, long_game[: args.growth_lines])
    except RuntimeError as exc:
        clients.rec.notes[f"growth: not measured: {exc}"] += 1
        nan = float("nan")
        result["growth"] = {"lines": 0, "early_ms": nan, "late_ms": nan, "ratio": nan}
    result["errors"] = dict(clients.rec.errors)
    result["notes"] = dict(clients.rec.notes)
    return result


# ---------------------------------------------------------------- load


async def load_phase(clients: Clients, server: Server, games: list[list[Post]]) -> dict[str, Any]:
    args, rec, clock = clients.args, clients.rec, clients.clock
    gate = asyncio.Semaphore(16)

    async def set_up(index: int, posts: list[Post]) -> Table | None:
        async with gate:
            return await clients.setup(index, posts)

    print(f"  setting up {len(games)} tables ...", flush=True)
    started = time.monotonic()
    jobs = [asyncio.create_task(set_up(i, posts)) for i, posts in enumerate(games)]
    done, pending = await asyncio.wait(jobs, timeout=args.setup_timeout)
    for job in pending:
        job.cancel()
    ready = [table for job in jobs if job in done and (table := job.result()) is not None]
    if pending:
        rec.notes["a table was not set up: --setup-timeout"] += len(pending)
    print(
        f"  {len(ready)} tables ready in {time.monotonic() - started:.1f} s; "
        f"load for {args.duration:g} s ...",
        flush=True,
    )

    lags: list[float] = []
    sessions = server.database_sessions()
    sessions_before = sessions.read() if sessions else None
    cpu_client = time.process_time()
    cpu_server = server.cpu_seconds()
    cpu_proxy = server.proxy_cpu_seconds()
    cpu_db = server.db_cpu_seconds()
    cpu_machine, cpu_steal = machine_cpu()
    rec.active = True
    begin = time.monotonic()
    clock.deadline = begin + args.duration
    tasks = [asyncio.create_task(clients.edit(t)) for t in ready]
    for t in ready:
        for n, phone in enumerate(t.phones):
            tasks.append(asyncio.create_task(clients.watch(t, phone, t.index * 10 + n)))
    tasks.append(asyncio.create_task(clients.bare()))
    tasks.append(asyncio.create_task(clients.lag(lags)))
    await clock.pause(args.duration)
    rec.active = False
    elapsed = time.monotonic() - begin
    cpu_client = time.process_time() - cpu_client
    cpu_server = server.cpu_seconds() - cpu_server
    cpu_proxy = server.proxy_cpu_seconds() - cpu_proxy
    cpu_db = server.db_cpu_seconds() - cpu_db
    busy, stolen = machine_cpu()
    cpu_machine, cpu_steal = busy - cpu_machine, stolen - cpu_steal
    _, pending_tasks = await asyncio.wait(tasks, timeout=args.timeout + 5)
    for task in pending_tasks:
        task.cancel()
    await asyncio.gather(*pending_tasks, return_exceptions=True)
    settled = await settle(server)
    db_sessions = None
    if sessions and sessions_before:
        opened, connected = sessions.read()
        db_sessions = {
            "opened": opened - sessions_before[0],
            "connected_before": sessions_before[1],
            "connected_after": connected,
        }
        sessions.close()

    latency = {kind: percentiles(values) for kind, values in rec.latency.items()}
    phones = sum(len(t.phones) for t in ready)
    polls = sum(len(rec.latency[k]) for k in latency if k.startswith("poll"))
    return {
        "tables": len(ready),
        "phones": phones,
        "keep_alive": args.connections == "keep-alive",
        "seconds": round(elapsed, 2),
        "requests": rec.requests,
        "requests_per_s": rec.requests / elapsed,
        "lines_recorded": sum(t.version for t in ready),
        "polls_per_s": polls / elapsed,
        # Pushed, a phone asks once a line (no plan): polled, every --poll seconds.
        "updates": args.updates,
        "polls_planned_per_s": phones / args.poll if args.updates == "polled" else None,
        "latency_ms": latency,
        "client_cpu_pct": 100 * cpu_client / elapsed,
        "server_cpu_pct": 100 * cpu_server / elapsed,
        "proxy_cpu_pct": 100 * cpu_proxy / elapsed if server.proxy else None,
        "db_cpu_pct": 100 * cpu_db / elapsed if server.db_pid else None,
        "db_sessions": db_sessions,
        # Everything else on the machine meanwhile (other programs, the kernel's
        # network work) and CPU the hypervisor took: a busy neighbour skews the figures.
        "other_cpu_pct": 100
        * (cpu_machine - cpu_server - cpu_proxy - cpu_db - cpu_client)
        / elapsed,
        "steal_cpu_pct": 100 * cpu_steal / elapsed,
        "client_loop_lag_ms": percentiles(lags),
        "drain_s": round(settled, 1),
        "tables_ready": ready,
    }


async def settle(server: Server, limit: float = 60) -> float:
    """Wait until the server has worked off what the load left queued (requests the
    clients gave up on still run), so that the next phases time an idle server."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        before = server.cpu_seconds()
        await asyncio.sleep(0.5)
        if server.cpu_seconds() - before < 0.05:  # under 10% of a core
            break
    return time.monotonic() - start


# ---------------------------------------------------------------- growth


async def growth_phase(clients: Clients, posts: list[Post]) -> dict[str, Any]:
    """One long match: every line's POST timed, back to back (plus, for information,
    the fragment htmx fetches after it, in the timed windows)."""
    deadline = time.monotonic() + clients.args.growth_timeout
    table = await clients.new_match("growth", HouseRules(target=100_000), posts, 0)
    windows = (EARLY, LATE)
    timed: list[float] = []
    follow: dict[tuple[int, int], list[float]] = {w: [] for w in windows}
    while table.version < len(posts):
        if time.monotonic() > deadline:
            clients.rec.notes["growth: stopped at --growth-timeout"] += 1
            break
        start = time.perf_counter()
        reply = await clients.post(table, "growth")
        timed.append((time.perf_counter() - start) * 1000)
        if reply is None or reply.status != 303:
            break  # counted as an error by the recorder
        start = time.perf_counter()
        if not await clients.follow(table, "growth"):
            break
        for low, high in windows:
            if low <= len(timed) <= high:
                follow[(low, high)].append((time.perf_counter() - start) * 1000)

    def window(low: int, high: int, values: list[float]) -> float:
        part = values[low - 1 : high]
        return statistics.median(part) if part else float("nan")

    early = window(*EARLY, timed)
    late = window(*LATE, timed)
    return {
        "lines": len(timed),
        "early_ms": early,
        "late_ms": late,
        "ratio": late / early if early else float("nan"),
        "fragment_early_ms": statistics.median(follow[EARLY]) if follow[EARLY] else None,
        "fragment_late_ms": statistics.median(follow[LATE]) if follow[LATE] else None,
    }


# ---------------------------------------------------------------- page weight


async def page_weight(clients: Clients, table: Table) -> dict[str, Any]:
    """The table page (as its editor sees it) and what it loads, gzipped."""
    rec, client = clients.rec, table.editor
    gz = {"Accept-Encoding": "gzip"}
    page = await rec.call(client, "weight", "GET", f"/m/{table.match_id}", {200: "w"}, headers=gz)
    if page is None or page.status != 200:
        return {"error": "the table page did not load"}
    links = Links()
    links.feed(page.text)
    host = f"{clients.host}:{clients.port}"
    third = [u for u in links.urls if not same_host(u, host)]
    assets = [u for u in links.assets if same_host(u, host)]
    for must in ("/static/vendor/htmx.min.js", "/static/app.css"):
        if not any(urlsplit(u).path == must for u in assets):
            assets.append(must)
    items = [(f"table page /m/{table.match_id}", page)]

    async def fetch(url: str) -> Any:
        got = await rec.call(client, "weight", "GET", url, {200: "w"}, headers=gz)
        if got is not None and got.status == 200:
            items.append((urlsplit(url).path, got))
        return got

    for url in assets:
        await fetch(url)
    # The rest of a first visit: the manifest, the service worker and what it keeps (the
    # files the page loaded are only revalidated: a 304, no body), and the icon the
    # browser fetches to offer installing (the smallest of at least 144 px).
    manifest, worker = await fetch("/manifest.webmanifest"), await fetch("/sw.js")
    # (An older checkout's worker may keep nothing: --root runs those too.)
    keeps = re.search(r"var STATIC = (\[.*\]);", worker.text) if worker else None
    offline = re.search(r"var OFFLINE = (\".*\");", worker.text) if worker else None
    if manifest is not None and keeps is not None and offline is not None:
        # By path: the page and the worker write a static file's address with its
        # digest (`?v=`), the same file either way.
        fetched = {urlsplit(u).path for u in assets}
        for url in [*json.loads(keeps.group(1)), json.loads(offline.group(1))]:
            if urlsplit(url).path not in fetched:
                fetched.add(urlsplit(url).path)
                await fetch(url)
        icons = json.loads(manifest.text)["icons"]
        big_enough = [i for i in icons if int(i["sizes"].split("x")[0]) >= 144]
        await fetch(min(big_enough, key=lambda i: int(i["sizes"].split("x")[0]))["src"])
    sizes = []
    for name, reply in items:
        if reply.headers.get("content-encoding") == "gzip":
            size, how = reply.wire, "gzip by the server"
        else:
            size, how = len(gzip.compress(reply.content, compresslevel=6)), "gzip -6 here"
        sizes.append({"name": name, "raw": len(reply.content), "gzip": size, "how": how})
    return {
        "items": sizes,
        "total_gzip": sum(s["gzip"] for s in sizes),
        "third_party": third,
        "urls_checked": len(links.urls),
    }


class Links(HTMLParser):
    """Every src, href and form action of a page; the scripts and stylesheets it loads."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.assets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for name in ("src", "href", "action"):
            if a.get(name):
                self.urls.append(a[name])
        if tag == "script" and a.get("src"):
            self.assets.append(a["src"])
        if tag == "link" and "stylesheet" in a.get("rel", "").split() and a.get("href"):
            self.assets.append(a["href"])


def same_host(url: str, host: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "") and not parts.netloc:
        return True  # relative (or an inline data: image)
    return parts.scheme in ("http", "https") and parts.netloc == host
