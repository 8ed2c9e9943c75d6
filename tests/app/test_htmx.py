"""The table answers htmx with the #table fragment, a browser with the whole page."""

from __future__ import annotations

from flask import Response

from companion.views.headers import vary_on
from tests.app.helpers import Page, Tabletop

HX = {"HX-Request": "true"}


def test_the_fragment_for_htmx(tabletop: Tabletop, started: str) -> None:
    page = tabletop.get(f"/m/{started}", headers=HX)
    assert page.status == 200
    assert "<html" not in page.html and "<body" not in page.html
    assert page.html.lstrip().startswith("<") and page.version == 1
    assert page.doc.one(id_="table").find(cls="seats") is not None
    assert "HX-Request" in page.response.headers["Vary"]


def test_the_whole_page_otherwise(tabletop: Tabletop, started: str) -> None:
    page = tabletop.get(f"/m/{started}")
    assert page.status == 200
    assert page.html.lstrip().lower().startswith("<!doctype html>")
    assert page.doc.find("html") is not None and page.doc.find(id_="table") is not None
    assert "HX-Request" in page.response.headers["Vary"]


def test_every_response_varies_on_htmx(tabletop: Tabletop, started: str) -> None:
    for url in ("/", "/new", "/rules", f"/m/{started}/scores", "/m/nope", "/import"):
        response = tabletop.client.get(url)
        assert "HX-Request" in response.headers.get("Vary", ""), url


def test_an_htmx_post_follows_to_the_fragment(tabletop: Tabletop, started: str) -> None:
    tabletop.table(started)
    response = tabletop.client.post(
        f"/m/{started}/line",
        data={**tabletop.hidden(started), "player": "Ann", "action": "R3"},
        headers=HX,
    )
    assert response.status_code == 303
    fragment = Page(tabletop.client.get(response.headers["Location"], headers=HX))
    assert "<html" not in fragment.html and fragment.version == 2


def test_a_refusal_for_htmx_is_a_fragment_too(tabletop: Tabletop, started: str) -> None:
    tabletop.table(started)
    response = tabletop.client.post(
        f"/m/{started}/line",
        data={**tabletop.hidden(started), "player": "Bob", "action": "R3"},
        headers=HX,
    )
    refused = Page(response)
    assert refused.status == 422
    assert "<html" not in refused.html
    assert refused.rule_links() == ["turn"]
    assert "HX-Request" in response.headers["Vary"]


# htmx 2 (static/vendor/htmx.min.js is 2.0.x) swaps only 2xx/3xx answers unless told
# otherwise: without a responseHandling rule, a refusal (422) or the "table moved on"
# notice (409) would be silently dropped by the boosted table forms.
HTMX_DEFAULT = [
    {"code": "204", "swap": False},
    {"code": "[23]..", "swap": True},
    {"code": "[45]..", "swap": False, "error": True},
]


def swaps(rules: list[dict], code: str) -> bool:
    import re

    for rule in rules:
        if re.fullmatch(rule["code"], code):
            return bool(rule.get("swap"))
    return False


def test_boosted_forms_show_refusals(tabletop: Tabletop, started: str) -> None:
    import json

    page = tabletop.table(started)
    assert page.table.get("hx-boost") == "true"
    rules = HTMX_DEFAULT
    meta = page.doc.find("meta", name="htmx-config")
    if meta is not None:
        rules = json.loads(meta["content"]).get("responseHandling", HTMX_DEFAULT)
    script = tabletop.client.get("/static/app.js").get_data(as_text=True)
    configured_in_js = "responseHandling" in script and "422" in script
    assert configured_in_js or (swaps(rules, "422") and swaps(rules, "409")), (
        "htmx does not swap 422/409 responses: refusals are never shown on a boosted table"
    )


def test_vary_names_a_header_once_and_never_mistakes_one_name_for_part_of_another() -> None:
    """Regression: a name inside another (Accept in Accept-Language) was taken as said."""
    response = Response("x", headers={"Vary": "Accept-Language"})
    vary_on(response, "Accept")
    vary_on(response, "accept-language")
    vary_on(response, "Accept")
    assert response.headers["Vary"] == "Accept-Language, Accept"
    fresh = Response("x")
    vary_on(fresh, "HX-Request")
    assert fresh.headers["Vary"] == "HX-Request"
