"""Which database the app and browser tests run on.

`make test` runs them on SQLite, then again on PostgreSQL when TEST_DATABASE_URL
is set (`.ci/run` starts a throwaway server for it): COMPANION_TEST_POSTGRES=1
selects it.
"""

from __future__ import annotations

import os

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
