"""Flask extensions, created unbound here and bound in `create_app`."""

from flask import Flask
from flask_htmx import HTMX
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect

from companion.settings import switched_on

db = SQLAlchemy()  # the tables (models.py) and their engines; no ORM session in requests
csrf = CSRFProtect()
htmx = HTMX()


def init_extensions(app: Flask) -> None:
    """Bind CSRF, htmx and compression (the database's: companion/database.py)."""
    csrf.init_app(app)
    htmx.init_app(app)
    # gzip over the wire: a phone on a weak connection at the table. Off
    # (COMPRESS_RESPONSES=false) where nothing crosses a network, and then Flask-Compress
    # is not even imported: it needs brotli, which has no pure-Python wheel.
    if switched_on(app.config.get("COMPRESS_RESPONSES", True)):
        from flask_compress import Compress

        app.config.setdefault("COMPRESS_ALGORITHM", "gzip")
        app.config.setdefault("COMPRESS_MIN_SIZE", 1000)
        Compress(app)
