"""What production relies on: headers, health, configuration from the environment."""

from __future__ import annotations

import gc
import re
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.app.conftest import make_app
from tests.app.helpers import Tabletop

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_page_carries_the_security_headers(client: FlaskClient) -> None:
    for url in ("/", "/new", "/rules", "/import", "/m/nothing"):
        response = client.get(url)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "HX-Request" in response.headers["Vary"]


def test_no_template_has_inline_script_or_style() -> None:
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path
        assert not re.search(r"\sstyle=|<style", text), path
        assert not re.search(r"\son[a-z]+=", text), path  # no inline event handlers


def test_health(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_settings_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_SESSION_COOKIE_SECURE", "true")
    monkeypatch.setenv("COMPANION_BEHIND_PROXY", "true")
    app = make_app(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    client = app.test_client()
    page = client.get("/new", headers={"X-Forwarded-Proto": "https"})
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text)
    assert token
    response = client.post(
        "/new",
        data={
            "csrf_token": token.group(1),
            "players-0": "Ann",
            "players-1": "Bob",
            "dealer": "last",
            "mode": "referee",
            "stack": "last",
            "draw": "until",
            "mercy_on": "y",
            "mercy": "25",
            "target": "1000",
            "scoring": "high",
        },
        headers={"X-Forwarded-Proto": "https", "Referer": "https://localhost/new"},
        base_url="https://localhost",
    )
    assert response.status_code == 303
    assert "Secure" in response.headers["Set-Cookie"]


def test_the_secret_key_is_generated_once_and_kept(tmp_path: Path, app: Flask) -> None:
    from companion import secret_key

    first = secret_key(tmp_path)
    assert len(first) == 64 and secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_forked_workers_never_share_the_migration_connection(app: Flask) -> None:
    # Regression: gunicorn --preload forks after the migrations; a connection left in
    # the pool was shared by every worker and PostgreSQL failed at random under load.
    from companion.extensions import db

    with app.app_context():
        assert db.engine.pool.checkedin() == 0  # type: ignore[attr-defined]


def test_the_table_page_weighs_under_60_kb_over_gzip(tabletop: Tabletop, started: str) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    client = tabletop.client
    page = client.get(f"/m/{started}", headers=gzip)
    assert page.headers["Content-Encoding"] == "gzip"
    total = len(page.data)
    html = client.get(f"/m/{started}").get_data(as_text=True)
    # Each file once, as a phone loads it: icons.svg is named by every icon's <use>.
    assets = {a.split("#")[0] for a in re.findall(r'(?:src|href)="(/static/[^"]+)"', html)}
    for asset in sorted(assets):
        response = client.get(asset, headers=gzip)
        assert response.status_code == 200
        total += len(response.data)
    assert total <= 60 * 1024, total


@pytest.mark.parametrize(
    ("url", "connect_args"),
    [
        ("postgresql+psycopg://u@db.invalid/c", {"connect_timeout": 5}),
        ("postgresql+psycopg://u@db.invalid/c?connect_timeout=2", None),  # the URL's own
        ("sqlite:///x.db", None),
    ],
)
def test_a_database_host_that_never_answers_is_given_up_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    connect_args: dict[str, int] | None,
) -> None:
    """Connecting gives up after a few seconds (a 503), not minutes of a stuck worker."""
    from companion import create_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False, "SECRET_KEY": "t"})
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"].get("connect_args") == connect_args


def test_the_server_freezes_what_it_loaded_before_its_workers_fork() -> None:
    """gunicorn.conf.py's when_ready (run by the master, after the app is preloaded and
    before it forks): what is loaded by then is out of the collector's walks."""
    conf = runpy.run_path(str(TEMPLATES.parent / "gunicorn.conf.py"))
    said: list[str] = []
    server = SimpleNamespace(
        num_workers=2,
        cfg=SimpleNamespace(threads=32, worker_class_str="gthread"),
        log=SimpleNamespace(info=lambda text, *args: said.append(text % args)),
        app=SimpleNamespace(callable=None),  # the loaded app: none here, so no limits
    )
    gc.unfreeze()
    try:
        conf["when_ready"](server)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
    assert said == ["Serving: 2 workers x 32 threads (gthread)"]
