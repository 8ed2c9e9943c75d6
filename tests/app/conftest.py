"""Fixtures: an app on a fresh SQLite database, a client, and a phone at the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.extensions import db
from tests.app.helpers import Tabletop
from tests.databases import (
    empty_postgres,
    migrated_sqlite,
    migrated_to,
    postgres_url,
    reset_postgres,
)


def make_app(tmp_path: Path, **config: Any) -> Flask:
    """The app on a database of the test's own, empty, its schema made (copied, or its
    rows truncated: the migrations themselves are tested in test_migrations.py); with
    AUTO_MIGRATE=False, on a database with nothing in it."""
    url = postgres_url()
    bare = config.get("AUTO_MIGRATE") is False  # a migration's test: no schema at all
    if url is not None and bare:
        reset_postgres(url)
    fresh = url is not None and not bare and empty_postgres(url)
    if url is None and not bare and "SQLALCHEMY_DATABASE_URI" not in config:
        migrated_sqlite(
            tmp_path / "t.db", lambda made: dispose(app_on(made, {"AUTO_MIGRATE": True}))
        )
    app = app_on(url or f"sqlite:///{tmp_path}/t.db", config)
    if url is not None and fresh:
        migrated_to(url)
    return app


def dispose(app: Flask) -> None:
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


def app_on(url: str, config: dict[str, Any]) -> Flask:
    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "TESTING": True,
            "SECRET_KEY": "test",
            # The suites create many matches from one address: the rate limits are off
            # here, and on in the tests of the limits (test_limits.py).
            "RATELIMIT_ENABLED": False,
            # A test client posts a form the moment it has the page: the tap guard's
            # waits are off here, and on in its own tests (test_taps.py).
            "TAP_SETTLE_MS": 0,
            "TAP_REFRESH_MS": 0,
            # The deploy before's static files are kept by their own tests, in a folder
            # of their own (test_static_versions.py): not in the checkout's instance/.
            "STATIC_KEPT": False,
            **config,
        }
    )


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app with CSRF protection on, as it runs, on an empty database of its own.
    Each app has a game cache of its own (app.extensions["store"].games)."""
    app = make_app(tmp_path)
    yield app
    with app.app_context():
        for engine in db.engines.values():  # PostgreSQL: no connection left to block
            engine.dispose()  # the next reset


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Any]:
    """make_app with settings of the test's own (`app_with(MAX_MATCH_LINES=3)`); the
    apps are closed afterwards."""
    made: list[Flask] = []

    def build(**config: Any) -> Flask:
        folder = tmp_path / f"app{len(made)}"
        folder.mkdir()
        made.append(make_app(folder, **config))
        return made[-1]

    yield build
    for app in made:
        with app.app_context():
            for engine in db.engines.values():
                engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def tabletop(app: Flask, client: FlaskClient) -> Tabletop:
    return Tabletop(app, client)


@pytest.fixture
def started(tabletop: Tabletop) -> str:
    """A three-player match (Ann, Bob, Cy; Cy deals) with R5 turned up: Ann to play."""
    match_id = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(match_id, "start: R5")
    return match_id
