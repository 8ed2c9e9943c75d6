"""The database: its engines (SQLite's pragmas and file modes), and the migrations
applied at start."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event

from companion.extensions import db
from companion.paths import MIGRATIONS


def init_database(app: Flask) -> None:
    """Bind the engines (settled by companion/settings.py) and the migrations."""
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", sqlite_pragmas(app.config.get("SQLITE_LOG_PAGES")))
            event.listen(db.engine, "connect", _owner_only)
    # `flask db` (Flask-Migrate): not even imported where there is no command line and
    # nothing to migrate (the app in the phone: it and alembic cost a start about half a
    # second there).
    if app.config.get("DB_COMMANDS", True):
        _migrations(app)


def _migrations(app: Flask) -> None:
    """Flask-Migrate bound to the app (once): `flask db`, and migrations/env.py's engine."""
    if "migrate" not in app.extensions:
        from flask_migrate import Migrate

        Migrate(app, db, directory=str(MIGRATIONS))


def sqlite_pragmas(log_pages: int | None = None) -> Callable[[Any, Any], None]:
    """Write-ahead logging: readers never wait for a writer, and a commit costs one
    write instead of several syncs; still safe when a process is killed mid-write.

    With `log_pages` (SQLITE_LOG_PAGES), the log is copied into the database once it
    holds that many pages, and then cut back to nothing. The app in the phone
    (companion/standalone.py) sets it: its browser storage keeps whole files, so each
    tap writes the whole log there, which grows to 4 MB by SQLite's default."""

    def pragmas(connection: Any, record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        if log_pages is not None:
            cursor.execute(f"PRAGMA wal_autocheckpoint={int(log_pages)}")
            cursor.execute("PRAGMA journal_size_limit=0")
        cursor.close()

    return pragmas


def _owner_only(connection: Any, record: Any) -> None:
    """The SQLite database and its -wal and -shm files readable by their owner only:
    they hold every share link's token. SQLite creates the -wal and -shm files with
    the database file's mode, so the first connection's chmod covers later ones."""
    cursor = connection.cursor()
    rows = cursor.execute("PRAGMA database_list").fetchall()
    cursor.close()
    for row in rows:
        if not row[2]:  # an in-memory or temporary database
            continue
        for path in (Path(row[2] + suffix) for suffix in ("", "-wal", "-shm")):
            try:
                if path.stat().st_mode & 0o077 and path.stat().st_uid == os.getuid():
                    path.chmod(0o600)
            except OSError:  # not there (yet), or not ours
                pass


def upgrade_database(app: Flask, instance: Path) -> None:
    """Apply the migrations: creates the database on first start, upgrades it later.

    Processes starting together (two servers, several workers) take turns: without
    the lock both would run the same migration and one would crash on it.
    """
    from alembic import command
    from alembic.config import Config

    _migrations(app)
    with _exclusive(instance / "migrate.lock"), app.app_context():
        config = Config(str(MIGRATIONS / "alembic.ini"))  # as `flask db upgrade` makes it
        config.set_main_option("script_location", str(MIGRATIONS))
        # The server's logging stays as it is (migrations/env.py configures logging
        # from alembic.ini only for `flask db` on the command line).
        config.attributes["configure_logger"] = False
        command.upgrade(config, "head")
        # gunicorn --preload forks the workers after this: a pooled connection left
        # here would be shared by all of them (PostgreSQL then fails at random).
        for engine in db.engines.values():
            engine.dispose()


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """An inter-process lock on `path` (where the system has flock)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux or macOS
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
