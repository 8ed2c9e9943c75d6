"""The rules page (docs/RULES.md, rendered) and the referee desk."""

from __future__ import annotations

import re
from functools import lru_cache

import markdown
from flask import Blueprint, render_template, request
from markdown.extensions.toc import slugify
from markupsafe import Markup
from wtforms import Form, IntegerField, SelectField
from wtforms.validators import NumberRange, Optional

from companion import ROOT
from companion.forms import options
from engine import ALL_CARDS, OPTIONS, Card, Color, EngineError, HouseRules
from engine.desk import Ruling, position, rule_on

bp = Blueprint("rules", __name__)

RULES_FILE = ROOT / "docs" / "RULES.md"
RULE_ID = re.compile(r"\[([a-z-]+)\]\s*$")


def _anchor(value: str, separator: str) -> str:
    """'Stacking [stack]' gets the id 'stack', the id refusals link to."""
    found = RULE_ID.search(value)
    return found.group(1) if found else str(slugify(value, separator))


@lru_cache(maxsize=1)
def rules_html() -> Markup:
    text = RULES_FILE.read_text(encoding="utf-8")
    html = markdown.markdown(
        text, extensions=["tables", "toc"], extension_configs={"toc": {"slugify": _anchor}}
    )
    return Markup(html)


CARD_CHOICES = options((str(c), c.name) for c in ALL_CARDS)
COLOR_CHOICES = options([("", "The card's own colour")] + [(c.value, c.title) for c in Color])


class DeskForm(Form):
    """A made-up position: no CSRF needed, it changes nothing (GET).

    The fields' ids are prefixed: the page's rule headings own ids like "stack".
    """

    top = SelectField("Top card", choices=CARD_CHOICES, default="R5", id="desk-top")
    color = SelectField(
        "Active colour (for a wild on top)", choices=COLOR_CHOICES, default="", id="desk-color"
    )
    stack = IntegerField(
        "Pending stack (+N, empty if none)",
        validators=[Optional(), NumberRange(0, 200, "From %(min)s to %(max)s.")],
        id="desk-stack",
    )
    stack_rule = SelectField(
        "Stacking rule",
        choices=options(
            [("last", "At least the last Draw card (official)"), ("sum", "At least the total")]
        ),
        default="last",
        id="desk-stack-rule",
    )
    card = SelectField("Card to play", choices=CARD_CHOICES, default="R+2", id="desk-card")


@bp.get("/rules")
def page() -> str:
    form = DeskForm(request.args)
    ruling: Ruling | None = None
    problem: str | None = None
    if request.args and form.validate():
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
    elif request.args:
        problem = "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items())
    return render_template(
        "rules.html",
        rules=rules_html(),
        options=OPTIONS,
        form=form,
        ruling=ruling,
        problem=problem,
    )
