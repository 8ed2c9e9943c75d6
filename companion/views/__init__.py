"""Blueprints and error pages."""

from __future__ import annotations

import sys

from flask import Flask, Response, current_app, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException

from companion import inputs
from companion.games import NoLongerReplays
from companion.store import current_store
from companion.views.errors import error_page, http_error_page, is_outage, release_session
from companion.views.errors import translated as _
from companion.views.headers import response_headers, vary_on

OUTAGE = "Companion-Outage"  # names what is out, on the app's own 503 (static/unsent.js)

# A request body gunicorn can't read as HTTP (a bad chunk size, a body cut short): it
# surfaces where the app first reads the form, as gunicorn's own exception. Only when
# gunicorn is there: the dev server reports its own as a 400 already.
try:
    from gunicorn.http.errors import NoMoreData, ParseException  # type: ignore[import-untyped]

    MALFORMED_BODY: tuple[type[Exception], ...] = (ParseException, NoMoreData)
except ImportError:  # pragma: no cover - gunicorn is a dependency, but only production's
    MALFORMED_BODY = ()


def malformed_body(error: Exception) -> tuple[str, int]:
    return (
        error_page(
            _("This request could not be read"),
            _(
                "What this phone sent was cut short or garbled on the way, so nothing "
                "was recorded. Reload the page and try again."
            ),
        ),
        400,
    )


def init_templates(app: Flask) -> None:
    """What every template may use beside Flask's own."""
    from companion.table_view import face
    from companion.views.faces import (
        card_face,
        card_tab,
        face_of,
        form_key,
        hidden,
        icon,
        init_faces,
        quick_counts,
        seat_items,
        stepper,
    )
    from companion.views.keyboard import card_keyboard, init_keyboard
    from engine import DECK_SIZE, KEY_ACTIONS, Color, N_plural, visible_name

    init_faces(app)
    init_keyboard(app)
    app.jinja_env.globals.update(
        face=face,
        colors=list(Color),
        actions=KEY_ACTIONS,  # each key's action (engine.fields): no record syntax here
        deck_size=DECK_SIZE,
        # These nine: companion/views/faces.py. A key per rendered form: no double posts.
        form_key=form_key,
        hidden=hidden,  # the hidden fields of each form of the table's screen
        icon=icon,
        face_of=face_of,
        card_face=card_face,
        card_tab=card_tab,
        stepper=stepper,
        quick_counts=quick_counts,
        seat_items=seat_items,
        card_keyboard=card_keyboard,  # companion/views/keyboard.py
        N_plural=N_plural,  # a sentence's singular and plural, for quick_counts
        visible_name=visible_name,  # a stored name with what can't be seen in it spelled out
    )


def register(app: Flask) -> None:
    from companion.access import NotAllowed, forbidden_page
    from companion.views import log, main, rules, scores, share, table, transfer

    for module in (main, table, scores, rules, transfer, share, log):
        app.register_blueprint(module.bp)
    # The manifest, the service worker and its offline page (companion/views/pwa.py).
    from companion.views import pwa

    app.register_blueprint(pwa.bp)
    # Groups: a roster, its matches and leaderboard (companion/views/groups.py).
    from companion.views import groups

    app.register_blueprint(groups.bp)
    # The house-rule lab: two rule sets compared by simulation (companion/views/lab.py).
    from companion.views import lab

    app.register_blueprint(lab.bp)
    # The app in the phone, handed out: its build and its QR code (companion/views/phone.py).
    from companion.views import phone

    app.register_blueprint(phone.bp)
    # Send to a server: the phone's end and the server's (companion/views/sending.py).
    from companion.views import sending

    app.register_blueprint(sending.bp)
    # A home network's https: its root certificate offered to phones (companion/views/trust.py).
    from companion.views import trust

    app.register_blueprint(trust.bp)

    app.register_error_handler(NotAllowed, forbidden_page)
    # A match this version no longer replays: a page of its own wherever it is opened.
    from companion.views import unreplayable

    app.register_blueprint(unreplayable.bp)
    app.register_error_handler(NoLongerReplays, unreplayable.unreplayable_page)

    # ---- bad input and database errors: a 4xx with a sentence, a 503 only for an outage
    inputs.install(app)

    @app.errorhandler(inputs.RefusedInput)
    def refused_input(error: inputs.RefusedInput) -> tuple[str, int]:
        return error_page(error.title, str(error.description)), 400

    # Before Flask-SQLAlchemy's own teardown (the last registered runs first): a
    # connection lost after the request's last query must not turn its page into a 500.
    app.teardown_appcontext(lambda error: release_session())

    every_answer = response_headers(app.config)

    @app.after_request
    def headers(response: Response) -> Response:
        vary_on(response, "HX-Request")  # the same URL answers a page or a fragment (htmx)
        # companion/views/headers.py; no view sets them, so all or none are there.
        if "Content-Security-Policy" not in response.headers:
            response.headers.extend(every_answer)
        if request.endpoint == "static" and response.status_code == 200:
            # Buffer the (small) file so Flask-Compress, whose hook runs after this one,
            # gzips htmx and the CSS like any page.
            response.direct_passthrough = False
            response.set_data(response.get_data())
        return response

    @app.get("/healthz")
    def health() -> tuple[dict[str, str], int]:
        """For load balancers: the app answers and its database does too."""
        try:
            current_store().ping()
        except SQLAlchemyError:
            return {"status": "database unavailable"}, 503
        return {"status": "ok"}, 200

    @app.errorhandler(SQLAlchemyError)
    def database_error(error: SQLAlchemyError) -> tuple[str, int] | tuple[str, int, dict[str, str]]:
        release_session()  # before the page: the page must not touch a dead connection
        if not is_outage(error):  # a statement refused: a bug, not an outage
            current_app.log_exception(sys.exc_info())
            return server_error(error)
        return (
            error_page(
                _("The server's database is unreachable"),
                _(
                    "Nothing was recorded and nothing is lost: the matches are safe in the "
                    "database. Try again in a moment."
                ),
            ),
            503,
            {OUTAGE: "database"},  # the table's notice names it (static/unsent.js)
        )

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int, dict[str, str]]:
        page = error_page(
            _("This form has expired"),
            _(
                "The page was open too long or came from elsewhere. Go back, reload "
                "the page and tap again: nothing was recorded."
            ),
        )
        # htmx shows no 400: have it reload the page, which then works again.
        return page, 400, {"HX-Refresh": "true"} if request.headers.get("HX-Request") else {}

    @app.errorhandler(404)
    def not_found(error: HTTPException) -> tuple[str, int]:
        return (
            error_page(
                _("Nothing here"),
                _(
                    "There is no such match or page. Check the link, or start from the "
                    "list of matches."
                ),
            ),
            404,
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int, dict[str, str]]:
        code = error.code or 500
        # Its own headers (a 405's Allow, a 503's Retry-After), but the page's type.
        kept = {name: value for name, value in error.get_headers() if name != "Content-Type"}
        return http_error_page(code), code, kept

    for malformed in MALFORMED_BODY:
        app.register_error_handler(malformed, malformed_body)

    @app.errorhandler(500)
    def server_error(error: Exception) -> tuple[str, int]:
        return (
            error_page(
                _("Something went wrong"),
                _("The app hit an error and recorded nothing. Reload the table and try again."),
            ),
            500,
        )
