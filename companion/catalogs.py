"""The catalogs a request speaks from, found once rather than once per sentence.

Flask-Babel finds the request's translations anew for every sentence a template says
(three lookups of the request's context each; a table fragment says about 200), and
Flask-WTF reads WTForms' own catalog ("This field is required.") from its file on every
request that builds a form. Here the app's catalog is found once a request (kept in
`g`) and WTForms' is read once per language and process (`FormCatalogs`, kept in
`app.extensions["form_catalogs"]`). The language is still the request's
(companion/languages.py): only the lookups are fewer.
"""

from __future__ import annotations

import threading
from typing import Any

from babel import Locale, support
from flask import Flask, current_app, g
from flask_babel import get_locale, get_translations
from flask_wtf import FlaskForm
from wtforms.i18n import messages_path

Catalog = support.Translations | support.NullTranslations


def init_catalogs(app: Flask) -> None:
    """The templates' gettext functions on the request's catalog, found once (after
    Flask-Babel has installed its own, which these replace)."""
    app.extensions["form_catalogs"] = FormCatalogs()
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: request_catalog().ugettext(s),
        ngettext=lambda s, p, n: request_catalog().ungettext(s, p, n),
        pgettext=lambda c, s: request_catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: request_catalog().unpgettext(c, s, p, n),
        newstyle=True,
    )


def request_catalog() -> Catalog:
    """The app's catalog in the request's language, found on the first sentence said."""
    found: Catalog
    try:
        found = g.catalog
    except AttributeError:
        found = g.catalog = get_translations()
    except RuntimeError:  # no application context (a template rendered by a script)
        found = get_translations()
    return found


class FormCatalogs:
    """WTForms' own messages, one catalog per language, read from its file once."""

    def __init__(self) -> None:
        self._by_language: dict[str, Catalog] = {}
        self._lock = threading.Lock()

    def get(self, locale: Locale | None) -> Catalog:
        key = str(locale)
        found = self._by_language.get(key)
        if found is None:
            with self._lock:
                found = self._by_language.get(key)
                if found is None:
                    found = support.Translations.load(messages_path(), [locale or "en"], "wtforms")
                    self._by_language[key] = found
        return found


class TranslatedForm(FlaskForm):  # type: ignore[misc]
    """A form whose WTForms messages come in the request's language, from a catalog read
    once per language (Flask-WTF's own reads its file on every request)."""

    class Meta:
        def get_translations(self, form: Any) -> Catalog:
            catalogs: FormCatalogs = current_app.extensions["form_catalogs"]
            return catalogs.get(get_locale())
