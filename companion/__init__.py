"""No Mercy Companion: the Flask app at the table. `create_app` builds it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from sqlalchemy import event

from companion.extensions import compress, csrf, db, htmx, migrate

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(os.environ.get("COMPANION_INSTANCE", app.instance_path))
    # The instance folder holds the secret key and the SQLite database (every link's
    # token): created readable by its owner only (an existing one is left as it is).
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(instance),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a record upload is a few kB
        WTF_CSRF_TIME_LIMIT=None,  # a phone may sit on a table page for hours
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),  # roles on a phone outlast a match
        # Not a new cookie on every poll (a signature and a bigger answer each time): the
        # 60 days are renewed when a whole page is shown (access.renew).
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_SAMESITE="Lax",
        AUTO_MIGRATE=os.environ.get("COMPANION_AUTO_MIGRATE", "1") != "0",
    )
    # Settings from the environment: COMPANION_SESSION_COOKIE_SECURE=true, ...
    app.config.from_prefixed_env("COMPANION")
    if config:
        app.config.update(config)
    # Where share links and QR codes point (COMPANION_PUBLIC_URL): checked now, not
    # when the first link is shared.
    app.config["PUBLIC_URL"] = public_url(app.config.get("PUBLIC_URL"))
    # The hosts the app answers for (COMPANION_TRUSTED_HOSTS, and PUBLIC_URL's); another
    # Host header gets a 400 (companion/inputs.py). Unset: any host.
    from companion.inputs import trusted_hosts

    app.config["TRUSTED_HOSTS"] = trusted_hosts(
        app.config.get("TRUSTED_HOSTS"), app.config["PUBLIC_URL"]
    )
    if app.config.get("BEHIND_PROXY"):
        # Behind a TLS-terminating proxy: trust its X-Forwarded-* (scheme, host, client).
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secret_key(instance)

    if "SQLALCHEMY_ENGINE_OPTIONS" not in app.config:
        # No ping before each use (a round trip on every request): when a database
        # server restarts, the first request on a dead connection answers 503 and
        # SQLAlchemy drops the whole pool, so the next one reconnects.
        uri = app.config["SQLALCHEMY_DATABASE_URI"]
        options: dict[str, Any] = {}
        if not uri.startswith("sqlite"):
            options["pool_recycle"] = 3600
            if "connect_timeout" not in uri:
                # A database host that doesn't answer at all: a 503 after 5 s, rather
                # than a worker stuck in connect() until gunicorn kills it.
                options["connect_args"] = {"connect_timeout": 5}
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # The hot paths' engine (Store.direct): connections that autocommit for
        # good, so a read or a one-statement write is one round trip, with nothing to
        # switch on taking a connection or to reset on giving it back.
        app.config.setdefault("SQLALCHEMY_BINDS", {}).setdefault(
            "direct",
            {
                "url": app.config["SQLALCHEMY_DATABASE_URI"],
                **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
                "isolation_level": "AUTOCOMMIT",
                "pool_reset_on_return": None,
            },
        )
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
            event.listen(db.engine, "connect", _owner_only)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    htmx.init_app(app)
    app.config.setdefault("COMPRESS_ALGORITHM", "gzip")
    app.config.setdefault("COMPRESS_MIN_SIZE", 1000)
    compress.init_app(app)

    from companion.games import MAX_LINES, GameCache
    from companion.store import MAX_MATCH_LINES, Store, max_match_lines
    from companion.table_view import face
    from companion.taps import REFRESH_MS, SETTLE_MS, TapGuard, milliseconds
    from companion.views import register
    from engine import DECK_SIZE, KEY_ACTIONS, Color

    # The games this process rebuilt from the matches' logs (one cache per app).
    app.extensions["store"] = Store(
        db,
        GameCache(app.config.get("GAME_CACHE_LINES", MAX_LINES)),
        # A tap on a screen nobody could have read yet is not taken (companion/taps.py).
        TapGuard(
            app.config["SECRET_KEY"],
            settle_ms=milliseconds("TAP_SETTLE_MS", app.config.get("TAP_SETTLE_MS", SETTLE_MS)),
            refresh_ms=milliseconds("TAP_REFRESH_MS", app.config.get("TAP_REFRESH_MS", REFRESH_MS)),
        ),
        max_lines=max_match_lines(app.config.get("MAX_MATCH_LINES", MAX_MATCH_LINES)),
    )
    # Groups: their rosters and matches, through the same store (companion/groups.py).
    from companion.groups import Groups
    from companion.match_stats import MatchStatsCache

    # Each match's statistics, kept beside its game (companion/match_stats.py).
    app.extensions["match_stats"] = MatchStatsCache(app.extensions["store"])
    # Each group's matches and statistics added up, kept per process and checked against
    # the database on each request (companion/group_history.py).
    from companion.group_history import GroupHistories

    app.extensions["group_histories"] = GroupHistories()
    app.extensions["groups"] = Groups(
        app.extensions["store"], app.extensions["match_stats"], app.extensions["group_histories"]
    )
    # The house-rule lab: runs in worker processes of their own (companion/lab.py).
    from companion.lab import DEFAULTS as LAB_DEFAULTS
    from companion.lab import Lab

    for key, value in LAB_DEFAULTS.items():
        app.config.setdefault(key, value)
    app.extensions["lab"] = Lab(db, app.config)

    app.jinja_env.globals.update(
        face=face,
        colors=list(Color),
        actions=KEY_ACTIONS,  # each key's action (engine.fields): no record syntax here
        deck_size=DECK_SIZE,
        form_key=lambda: secrets.token_urlsafe(12),  # one per rendered form: no double posts
    )
    register(app)
    # The table's language, for the app and the engine (companion/languages.py).
    from companion.languages import init_languages

    init_languages(app)
    # Limits on work: requests per client address (companion/limits.py).
    from companion.limits import init_limits

    init_limits(app)

    if app.config["AUTO_MIGRATE"]:
        upgrade_database(app, instance)
    return app


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    """Write-ahead logging: readers never wait for a writer, and a commit costs one
    write instead of several syncs; still safe when a process is killed mid-write."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


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


