"""The app in the phone (`make standalone`, issue 28), measured in Chromium.

    .venv/bin/python bench/standalone.py [--slower 4 [--each-thread]] [--network MBPS]
        [--plays 5] [--build DIR]

(`make bench-standalone`.) It prints, from one run:

- what a first visit downloads: each part of the build raw and gzipped (the runtime and
  the zips as the .gz files the page downloads; the rest as a host that compresses its
  answers sends it);
- a cold start (a fresh browser profile: the download from a static server on loopback,
  Pyodide, the app) and a warm start (the same profile reloaded: everything from the
  service worker's cache), each until the app's first page is shown (painted in its
  frame, from the navigation's start: the page's own clock; and when the driver saw it,
  which its round trips to the browser make later), with the page's own timings
  (self.STARTED, standalone/site/shell.js) and the app's answer for that first page
  (its Python, and its write); with --network, the page's downloads at a phone
  network's speed;
- a start after a restart: the browser closed once the plays below are done, and
  launched again on the same profile (a phone restarted, or its browser's process ended
  while the app was away), the page it showed last reopened: the match's table, its
  first table shown as the starts above are;
- a recorded play: a tap on a card until the table shows the new line, in the app in
  the phone and, for comparison, on the app server (`python -m companion`) in the same
  browser, median and max of --plays taps; and in the phone, the app's own time for
  each tap (its post and the table it answers with, in the app's worker: what each
  waited for there, Python's answer and its database kept, as self.ANSWERED,
  standalone/site/shell.js, has them), and those parts' medians; apart, the post's
  write after its 303, and the app's time with it counted in as if done before;
- what a tap costs the whole browser in CPU, in the phone and on the server: each
  part's time over the taps less the same length of time with no tap, by process and,
  in the renderer, by thread (the pages' main thread, the app's worker, V8's background
  pool: bench/browser_cpu.py);
- what the table costs the browser while it waits for a tap, a second's CPU by part (a
  server's table polls every 1.5 s; the bench reads the screen as often).

With --slower N the browser runs on 1/N of this machine's CPU time, all its processes in
one cgroup's quota (half a core at N=4 on 2 cores); with --each-thread as well, each of
its threads on one core's time / N, as many at once as the machine has cores times N (a
phone with that many cores, each N times slower: eight at N=4 on two): bench/slow_cpu.py
(root and cgroups needed). Chromium's own CPU throttling (DevTools) slows a page's main
thread but not its workers, where the app's Python runs: it refuses ("only supported for
pages, not workers"), so it would measure nothing here.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "standalone"
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, CDPSession, Frame, Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from bench import browser_cpu, slow_cpu  # noqa: E402
from companion.views.phone import build_listing  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, PHONE, chromium_path  # noqa: E402
from tests.servers import free_port  # noqa: E402

PARTS = (  # the build's parts, by the path of their files
    ("Pyodide's runtime", ("pyodide/",)),
    ("the packages (site.zip)", ("python/site.zip",)),
    ("the project (app.zip)", ("python/app.zip",)),
    ("the page, its worker, icons, static files", ("",)),
)
NUMBER_CARD = re.compile(r"(Red|Yellow|Green|Blue) [1-689]")  # plays at once (0 and 7 ask)
FIRST_NUMBER_CARD = """pattern => [...document.querySelectorAll(".keyboard [aria-label]")]
  .map((key) => key.getAttribute("aria-label"))
  .find((label) => new RegExp(`^(?:${pattern})$`).test(label))"""


def download_sizes(build: Path) -> list[tuple[str, int, int]]:
    """(part, raw bytes, gzip bytes) of what a first visit downloads (build.js lists it)."""
    sizes = {name: [0, 0] for name, _ in PARTS}
    for path, size, *packed in build_listing(build)["files"]:
        part = next(name for name, starts in PARTS if path.startswith(starts))
        sizes[part][0] += size
        sizes[part][1] += packed[0] if packed else len(gzip.compress((build / path).read_bytes()))
    return [(name, raw, packed) for name, (raw, packed) in sizes.items()]


@contextmanager
def serving(command: list[str], url: str) -> Iterator[str]:
    """A server process (outside any CPU quota: it stands for the network)."""
    server = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{command} did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


# A phone's network for --network: each request's round trip (ms), and its speed.
NETWORK_LATENCY_MS = 40


def slow_network(cdp: CDPSession, megabits: float) -> None:
    """The page's own requests (a first visit's download) at `megabits` a second down,
    a quarter of it up, NETWORK_LATENCY_MS a round trip (Chromium's network emulation,
    which the service worker's and the app worker's requests are not under: they are
    answered from the phone's cache)."""
    cdp.send("Network.enable")
    down = megabits * 1e6 / 8  # bytes a second
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": NETWORK_LATENCY_MS,
            "downloadThroughput": down,
            "uploadThroughput": down / 4,
        },
    )


