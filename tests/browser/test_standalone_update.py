"""A new version of the app in the phone (standalone/site/: shell.js, sw.js): found while
the app runs, it is announced and waits; the next start takes it, even with no network
and no host by then, and the phone's matches are still there. (A copy of the build is
made a new version by a new build.js, as a new `make standalone` would.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from playwright.sync_api import Browser, expect

from companion.views.phone import build_listing

from .phone_app import fetched, opened, phone, static_site
from .table import Table


def test_a_new_version_is_announced_then_taken_at_the_next_start(
    browser: Browser, built: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site" / "standalone"
    shutil.copytree(built, site)
    with static_site(site.parent) as (url, host), phone(browser, tmp_path / "profile") as context:
        page = context.pages[0]
        page.goto(url)
        frame = opened(page)
        old: str = page.evaluate("self.BUILD.version")
        t = Table(frame, url + "app")
        match_url = t.new_match(["Ann", "Bob", "Cy"])
        t.start("Red 5")

        # A new build on the host (its version in build.js and in sw.js, as make
        # standalone writes them); the phone looks for it, as it does at each start.
        listed = build_listing(site)
        (site / "sw.js").write_text((site / "sw.js").read_text().replace(old, "a-new-version"))
        listed["version"] = "a-new-version"
        (site / "build.js").write_text(f"self.BUILD = {json.dumps(listed)};\n")
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        news = page.locator("#news")
        expect(news).to_contain_text("A new version of the app is ready", timeout=60_000)
        # Mid-hand nothing changes: the table records as before, on the old version.
        t.tap("Red 6")
        assert page.evaluate("self.BUILD.version") == old

        # The next start takes it with no network and no host left (a train after the
        # station's Wi-Fi): what it needs was kept when it was announced. The match is
        # there, at the line it had, and the table goes on.
        context.set_offline(True)
        host.shutdown()
        page.reload()
        frame = opened(page)
        assert page.evaluate("self.BUILD.version") == "a-new-version"
        assert frame.url == match_url
        expect(frame.locator(".recorded, .last-plays").first).to_be_visible()
        record = fetched(frame, match_url + "/record.txt")
        assert record.rstrip().endswith(": R6")
        t = Table(frame, url + "app")
        t.at_rest()
        t.tap("Red 3")
        assert fetched(frame, match_url + "/record.txt").rstrip().endswith(": R3")
