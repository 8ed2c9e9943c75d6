"""Blueprints and error pages."""

from __future__ import annotations

from flask import Flask, Response, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from companion.extensions import db


def register(app: Flask) -> None:
    from companion.access import NotAllowed, forbidden_page
    from companion.views import main, rules, scores, share, table, transfer

    for module in (main, table, scores, rules, transfer, share):
        app.register_blueprint(module.bp)

    app.register_error_handler(NotAllowed, forbidden_page)

    @app.after_request
    def vary_on_htmx(response: Response) -> Response:
        # The same URL answers with a whole page or a fragment (htmx).
        response.vary.add("HX-Request")
        return response

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return (
            render_template(
                "error.html",
                title="This form has expired",
                message="The page was open too long or came from elsewhere. Go back, reload "
                "the page and tap again: nothing was recorded.",
            ),
            400,
        )

    @app.errorhandler(404)
    def not_found(error: HTTPException) -> tuple[str, int]:
        return (
            render_template(
                "error.html",
                title="Nothing here",
                message="There is no such match or page. Check the link, or start from the "
                "list of matches.",
            ),
            404,
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        return (
            render_template("error.html", title=error.name, message=error.description),
            code,
        )

    @app.errorhandler(500)
    def server_error(error: Exception) -> tuple[str, int]:
        db.session.rollback()
        return (
            render_template(
                "error.html",
                title="Something went wrong",
                message="The app hit an error and recorded nothing. Reload the table and try "
                "again.",
            ),
            500,
        )
