"""The app on the home screen, as the server serves it: the manifest, the service worker
(named after the content of the files it keeps) and its offline page; and what the table
tells a phone to feel, from the engine (the browser side: tests/browser/)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.app.helpers import Page, Tabletop

STATIC = Path(__file__).resolve().parents[2] / "static"


def worker_version(client: FlaskClient) -> str:
    found = re.search(r'PREFIX \+ "([0-9a-f]+)"', client.get("/sw.js").get_data(as_text=True))
    assert found
    return found.group(1)


def test_the_manifest_says_how_the_app_is_installed(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data())
    assert manifest["name"] == "No Mercy Companion" and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["id"]) == ("/", "/", "/")
    assert manifest["display"] == "standalone"
    icons = {(i["sizes"], i["purpose"]): i["src"] for i in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for src in icons.values():
        assert client.get(src).mimetype == "image/png", src


def test_every_page_links_the_manifest_and_a_theme_colour_per_scheme(tabletop: Tabletop) -> None:
    for url in ("/", "/new", "/rules", "/offline"):
        doc = tabletop.get(url).doc
        assert doc.one("link", rel="manifest")["href"] == "/manifest.webmanifest"
        schemes = [m["media"] for m in doc.find_all("meta", name="theme-color")]
        assert schemes == ["(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]


def test_the_worker_is_served_from_the_root_and_never_kept(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    kept = json.loads(re.search(r"var STATIC = (\[.*\]);", script).group(1))  # type: ignore[union-attr]
    files = {
        f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*") if p.is_file()
    }
    # The install icons: the browser fetches them itself; no page shows them. The favicon
    # is kept at the address pages name (/favicon.ico).
    for_install = {"icon-192.png", "icon-512.png", "icon-maskable-512.png", "apple-touch-icon.png"}
    for_install.add("favicon.ico")
    # Each at its versioned address (companion/static_files.py), as the pages name it.
    unversioned = {url.split("?v=")[0] for url in kept}
    assert unversioned == {f for f in files if f.rsplit("/", 1)[1] not in for_install} | {
        "/favicon.ico"
    }
    assert all("?v=" in url for url in kept if url.startswith("/static/"))
    assert 'var OFFLINE = "/offline"' in script


def test_a_deploy_that_changes_a_file_is_a_new_worker(app_with: Any, tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    versions = []
    for css in ("body { color: red }", "body { color: blue }"):
        (static / "app.css").write_text(css)
        app = app_with()
        app.static_folder = str(static)
        versions.append(worker_version(app.test_client()))
        assert worker_version(app.test_client()) == versions[-1]  # the same, while it runs
    assert versions[0] != versions[1]


def test_the_offline_page_says_what_happened_in_plain_sentences(client: FlaskClient) -> None:
    response = client.get("/offline")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    text = response.get_data(as_text=True)
    assert "The server can't be reached" in text
    assert "Your match is safe" in text
    assert '<a class="button primary big" href="">Try again</a>' in text


# ---------------------------------------------------------------- felt


def felt(page: Any) -> list[str]:
    return (page.table.get("data-events") or "").split()


@pytest.mark.parametrize(
    ("lines", "kinds"),
    [
        (["Ann: R3"], []),
        (["Ann: has 2", "Ann: R3"], ["uno"]),
        (["Ann: has 2", "Ann: R3", "Bob: catch Ann"], ["catch"]),
        (["Ann: has 24", "Ann: draw 1"], ["knockout"]),
        (["Bob: has 3", "Ann: has 1", "Ann: R3"], ["hand"]),
    ],
)
def test_the_table_says_what_its_newest_line_did(
    tabletop: Tabletop, started: str, lines: list[str], kinds: list[str]
) -> None:
    page = tabletop.play_lines(started, *lines)
    table = tabletop.table(started)
    assert felt(table) == kinds, page
    assert table.table["data-line"] != "0" and table.table["data-match"] == started


def test_a_phone_polling_hears_what_the_newest_line_did(tabletop: Tabletop, started: str) -> None:
    """The live poll's fragment says it too: the phones watching feel it as well."""
    seen = tabletop.play_lines(started, "Ann: has 2", "Ann: R3")
    url = seen.table.one(cls="live")["hx-get"]
    tabletop.play_lines(started, "Bob: catch Ann")
    fragment = Page(tabletop.client.get(url, headers={"HX-Request": "true"}))
    assert fragment.status == 200 and felt(fragment) == ["catch"]