def public_url(value: object) -> str | None:
    """The app's address as other phones open it (its root, without the final "/"),
    or None to build links from each request's own address."""
    if value is None or value == "":
        return None
    parts = urlsplit(value) if isinstance(value, str) else None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ValueError(
            "COMPANION_PUBLIC_URL must be the address other phones open the app at: an "
            "absolute http:// or https:// URL such as https://nomercy.example.org (a path "
            f"after it is fine), without ?query or #fragment. It is {value!r}."
        )
    return str(value).rstrip("/")


def database_url(instance: Path) -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{instance / 'companion.sqlite3'}"
    return sqlalchemy_url(url)


def sqlalchemy_url(url: str) -> str:
    """postgres:// and postgresql:// URLs go through psycopg 3."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def secret_key(instance: Path) -> str:
    """Generated on first start and kept in the instance folder, never in the code."""
    path = instance / "secret_key"
    if not path.exists():
        # A temporary file of this process's own: processes starting together must not
        # write into one shared file (one could link it while another truncates it).
        new = path.with_name(f"secret_key.{os.getpid()}.{secrets.token_hex(4)}.new")
        fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
            os.link(new, path)  # atomic: the first process wins
        except FileExistsError:
            pass
        finally:
            new.unlink()
    return path.read_text().strip()


def upgrade_database(app: Flask, instance: Path) -> None:
    """Apply the migrations: creates the database on first start, upgrades it later.

    Processes starting together (two servers, several workers) take turns: without
    the lock both would run the same migration and one would crash on it.
    """
    from alembic import command
    from alembic.config import Config

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
