"""The browser on less CPU, for bench/standalone.py's --slower N (Linux cgroups; root).

Two ways to stand for a phone N times slower than this machine:

- `whole_browser`: the bench's process and all it starts from then on (the browser, and
  Playwright's driver; not the servers started before) in one cgroup whose quota is all
  this machine's cores' time divided by N (on 2 cores at N=4, half a core for the page,
  the app's worker, the browser process and the GPU process together). The harsher
  way: a phone with a core for each would not make them take turns.
- `each_thread`: every thread of the browser in a cgroup of its own whose quota is one
  core's time divided by N: each thread N times slower, as many running at once as the
  machine has cores times N (8 at N=4 on 2 cores: a mid-range phone's eight cores, each
  4x slower than one of this machine's). A thread starts in the cgroup of the thread
  that made it and is moved at the next look, every EACH_THREAD_EVERY_S (cgroup v1 only:
  v2 puts a process's threads in one cgroup unless its "threaded" mode is set up, not
  done here).

The quota is counted in periods of PERIOD_MS: with periods of 100 ms a play of 20 ms ran
at full speed when it began with quota left and waited for the next period when not, so
a run's median landed near 20 or near 80 ms by chance (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from bench import browser_cpu

# The quota's period: short enough that a play (20-100 ms) spans several.
PERIOD_MS = 10
EACH_THREAD_EVERY_S = 0.05
V1 = Path("/sys/fs/cgroup/cpu")


def whole_browser(factor: int) -> str:
    """This process (and the browser it starts) on 1/factor of the machine's CPU time."""
    cores = os.cpu_count() or 1
    period = PERIOD_MS * 1000  # microseconds
    quota = max(1000, period * cores // factor)  # the kernel's least: 1 ms a period
    if (V1 / "cpu.cfs_quota_us").exists():
        group = V1 / "bench-standalone"
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(quota))
    else:
        group = Path("/sys/fs/cgroup/bench-standalone")
        group.mkdir(exist_ok=True)
        (group / "cpu.max").write_text(f"{quota} {period}")
    (group / "cgroup.procs").write_text(str(os.getpid()))
    return f"{cores} cores' time / {factor}, in periods of {PERIOD_MS} ms (cgroup {group})"


@contextmanager
def each_thread(factor: int) -> Iterator[str]:
    """While open, each thread of every Chromium process this process starts runs on
    one core's time / factor, in a cgroup of its own (made here, removed at the end).
    A failure to place a thread (other than its ending meanwhile) stops the bench when
    this closes: its figures would not be what they say."""
    if not (V1 / "cpu.cfs_quota_us").exists():
        raise SystemExit("bench/slow_cpu.py: a quota for each thread needs cgroup v1's cpu")
    period = PERIOD_MS * 1000
    if period // factor < 1000:  # the kernel's least quota: 1 ms a period
        raise SystemExit(f"bench/slow_cpu.py: each thread at most {period // 1000}x slower")
    quota = period // factor
    parent = V1 / "bench-each-thread"
    parent.mkdir(exist_ok=True)
    placed: set[int] = set()
    failed: list[BaseException] = []
    done = threading.Event()

    def place(tid: int) -> None:
        group = parent / str(tid)
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(quota))
        (group / "tasks").write_text(str(tid))

    def mover() -> None:
        try:
            while not done.wait(EACH_THREAD_EVERY_S):
                threads = set(browser_cpu.chromium_threads())
                placed.intersection_update(threads)  # an ended thread's id may come again
                for tid in threads - placed:
                    try:
                        place(tid)
                    except (ProcessLookupError, FileNotFoundError):
                        continue  # ended meanwhile: its cgroup is removed at the end
                    placed.add(tid)
        except BaseException as error:  # raised again when this closes
            failed.append(error)

    moving = threading.Thread(target=mover, daemon=True)
    moving.start()
    try:
        yield (
            f"each thread of the browser on one core's time / {factor}, in periods of "
            f"{PERIOD_MS} ms (a cgroup each, under {parent})"
        )
    finally:
        done.set()
        moving.join()
        for group in [*parent.iterdir(), parent]:
            if group.is_dir():
                with suppress(OSError):  # a thread still in it (the browser not closed)
                    group.rmdir()
        if failed:
            raise SystemExit(f"bench/slow_cpu.py: a thread not slowed: {failed[0]!r}")
