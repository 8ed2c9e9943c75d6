"""No Mercy Companion: the Flask app at the table. `create_app` builds it."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Flask

from companion.database import init_database, upgrade_database
from companion.extensions import init_extensions
from companion.paths import ROOT, STATIC, TEMPLATES
from companion.routing import RuleBuiltOnFirstUse
from companion.settings import (
    configure,
    database_url,
    init_proxy,
    public_url,
    secret_key,
    sqlalchemy_url,
)

# What the app imports at first use, not at its start (a phone's start is its imports:
# companion/standalone.py): the rules page's Markdown, the share page's QR codes, Unicode's
# look-alikes (a seating's first check), the lab's simulator and charts (a run's page).
ON_FIRST_USE = (
    "markdown",
    "segno",
    "confusable_homoglyphs.confusables",
    "engine.tools.lab",
    "engine.tools.simulator",
    "companion.lab_charts",
)


def load_what_loads_on_first_use() -> None:
    """Import ON_FIRST_USE now: a server that forks its workers does it before (wsgi.py),
    so each worker shares them, frozen with the rest (gunicorn.conf.py's when_ready)."""
    for module in ON_FIRST_USE:
        importlib.import_module(module)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    # Imported here, not with the package: the lab's worker (python -m
    # companion.lab_worker) imports the package too, and must beat its first heartbeat.
    from companion.commands import init_commands
    from companion.languages import init_languages
    from companion.limits import init_limits
    from companion.quiet_polls import init_quiet_polls
    from companion.services import init_services
    from companion.sessions import init_sessions
    from companion.static_files import init_static_files
    from companion.views import init_templates, register

    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str((config or {}).get("STATIC_FOLDER", STATIC)),  # a test's copy
    )
    app.url_rule_class = RuleBuiltOnFirstUse  # before the views add theirs (routing.py)
    instance = configure(app, config)  # companion/settings.py
    init_database(app)  # engines, pragmas (companion/database.py)
    init_sessions(app)  # the session cookie, verified once per cookie
    init_extensions(app)  # CSRF, htmx, compression
    init_services(app)  # the store, the groups, the lab, the caches
    init_templates(app)  # what every template may use
    init_static_files(app, instance)  # addresses with their content's digest
    register(app)  # blueprints, error pages (companion/views)
    init_languages(app)  # the table's language, for the app and the engine
    init_limits(app)  # requests per client address
    init_quiet_polls(app)  # an unchanged poll answered in front of the app
    init_proxy(app)  # behind a proxy: its X-Forwarded-*, outermost
    init_commands(app)  # flask matches check
    if app.config["AUTO_MIGRATE"]:
        upgrade_database(app, instance)
    return app


__all__ = [
    "ROOT",
    "create_app",
    "database_url",
    "public_url",
    "secret_key",
    "sqlalchemy_url",
    "upgrade_database",
]
