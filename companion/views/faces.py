"""The screen's smallest and most repeated pieces of HTML: an icon, a card's face, a key.

Written in Python rather than in Jinja: a macro call builds a template context of its
own, and each `{{ }}` and sentence in a loop costs a few lookups, while a table's screen
draws a few hundred of these (the card keyboard up to 34 keys, each with a face, a name
and what it posts, a wild's key four times over). The keyboard was the largest part of
rendering the editor's screen after a play (docs/PERFORMANCE.md). The HTML is the same as the
templates wrote (but for the whitespace between tags); where it goes stays in the
templates.
"""

from __future__ import annotations

from flask import g, url_for
from markupsafe import Markup, escape

from companion.catalogs import request_catalog
from companion.table_view import Key, face
from engine import KEY_ACTIONS, N_, Card

# A key's names for screen readers (marked here for the catalogs, said per key).
NAMING = N_("%(card)s, naming %(color)s")
NOT_ALLOWED = N_("%(card)s (not allowed now)")
# Each piece is an f-string of escaped words: markupsafe's `Markup % args` wraps every
# argument in a helper object first, which made it the better part of a key's cost.


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
    use = f'<use href="{escape(icons_href())}#{escape(name)}"></use>'
    return Markup(f'<svg class="icon" aria-hidden="true" focusable="false">{use}</svg>')


def face_of(card: Card) -> Markup:
    """A card's face: its colour's letter (never colour alone), then an icon and/or text."""
    drawn, text = face(card)
    inside = str(icon(drawn)) if drawn else ""  # a str: Markup + str would escape it
    if text:
        long = ' class="long"' if len(text) > 3 else ""  # "Alle", not "+10"
        inside += f"<i{long}>{escape(text)}</i>"
    return Markup(f'<b>{escape(card.letter)}</b><span class="face">{inside}</span>')


def card_face(card: Card) -> Markup:
    """A card as the table shows it (the top card), named for screen readers."""
    colour = "wild" if card.color is None else card.color.name.lower()
    label = f'class="card {escape(colour)}" role="img" aria-label="{escape(card.name)}"'
    return Markup(f"\n<span {label}>{face_of(card)}</span>\n")


def said(sentence: str, **words: str) -> Markup:
    """A sentence in the request's language with its words filled in (escaped), as a
    template's `_()` says it."""
    return Markup(request_catalog().ugettext(sentence) % {k: escape(v) for k, v in words.items()})


def card_key(key: Key, asks: str | None) -> Markup:
    """A key of the card keyboard (templates/partials/table_keyboard.html): a button that
    plays the card, a link that opens its question (`asks`, the URL of this table's
    screen with the card's question open), or, for a wild on the Playable tab, one
    button for each colour it may name."""
    card, field = key.card, escape(KEY_ACTIONS.field)
    face, name = face_of(card), escape(card.name)
    if key.names:
        naming = "\n".join(
            f'<button class="key wild names n-{escape(color.value.lower())}" type="submit" '
            f'name="{field}" value="{escape(key.named(color))}" '
            f'aria-label="{said(NAMING, card=name, color=color.title)}">'
            f'{face}<b class="named">{escape(color.letter)}</b></button>'
            for color in key.names
        )
        return Markup(f'<span class="key-names">\n{naming}\n</span>')
    if key.legal and key.follow_up:
        return Markup(
            f'<a class="key {escape(key.css)}" href="{escape(asks)}" aria-label="{name}">{face}</a>'
        )
    label = name if key.legal else said(NOT_ALLOWED, card=name)
    ask = f' data-ask="{escape(asks)}"' if key.asks_after_draw else ""
    dim = "" if key.legal else " dim"
    return Markup(
        f'<button class="key {escape(key.css)}{dim}" type="submit" name="{field}" '
        f'value="{escape(key.action)}" aria-label="{label}"{ask}>{face}</button>'
    )
