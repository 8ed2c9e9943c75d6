"""Flask extensions, created unbound here and bound in `create_app`."""

from flask import Flask
from flask_compress import Compress
from flask_htmx import HTMX
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect

db = SQLAlchemy()  # the tables (models.py) and their engines; no ORM session in requests
migrate = Migrate()
csrf = CSRFProtect()
htmx = HTMX()
compress = Compress()  # gzip over the wire: a phone on a weak connection at the table


def init_extensions(app: Flask) -> None:
    """Bind CSRF, htmx and compression (the database's: companion/database.py)."""
    csrf.init_app(app)
    htmx.init_app(app)
    app.config.setdefault("COMPRESS_ALGORITHM", "gzip")
    app.config.setdefault("COMPRESS_MIN_SIZE", 1000)
    compress.init_app(app)
