"""A card's face and the icons as the screen draws them (companion/views/faces.py): the
colour's letter in the phone's language, then an icon of the app's own and/or words,
never colour alone and never an emoji."""

from __future__ import annotations

import pytest
from flask import Flask

from companion.table_view import Key
from companion.views.faces import card_face, card_key, face_of, icon
from engine import Card, Color

ICONS = "/static/icons.svg"


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
