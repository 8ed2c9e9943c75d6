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
    """The PostgreSQL URL to test on, or None for SQLite."""
    if os.environ.get("COMPANION_TEST_POSTGRES") != "1":
        return None
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        raise RuntimeError("COMPANION_TEST_POSTGRES=1 needs TEST_DATABASE_URL")
    return sqlalchemy_url(url)


def reset_postgres(url: str) -> None:
    """An empty database: every table, and Alembic's version, gone."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
