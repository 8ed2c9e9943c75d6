"""The app in the phone, checked in WebKit (make check-webkit): Debian's WebKitGTK, the
engine family of Safari, whose MiniBrowser its WebKitWebDriver drives (W3C WebDriver,
plain HTTP: no client library), on a virtual display (Xvfb: this MiniBrowser has no
headless mode). Not part of `make test`: the browser tests run in Chromium
(tests/browser/test_standalone.py); this is the same walk as make check-firefox, in a
third engine. WebKitGTK is not Safari (not its network stack, nor iOS's limits on a
service worker's storage), but it is the same WebCore and JavaScriptCore.

    .venv/bin/python standalone/webkit/check.py [build/standalone]

The built site served from a static server on loopback (no app server): a first visit,
a new match of three, its start card and a card played, each line on the table; then a
reload, with the same record kept. Prints what it saw and the start's figures; exits 1
with the step that failed.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

# The app's frame's document, in every script run in the page (the frame is the page's
# own origin: its document is reachable from the page that runs the app).
FRAME = "const d = document.getElementById('app').contentDocument; "
NUMBER_CARD = r"^(Red|Yellow|Green|Blue) [1-689]$"  # plays at once (0 and 7 ask)
SHOWN = (
    "const app = document.getElementById('app');"
    "return Boolean(self.STARTED && !app.hidden && app.contentDocument"
    " && app.contentDocument.querySelector('main'));"
)


def free_port() -> int:
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        return int(bound.getsockname()[1])


class Driver:
    """A WebDriver session: its commands as the W3C protocol has them, over HTTP."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""
        self.step = "starting WebKit"  # the walk's step, said if it fails

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        asked = urllib.request.Request(
            self.base + path, data, {"Content-Type": "application/json"}, method=method
        )
        try:
            with urllib.request.urlopen(asked, timeout=300) as answer:
                return json.loads(answer.read())["value"]
        except urllib.error.HTTPError as error:
            said = json.loads(error.read() or b"{}").get("value", {})
            raise RuntimeError(f"WebDriver: {said.get('message') or error}") from None

    def run(self, script: str, *args: object) -> Any:
        body = {"script": script, "args": list(args)}
        return self.call("POST", f"/session/{self.session}/execute/sync", body)

    def run_async(self, script: str, *args: object) -> Any:
        body = {"script": script, "args": list(args)}
        return self.call("POST", f"/session/{self.session}/execute/async", body)

    def until(self, script: str, seconds: float = 60) -> Any:
        """What `script` returns once it returns something true; an error after `seconds`."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if got := self.run(script):
                return got
            time.sleep(0.2)
        raise RuntimeError(f"nothing after {seconds:.0f} s")

    def tap(self, key: str) -> float:
        """A tap on the frame's element that `key` (a script's expression) finds, as a
        person taps: on a table shown longer than its tap guard's settle time
        (data-settle, companion/taps.py); ms until the next table is in."""
        table = FRAME + "const t = d.querySelector('#table'); "
        version, settle = self.run(table + "return [t.dataset.version, t.dataset.settle];")
        time.sleep((int(settle or 0) + 300) / 1000)
        started = time.monotonic()
        found = self.run(FRAME + f"const k = {key}; if (k) {{ k.click(); }} return Boolean(k);")
        if not found:
            raise RuntimeError("no such key on the table")
        moved = table + f"return Boolean(t) && t.dataset.version !== {json.dumps(version)};"
        self.until(moved, 30)
        return (time.monotonic() - started) * 1000

    def record(self, table: str) -> str:
        """The match's record, asked by the frame (its service worker answers it)."""
        script = FRAME + (
            "const done = arguments[arguments.length - 1];"
            "d.defaultView.fetch(arguments[0] + '/record.txt')"
            ".then((r) => r.text()).then(done, (e) => done(String(e)));"
        )
        return str(self.run_async(script, table))


