"""The rules page (docs/RULES.md, rendered) and the referee desk."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import LazyString, lazy_gettext
from markupsafe import Markup
from wtforms import Form, IntegerField, SelectField
from wtforms.validators import NumberRange, Optional

from companion import access
from companion.forms import FROM_TO, options
from companion.paths import ROOT
from companion.store import current_store
from companion.table_view import CARD_TABS, tab_key, tab_title
from engine import (
    ALL_CARDS,
    LANGUAGES,
    OPTIONS,
    SOURCE_LANGUAGE,
    Card,
    Color,
    EngineError,
    HouseRules,
    Ruling,
    current_language,
    position,
    rule_on,
    table_position,
)

bp = Blueprint("rules", __name__)

RULES_FILE = ROOT / "docs" / "RULES.md"  # English; each other language: docs/RULES.<code>.md
RULE_ID = re.compile(r"\[([a-z-]+)\]\s*$")


def _anchor(value: str, separator: str) -> str:
    """'Stacking [stack]' gets the id 'stack', the id refusals link to."""
    from markdown.extensions.toc import slugify

    found = RULE_ID.search(value)
    return found.group(1) if found else str(slugify(value, separator))


@dataclass(frozen=True)
class Section:
    """A heading of the rules page, for its contents list."""

    anchor: str
    title: str  # without its "[rule-id]": the list shows the words
    subsections: tuple[Section, ...] = ()


def _sections(tokens: list[dict[str, Any]]) -> tuple[Section, ...]:
    return tuple(
        Section(t["id"], RULE_ID.sub("", t["name"]).strip(), _sections(t["children"]))
        for t in tokens
    )


def rules_file(language: str) -> Path:
    """The rules in `language` (the shipped languages each have theirs), else English."""
    translated = RULES_FILE.with_suffix(f".{language}.md")
    return translated if language != SOURCE_LANGUAGE and translated.exists() else RULES_FILE


@lru_cache(maxsize=len(LANGUAGES))
def rules_html(language: str = SOURCE_LANGUAGE) -> tuple[Markup, tuple[Section, ...]]:
    """The page's HTML, and its sections below the title (the document's one h1)."""
    import markdown  # here: a phone's start imports what its first page needs only

    md = markdown.Markdown(
        extensions=["tables", "toc"], extension_configs={"toc": {"slugify": _anchor}}
    )
    html = md.convert(rules_file(language).read_text(encoding="utf-8"))
    sections = _sections(md.toc_tokens)  # type: ignore[attr-defined]
    while len(sections) == 1 and sections[0].subsections:
        sections = sections[0].subsections
    return Markup(html), sections


# The shape of a match id (models.new_match_id): anything else is not a table.
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def table_to_return_to(value: str | None) -> str | None:
    """The match of `/rules?table=<id>`, when this phone has it (a link back would
    otherwise only lead to a refusal); never the text as given, unchecked."""
    if value and MATCH_ID.fullmatch(value) and value in access.this_phone().match_ids():
        return value
    return None


# The engine's names, asked for when the page is rendered (in its language).
CARD_CHOICES = options((str(c), LazyString(lambda c=c: c.name)) for c in ALL_CARDS)
COLOR_CHOICES = options(
    [("", lazy_gettext("The card's own colour"))]
    + [(c.value, LazyString(lambda c=c: c.title)) for c in Color]
)


# The stacking rule's values (engine.rules.OPTIONS["stack"]) as the desk names them.
STACK_RULES = {
    "last": lazy_gettext("At least the last Draw card (official)"),
    "sum": lazy_gettext("At least the total"),
}


class DeskForm(Form):
    """A made-up position: no CSRF needed, it changes nothing (GET).

    The fields' ids are prefixed: the page's rule headings own ids like "stack".
    """

    top = SelectField(lazy_gettext("Top card"), choices=CARD_CHOICES, default="R5", id="desk-top")
    color = SelectField(
        lazy_gettext("Active colour (for a wild on top)"),
        choices=COLOR_CHOICES,
        default="",
        id="desk-color",
    )
    stack = IntegerField(
        lazy_gettext("Pending stack (+N, empty if none)"),
        validators=[Optional(), NumberRange(0, 200, FROM_TO)],
        id="desk-stack",
    )
    stack_rule = SelectField(
        lazy_gettext("Stacking rule"),
        choices=options(list(STACK_RULES.items())),
        default="last",
        id="desk-stack-rule",
    )
    card = SelectField(
        lazy_gettext("Card to play"), choices=CARD_CHOICES, default="R+2", id="desk-card"
    )


@bp.get("/rules")
def page() -> str:
    form = DeskForm(request.args)
    ruling: Ruling | None = None
    problem: str | None = None
    asked = any(field.name in request.args for field in form)  # not just ?table=
    if asked and form.validate():
        try:
            state = position(
                Card.parse(form.top.data),
                Color(form.color.data) if form.color.data else None,
                form.stack.data or 0,
                HouseRules(stack=form.stack_rule.data),
            )
            ruling = rule_on(Card.parse(form.card.data), state)
        except EngineError as error:
            problem = error.message
    elif asked:
        problem = "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in form.errors.items())
    html, sections = rules_html(current_language())
    return render_template(
        "rules.html",
        rules=html,
        sections=sections,
        table=table_to_return_to(request.args.get("table")),
        options=OPTIONS,
        form=form,
        ruling=ruling,
        problem=problem,
    )


@bp.get("/m/<match_id>/desk")
def table_desk(match_id: str) -> str:
    """The referee desk on a table's own position (its top card, active colour, pending
    stack and house rules): a tab of cards, each a link asking whether it may be played
    now; the answer above the cards (links: it works without JavaScript)."""
    table = current_store().table(match_id, access.this_phone())
    desk = table_position(table.state)
    tabs = [(key, tab_title(color), cards) for key, color, cards in CARD_TABS]
    tab = request.args.get("tab", "")
    if tab not in {key for key, _title, _cards in tabs}:
        tab = tab_key(desk.color) if desk is not None else tabs[0][0]
    asked: Card | None = None
    ruling: Ruling | None = None
    problem: str | None = None
    if desk is not None and (code := request.args.get("card")):
        try:
            asked = Card.parse(code)
            ruling = rule_on(asked, desk)
        except EngineError as error:
            problem = error.message
    access.renew()
    return render_template(
        "desk.html",
        match=table.match,
        desk=desk,
        tabs=tabs,
        tab=tab,
        asked=asked,
        ruling=ruling,
        problem=problem,
        stacking=STACK_RULES[desk.rules.stack] if desk is not None else None,
    )
