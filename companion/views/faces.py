"""The screen's smallest and most repeated pieces of HTML: an icon, a card's face, a
keyboard's tab, a stepper and its quick counts, the players' seats, and the hidden
fields every form of the table's screen carries (the card keyboard itself:
companion/views/keyboard.py).

Written in Python rather than in Jinja: a macro call builds a template context of its
own, and each `{{ }}` and sentence in a loop costs a few lookups, while a table's screen
draws a few hundred of these (a key's face and name up to 34 times, a wild's four times
over; six tabs; the drawn count's stepper and five quick counts, each named by a
sentence; a seat for each player, with up to five sentences). The keyboard and the
seats were the largest parts of rendering the screen after a play
(docs/PERFORMANCE.md). The HTML is the same as the templates wrote (but for the
whitespace between tags); where it goes stays in the templates.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from flask import Flask, current_app, g
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from companion.bounded import Bounded
from companion.catalogs import request_catalog
from companion.static_files import static_url
from companion.table_view import TableView, face
from engine import N_, Card, current_language

# A key's names for screen readers (marked here for the catalogs, said per key).
NAMING = N_("%(card)s, naming %(color)s")
NOT_ALLOWED = N_("%(card)s (not allowed now)")
# A stepper's buttons and its quick counts, named for screen readers.
ONE_FEWER, ONE_MORE, FIVE_MORE = N_("One fewer"), N_("One more"), N_("Five more")
QUICK_COUNTS = N_("Quick counts")
# A seat's words, said per seat (seat_items).
CORRECT_COUNT = N_("Correct %(name)s's count (%(num)s cards)")
OUT, DEALER, ONE_CARD = N_("OUT"), N_("dealer"), N_("1 card!")
MERCY_METER = N_("%(name)s: %(cards)s of %(limit)s cards (Mercy)")
# Each piece is an f-string of escaped words: markupsafe's `Markup % args` wraps every
# argument in a helper object first, which made it the better part of a key's cost.


# The faces kept: each distinct card (68) in five languages, at one address of the icons
# or a few.
MOST_FACES = 2000


def init_faces(app: Flask) -> None:
    app.extensions["card_faces"] = Bounded(MOST_FACES)


def icons_href() -> str:
    """The address of the icons (static/icons.svg), found once a request."""
    try:
        found: str = g.icons_href
    except AttributeError:
        found = g.icons_href = static_url("icons.svg")
    return found


def icon(name: str) -> Markup:
    """One of the app's icons (static/icons.svg), hidden from screen readers: the words
    beside it say what it means."""
    use = f'<use href="{escape(icons_href())}#{escape(name)}"></use>'
    return Markup(f'<svg class="icon" aria-hidden="true" focusable="false">{use}</svg>')


def face_of(card: Card) -> Markup:
    """A card's face: its colour's letter (never colour alone), then an icon and/or text.
    Drawn once per card, language and icons' address, and kept
    (app.extensions["card_faces"]): a keyboard shows up to 34, each a few lookups."""
    faces: Bounded[tuple[Card, str, str], Markup] = current_app.extensions["card_faces"]
    key = (card, current_language(), icons_href())
    found = faces.get(key)
    if found is None:
        found = draw_face(card)
        faces.put(key, found)
    return found


def draw_face(card: Card) -> Markup:
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


def card_tab(key: str, title: str, letter: str | None, href: str, active: bool) -> Markup:
    """A tab of a card keyboard: a colour's tab shows the letter its cards show (in the
    phone's language, so it fits and never reads as another colour's), and is named by
    the colour's name."""
    current = ' aria-current="true"' if active else ""
    inside = (
        f'<b aria-hidden="true">{escape(letter)}</b><span class="sr-only">{escape(title)}</span>'
        if letter
        else escape(title)
    )
    return Markup(
        f'<a href="{escape(href)}" class="tab {escape(key.lower())}{" active" if active else ""}"'
        f"{current}>{inside}</a>"
    )


def stepper(
    id: str, name: str, value: object, least: object, most: object, five: bool = False
) -> Markup:
    """A number as big -/+ buttons around its field (the buttons appear with JavaScript;
    without it the field is typed in)."""
    say = request_catalog().ugettext  # a sentence is the catalog's markup, as in a template
    plus_five = (
        f'\n  <button class="step" type="button" data-step="5" aria-label="{say(FIVE_MORE)}" '
        f"hidden>+5</button>"
        if five
        else ""
    )
    return Markup(
        f'\n<span class="stepper" data-stepper>\n'
        f'  <button class="step" type="button" data-step="-1" aria-label="{say(ONE_FEWER)}" '
        f"hidden>&minus;</button>\n"
        f'  <input id="{escape(id)}" name="{escape(name)}" type="number" inputmode="numeric" '
        f'min="{escape(least)}" max="{escape(most)}" value="{escape(value)}">\n'
        f'  <button class="step" type="button" data-step="1" aria-label="{say(ONE_MORE)}" '
        f"hidden>+</button>{plus_five}\n</span>\n"
    )


