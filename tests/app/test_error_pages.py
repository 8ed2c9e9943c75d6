"""Every error page in the phone's language, the framework's own included (issue 29): a
405, a 413 or any other code the framework answers says what happened and what to do in
the language the phone speaks, never the framework's English name for it."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import default_exceptions

from companion.views.errors import http_error_page
from tests.app.helpers import Page

DE = {"Accept-Language": "de"}


def test_a_wrong_method_is_said_in_the_phone_s_language(client: FlaskClient, started: str) -> None:
    answer = client.get(f"/m/{started}/line", headers=DE)
    assert answer.status_code == 405
    assert "POST" in answer.headers["Allow"]  # as the framework says it
    page = Page(answer)
    assert page.doc.one("html")["lang"] == "de"
    assert "Diese Seite lässt sich so nicht öffnen" in page.text
    assert "Method Not Allowed" not in page.text and "not allowed" not in page.text


def test_a_body_too_large_is_said_in_the_phone_s_language(client: FlaskClient) -> None:
    answer = client.post("/import", data={"text": "x" * 3_000_000}, headers=DE)
    assert answer.status_code == 413
    assert "Zu groß zum Senden" in Page(answer).text


@pytest.mark.parametrize("code", sorted(c for c in default_exceptions if c >= 400))
def test_no_code_the_framework_answers_is_said_in_english(app: Flask, code: int) -> None:
    english = default_exceptions[code]()
    with app.test_request_context("/", headers=DE):
        page = http_error_page(code)
    assert '<html lang="de"' in page
    assert english.name not in page and str(english.description) not in page
