"""The request's catalogs, found once (companion/catalogs.py): every page and form still
speaks the request's language, a language switch between requests shows at once, and
WTForms' own messages are translated from a catalog read once per language."""

from __future__ import annotations

from babel import support
from flask import Flask
from flask.testing import FlaskClient
from wtforms.i18n import messages_path

from tests.app.helpers import Tabletop
from tests.app.test_languages import choose, lang_of


def wtforms_says(language: str, message: str) -> str:
    """What WTForms' own catalog says for `message` in `language`."""
    return str(support.Translations.load(messages_path(), [language], "wtforms").ugettext(message))


def test_each_request_speaks_its_own_language(client: FlaskClient, tabletop: Tabletop) -> None:
    for code, word in (
        ("de", "Beendet"),
        ("fr", "Terminées"),
        ("en", "Finished"),
        ("de", "Beendet"),
    ):
        page = client.get("/", headers={"Accept-Language": code}).get_data(as_text=True)
        assert f"<h2>{word}</h2>" in page, code
    choose(client, tabletop, "es")
    assert lang_of(client, **{"Accept-Language": "de"}) == "es"
    choose(client, tabletop, "fr")
    assert lang_of(client) == "fr"


def test_wtforms_messages_come_in_the_requests_language(
    client: FlaskClient, tabletop: Tabletop, app: Flask
) -> None:
    said = {}
    for code in ("de", "fr", "de"):  # the second German read comes from the kept catalog
        choose(client, tabletop, code)
        data = tabletop.new_match_values(["Ann", "Bob"], target="many")
        page = tabletop.post("/new", data=data)
        assert page.status == 422  # refused, with the reason
        said[code] = wtforms_says(code, "Not a valid integer value.")
        assert said[code] != "Not a valid integer value."  # there is a translation to show
        assert said[code] in page.text, code
    catalogs = app.extensions["form_catalogs"]
    assert catalogs.get("de") is catalogs.get("de")  # read once
