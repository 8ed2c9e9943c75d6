"""Flask extensions, created unbound here and bound in `create_app`."""

from flask_compress import Compress
from flask_htmx import HTMX
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


# Objects stay readable after a commit: no reload query for what was just written.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
htmx = HTMX()
compress = Compress()  # gzip over the wire: a phone on a weak connection at the table
