"""Error pages that can't fail themselves, and which database errors are an outage.

An error page is the app's page when it can be made; when it can't (the request named a
host Werkzeug refused, so no URL can be built; a template or the session failing) it is
a page of plain HTML: the server never falls back on its own bare 500.
"""

from __future__ import annotations

import logging
import sys

from flask import render_template, request
from flask_babel import gettext
from markupsafe import escape
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import BadHost, SecurityError

from companion.extensions import db
from engine import N_, current_language

log = logging.getLogger(__name__)

PLAIN_PAGE = (
    '<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>{title} · No Mercy Companion</title></head>"
    "<body><main><h1>{title}</h1><p>{message}</p></main></body></html>\n"
)


# The framework's own errors (Werkzeug names them in English), each in the phone's
# language: what happened, and what to do (the app's own errors have their own pages).
HTTP_ERRORS: dict[int, tuple[str, str]] = {
    400: (
        N_("This request could not be read"),
        N_(
            "What this phone sent could not be read, so nothing was recorded. Reload the "
            "page and try again."
        ),
    ),
    405: (
        N_("This page can't be opened that way"),
        N_(
            "A link was sent as a form, or a form opened as a link. Nothing was recorded: "
            "go back, reload the page and try again."
        ),
    ),
    413: (
        N_("Too large to send"),
        N_("What this phone sent is larger than this server takes, so nothing was recorded."),
    ),
    414: (
        N_("Too long an address"),
        N_(
            "This address, or what the browser sent with it, is longer than this server "
            "reads. Start from the list of matches."
        ),
    ),
}
HTTP_ERRORS[431] = HTTP_ERRORS[414]
ANY_HTTP_ERROR = (
    N_("This request can't be answered"),
    N_(
        "The server can't answer this request (HTTP %(code)s). Nothing was recorded: go "
        "back, reload the page and try again."
    ),
)


def http_error_page(code: int) -> str:
    """The page of one of the framework's errors, in the request's language."""
    title, message = HTTP_ERRORS.get(code, ANY_HTTP_ERROR)
    return error_page(translated(title), translated(message, code=code))


def error_page(title: str, message: str) -> str:
    """The app's error page with `title` and `message`, or the same words in plain HTML."""
    if not isinstance(request.routing_exception, BadHost | SecurityError):
        try:
            return render_template("error.html", title=title, message=message)
        except Exception:  # the page of an error must not be a second one
            log.exception("The error page could not be rendered; answering a plain one")
    return PLAIN_PAGE.format(
        lang=current_language().replace("_", "-"), title=escape(title), message=escape(message)
    )


def translated(sentence: str, /, **fields: object) -> str:
    """`sentence` in the request's language, else in English: an error page's words
    can't fail (the session that holds the phone's language may be what failed)."""
    try:
        return str(gettext(sentence, **fields))
    except Exception:
        log.exception("An error page's sentence could not be translated")
        return sentence % fields if fields else sentence


def is_outage(error: BaseException) -> bool:
    """The database can't be reached (refused, lost, timed out, shutting down), as
    opposed to a statement it refused (a DataError, a ProgrammingError): only an outage
    is answered "the server's database is unreachable"."""
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout):
        return True
    # psycopg's own, if the app has loaded it (only a PostgreSQL engine does: where it
    # is not installed, as in a browser's Python, no error can be one of its).
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return False
    original = getattr(error, "orig", error)
    return isinstance(original, psycopg.OperationalError | psycopg.InterfaceError)


def release_session() -> None:
    """Give the request's session back, even when its connection died: closing it rolls
    back on that connection, which then raises too. The session is usable afterwards
    (a connection that failed is invalidated, not pooled again)."""
    try:
        db.session.remove()
    except Exception:
        # The close failed part way, having invalidated the dead connection; a second
        # close finishes it.
        log.warning("The database connection was lost before the request ended")
        try:
            db.session.remove()
        except Exception:
            log.exception("The database session could not be closed")
