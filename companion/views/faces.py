"""The screen's smallest and most repeated pieces of HTML: an icon and a card's face.

Written in Python rather than as Jinja macros: a macro call builds a template context of
its own, and a table's screen draws a few hundred of these (the card keyboard alone one
face per key, each key's wild names another four), which made them a quarter of the
cost of rendering a table that moved on (docs/PERFORMANCE.md). The HTML is the same as
the macros wrote, byte for byte.
"""

from __future__ import annotations

from flask import g, url_for
from markupsafe import Markup

from companion.table_view import face
from engine import Card

ICON = Markup(
    '<svg class="icon" aria-hidden="true" focusable="false"><use href="%s#%s"></use></svg>'
)
FACE = Markup('<b>%s</b><span class="face">%s</span>')
FACE_TEXT = Markup("<i>%s</i>")
FACE_LONG_TEXT = Markup('<i class="long">%s</i>')  # more than three characters: "Alle"
CARD = Markup('\n<span class="card %s" role="img" aria-label="%s">%s</span>\n')


def icons_href() -> str:
    """The address of the icons (static/icons.svg), found once a request."""
    try:
        found: str = g.icons_href
    except AttributeError:
        found = g.icons_href = url_for("static", filename="icons.svg")
    return found


def icon(name: str) -> Markup:
    """One of the app's icons (static/icons.svg), hidden from screen readers: the words
    beside it say what it means."""
    return ICON % (icons_href(), name)


def face_of(card: Card) -> Markup:
    """A card's face: its colour's letter (never colour alone), then an icon and/or text."""
    drawn, text = face(card)
    inside = icon(drawn) if drawn else Markup()
    if text:
        inside += (FACE_LONG_TEXT if len(text) > 3 else FACE_TEXT) % text
    return FACE % (card.letter, inside)


def card_face(card: Card) -> Markup:
    """A card as the table shows it (the top card), named for screen readers."""
    colour = "wild" if card.color is None else card.color.name.lower()
    return CARD % (colour, card.name, face_of(card))
