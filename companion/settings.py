"""The app's settings: defaults, the environment (COMPANION_*), the caller's, each
checked when the app starts (a bad one stops it with a sentence), not at first use."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.inputs import trusted_hosts
from companion.paths import ROOT

# gunicorn's threads per worker when GUNICORN_THREADS is unset (docs/OPERATIONS.md, "Slow
# clients"), and so the connections each database engine of a worker keeps.
DEFAULT_THREADS = 32
# Behind a proxy that reads every request whole before a worker sees it and takes every
# answer whole from it (deploy/Caddyfile, deploy/nginx.conf), no slow client holds a
# thread, and few threads a worker run the requests nearly one after another: under
# load, more threads only wait for each other's turn at the GIL (at 130 tables on 2
# cores, 32 made recording a play's p99 10-20x that of one or two, and cost more CPU:
# docs/PERFORMANCE.md, "Server shapes"). Two, not one: Caddy may open a connection it
# then has no request for (Go keeps a dial it no longer needs), and gunicorn 27 waits
# for a new connection's first bytes with a thread, up to 5 s; with one thread, the
# worker's requests waited with it (two such connections on one worker at once still
# would: rarer). make serve-https runs this many.
PROXIED_THREADS = 2
# Where `make standalone` writes the app in the phone, which the server hands out.
STANDALONE_BUILD = str(ROOT / "build" / "standalone")
POOL_TIMEOUT_SECONDS = 5


def configure(app: Flask, config: dict[str, Any] | None) -> Path:
    """Settle `app.config`; the instance folder (created if missing)."""
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
        # The pages register the app's service worker (companion/views/pwa.py); not the
        # app in the phone, whose page has a worker of its own (companion/standalone.py).
        SERVICE_WORKER=True,
        # The app in the phone this server hands out (`make standalone`; none: "").
        STANDALONE_BUILD=STANDALONE_BUILD,
        # Each phone's table asks every 1.5 s whether another phone changed it; not in
        # the app in the phone, where no other phone can (companion/standalone.py).
        LIVE_REFRESH=True,
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
    app.config["TRUSTED_HOSTS"] = trusted_hosts(
        app.config.get("TRUSTED_HOSTS"), app.config["PUBLIC_URL"]
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secret_key(instance)
    _engines(app.config)
    return instance


def _engines(config: dict[str, Any]) -> None:
    """The database engines' options, and on PostgreSQL the "direct" bind."""
    if "SQLALCHEMY_ENGINE_OPTIONS" not in config:
        # No ping before each use (a round trip on every request): when a database
        # server restarts, the first request on a dead connection answers 503 and
        # SQLAlchemy drops the whole pool, so the next one reconnects.
        uri = config["SQLALCHEMY_DATABASE_URI"]
        options: dict[str, Any] = {}
        if not uri.startswith("sqlite"):
            options["pool_recycle"] = 3600
            # A connection per thread of the worker (each engine), opened when first
            # needed and kept: SQLAlchemy's default (5, and 10 more opened and closed on
            # demand) churned through 1,400 sessions in one 200-table load.
            options["pool_size"] = pool_size(config.get("DB_POOL_SIZE"))
            options["max_overflow"] = 0
            # Only a pool smaller than the threads makes a request wait for a connection:
            # a 503 after a few seconds, before the phone's poll gives up (8 s).
            options["pool_timeout"] = POOL_TIMEOUT_SECONDS
            if "connect_timeout" not in uri:
                # A database host that doesn't answer at all: a 503 after 5 s, rather
                # than a worker stuck in connect() until gunicorn kills it.
                options["connect_args"] = {"connect_timeout": 5}
        config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    if not config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # The hot paths' engine (Store.direct): connections that autocommit for
        # good, so a read or a one-statement write is one round trip, with nothing to
        # switch on taking a connection or to reset on giving it back.
        config.setdefault("SQLALCHEMY_BINDS", {}).setdefault(
            "direct",
            {
                "url": config["SQLALCHEMY_DATABASE_URI"],
                **config["SQLALCHEMY_ENGINE_OPTIONS"],
                "isolation_level": "AUTOCOMMIT",
                "pool_reset_on_return": None,
            },
        )


def worker_threads() -> int:
    """The threads a gunicorn worker runs (GUNICORN_THREADS): gunicorn.conf.py's setting,
    and the size of the database pools."""
    value = os.environ.get("GUNICORN_THREADS", str(DEFAULT_THREADS))
    threads = int(value) if value.strip().isdecimal() else 0
    if threads < 1:
        raise ValueError(
            f"GUNICORN_THREADS must be the number of threads a worker runs, at least 1. "
            f"It is {value!r}."
        )
    return threads


# A match's lines at most (MAX_MATCH_LINES): 17 times the longest of 300 whole matches
# simulated at 2-6 players under the official rules (584 lines); importing 10,000 lines
# takes about 0.4 s and 24 MB (docs/OPERATIONS.md).
MAX_MATCH_LINES = 10_000


def max_match_lines(value: object) -> int:
    """COMPANION_MAX_MATCH_LINES, checked when the app starts."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(
            "COMPANION_MAX_MATCH_LINES must be the most lines a match may hold, a whole "
            f"number of at least 1 (the default is {MAX_MATCH_LINES:,}). It is {value!r}."
        )
    return value


def pool_size(value: object) -> int:
    """The connections each database engine of a process keeps (COMPANION_DB_POOL_SIZE,
    read as JSON like every COMPANION_ setting); unset: one per thread of a worker."""
    if value is None:
        return worker_threads()
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            "COMPANION_DB_POOL_SIZE must be the number of database connections each "
            f"engine of a worker keeps, at least 1 (unset: GUNICORN_THREADS). It is {value!r}."
        )
    return value


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
            if hasattr(os, "link"):
                os.link(new, path)  # atomic: the first process wins
            else:  # a browser's Python (the standalone app): one process, no links
                os.replace(new, path)
        except FileExistsError:
            pass
        finally:
            new.unlink(missing_ok=True)
    return path.read_text().strip()


def init_proxy(app: Flask) -> None:
    """Behind a TLS-terminating proxy (BEHIND_PROXY): trust its X-Forwarded-* (scheme,
    host, client), for everything the app answers (the outermost WSGI layer)."""
    if app.config.get("BEHIND_PROXY"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]


def switched_on(value: object) -> bool:
    """A switch from the config or the environment (COMPANION_ settings are read as JSON:
    `false` is False, but `False`, `no` or `off` arrive as words)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("false", "0", "no", "off", "")
    return bool(value)
