"""Every static address carries its file's digest, computed once at start (issue 29): a
deploy that changes a file changes its address, so a page never pairs new HTML with an
old stylesheet from a cache; a versioned address is cached for a year; and the deploy
before's files still answer at their own addresses, for one more deploy."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

from flask import Flask

from companion.paths import STATIC
from tests.app.helpers import Tabletop

YEAR = "max-age=31536000"


def stylesheet(app: Flask) -> str:
    """The stylesheet's address, as a page names it."""
    found = re.search(r'href="(/static/app\.css[^"]*)"', app.test_client().get("/").text)
    assert found
    return found.group(1)


def test_every_static_address_carries_its_file_s_digest(tabletop: Tabletop) -> None:
    html = tabletop.get("/").html + tabletop.get("/new").html
    addresses = set(re.findall(r'(?:href|src)="/static/([^"]+)"', html))
    assert {a.split("?")[0] for a in addresses} >= {"app.css", "app.js", "vendor/htmx.min.js"}
    for address in addresses:
        name, _, digest = address.split("#")[0].partition("?v=")
        assert digest == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12], name


def test_a_versioned_address_is_kept_for_a_year_and_a_bare_one_checked(app: Flask) -> None:
    client = app.test_client()
    versioned = client.get(stylesheet(app))
    assert versioned.status_code == 200
    assert YEAR in versioned.headers["Cache-Control"]
    assert "immutable" in versioned.headers["Cache-Control"]
    assert "no-cache" not in versioned.headers["Cache-Control"]
    bare = client.get("/static/app.css")
    assert bare.status_code == 200 and YEAR not in bare.headers.get("Cache-Control", "")
    unknown = client.get("/static/app.css?v=000000000000")  # kept by nobody: the file now
    assert unknown.data == bare.data and YEAR not in unknown.headers.get("Cache-Control", "")


def test_a_deploy_that_changes_a_file_changes_its_address_and_keeps_the_old_one(
    app_with: Any, tmp_path: Path
) -> None:
    static, kept = tmp_path / "static", tmp_path / "kept"
    shutil.copytree(STATIC, static)
    deploys, addresses = [], []
    for colour in ("red", "blue", "green"):
        (static / "app.css").write_text(f"body {{ color: {colour} }}")
        deploys.append(app_with(STATIC_FOLDER=str(static), STATIC_KEPT=str(kept)))
        addresses.append(stylesheet(deploys[-1]))
    assert len(set(addresses)) == 3
    newest = deploys[-1].test_client()
    # The deploy before's page still gets its own stylesheet, for a year.
    before = newest.get(addresses[1])
    assert before.text == "body { color: blue }" and YEAR in before.headers["Cache-Control"]
    # Two deploys back: let go; the address still answers, with the file as it is now.
    oldest = newest.get(addresses[0])
    assert oldest.status_code == 200 and oldest.text == "body { color: green }"
    assert YEAR not in oldest.headers.get("Cache-Control", "")
    # A restart of the same deploy is not a deploy: the one before is still kept.
    again = app_with(STATIC_FOLDER=str(static), STATIC_KEPT=str(kept))
    assert again.test_client().get(addresses[1]).text == "body { color: blue }"


def test_an_address_that_climbs_out_of_the_kept_folder_is_the_file_now(
    app_with: Any, tmp_path: Path
) -> None:
    app = app_with(STATIC_KEPT=str(tmp_path / "kept"))
    client = app.test_client()
    for version in ("..", "../..", "a/b", "%2e%2e"):
        answer = client.get(f"/static/app.css?v={version}")
        assert answer.status_code == 200 and answer.data == (STATIC / "app.css").read_bytes()
