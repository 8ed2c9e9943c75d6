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

A watching phone's poll that finds the table moved on gets the fragment every watcher of
that table version gets (companion/views/respond.py keeps it): the first such poll goes
to the app, and its whole answer (status, headers, the body as sent, gzipped or not) is
kept for the other watchers who ask the same way (the language the app would speak to
them, the same Accept-Encoding, who recorded the last line as they see it); they get it
without the framework. Never an answer that sets a cookie, and never for an editor (its
screen holds its own forms), a poll with something open, a phone with a message waiting,
or a request htmx would not make (a conditional one, a header longer than a browser's).
QUIET_POLLS=false sends every poll through the framework (docs/PERFORMANCE.md compares).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import parse_qs, unquote

from flask import Flask
from itsdangerous import BadData
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_cookie
from werkzeug.wsgi import get_host

from companion.access import phone_from
from companion.bounded import Bounded
from companion.inputs import CONTROL
from companion.languages import BrowserLanguages
from companion.outcomes import Changed, Unchanged
from companion.sessions import KeptSessions
from companion.settings import switched_on
from companion.table_view import last_by
from companion.views.headers import response_headers

if TYPE_CHECKING:
    from types import TracebackType

    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from companion.access import Phone
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
# A watcher's answer is kept for the table (its version and last line), who recorded the
# last line as the phone sees it, the language the app chooses (companion/languages.py)
# and these of the request, everything else the app's answer could vary by.
KEPT_FOR = ("wsgi.url_scheme", "SCRIPT_NAME", "HTTP_HOST", "HTTP_ACCEPT_ENCODING")
# What the app answers otherwise or htmx never sends (a conditional or partial GET, a
# header longer than a browser's): such a poll goes to the app, its answer not kept.
NOT_KEPT_WITH = (
    "HTTP_RANGE",
    "HTTP_IF_RANGE",
    "HTTP_IF_MATCH",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
)
LONGEST_KEPT_HEADER = 200
# A watcher's answer: about 10 kB, 2 gzipped; one or two a live table.
MOST_ANSWERS = 1000
# The only query a watcher's poll has when nothing is open on its screen.
POLL_ARGS = {"v", "last"}
FLASHES = "_flashes"  # where Flask keeps a phone's waiting messages in its session


class Answer(NamedTuple):
    status: str
    headers: list[tuple[str, str]]
    body: bytes


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
        self.languages: BrowserLanguages = app.extensions["browser_languages"]
        # What the app's own answer to an unchanged poll carries (views/__init__.py).
        self.headers = [("Vary", HX_VARY), *response_headers(app.config).items()]
        # Watchers' answers to a poll that found the table moved on, kept per process.
        self.answers: Bounded[tuple[Any, ...], Answer] = Bounded(MOST_ANSWERS)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            found = LIVE.fullmatch(environ.get("PATH_INFO", ""))
            polled = None if found is None else self.poll(environ, found.group(1))
            if isinstance(polled, Unchanged):
                start_response("204 NO CONTENT", list(self.headers))
                return []
            if polled is not None:
                return self.watching(environ, start_response, polled)
        return self.wrapped(environ, start_response)

    def poll(self, environ: WSGIEnvironment, match_id: str) -> Unchanged | tuple[Any, ...] | None:
        """Unchanged when the table is the one the poll names, for a phone that may see
        it; when it moved on, what a watcher's answer is kept under (`watching_key`);
        None at the least doubt (the app then answers, whatever it is)."""
        query = environ.get("QUERY_STRING", "")
        if (
            CONTROL.search(unquote(query))
            or not environ.get("HTTP_HX_REQUEST")
            or environ.get("CONTENT_TYPE")  # a body: the app's guard reads it
            or environ.get("CONTENT_LENGTH", "0") not in ("", "0")
        ):
            return None
        try:
            if not PLAIN_HOST.fullmatch(get_host(environ, self.trusted)):
                return None  # the app's guard judges (and words) anything else
            asked = parse_qs(query, keep_blank_values=True)  # as the app reads a query
            version, last = int(asked["v"][0]), int(asked["last"][0])
            held = self.session(environ)
            phone = phone_from(held)
            # The store holds the app's engines: no app context to make and tear down.
            polled = self.store.poll(match_id, phone, version, last)
            if isinstance(polled, Unchanged):
                return polled
            environ[POLLED] = polled
            return self.watching_key(environ, asked, held, phone, polled)
        except SQLAlchemyError as error:
            # An outage: the app answers it (a 503) without asking the database again.
            environ[POLL_FAILED] = error
            return None
        except (KeyError, ValueError, BadData, HTTPException):
            return None
        except Exception:  # anything else: the app answers, as it would without this path
            return None

    def watching_key(
        self,
        environ: WSGIEnvironment,
        asked: dict[str, list[str]],
        held: Mapping[str, Any],
        phone: Phone,
        polled: Changed,
    ) -> tuple[Any, ...] | None:
        """What the app's answer to this poll is the same for, when the phone watches
        with nothing open and no message waiting (the app then shows it the fragment it
        shows every such watcher: views/respond.py); else None."""
        table = polled.table
        if (
            environ.get("HTTP_HX_REQUEST") != "true"  # as the app tells htmx (flask-htmx)
            or asked.keys() - POLL_ARGS
            or FLASHES in held
            or phone.role(table.match) != "viewer"
            or any(name in environ for name in NOT_KEPT_WITH)
        ):
            return None
        asking = tuple(str(environ.get(name, "")) for name in KEPT_FOR)
        if any(len(value) > LONGEST_KEPT_HEADER for value in asking):
            return None
        language = self.languages.language_of(
            held.get("language"), environ.get("HTTP_ACCEPT_LANGUAGE")
        )
        seen_by = last_by(table, phone.id)
        return (table.match.id, table.version, table.last_line_id, seen_by, language, *asking)

    def watching(
        self, environ: WSGIEnvironment, start_response: StartResponse, key: tuple[Any, ...]
    ) -> Iterable[bytes]:
        """The answer kept under `key`, or the app's, kept there when it is a fragment
        for anyone who asks the same (a 200 that sets no cookie)."""
        kept = self.answers.get(key)
        if kept is not None:
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        said: list[tuple[str, list[tuple[str, str]]]] = []

        def heard(
            status: str,
            headers: list[tuple[str, str]],
            exc_info: tuple[type[BaseException], BaseException, TracebackType]
            | tuple[None, None, None]
            | None = None,
        ) -> Any:
            said.append((status, list(headers)))
            return start_response(status, headers, exc_info)

        answer = self.wrapped(environ, heard)
        try:
            body = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()  # the app's teardown, as a server calls it
        if said:
            status, headers = said[-1]
            cookie = any(name.lower() == "set-cookie" for name, _ in headers)
            if status.startswith("200 ") and not cookie:
                # Its Date was the moment it was made: the server dates each answer.
                undated = [(name, value) for name, value in headers if name.lower() != "date"]
                self.answers.put(key, Answer(status, undated, body))
        return [body]

    def session(self, environ: WSGIEnvironment) -> Mapping[str, Any]:
        """The session the phone's cookie holds, as the app signed it (BadData if not):
        decoded once per cookie, shared by its polls, never changed here."""
        value = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.cookie)
        if not value:
            return {}
        return self.sessions.held(self.app, value)


def init_quiet_polls(app: Flask) -> None:
    """Unchanged polls answered in front of the app (QUIET_POLLS, on by default)."""
    if switched_on(app.config.get("QUIET_POLLS", True)):
        app.wsgi_app = QuietPolls(app, app.wsgi_app)  # type: ignore[method-assign]
