"""The table's language: Flask-Babel for the app, the engine's gettext for its sentences.

Both read the catalogs under engine/locale. A request speaks the language chosen on
this phone (kept in the session), else the best of the browser's Accept-Language,
else English; the engine is told the same for the length of the request.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from babel import Locale
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import Babel, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response as Redirect

from companion.bounded import Bounded
from companion.catalogs import init_catalogs
from companion.views.headers import mimetype_of, vary_on
from engine import (
    LANGUAGES,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    current_language,
    reset_language,
    use_language,
)

bp = Blueprint("languages", __name__)
# The Accept-Language headers whose language is kept (a few a kind of phone and its
# settings), and the longest kept: a browser's is under 100 characters.
MOST_HEADERS = 256
LONGEST_ACCEPT_LANGUAGE = 256


def init_languages(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(LOCALE_DIR))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", SOURCE_LANGUAGE)
    # Each language's Locale made once: babel's Locale.parse looks for its data file on
    # disk each time, and Flask-Babel parses what the selector answers on every request.
    locales = {code: Locale.parse(code) for code in LANGUAGES}
    app.extensions["languages"] = Babel(app, locale_selector=lambda: locales[chosen_language()])
    app.extensions["browser_languages"] = BrowserLanguages()
    init_catalogs(app)  # the request's catalog found once, WTForms' read once (catalogs.py)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(
        languages=LANGUAGES, html_lang=html_lang, current_language=current_language
    )

    @app.before_request
    def speak_the_tables_language() -> None:
        # Chosen once a request: Flask-Babel keeps the locale its selector gave.
        g.engine_language = use_language(str(get_locale()))

    @app.teardown_request
    def stop_speaking(error: BaseException | None) -> None:
        token = g.pop("engine_language", None)
        if token is not None:
            reset_language(token)

    @app.after_request
    def vary_by_language(response: Response) -> Response:
        if mimetype_of(response) in ("text/html", "application/manifest+json"):
            vary_on(response, "Accept-Language")
        return response


def chosen_language() -> str:
    """The phone's choice, else the browser's first language we ship, else English
    (outside a request, as in a command: English)."""
    if not has_request_context():
        return SOURCE_LANGUAGE
    browsers: BrowserLanguages = current_app.extensions["browser_languages"]
    return browsers.language_of(session.get("language"), request.headers.get("Accept-Language"))


class BrowserLanguages:
    """The language of each Accept-Language header met, worked out once per process
    (app.extensions["browser_languages"]): parsing the header and matching each of its
    languages were a tenth of what a request to the app costs at the least, and a
    phone sends the same header every time. Headers longer than any browser's are worked
    out each time, not kept."""

    def __init__(self, most: int = MOST_HEADERS) -> None:
        self._found: Bounded[str, str] = Bounded(most)

    def __len__(self) -> int:
        """How many headers' languages are kept."""
        return len(self._found)

    def language_of(self, chosen: object, header: str | None) -> str:
        """The language a request speaks: the one chosen on the phone (kept in its
        session), else the browser's first we ship (its Accept-Language), else English."""
        if chosen in LANGUAGES:
            return str(chosen)
        header = header or ""
        found = self._found.get(header)
        if found is None:
            found = browser_language(parse_accept_header(header, LanguageAccept))
            if len(header) <= LONGEST_ACCEPT_LANGUAGE:
                self._found.put(header, found)
        return found


def browser_language(accepted: LanguageAccept) -> str:
    """The first accepted language we ship, in the browser's order: "fr-CA" is French
    even when English comes after it; "pt" is Brazilian Portuguese."""
    for value, _quality in accepted:
        match = LanguageAccept([(value, 1)]).best_match(list(LANGUAGES))
        if match is not None:
            return match
    return SOURCE_LANGUAGE


def html_lang() -> str:
    """The page's lang attribute: "pt-BR" for pt_BR."""
    return str(get_locale() or SOURCE_LANGUAGE).replace("_", "-")


@bp.get("/language")
def page() -> str:
    """The five languages, each a button; "next" is the page to go back to."""
    return render_template(
        "language.html",
        current=str(get_locale()),
        back=local_path(request.args.get("next", "")) or url_for("main.home"),
    )


@bp.post("/language")
def choose() -> Redirect:
    """Keep the language picked on this phone, then back to the page it was picked on."""
    code = request.form.get("language", "")
    if code in LANGUAGES:
        session["language"] = code
    else:
        session.pop("language", None)  # "the browser's language"
    return redirect(local_path(request.form.get("next", "")) or url_for("main.home"), 303)


def local_path(value: str) -> str | None:
    """A path on this site to go back to, never another site's address."""
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith(("//", "/\\")):
        return None
    return value
