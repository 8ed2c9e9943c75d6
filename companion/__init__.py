"""No Mercy Companion: the Flask app at the table. `create_app` builds it."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from companion.extensions import csrf, db, htmx, migrate

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
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(instance),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a record upload is a few kB
        WTF_CSRF_TIME_LIMIT=None,  # a phone may sit on a table page for hours
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),  # roles on a phone outlast a match
        SESSION_COOKIE_SAMESITE="Lax",
        AUTO_MIGRATE=os.environ.get("COMPANION_AUTO_MIGRATE", "1") != "0",
    )
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secret_key(instance)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    htmx.init_app(app)

    from companion.table_view import symbol
    from companion.views import register
    from engine import Color

    app.jinja_env.globals.update(
        symbol=symbol,
        colors=list(Color),
        form_key=lambda: secrets.token_urlsafe(12),  # one per rendered form: no double posts
    )
    register(app)

    if app.config["AUTO_MIGRATE"]:
        upgrade_database(app)
    return app


def database_url(instance: Path) -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{instance / 'companion.sqlite3'}"
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def secret_key(instance: Path) -> str:
    """Generated on first start and kept in the instance folder, never in the code."""
    path = instance / "secret_key"
    if not path.exists():
        try:
            fd = os.open(path.with_suffix(".new"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
            os.link(path.with_suffix(".new"), path)  # atomic: the first process wins
        except FileExistsError:
            pass
    return path.read_text().strip()


def upgrade_database(app: Flask) -> None:
    """Apply the migrations: creates the database on first start, upgrades it later."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
