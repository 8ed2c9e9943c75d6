"""The app in the phone, handed out by the server (companion/views/phone.py): the
standalone build served at /standalone/ as a static host would serve it, with what its
page needs to run WebAssembly; a page with its link and QR code, which says when a
phone could not keep it (plain http) and when the server has no build to hand out."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

EN = {"Accept-Language": "en"}


@pytest.fixture
def build(tmp_path: Path) -> Path:
    """A build's shape, as make standalone leaves it (its content is not at stake here)."""
    folder = tmp_path / "standalone"
    (folder / "pyodide").mkdir(parents=True)
    (folder / "app" / "static").mkdir(parents=True)
    listed = [["index.html", 48], ["pyodide/pyodide.asm.wasm", 9_600_000, 3_500_000]]
    (folder / "build.js").write_text(
        "// Made by make standalone.\n"
        f"self.BUILD = {json.dumps({'version': 'v1', 'files': listed})};\n"
    )
    (folder / "index.html").write_text("<!doctype html><title>No Mercy Companion</title>")
    (folder / "pyodide" / "pyodide.mjs").write_text("export {};\n")
    (folder / "app" / "static" / "app.css").write_text("body {}\n")
    return folder


def test_the_build_is_served_with_leave_to_run_webassembly(app_with: Any, build: Path) -> None:
    client = app_with(STANDALONE_BUILD=str(build)).test_client()
    page = client.get("/standalone/")
    assert page.status_code == 200 and b"No Mercy Companion" in page.data
    assert "script-src 'self' 'wasm-unsafe-eval'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "no-cache" in page.headers["Cache-Control"]  # a new build is seen at once
    module = client.get("/standalone/pyodide/pyodide.mjs")
    assert module.status_code == 200 and module.mimetype == "text/javascript"
    assert client.get("/standalone/app/static/app.css").status_code == 200


def test_a_gzipped_file_is_sent_as_it_is_for_the_page_to_unpack(app_with: Any, build: Path) -> None:
    # As a plain static host sends it: the page counts its bytes and unpacks it itself
    # (standalone/site/files.js); with Content-Encoding the browser would unpack it first.
    packed = gzip.compress(b"PK" + bytes(5000))
    (build / "pyodide" / "python_stdlib.zip.gz").write_bytes(packed)
    client = app_with(STANDALONE_BUILD=str(build)).test_client()
    sent = client.get(
        "/standalone/pyodide/python_stdlib.zip.gz", headers={"Accept-Encoding": "gzip"}
    )
    assert sent.status_code == 200 and sent.data == packed
    assert sent.mimetype == "application/gzip" and "Content-Encoding" not in sent.headers


def test_an_app_page_asked_of_the_server_opens_in_the_app_s_page(
    app_with: Any, build: Path
) -> None:
    # A phone that has not kept the app (or a link followed elsewhere): no dead end.
    client = app_with(STANDALONE_BUILD=str(build)).test_client()
    answer = client.get("/standalone/app/m/abc?v=2")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/standalone/?open=/standalone/app/m/abc?v%3D2"
    # Under a path of its own (behind a proxy): the app's page opens it there too.
    behind = client.get("/standalone/app/m/abc", environ_overrides={"SCRIPT_NAME": "/uno"})
    assert behind.headers["Location"] == "/uno/standalone/?open=/uno/standalone/app/m/abc"


def test_nothing_outside_the_build_is_served(app_with: Any, build: Path) -> None:
    (build.parent / "secret.txt").write_text("no")
    client = app_with(STANDALONE_BUILD=str(build)).test_client()
    for path in ("/standalone/../secret.txt", "/standalone/%2e%2e/secret.txt", "/standalone/x"):
        assert client.get(path).status_code == 404


def test_the_page_hands_the_app_out_by_link_and_qr_code(app_with: Any, build: Path) -> None:
    app = app_with(STANDALONE_BUILD=str(build), PUBLIC_URL="https://uno.example.org")
    client = app.test_client()
    assert b'href="/phone"' in client.get("/", headers=EN).data
    page = client.get("/phone", headers=EN).get_data(as_text=True)
    assert 'href="https://uno.example.org/standalone/"' in page
    assert "<svg" in page  # the QR code
    assert "only from an https address" not in page
    assert "wait for the download (4 MB)" in page  # the .gz of the wasm, not the wasm


def test_the_page_says_a_phone_keeps_the_app_only_over_https(app_with: Any, build: Path) -> None:
    app = app_with(STANDALONE_BUILD=str(build), PUBLIC_URL="http://192.168.1.20:5000")
    page = app.test_client().get("/phone", headers=EN).get_data(as_text=True)
    assert "Phones keep the app only from an https address" in page
    assert 'href="http://192.168.1.20:5000/standalone/"' in page


def test_without_a_build_the_page_says_how_to_make_one(app_with: Any, tmp_path: Path) -> None:
    client = app_with(STANDALONE_BUILD=str(tmp_path / "none")).test_client()
    page = client.get("/phone", headers=EN).get_data(as_text=True)
    assert "make standalone" in page and "<svg" not in page
    assert client.get("/standalone/").status_code == 404
