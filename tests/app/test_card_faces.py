"""A card's face and the icons as the screen draws them (companion/views/faces.py; the
keys, companion/views/keyboard.py): the colour's letter in the phone's language, then an
icon of the app's own and/or words, never colour alone and never an emoji; and the
keyboard's tabs, a stepper and its quick counts, each named in the phone's language."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.paths import STATIC
from companion.static_files import digests
from companion.table_view import Key
from companion.views.faces import (
    card_face,
    card_tab,
    face_of,
    icon,
    quick_counts,
    stepper,
)
from companion.views.keyboard import card_key
from engine import Card, Color, N_plural
from tests.app.helpers import Tabletop

# At its versioned address (companion/static_files.py).
ICONS = "/static/icons.svg?v=" + digests(STATIC)["icons.svg"]


def svg(name: str) -> str:
    use = f'<use href="{ICONS}#{name}"></use>'
    return f'<svg class="icon" aria-hidden="true" focusable="false">{use}</svg>'


@pytest.mark.parametrize(
    ("card", "language", "face"),
    [
        ("R5", "en", '<b>R</b><span class="face"><i>5</i></span>'),
        ("RS", "en", f'<b>R</b><span class="face">{svg("skip")}</span>'),
        ("WR+4", "en", f'<b>W</b><span class="face">{svg("reverse")}<i>+4</i></span>'),
        ("W+10", "en", '<b>W</b><span class="face"><i>+10</i></span>'),
        ("BDA", "en", '<b>B</b><span class="face"><i>All</i></span>'),
        # German: "Ro" (G would be both Gelb and Grün), "Alle" in the smaller size.
        ("RDA", "de", '<b>Ro</b><span class="face"><i class="long">Alle</i></span>'),
    ],
)
def test_a_face_shows_its_letter_then_an_icon_or_words(
    app: Flask, card: str, language: str, face: str
) -> None:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        app.preprocess_request()  # the phone's language, for the engine's words too
        assert face_of(Card.parse(card)) == face


def test_a_top_card_is_named_for_screen_readers(app: Flask) -> None:
    with app.test_request_context("/"):
        assert card_face(Card.parse("Y7")) == (
            '\n<span class="card yellow" role="img" aria-label="Yellow 7">'
            '<b>Y</b><span class="face"><i>7</i></span></span>\n'
        )
        assert 'class="card wild"' in card_face(Card.parse("WCR"))


def test_words_in_a_face_are_escaped(app: Flask) -> None:
    with app.test_request_context("/"):
        assert icon('x"><script>') == svg("x&#34;&gt;&lt;script&gt;")


def test_a_key_the_rules_refuse_now_is_dimmed_and_says_so(app: Flask) -> None:
    with app.test_request_context("/"):
        app.preprocess_request()
        assert card_key(Key(Card.parse("Y3"), legal=False, follow_up=None), None) == (
            '<button class="key yellow dim" type="submit" name="action" value="Y3" '
            'aria-label="Yellow 3 (not allowed now)">'
            '<b>Y</b><span class="face"><i>3</i></span></button>'
        )


def test_a_key_that_asks_links_to_its_question_and_a_wild_names_each_colour(
    app: Flask,
) -> None:
    with app.test_request_context("/"):
        app.preprocess_request()
        seven = card_key(Key(Card.parse("G7"), legal=True, follow_up="swap"), "/m/x?card=G7&a=<")
        assert seven.startswith('<a class="key green" href="/m/x?card=G7&amp;a=&lt;"')
        naming = card_key(Key(Card.parse("W+6"), True, "color", names=tuple(Color)), None)
        assert naming.count("<button") == 4 and "Wild Draw 6, naming Blue" in naming


def test_a_colour_tab_shows_its_letter_and_is_named_by_its_colour(app: Flask) -> None:
    with app.test_request_context("/"):
        assert card_tab("R", "Red", "R", "/m/x?tab=R&v=1", active=True) == (
            '<a href="/m/x?tab=R&amp;v=1" class="tab r active" aria-current="true">'
            '<b aria-hidden="true">R</b><span class="sr-only">Red</span></a>'
        )
        assert card_tab("P", "Playable", "", "/m/x", active=False) == (
            '<a href="/m/x" class="tab p">Playable</a>'
        )
        assert "&lt;b&gt;" in card_tab("P", "<b>", "", "/m/x", active=False)


def test_a_stepper_names_its_buttons_in_the_phones_language(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        app.preprocess_request()
        made = stepper("drawn", "drawn", 0, 0, 17, five=True)
        assert '<input id="drawn" name="drawn" type="number" inputmode="numeric" ' in made
        assert 'min="0" max="17" value="0">' in made
        assert made.count('class="step"') == 3 and 'data-step="5"' in made
        assert 'data-step="-1" aria-label="Eine weniger"' in made
        assert 'data-step="5"' not in stepper("n", "count", 1, 1, 9)


def test_quick_counts_name_each_number_as_the_language_counts_it(app: Flask) -> None:
    drew = N_plural("Drew %(num)d", "Drew %(num)d")
    with app.test_request_context("/"):
        app.preprocess_request()
        made = quick_counts("drawn", range(1, 4), drew)
        assert made.count("<button") == 3
        assert '<button class="step" type="button" data-set="2" aria-label="Drew 2">2</button>' in (
            made
        )
        assert 'data-quick-for="drawn" hidden>' in made and "data-submit" not in made
        assert " data-submit hidden>" in quick_counts("n", [0], drew, submit=True)
    with app.test_request_context("/", headers={"Accept-Language": "fr"}):
        app.preprocess_request()
        assert 'aria-label="A pioché 2"' in quick_counts("drawn", [2], drew)


def test_a_kept_key_never_carries_another_versions_question(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    """Keys are kept from one table version to the next (companion/views/keyboard.py),
    but a key that opens its question links to the table as it is now; a key that plays
    at once is the same on every version; and each language has its own."""
    red_seven = {"aria-label": "Red 7"}
    first = tabletop.table(started)
    version = first.doc.one(id_="table")["data-version"]
    asks = first.doc.one(cls="keys").one("a", cls="key", **red_seven)["href"]
    plays = first.doc.one(cls="keys").one("button", cls="key", **{"aria-label": "Red 3"})
    assert f"v={version}&" in asks
    tabletop.play_lines(started, "Ann: R3")
    then = tabletop.table(started)
    moved_on = then.doc.one(id_="table")["data-version"]
    assert moved_on != version
    asks_now = then.doc.one(cls="keys").one("a", cls="key", **red_seven)["href"]
    assert f"v={moved_on}&" in asks_now and f"v={version}&" not in asks_now
    assert str(then.doc.one(cls="keys").one("button", cls="key", **{"aria-label": "Red 3"})) == (
        str(plays)
    )
    german = tabletop.get(f"/m/{started}", headers={"Accept-Language": "de"})
    assert german.doc.one(cls="keys").one("button", cls="key", **{"aria-label": "Rot 3"})


def test_a_kept_key_never_carries_another_versions_question_after_a_draw(
    tabletop: Tabletop, started: str
) -> None:
    """A 7 held as the last card plays at once, but asks its swap once a draw is entered
    first: its button carries the question's URL (data-ask), this version's."""
    tabletop.play_lines(started, "Ann: has 1")
    page = tabletop.table(started)
    version = page.doc.one(id_="table")["data-version"]
    seven = page.doc.one(cls="keys").one("button", cls="key", **{"aria-label": "Red 7"})
    assert f"v={version}&" in seven["data-ask"]
    tabletop.play_lines(started, "Ann: has 2", "Ann: has 1")
    page = tabletop.table(started)
    moved_on = page.doc.one(id_="table")["data-version"]
    seven = page.doc.one(cls="keys").one("button", cls="key", **{"aria-label": "Red 7"})
    assert moved_on != version and f"v={moved_on}&" in seven["data-ask"]
