"""What must not leak (issue 13, finding 10): pages with a link's token are never
stored by a browser or proxy, HTTPS is sticky once secure cookies are on, the
database is readable by its owner only, and a name is always shown as text."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask import Flask

from companion import create_app
from tests.app.conftest import make_app
from tests.app.helpers import Page, Tabletop, share_tokens

# A name a browser would read as markup if it were not escaped (typed names: 20 at most).
MARKUP_NAME = '<script>"O\'A"&amp;'
ESCAPED = "&lt;script&gt;&#34;O&#39;A&#34;&amp;amp;"


def test_pages_with_a_token_are_never_stored(tabletop: Tabletop, app: Flask) -> None:
    match_id = tabletop.create()
    editor, viewer = share_tokens(app, match_id)
    share = tabletop.client.get(f"/m/{match_id}/share")
    assert share.status_code == 200 and editor in share.get_data(as_text=True)
    assert share.headers["Cache-Control"] == "no-store"
    for link in (f"/j/{editor}", f"/v/{viewer}"):
        response = tabletop.client.get(link)
        assert response.status_code == 303 and response.headers["Cache-Control"] == "no-store"


def test_hsts_only_with_secure_cookies(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    (tmp_path / "secure").mkdir()
    plain = make_app(tmp_path / "plain").test_client()
    for url in ("/", "/healthz", "/static/app.css", "/m/nothing"):
        assert "Strict-Transport-Security" not in plain.get(url).headers
    secure = make_app(tmp_path / "secure", SESSION_COOKIE_SECURE=True).test_client()
    for url in ("/", "/healthz", "/static/app.css", "/m/nothing"):
        assert secure.get(url).headers["Strict-Transport-Security"].startswith("max-age=")


def test_hsts_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_SESSION_COOKIE_SECURE", "true")
    assert "Strict-Transport-Security" in make_app(tmp_path).test_client().get("/").headers
    monkeypatch.setenv("COMPANION_SESSION_COOKIE_SECURE", "false")
    assert "Strict-Transport-Security" not in make_app(tmp_path).test_client().get("/").headers


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_instance_folder_and_database_are_the_owners_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = tmp_path / "instance"
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    old = os.umask(0o022)  # what most systems give a process: files readable by all
    try:
        app = create_app({"TESTING": True})
        Tabletop(app, app.test_client()).create()  # the database in use: -wal and -shm
    finally:
        os.umask(old)
    database = instance / "companion.sqlite3"
    files = [database, Path(f"{database}-wal"), Path(f"{database}-shm")]
    assert all(path.exists() for path in files)
    assert mode(instance) == 0o700
    assert {path.name: mode(path) for path in [*files, instance / "secret_key"]} == {
        path.name: 0o600 for path in [*files, instance / "secret_key"]
    }


def escaped_everywhere(tabletop: Tabletop, match_id: str) -> dict[str, bool]:
    """For each page showing the players' names: is the name shown as text, never markup?"""
    pages = {
        "table": f"/m/{match_id}",
        "home": "/",
        "scoreboard": f"/m/{match_id}/scores",
        "log": f"/m/{match_id}/log",
        "share": f"/m/{match_id}/share",
    }
    shown: dict[str, bool] = {}
    for name, url in pages.items():
        page = Page(tabletop.client.get(url))
        assert page.status == 200, (url, page.status)
        shown[name] = (
            MARKUP_NAME not in page.html
            and "<script>" not in page.html
            and ESCAPED in page.html
            and MARKUP_NAME in page.text
        )
    return shown


def test_a_name_is_shown_as_text_on_every_page(tabletop: Tabletop) -> None:
    match_id = tabletop.create([MARKUP_NAME, "Bob"], dealer="2")
    tabletop.play_lines(match_id, "start: R5", f"{MARKUP_NAME}: R3")
    assert escaped_everywhere(tabletop, match_id) == dict.fromkeys(
        ("table", "home", "scoreboard", "log", "share"), True
    )


def test_the_escaping_test_fails_without_autoescaping(tmp_path: Path) -> None:
    """The test above would catch a page that stops escaping."""
    app = make_app(tmp_path)
    app.jinja_env.autoescape = False
    tabletop = Tabletop(app, app.test_client())
    data = tabletop.new_match_values([MARKUP_NAME, "Bob"], dealer="2")
    response = tabletop.client.post("/new", data=data)
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    assert not any(escaped_everywhere(tabletop, match_id).values())
