"""The CPU time Chromium's processes and threads spent, read from /proc (Linux), for
bench/standalone.py: what a tap costs the whole browser, not only the app's Python.

A renderer's main thread (the pages' scripts, style, layout, paint) is the thread
whose id is the process's; Chromium names the others (the kernel keeps 15 characters
of a name): the worker that runs the app in the phone "DedicatedWorker", the service
worker "ServiceWorker t", the pool where V8 compiles and collects in the background
"ThreadPoolForeg". Every Chromium process this process started, at any depth, is
counted; Playwright's own driver (node) is not.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
PROC = Path("/proc")

# Where a thread's time is counted: a renderer's threads by their names, every other
# process (the browser's own, its GPU and utility processes) as one.
MAIN_THREAD = "the pages' main thread"
RENDERER_THREADS = {
    "DedicatedWorker": "the app's worker (Python)",
    "ServiceWorker t": "the service worker",
    "ThreadPoolForeg": "the renderer's background pool",
}


def _stat(path: Path) -> list[str]:
    """A /proc stat line's fields after the command's name (which may hold spaces)."""
    return path.read_text().rsplit(")", 1)[1].split()


def _descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(_stat(entry / "stat")[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _kind(pid: int) -> str | None:
    """Chromium's process type (the browser's own has none), or None: not Chromium."""
    words = (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").split()
    if not words or b"chrom" not in words[0]:
        return None
    for word in words:
        if word.startswith(b"--type="):
            return word.split(b"=", 1)[1].decode()
    return "browser"


def chromium_threads() -> list[int]:
    """The thread ids of every Chromium process this process started, at any depth."""
    found = []
    for pid in _descendants(os.getpid()):
        try:
            if _kind(pid) is not None:
                found += [int(task.name) for task in (PROC / str(pid) / "task").iterdir()]
        except OSError:
            continue  # ended meanwhile
    return found


def _cpu(stat: Path) -> float:
    """Seconds of CPU (user and system) a /proc stat file counts."""
    fields = _stat(stat)
    return (int(fields[11]) + int(fields[12])) / TICKS


def spent() -> dict[str, float]:
    """Seconds of CPU each part of the browser has spent so far. A renderer's named
    threads are counted as they are now; the rest of the process's own count (which
    keeps the time of threads that have ended) is its "other threads"."""
    seconds: defaultdict[str, float] = defaultdict(float)
    for pid in _descendants(os.getpid()):
        try:
            kind = _kind(pid)
            if kind is None:
                continue
            whole = _cpu(PROC / str(pid) / "stat")
            if kind != "renderer":
                seconds[f"the {kind.removesuffix('-process')} process"] += whole
                continue
            named = 0.0
            for task in (PROC / str(pid) / "task").iterdir():
                name = (task / "comm").read_text().strip()
                part = MAIN_THREAD if task.name == str(pid) else RENDERER_THREADS.get(name)
                if part is not None:
                    thread = _cpu(task / "stat")
                    seconds[part] += thread
                    named += thread
            seconds["the renderer's other threads"] += whole - named
        except OSError:
            continue  # a process or thread that ended meanwhile
    return dict(seconds)


def between(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Seconds each part spent from `before` to `after` (both from `spent`)."""
    return {part: after[part] - before.get(part, 0.0) for part in after}


def per_tap(busy: dict[str, float], idle: dict[str, float], taps: int) -> dict[str, float]:
    """Milliseconds a tap cost each part: its time over the taps (`busy`), less what the
    same length of time cost it with no tap (`idle`: the live poll, the page's timers).
    Counted in the kernel's ticks (10 ms): a part of a few ms a tap is a rough figure."""
    return {part: (busy[part] - idle.get(part, 0.0)) * 1000 / taps for part in busy}
