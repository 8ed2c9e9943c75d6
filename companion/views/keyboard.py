"""The card keyboard of the player to act, written in Python: the count drawn first, the
tabs, and the open tab's keys (templates/partials/table_keyboard.html places it inside
the keyboard's form, in templates/partials/turn_actions.html).

It is the largest part of the screen after a play: up to 34 keys, each a card's face,
its name and what it posts, a wild's key four times over on the Playable tab, six tabs,
a stepper and five quick counts. Drawn by Jinja, each key cost a macro call and a few
lookups; it was a third of the fragment after a play (docs/PERFORMANCE.md). The HTML is
what the template wrote (but for the whitespace between tags). It is rendered once per
table version, role, things open and language (companion/rendered.py): nothing here is
a phone's own. A key is the same from one version to the next, and from table to table,
unless it holds the URL of its question (which names the table's version: `links_here`):
each other key (a wild naming its colours among them) is drawn once per language and
icons' address, and kept (app.extensions["card_keys"]).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app
from markupsafe import Markup, escape

from companion.bounded import Bounded
from companion.catalogs import request_catalog
from companion.table_view import Key, TableView
from companion.views.faces import (
    NAMING,
    NOT_ALLOWED,
    card_tab,
    face_of,
    icons_href,
    quick_counts,
    said,
    stepper,
)
from engine import KEY_ACTIONS, N_, Color, N_plural, current_language

DREW = N_("Drew")
DREW_N = N_plural("Drew %(num)d", "Drew %(num)d")
KEPT_IT, NO_PLAY = N_("Kept it"), N_("No play")
CARDS = N_("Cards")
NO_ANSWER = N_("No card answers the stack: %(name)s takes %(num)s.")
NONE_NOW = N_("No card of these can be played now.")
# At most this many quick counts of cards drawn (1-5); more by the stepper.
QUICK_DRAWN = 5
# A wild's key naming a colour: its class (static/app.css).
NAMED_CLASS = {c: f"n-{c.value.lower()}" for c in Color}
FIELD = escape(KEY_ACTIONS.field)  # the form's field every key posts
# The keys kept: each card (68) legal or not, a wild's on the Playable tab or elsewhere,
# in five languages, at one address of the icons or a few.
MOST_KEYS = 4000


def init_keyboard(app: Flask) -> None:
    app.extensions["card_keys"] = Bounded(MOST_KEYS)


def card_keyboard(view: TableView, at: Callable[..., str]) -> Markup:
    """The keyboard: the cards drawn (when the player may draw), the tabs, the open
    tab's keys (or why there are none). `at`: the URL of this table's screen with
    something open (companion/views/respond.py)."""
    legal, say = view.legal, request_catalog().ugettext
    pieces = []
    if legal.can_draw:
        # One row: the quick counts until a count is chosen, then its stepper (for more
        # than five) and "No play" (app.js switches them; without it, the field and the
        # button).
        counts = range(1, min(QUICK_DRAWN, legal.draw_room) + 1)
        done = say(KEPT_IT if legal.can_pass else NO_PLAY)
        pieces.append(
            f'<p class="drew" data-drew><label for="drawn">{say(DREW)}</label>'
            f"{quick_counts('drawn', counts, DREW_N)}"
            f"{stepper('drawn', 'drawn', view.drawn, 0, legal.draw_room, five=True)}"
            f'<button class="button" type="submit" name="{FIELD}" '
            f'value="{escape(KEY_ACTIONS.draw)}" data-needs-drawn>{done}</button></p>'
        )
    tabs = "\n".join(
        card_tab(key, title, letter, at(tab=key), key == view.tab)
        for key, title, letter in view.tabs
    )
    pieces.append(f'<nav class="tabs" aria-label="{say(CARDS)}">\n{tabs}\n</nav>')
    kept: Bounded[tuple[Key, str, str], str] = current_app.extensions["card_keys"]
    drawn_for = (current_language(), icons_href())
    keys = []
    for key in view.keys(view.tab):
        if links_here(key):
            keys.append(card_key(key, at(tab=view.tab, card=key.code)))
            continue
        found = kept.get((key, *drawn_for))
        if found is None:
            found = card_key(key, None)
            kept.put((key, *drawn_for), found)
        keys.append(found)
    if not keys:
        why: str
        if view.state.facing == "stack":
            why = said(NO_ANSWER, name=legal.turn or "", num=str(view.state.stack_total))
        else:
            why = say(NONE_NOW)
        keys.append(f'<p class="help">{why}</p>')
    pieces.append('<div class="keys">\n' + "\n".join(keys) + "\n</div>")
    return Markup("\n".join(pieces))


def links_here(key: Key) -> bool:
    """Does the key hold the URL of its question (`card_key`'s `asks`): a link to it, or
    a button that opens it once a draw is entered? Never a wild naming its colours."""
    return not key.names and ((key.legal and key.follow_up is not None) or key.asks_after_draw)


def card_key(key: Key, asks: str | None) -> str:
    """A key: a button that plays the card, a link that opens its question (`asks`, the
    URL of this table's screen with the card's question open), or, for a wild on the
    Playable tab, one button for each colour it may name. `asks` is used only where
    `links_here` says so."""
    card = key.card
    face, name = face_of(card), escape(card.name)
    if key.names:
        naming = "\n".join(
            f'<button class="key wild names {NAMED_CLASS[color]}" type="submit" '
            f'name="{FIELD}" value="{escape(key.named(color))}" '
            f'aria-label="{said(NAMING, card=name, color=color.title)}">'
            f'{face}<b class="named">{escape(color.letter)}</b></button>'
            for color in key.names
        )
        return f'<span class="key-names">\n{naming}\n</span>'
    css = key.css  # its colour's class
    if key.legal and key.follow_up:
        return f'<a class="key {css}" href="{escape(asks)}" aria-label="{name}">{face}</a>'
    label = name if key.legal else said(NOT_ALLOWED, card=name)
    ask = f' data-ask="{escape(asks)}"' if key.asks_after_draw else ""
    dim = "" if key.legal else " dim"
    return (
        f'<button class="key {css}{dim}" type="submit" name="{FIELD}" '
        f'value="{escape(key.action)}" aria-label="{label}"{ask}>{face}</button>'
    )
