"""An unchanged table's poll, answered in front of the framework.

Every open table polls every 1.5 s (four requests in five under load), and nearly every
poll finds nothing new: a 204. Saying so takes the phone's roles from its session cookie
and one read of the match row (the store's `poll`, the same use case the view calls);
a whole Flask request (its contexts, the session, the language, the hooks) costs
several times that. `QuietPolls` sits in front of the app's WSGI callable and answers
those polls itself, with the headers the app gives a 204. Anything else goes to the app
as before, which answers it as always: a table that moved on (shown as the quiet path
found it: one read of the match, not two), a phone that may not see it or has no cookie
the app signed, a URL or a host the app would refuse, an outage.
QUIET_POLLS=false sends every poll through the framework (docs/PERFORMANCE.md compares).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote

from flask import Flask
from itsdangerous import BadData
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_cookie
from werkzeug.wsgi import get_host

from companion.access import phone_from
from companion.inputs import CONTROL
from companion.outcomes import Unchanged
from companion.sessions import KeptSessions
from companion.settings import switched_on
from companion.views.headers import response_headers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from companion.store import Store

# The poll's URL, as the table's fragment names it (templates/partials/table_body.html).
LIVE = re.compile(r"/m/([A-Za-z0-9_-]{1,64})/live")
# A host name (labels of at most 63 characters, 253 in all) or an IPv4 address, and a
# port: anything else goes to the app's guard (companion/inputs.py).
PLAIN_HOST = re.compile(
    r"(?=[^:]{1,253}(:|$))[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*\.?(:\d{1,5})?"
)
# Where a database error met by the quiet path waits for the app to answer it.
POLL_FAILED = "companion.poll_failed"
# Where a table that moved on, as the quiet path found it, waits for the app to show it
# (without reading the match again).
POLLED = "companion.polled"
HX_VARY = "HX-Request, Accept-Encoding, Cookie"


class QuietPolls:
    def __init__(self, app: Flask, wrapped: WSGIApplication) -> None:
        self.app = app
        self.wrapped = wrapped
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        # The app's own: a cookie verified here is verified for the app too.
        sessions = app.session_interface
        if not isinstance(sessions, KeptSessions):
            raise TypeError("the quiet path reads the session as companion/sessions.py does")
        self.sessions = sessions
        self.trusted = app.config.get("TRUSTED_HOSTS")
        self.store: Store = app.extensions["store"]
        # What the app's own answer to an unchanged poll carries (views/__init__.py).
        self.headers = [("Vary", HX_VARY), *response_headers(app.config).items()]

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            found = LIVE.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None and self.unchanged(environ, found.group(1)):
                start_response("204 NO CONTENT", list(self.headers))
                return []
        return self.wrapped(environ, start_response)

    def unchanged(self, environ: WSGIEnvironment, match_id: str) -> bool:
        """Whether the table is the one the poll names, for a phone that may see it;
        False at the least doubt (the app then answers, whatever it is)."""
        query = environ.get("QUERY_STRING", "")
        if (
            CONTROL.search(unquote(query))
            or not environ.get("HTTP_HX_REQUEST")
            or environ.get("CONTENT_TYPE")  # a body: the app's guard reads it
            or environ.get("CONTENT_LENGTH", "0") not in ("", "0")
        ):
            return False
        try:
            if not PLAIN_HOST.fullmatch(get_host(environ, self.trusted)):
                return False  # the app's guard judges (and words) anything else
            asked = parse_qs(query, keep_blank_values=True)  # as the app reads a query
            version, last = int(asked["v"][0]), int(asked["last"][0])
            phone = phone_from(self.session(environ))
            # The store holds the app's engines: no app context to make and tear down.
            polled = self.store.poll(match_id, phone, version, last)
            if isinstance(polled, Unchanged):
                return True
            environ[POLLED] = polled
            return False
        except SQLAlchemyError as error:
            # An outage: the app answers it (a 503) without asking the database again.
            environ[POLL_FAILED] = error
            return False
        except (KeyError, ValueError, BadData, HTTPException):
            return False
        except Exception:  # anything else: the app answers, as it would without this path
            return False

    def session(self, environ: WSGIEnvironment) -> dict[str, Any]:
        """The session the phone's cookie holds, as the app signed it (BadData if not)."""
        value = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.cookie)
        if not value:
            return {}
        return self.sessions.read(self.app, value)


def init_quiet_polls(app: Flask) -> None:
    """Unchanged polls answered in front of the app (QUIET_POLLS, on by default)."""
    if switched_on(app.config.get("QUIET_POLLS", True)):
        app.wsgi_app = QuietPolls(app, app.wsgi_app)  # type: ignore[method-assign]