def quick_counts(
    id: str, numbers: Iterable[int], named: tuple[str, str], submit: bool = False
) -> Markup:
    """One-tap counts beside a stepper: a tap sets its field to the number; with `submit`
    it also presses the form's button marked data-primary (so a Discard All or a roulette
    is recorded in that tap). JavaScript only, like the stepper's buttons: without it the
    field is typed in. `named` (N_plural: a singular and a plural with %(num)d) names
    each button for a screen reader."""
    catalog = request_catalog()
    buttons = "".join(
        f'\n  <button class="step" type="button" data-set="{escape(n)}" '
        f'aria-label="{catalog.ungettext(*named, n) % {"num": n}}">{n}</button>'
        for n in numbers
    )
    group = f'role="group" aria-label="{catalog.ugettext(QUICK_COUNTS)}"'
    submits = " data-submit" if submit else ""
    return Markup(
        f'\n<span class="quick" {group} data-quick-for="{escape(id)}"{submits} hidden>'
        f"{buttons}\n</span>\n"
    )


def seat_items(view: TableView, can_edit: bool, at: Callable[..., str]) -> Markup:
    """The players' seats, one <li> each (templates/partials/table_seats.html): the name
    (shortened by the engine's rule when long, whole for a screen reader), whose turn,
    the count and its Mercy meter, the dealer's badge, an UNO called or open. An editor
    corrects a count from its seat: a link, a pencil and a name that says so."""
    say = request_catalog().ugettext
    mercy = view.state.rules.mercy
    counted = not view.quick
    correctable = view.legal.correctable if can_edit and counted else ()
    items = []
    for seat in view.seats:
        name = escape(seat.name)
        fixable = seat.name in correctable
        if seat.short == seat.name:
            shown = f"<strong>{name}</strong>"
        else:
            shown = (
                f'<strong aria-hidden="true">{escape(seat.short)}</strong>'
                f'<span class="sr-only full-name">{name}</span>'
            )
        if seat.out:
            count = f'<span class="badge">{say(OUT)}</span>'
        elif counted:
            limit = f'<span class="sr-only">/{escape(mercy)}</span>' if mercy else ""
            pencil = icon("edit") if fixable else ""
            count = f'<span class="count">{escape(seat.cards)}{limit}</span>{pencil}'
        else:
            count = ""
        # The dealer's badge is a picture (a deck), never a letter: a letter reads as a
        # colour's in some language (German "G", Spanish "R").
        dealer = (
            f'<span class="badge dealer" role="img" aria-label="{say(DEALER)}">'
            f"{icon('dealer')}</span>"
            if seat.dealer
            else ""
        )
        uno = ""
        if seat.uno == "called":
            uno = '<span class="badge uno">UNO</span>'
        elif seat.uno == "open":
            uno = f'<span class="badge warn">!<span class="sr-only"> {say(ONE_CARD)}</span></span>'
        meter = ""
        if mercy and not seat.out and counted:
            label = said(MERCY_METER, name=seat.name, cards=str(seat.cards), limit=str(mercy))
            meter = (
                f'<meter min="0" max="100" low="79" high="80" optimum="0" '
                f'value="{escape(seat.meter)}" aria-label="{label}">{escape(seat.meter)}%</meter>'
            )
        turn = icon("turn") if seat.turn else ""
        facts = f'<span class="seat-facts">{turn}\n{count}\n{dealer}\n{uno}\n{meter}\n</span>'
        if fixable:
            label = said(CORRECT_COUNT, name=seat.name, num=str(seat.cards))
            box = f'<a class="seat-box" href="{escape(at(fix=seat.name))}" aria-label="{label}">'
            end = "</a>"
        else:
            box, end = '<div class="seat-box">', "</div>"
        classes = "seat" + (" is-turn" if seat.turn else "") + (" is-out" if seat.out else "")
        items.append(
            f'<li class="{classes}">\n{box}\n<span class="seat-name">{shown}</span>\n'
            f"{facts}\n{end}\n</li>"
        )
    return Markup("\n".join(items))


def form_key() -> str:
    """A new idempotency key, one per rendered form: a form posted twice records once."""
    return secrets.token_urlsafe(12)


def hidden(view: TableView, player: str | None = None) -> Markup:
    """The hidden fields every form of the table's screen carries: the CSRF token, the
    table it was made on (its version and last line), a fresh key, the screen's stamp
    (companion/taps.py), and the player it records for, if any."""
    fields = (
        f'\n  <input type="hidden" name="csrf_token" value="{escape(generate_csrf())}">\n  '
        f'<input type="hidden" name="version" value="{escape(view.version)}">'
        f'<input type="hidden" name="last" value="{escape(view.last_line_id)}">'
        f'<input type="hidden" name="key" value="{escape(form_key())}">'
        f'<input type="hidden" name="shown" value="{escape(view.shown)}">'
    )
    if player is not None:
        fields += f'\n  <input type="hidden" name="player" value="{escape(player)}">'
    return Markup(fields)