def app_frame(page: Page) -> Frame:
    page.locator("#app").wait_for(state="visible", timeout=600_000)
    handle = page.locator("#app").element_handle()
    frame = handle.content_frame() if handle else None
    assert frame is not None
    frame.wait_for_selector("main", state="attached", timeout=120_000)
    return frame


# The start's last step: the app's answer for its first page (the first request the
# page's worker answered), Python's time and, on a first visit, its write (its new
# session). A start's first answer pays for first uses: about 130 ms unthrottled, against
# 4-8 for the same page later (docs/PERFORMANCE.md).
FIRST_ANSWER = """(() => {
  const first = (self.ANSWERED || [])[0];
  return first ? {"the first page's Python": first.app, "its write": first.kept} : {};
})()"""


# When the app's first page began to show (its frame's first contentful paint), in ms
# of the page's clock: from the navigation's start, as a tap on the app's icon starts
# it (the two documents' clocks set side by side in one read). What the driver sees
# comes later, by its own round trips to the browser (0.06-0.45 s unthrottled here:
# bench/standalone.py counted them in its "shown" until stop 53).
PAINTED = """() => window.parent.performance.now() - performance.now()
  + performance.getEntriesByName("first-contentful-paint")[0].startTime"""


class NotMeasured(RuntimeError):
    """A start whose figures would not be what they say."""


def start(page: Page, url: str) -> dict[str, float]:
    began = time.perf_counter()
    page.goto(url, timeout=600_000)
    frame = app_frame(page)
    seen = time.perf_counter() - began
    frame.wait_for_function(
        "performance.getEntriesByName('first-contentful-paint').length",
        polling=100,
        timeout=120_000,
    )
    shown: float = frame.evaluate(PAINTED)
    # A page that reloaded itself (a new version taken, a cache found emptied:
    # location.reload() in shell.js) would have started its clock again. (Not told by
    # the paint coming before the driver saw the frame: its `main` can be there first.)
    navigated = page.evaluate("performance.getEntriesByType('navigation')[0].type")
    if navigated != "navigate":
        raise NotMeasured(f"the page reloaded itself: its clock started at a {navigated}")
    started: dict[str, float] = page.evaluate("self.STARTED")
    first: dict[str, float] = page.evaluate(FIRST_ANSWER)
    return {"shown": shown, "seen by the driver": seen * 1000, **started, **first}


def restarted(page: Page, url: str) -> dict[str, float]:
    """A start (in a browser launched again) that must reopen the last match's table."""
    figures = start(page, url)
    try:
        app_frame(page).locator("#table").wait_for(state="attached", timeout=10_000)
    except PlaywrightTimeoutError:
        raise NotMeasured("it showed no table") from None
    return figures


# The app's time for a tap, in its parts: its post and the table the post sends the page
# on to (the answer after it), each what it waited for in the worker (an earlier answer's
# write: the post's, since 492383f its 303 leaves before it), Python's answer, then its
# database kept before the answer left. Last, apart: the post's write after its 303, done
# while the browser follows the redirect (standalone/site/worker.js; builds before
# 492383f say no wait and write before the 303).
TAP_TIME = """(() => {
  const at = self.ANSWERED.findIndex((a) => a.method === "POST");
  const [post, table] = self.ANSWERED.slice(at, at + 2);
  return [post, table].flatMap((a) => [a.waited || 0, a.app, a.kept]).concat(post.keptAfter || 0);
})()"""
TAP_PARTS = (
    "the post waited",
    "its Python",
    "its write",
    "the table waited",
    "its Python",
    "its write",
)


# The table's next version, awaited in the page (set before the tap): a Playwright
# wait_for_function would poll at every frame, which costs the browser its own CPU.
NEXT_TABLE = """v => { self.NEXT_TABLE = new Promise((done, fail) => {
  const moved = () => (document.querySelector("#table") || {dataset: {}}).dataset.version !== v;
  const seen = new MutationObserver(() => { if (moved()) { seen.disconnect(); done(); } });
  seen.observe(document.body, {subtree: true, childList: true, attributes: true});
  setTimeout(() => fail(new Error("no new table after a tap, in 60 s")), 60000);
}); }"""


