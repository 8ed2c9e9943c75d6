"""The app as a browser's Python (Pyodide) can run it, for the standalone app (issue 28):
no compression over a network there is none of, no rate limits, and none of what such a
Python lacks: brotli (Flask-Compress needs it), psycopg (PostgreSQL's driver) and threads
(the limits' memory storage starts one). Nor does its start import what only a later page
or the limits need (a phone's start is its imports, in WebAssembly)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.app.helpers import Tabletop

ROOT = Path(__file__).resolve().parents[2]

STARTED = """
import json, sys, threading
from companion import ON_FIRST_USE
LATER = ("limits", *ON_FIRST_USE)  # what a later page, a seating or the limits need
started = []  # a browser's Python can't start a thread: record any that starts
original = threading.Thread.start
def start(thread):
    started.append(thread.name)
    original(thread)
threading.Thread.start = start
from companion import create_app
app = create_app({
    "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1],
    "SECRET_KEY": "x",
    "COMPRESS_RESPONSES": False,
    "RATELIMIT_ENABLED": False,
})
page = app.test_client().get("/new", headers={"Accept-Encoding": "gzip"})
print(json.dumps({
    "status": page.status_code,
    "encoding": page.headers.get("Content-Encoding"),
    "loaded": sorted(m for m in ("flask_compress", "brotli", "psycopg") if m in sys.modules),
    "threads started": started,
    "imported for later": sorted(m for m in LATER if m in sys.modules),
}))
"""


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What a new process that started the app and showed /new loaded and started."""
    folder = tmp_path_factory.mktemp("started")
    # A process of its own: this one has loaded everything already.
    ran = subprocess.run(
        [sys.executable, "-c", STARTED, str(folder / "table.db")],
        cwd=ROOT,
        env={"COMPANION_INSTANCE": str(folder / "instance"), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return said


def test_the_app_starts_without_brotli_psycopg_or_a_thread(started: dict[str, Any]) -> None:
    assert (started["status"], started["encoding"], started["loaded"]) == (200, None, [])
    assert started["threads started"] == []


def test_a_start_leaves_what_later_pages_need_for_later(started: dict[str, Any]) -> None:
    # The rules page's Markdown, the share page's QR codes, the lab's simulator and
    # charts load with their pages; Unicode's look-alikes with a seating or an import;
    # the limits library only when limits are on (companion.ON_FIRST_USE).
    assert started["imported for later"] == []


def test_a_server_loads_what_loads_on_first_use_before_its_workers_fork(tmp_path: Path) -> None:
    # gunicorn forks from the process that imported wsgi.py (preload_app), and freezes
    # what it holds: each worker shares these instead of importing its own.
    loaded = "import sys, wsgi; from companion import ON_FIRST_USE; "
    loaded += "print(sorted(m for m in ON_FIRST_USE if m not in sys.modules))"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    ran = subprocess.run(
        [sys.executable, "-c", loaded],
        cwd=ROOT,
        env=env | {"COMPANION_INSTANCE": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert ran.stdout.splitlines()[-1] == "[]"


def test_a_table_is_refereed_with_limits_and_compression_off(app_with: Any) -> None:
    app = app_with(COMPRESS_RESPONSES="off", RATELIMIT_ENABLED=False)
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob"))
    editor.play_lines(match_id, "start: R5", "Ann: R3")
    page = editor.client.get(f"/m/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "Content-Encoding" not in page.headers
    assert "Ann" in page.get_data(as_text=True)


def test_compression_stays_on_by_default(app_with: Any) -> None:
    app = app_with()
    editor = Tabletop(app, app.test_client())
    match_id = editor.create(("Ann", "Bob"))
    page = editor.client.get(f"/m/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