def walk(driver: Driver, site: str) -> None:
    began = time.monotonic()
    driver.call("POST", f"/session/{driver.session}/url", {"url": site})
    driver.until(SHOWN, 300)
    figures = driver.run("return self.STARTED")
    said = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in figures.items())
    print(f"  first visit: the app shown in {time.monotonic() - began:.2f} s ({said})")

    driver.step = "a new match"
    driver.run(
        "document.getElementById('app').contentWindow.location.href = arguments[0]",
        site + "app/new",
    )
    driver.until(FRAME + "return Boolean(d.querySelector('#players-0'));")
    named = (
        "['Ann', 'Bob', 'Cy'].forEach((n, i) => { d.getElementById('players-' + i).value = n; });"
    )
    started = (
        "[...d.querySelectorAll('button')].find((b) => b.textContent.includes('Start the match'))"
    )
    driver.run(FRAME + named + started + ".click();")
    table = driver.until(FRAME + "return d.querySelector('#table') ? d.location.pathname : null;")

    driver.step = "the start card"
    driver.tap("d.querySelector('[aria-label^=\"Start with\"]')")
    driver.step = "a card played"
    took = driver.tap(
        "[...d.querySelectorAll('.keyboard [aria-label]')]"
        f".find((k) => /{NUMBER_CARD}/.test(k.getAttribute('aria-label')))"
    )
    kept = driver.record(table)
    lines = [line for line in kept.splitlines() if line.startswith(("start:", "Ann:"))]
    if len(lines) != 2:
        raise RuntimeError(f"the record holds {kept!r}")
    print(f"  a match of three: {', '.join(lines)} (the card's tap to its table: {took:.0f} ms)")

    driver.step = "a reload"
    began = time.monotonic()
    driver.call("POST", f"/session/{driver.session}/refresh", {})
    driver.until(SHOWN, 300)
    again = driver.record(table)
    if again != kept:
        raise RuntimeError(f"after a reload the record holds {again!r}")
    print(f"  reloaded: the app shown in {time.monotonic() - began:.2f} s, the record as kept")


def main() -> int:
    build = Path(sys.argv[1] if len(sys.argv) > 1 else "build/standalone").resolve()
    if not (build / "build.js").exists():
        print(f"check-webkit: no built site at {build} (make standalone)", file=sys.stderr)
        return 1
    browsers = glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser")
    if not browsers:
        print("check-webkit: no MiniBrowser (apt-get install webkit2gtk-driver)", file=sys.stderr)
        return 1
    site_port, driver_port = free_port(), free_port()
    started: list[subprocess.Popen[bytes]] = []
    driver = Driver(driver_port)
    try:
        quiet = subprocess.DEVNULL
        static = [sys.executable, "-m", "http.server", "-b", "127.0.0.1", str(site_port)]
        started.append(
            subprocess.Popen([*static, "-d", str(build.parent)], stdout=quiet, stderr=quiet)
        )
        # A display of Xvfb's own choosing, its number written on its standard output.
        screen = ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24"]
        xvfb = subprocess.Popen(screen, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        started.append(xvfb)
        assert xvfb.stdout is not None
        display = xvfb.stdout.readline().decode().strip()
        env = {**os.environ, "DISPLAY": f":{display}"}
        command = ["WebKitWebDriver", f"--port={driver_port}"]
        started.append(subprocess.Popen(command, env=env, stdout=quiet, stderr=quiet))
        for _ in range(100):  # the driver and the static server up
            try:
                driver.call("GET", "/status")
                urllib.request.urlopen(f"http://127.0.0.1:{site_port}/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        options = {"binary": browsers[0], "args": ["--automation"]}
        capabilities = {"browserName": "MiniBrowser", "webkitgtk:browserOptions": options}
        made = driver.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        driver.session = made["sessionId"]
        version = made["capabilities"].get("browserVersion", "?")
        site = f"http://127.0.0.1:{site_port}/{build.name}/"
        print(f"check-webkit: WebKitGTK {version} (MiniBrowser), the site at {site}")
        driver.step = "a first visit"
        walk(driver, site)
        print("check-webkit: passed")
        return 0
    except Exception as error:  # the step and why, in one line
        print(f"check-webkit: failed at {driver.step}: {error}", file=sys.stderr)
        return 1
    finally:
        if driver.session:
            with contextlib.suppress(OSError, RuntimeError):
                driver.call("DELETE", f"/session/{driver.session}")
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