def read_the_table(frame: Frame | Page, shell: Page | None) -> tuple[str, str]:
    """What is read before a tap: the table's version and the first number card's key
    (found in one call: a locator per key costs the page's main thread a few ms)."""
    version = frame.locator("#table").get_attribute("data-version") or ""
    card = frame.evaluate(FIRST_NUMBER_CARD, NUMBER_CARD.pattern)
    if not card:
        sys.exit("bench/standalone.py: the keyboard shows no number card to play")
    if shell:
        shell.evaluate("self.ANSWERED.length = 0")
    return version, card


def plays(
    frame: Frame | Page, base: str, count: int, shell: Page | None = None
) -> tuple[list[float], list[list[float]], dict[str, float], dict[str, float]]:
    """Milliseconds from a tap on a number card to the table showing the new line; with
    the page that runs the app in the phone (`shell`), the app's own for each tap (its
    TAP_PARTS); what a tap cost each part of the browser in CPU (bench/browser_cpu.py);
    and what each part spent a second, in ms, while the table waited for a tap."""
    frame.goto(base + "/new")
    for i, name in enumerate(("Ann", "Bob", "Cy")):
        frame.fill(f"#players-{i}", name)
    frame.get_by_role("button", name="Start the match").click()
    frame.wait_for_selector("#table")
    frame.locator('[aria-label^="Start with"]').first.click()
    # The same table with no tap (its polls and timers cost the browser something too),
    # read as before each tap: what is left over the taps is the taps' own.
    time.sleep(1.5)
    before, began = browser_cpu.spent(), time.perf_counter()
    for _ in range(count):
        time.sleep(1.5)
        read_the_table(frame, shell)
    time.sleep(1.5)
    idle = browser_cpu.between(before, browser_cpu.spent())
    quiet = time.perf_counter() - began
    waiting = {part: seconds * 1000 / quiet for part, seconds in idle.items()}
    taken, spent = [], []
    for i in range(count + 1):
        # As a person taps: the table read first (the tap guard takes no tap on a
        # screen shown a moment ago: companion/taps.py).
        time.sleep(1.5)
        if i == 1:  # the first tap warms the keyboard's cache: not counted
            before, began_all = browser_cpu.spent(), time.perf_counter()
        version, card = read_the_table(frame, shell)
        frame.evaluate(NEXT_TABLE, version)
        began = time.perf_counter()
        frame.locator(f'.keyboard [aria-label="{card}"]').click()
        frame.evaluate("() => self.NEXT_TABLE")
        taken.append((time.perf_counter() - began) * 1000)
        if shell:
            spent.append(shell.evaluate(TAP_TIME))
    time.sleep(1.5)  # the last table's settling, painting and collecting counted too
    busy = browser_cpu.between(before, browser_cpu.spent())
    scale = (time.perf_counter() - began_all) / quiet
    idle = {part: seconds * scale for part, seconds in idle.items()}
    return taken[1:], spent[1:], browser_cpu.per_tap(busy, idle, count), waiting


