"""The table's language: the browser's Accept-Language, overridden by the phone's choice
on the Language page (kept in the session); and every sentence of the templates marked
for translation."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion import ROOT
from companion.extensions import db
from companion.languages import BrowserLanguages
from companion.models import MATCHES
from tests.app.helpers import Tabletop, parse_html

TEMPLATES = ROOT / "templates"


def lang_of(client: FlaskClient, path: str = "/", **headers: str) -> str:
    page = parse_html(client.get(path, headers=headers).get_data(as_text=True))
    return page.one("html")["lang"]


def choose(client: FlaskClient, tabletop: Tabletop, code: str, next_: str = "/") -> str:
    """Pick a language on the Language page as its buttons post it; the redirect's target."""
    page = tabletop.get("/language")
    form, button = page.form_with(code)
    values = form.values(button) | {"next": next_}
    response = client.post(form.action, data=values)
    assert response.status_code == 303
    return response.headers["Location"]


@pytest.mark.parametrize(
    ("accepted", "lang"),
    [
        ("de-DE,de;q=0.9", "de"),
        ("fr-CA,en;q=0.8", "fr"),  # the first the browser lists that we ship
        ("pt", "pt-BR"),  # Portuguese is Brazilian Portuguese
        ("pt-PT,pt;q=0.9", "pt-BR"),
        ("es-MX", "es"),
        ("zh-CN,zh;q=0.9", "en"),  # none we ship: English
        ("", "en"),
    ],
)
def test_the_browsers_language_picks_the_page_language(
    client: FlaskClient, accepted: str, lang: str
) -> None:
    assert lang_of(client, **{"Accept-Language": accepted}) == lang


def test_a_browsers_language_is_the_same_worked_out_or_kept() -> None:
    """Each header's language is kept once worked out (companion/languages.py), at most
    `most` of them; a header longer than any browser's is worked out each time, the
    same, and not kept."""
    headers = ["de-DE,de;q=0.9", "fr-CA,en;q=0.8", "zh-CN", "x-" * 200 + ",es;q=0.5", None]
    said = ["de", "fr", "en", "es", "en"]
    browsers = BrowserLanguages(most=8)
    assert [browsers.language_of(None, header) for header in headers] == said
    assert len(browsers) == 4  # the long one is not kept
    assert [browsers.language_of(None, header) for header in headers] == said  # kept
    assert len(browsers) == 4
    few = BrowserLanguages(most=2)
    for _ in range(3):
        assert [few.language_of(None, header) for header in headers] == said
    assert len(few) == 2
    assert browsers.language_of("pt_BR", "de") == "pt_BR"  # the phone's choice first
    assert browsers.language_of("xx", "de") == "de"  # a choice we do not ship: the browser's


def test_the_choice_overrides_the_browser_and_is_kept(
    client: FlaskClient, tabletop: Tabletop
) -> None:
    assert choose(client, tabletop, "pt_BR", "/rules") == "/rules"
    for accepted in ("de-DE", "fr", ""):  # whatever the browser says, on every page
        assert lang_of(client, **{"Accept-Language": accepted}) == "pt-BR"
    assert lang_of(client, "/new", **{"Accept-Language": "de"}) == "pt-BR"
    language_page = tabletop.get("/language").doc
    current = language_page.find_all("button", **{"aria-current": "true"})
    assert [b["value"] for b in current] == ["pt_BR"]
    # The language link in the bar names the choice.
    assert lang_of(client) == "pt-BR"
    bar = parse_html(client.get("/").get_data(as_text=True)).one("header")
    assert "PT-BR" in bar.text


def test_the_browsers_language_clears_the_choice(client: FlaskClient, tabletop: Tabletop) -> None:
    choose(client, tabletop, "de")
    assert lang_of(client, **{"Accept-Language": "fr"}) == "de"
    choose(client, tabletop, "")  # "The browser's language"
    assert lang_of(client, **{"Accept-Language": "fr"}) == "fr"
    assert lang_of(client, **{"Accept-Language": "es"}) == "es"


def test_an_unknown_language_is_the_browsers(client: FlaskClient, tabletop: Tabletop) -> None:
    page = tabletop.get("/language")
    form, _button = page.form_with("de")
    response = client.post(form.action, data=form.values() | {"language": "xx", "next": "/"})
    assert response.status_code == 303
    assert lang_of(client, **{"Accept-Language": "es"}) == "es"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/",
        "evil.example",
        "",
        "javascript:x",
    ],
)
def test_next_never_leaves_the_site(client: FlaskClient, tabletop: Tabletop, target: str) -> None:
    assert choose(client, tabletop, "fr", target) == "/"
    page = tabletop.get(f"/language?next={target}").doc
    backs = [a["href"] for a in page.find_all("a", cls="button")]
    assert backs and all(href == "/" for href in backs)
    assert page.one("input", name="next")["value"] == "/"


