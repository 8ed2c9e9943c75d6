"""Which database the app and browser tests run on.

`make test` runs them on SQLite, then again on PostgreSQL when TEST_DATABASE_URL
is set (`.ci/run` starts a throwaway server for it): COMPANION_TEST_POSTGRES=1
selects it.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import sqlalchemy as sa

from companion import sqlalchemy_url


def postgres_url() -> str | None:
    """The PostgreSQL URL to test on, or None for SQLite. Tests run in parallel
    (pytest-xdist) each get a database of their worker's own, made on first use: the
    tests empty theirs between tests."""
    if os.environ.get("COMPANION_TEST_POSTGRES") != "1":
        return None
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        raise RuntimeError("COMPANION_TEST_POSTGRES=1 needs TEST_DATABASE_URL")
    url = sqlalchemy_url(url)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return url
    return _database_of_its_own(url, worker)


_made: dict[str, str] = {}


def _database_of_its_own(url: str, worker: str) -> str:
    if worker not in _made:
        base = sa.make_url(url)
        name = f"{base.database}_{worker}"
        engine = sa.create_engine(base, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                found = conn.execute(
                    sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
                ).scalar()
                if not found:
                    conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        finally:
            engine.dispose()
        _made[worker] = base.set(database=name).render_as_string(hide_password=False)
    return _made[worker]


def reset_postgres(url: str) -> None:
    """An empty database: every table, and Alembic's version, gone."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


# The schema version this process last migrated a PostgreSQL database to (per URL): an
# app made again on a database at that version needs its rows gone, not its tables.
_migrated: dict[str, str] = {}


def empty_postgres(url: str) -> bool:
    """No rows left in any table: truncated when the database is at the version this
    process migrated it to (a test's own downgrade leaves it elsewhere), else dropped
    for the app to migrate afresh (then True: say `migrated_to` once it has)."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            tables = (
                conn.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
                .scalars()
                .all()
            )
            version = None
            if "alembic_version" in tables:
                version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
            if version is None or _migrated.get(url) != version:
                conn.execute(sa.text("DROP SCHEMA public CASCADE"))
                conn.execute(sa.text("CREATE SCHEMA public"))
                return True
            rows = [f'"{name}"' for name in tables if name != "alembic_version"]
            if rows:
                conn.execute(sa.text(f"TRUNCATE {', '.join(rows)} RESTART IDENTITY CASCADE"))
            return False
    finally:
        engine.dispose()


def migrated_to(url: str) -> None:
    """Note the version an app has just migrated the database at `url` to."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        engine.dispose()
    if version is not None:
        _migrated[url] = str(version)


_template: dict[str, Path] = {}


def migrated_sqlite(path: Path, make: Callable[[str], object]) -> None:
    """A SQLite database at `path` with the schema already migrated: a copy of one this
    process migrated once (`make(url)` builds an app on a database, migrating it)."""
    if path.exists():  # a second app on the same database: its rows are kept
        return
    if "sqlite" not in _template:
        folder = Path(tempfile.mkdtemp(prefix="companion-schema-"))
        make(f"sqlite:///{folder / 'schema.db'}")
        _template["sqlite"] = folder / "schema.db"
    with (
        closing(sqlite3.connect(_template["sqlite"])) as source,
        closing(sqlite3.connect(path)) as copy,
    ):
        source.backup(copy)