def written_first(parts: list[float]) -> float:
    """A tap's time (TAP_TIME) with the post's write counted in as if done before its
    303: the table's wait for that write is then part of it."""
    *answers, after = parts
    return sum(answers) - answers[TAP_PARTS.index("the table waited")] + after


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ms (max {max(values):.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slower", type=int, default=1, help="CPU time divided by this")
    parser.add_argument(
        "--network",
        type=float,
        default=0,
        help="the page's own downloads at this many megabits a second (a phone's network: "
        "a first visit's download waits for bytes, not for the CPU as on loopback)",
    )
    parser.add_argument(
        "--each-thread",
        action="store_true",
        help="with --slower: each thread of the browser on one core's time divided by it, "
        "not the whole browser on the machine's",
    )
    parser.add_argument("--plays", type=int, default=5, choices=range(1, 1001), metavar="N")
    parser.add_argument(
        "--build",
        type=Path,
        default=BUILD,
        help="a build's folder (another commit's, copied); the server it is compared with "
        "is this checkout's",
    )
    args = parser.parse_args()
    if args.each_thread and args.slower < 2:
        parser.error("--each-thread slows each thread by --slower N: give N (2 or more)")
    build = args.build.resolve()
    if not (build / "build.js").exists():
        sys.exit(f"bench/standalone.py: no build in {build}: run make standalone first")

    print("What a first visit downloads (bytes):")
    total = [0, 0]
    for name, raw, packed in download_sizes(build):
        print(f"  {name:44} {raw / 1e6:5.2f} MB raw  {packed / 1e6:5.2f} MB gzip")
        total = [total[0] + raw, total[1] + packed]
    print(f"  {'in all':44} {total[0] / 1e6:5.2f} MB raw  {total[1] / 1e6:5.2f} MB gzip")

    static_port, app_port = free_port(), free_port()
    static = [sys.executable, "-m", "http.server", "-b", "127.0.0.1", str(static_port)]
    static += ["-d", str(build.parent)]
    env_instance = tempfile.mkdtemp()
    app = [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(app_port)]
    os.environ["COMPANION_INSTANCE"] = env_instance
    os.environ["COMPANION_RATELIMIT_ENABLED"] = "false"
    site = f"http://127.0.0.1:{static_port}/{build.name}/"
    server = f"http://127.0.0.1:{app_port}"
    with serving(static, site), serving(app, server + "/"), ExitStack() as slowed:
        if args.slower > 1 and args.each_thread:
            print(f"CPU: {slowed.enter_context(slow_cpu.each_thread(args.slower))}")
        elif args.slower > 1:
            print(f"CPU: {slow_cpu.whole_browser(args.slower)}")
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:

            def launch() -> tuple[BrowserContext, Page]:
                browser = p.chromium.launch_persistent_context(
                    profile, executable_path=chromium_path(), args=CHROMIUM_FLAGS, viewport=PHONE
                )
                page = browser.pages[0]
                if args.network:
                    slow_network(browser.new_cdp_session(page), args.network)
                return browser, page

            browser, page = launch()
            cold = start(page, site)
            warm = start(page, site)
            phone_plays, app_times, phone_cpu, phone_idle = plays(
                app_frame(page), site + "app", args.plays, page
            )
            server_page = browser.new_page()
            server_plays, _, server_cpu, server_idle = plays(server_page, server, args.plays)
            browser.close()
            # The app opened again once its browser was closed (a phone restarted, or
            # the browser's process ended while it was away): its files, its database
            # and the page it showed last kept in the profile, none of it in memory.
            # It reopens the match the plays left, at its table.
            # If it fails, the figures above are printed all the same.
            browser, page = launch()
            try:
                restart: dict[str, float] | NotMeasured = restarted(page, site)
            except NotMeasured as why:
                restart = why
            browser.close()
    for name, figures in (
        ("cold start", cold),
        ("warm start", warm),
        ("after a restart, the last match's table", restart),
    ):
        if isinstance(figures, NotMeasured):
            print(f"{name}: not measured: {figures}")
            continue
        said = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in figures.items())
        print(f"{name}: {said}")
    print(
        f"a recorded play, tap to table: in the phone {spread(phone_plays)}, "
        f"on the server {spread(server_plays)}"
    )
    whole = [sum(answers) for *answers, _ in app_times]
    print(f"a recorded play, the app's own time in the phone (post and table): {spread(whole)}")
    *medians, after = [statistics.median(part) for part in zip(*app_times, strict=True)]
    said = ", ".join(f"{name} {ms:.1f}" for name, ms in zip(TAP_PARTS, medians, strict=True))
    print(f"  its parts, median ms: {said}")
    serial = [written_first(parts) for parts in app_times]
    print(
        f"  the post's write after its 303 (beside the redirect), median {after:.1f} ms;"
        f" counted in, as if done before it: {spread(serial)}"
    )
    print("a recorded play, the browser's CPU a tap (ms, beyond the same time with no tap):")
    for place, cpu in (("in the phone", phone_cpu), ("on the server", server_cpu)):
        print(f"  {place}: {by_part(cpu)}")
    # The bench's own reads of the screen (one every 1.5 s, as before each tap) included.
    print("the table waiting for a tap, the browser's CPU a second (ms):")
    for place, cpu in (("in the phone", phone_idle), ("on the server", server_idle)):
        print(f"  {place}: {by_part(cpu, 1)}")
    if isinstance(restart, NotMeasured):
        sys.exit("bench/standalone.py: the start after a restart was not measured")


def by_part(cpu: dict[str, float], digits: int = 0) -> str:
    parts = ", ".join(
        f"{part} {ms:.{digits}f}" for part, ms in sorted(cpu.items(), key=lambda p: -p[1])
    )
    return f"{sum(cpu.values()):.{digits}f} in all: {parts}"


if __name__ == "__main__":
    main()
