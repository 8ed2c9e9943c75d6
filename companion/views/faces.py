"""The screen's smallest and most repeated pieces of HTML: an icon, a card's face, a key.

Written in Python rather than in Jinja: a macro call builds a template context of its
own, and each `{{ }}` and sentence in a loop costs a few lookups, while a table's screen
draws a few hundred of these (the card keyboard up to 34 keys, each with a face, a name
and what it posts, a wild's key four times over). The keyboard was most of the cost of
rendering a table that moved on (docs/PERFORMANCE.md). The HTML is the same as the
templates wrote, byte for byte; where they go stays in the templates.
"""

from __future__ import annotations

from flask import g, url_for
from markupsafe import Markup

from companion.catalogs import request_catalog
from companion.table_view import Key, face
from engine import KEY_ACTIONS, Card

ICON = Markup(
    '<svg class="icon" aria-hidden="true" focusable="false"><use href="%s#%s"></use></svg>'
)
FACE = Markup('<b>%s</b><span class="face">%s</span>')
FACE_TEXT = Markup("<i>%s</i>")
FACE_LONG_TEXT = Markup('<i class="long">%s</i>')  # more than three characters: "Alle"
CARD = Markup('\n<span class="card %s" role="img" aria-label="%s">%s</span>\n')
KEY = Markup(
    '<button class="key %s" type="submit" name="%s" value="%s" aria-label="%s"%s>%s</button>'
)
ASKING_KEY = Markup('<a class="key %s" href="%s" aria-label="%s">%s</a>')
NAMING_KEY = Markup(
    '<button class="key wild names n-%s" type="submit" name="%s" value="%s" aria-label="%s">'
    '%s<b class="named">%s</b></button>'
)


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


def said(sentence: str, **variables: object) -> Markup:
    """A sentence in the request's language with its words filled in (escaped), as a
    template's `_()` says it."""
    return Markup(request_catalog().ugettext(sentence)) % variables


def card_key(key: Key, asks: str | None) -> Markup:
    """A key of the card keyboard (templates/partials/table_keyboard.html): a button that
    plays the card, a link that opens its question (`asks`, the URL of this table's
    screen with the card's question open), or, for a wild on the Playable tab, one
    button for each colour it may name."""
    card, field = key.card, KEY_ACTIONS.field
    face, name = face_of(card), card.name
    if key.names:
        naming = [
            NAMING_KEY
            % (
                *(color.value.lower(), field, key.named(color)),
                said("%(card)s, naming %(color)s", card=name, color=color.title),
                *(face, color.letter),
            )
            for color in key.names
        ]
        return Markup('<span class="key-names">%s</span>') % Markup("").join(naming)
    if key.legal and key.follow_up:
        return ASKING_KEY % (key.css, asks, name, face)
    label = name if key.legal else said("%(card)s (not allowed now)", card=name)
    ask = Markup(' data-ask="%s"') % asks if key.asks_after_draw else ""
    return KEY % (key.css + ("" if key.legal else " dim"), field, key.action, label, ask, face)