def test_next_keeps_a_path_on_the_site(client: FlaskClient, tabletop: Tabletop) -> None:
    assert choose(client, tabletop, "es", "/import") == "/import"


def test_the_language_link_goes_back_to_the_page_under_the_app_s_own_path(
    client: FlaskClient,
) -> None:
    # The app in the phone answers under /standalone/app (its SCRIPT_NAME): the header's
    # Language link once named the page without it, and the choice then left the app.
    answer = client.get("/import", base_url="http://localhost/standalone/app/")
    links = re.findall(r'href="([^"]*/language\?[^"]*)"', answer.text)
    assert links == ["/standalone/app/language?next=/standalone/app/import"]


def test_pages_vary_by_language(client: FlaskClient) -> None:
    for path in ("/", "/new", "/rules", "/language", "/import"):
        response = client.get(path)
        assert response.status_code == 200
        assert "Accept-Language" in response.vary, path


# ------------------------------------------------------ every template sentence marked

# Words a page shows as they are in every language: the brand, the game's call, card
# and colour codes, units and symbols.
ALLOWED = {"No Mercy", "No Mercy Companion", "UNO", "MB"}
WORD = re.compile(r"[^\W\d_]{2,}")


JINJA = re.compile(
    r"{#.*?#}"  # comments
    r"|{%-?\s*trans\b.*?endtrans\s*-?%}"  # a {% trans %} block: marked
    r"|{%\s*block page_class\s*%}.*?{%\s*endblock\s*%}"  # a CSS class, no text
    r"|{{.*?}}|{%.*?%}",  # expressions and statements
    re.S,
)
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder"}


class Reader(HTMLParser):
    """The text of a page and the attribute values people read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [v for k, v in attrs if k in READ_ATTRIBUTES and v]

    def handle_data(self, data: str) -> None:
        self.found.append(data)


def template_text(source: str) -> list[str]:
    """What a template writes as it is: its text outside {{ }}, {% %} and {% trans %}
    blocks (marked), and the attributes people read (aria-label, title, alt,
    placeholder); comments and tags' names, other attributes and values are no text."""
    reader = Reader()
    reader.feed(JINJA.sub("\x01", source))
    reader.close()
    return [text for text in reader.found if text.strip()]


def unmarked(source: str) -> list[str]:
    words = []
    for text in template_text(source):
        for allowed in sorted(ALLOWED, key=len, reverse=True):
            text = text.replace(allowed, " ")
        text = re.sub(r"&\w+;", " ", text)  # entities (&minus;)
        words += WORD.findall(text)
    return words


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_shows_unmarked_words(path: Path) -> None:
    words = unmarked(path.read_text(encoding="utf-8"))
    assert not words, f"{path.name}: words outside _() or {{% trans %}}: {words}"


def test_the_check_finds_unmarked_words() -> None:
    assert unmarked("<p>Back to the table</p>") == ["Back", "to", "the", "table"]
    assert unmarked('<a aria-label="Close it" href="/x">{{ _("Close") }}</a>') == ["Close", "it"]
    assert unmarked('<b title="{{ x }} left">x</b>') == ["left"]
    assert unmarked("{% if a %}Hand {{ n }}{% endif %}") == ["Hand"]
    assert unmarked("{# a comment #}<p>{{ _('Hand %(n)s', n=1) }}</p>") == []
    assert unmarked("{% trans %}<b>{{ name }}</b> has one card{% endtrans %}") == []
    assert unmarked("<title>No Mercy Companion</title><span>UNO</span> +4 R5") == []


def test_home_says_each_match_in_the_phones_language(
    app: Flask, client: FlaskClient, tabletop: Tabletop, started: str
) -> None:
    """The match row's summary is stored in English; Home words it for the phone."""
    assert "Hand 1: Ann to play." in tabletop.get("/").text
    choose(client, tabletop, "fr")
    home = tabletop.get("/").text
    assert "Manche 1 : À Ann de jouer." in home and "Ann to play" not in home
    with app.app_context(), db.engine.connect() as connection:
        stored = connection.execute(select(MATCHES.c.summary)).scalar_one()
    assert stored == "Hand 1: Ann to play."
