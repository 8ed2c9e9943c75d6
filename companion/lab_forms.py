"""The lab's form: two rule sets (the new-match form's house-rule fields, each under a
prefix of its own: a-stack, b-stack, ...), players, policy and hands."""

from __future__ import annotations

from typing import Any

from flask_babel import LazyString, lazy_gettext
from flask_babel import gettext as _
from wtforms import Form, FormField, IntegerField, RadioField
from wtforms.validators import InputRequired, NumberRange

from companion.catalogs import TranslatedForm
from companion.forms import FROM_TO, NewMatchForm, options, refuse
from companion.lab import MIN_HANDS, Settings, policy_title
from engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    HouseRules,
    mercy_problem,
    rule_fields,
    rules_from_fields,
)
from engine.tools import POLICIES

DEFAULT_HANDS = 5_000
HANDS_STEP = 1_000  # what the hands stepper's buttons add or take


class RuleSetForm(Form):
    """A rule set: the new-match form's house-rule fields, checked the same way."""

    stack = NewMatchForm.stack
    draw = NewMatchForm.draw
    mercy_on = NewMatchForm.mercy_on
    mercy = NewMatchForm.mercy
    final_draw = NewMatchForm.final_draw
    seven = NewMatchForm.seven
    zero = NewMatchForm.zero
    target = NewMatchForm.target
    scoring = NewMatchForm.scoring

    # (The fields are the new-match form's, so mypy sees them unbound: read by name.)

    def validate(self, extra_validators: Any = None) -> bool:
        ok: bool = super().validate(extra_validators)
        problem = mercy_problem(self.data)
        if problem is not None:
            refuse(self["mercy"], problem)
            ok = False
        return ok

    def house_rules(self) -> HouseRules:
        """Once valid: the rule set chosen (the engine reads the fields)."""
        return rules_from_fields(self.data)

    def in_notation(self) -> str:
        """The rule set as a `rules:` value ("official", "stack=sum"), "" while invalid:
        shown on the folded rule set, so the table sees what it compares."""
        try:
            return str(self.house_rules())
        except (TypeError, ValueError):
            return ""

    def fill(self, rules: HouseRules) -> None:
        """The fields set to `rules` (a match's house rules), as a browser posts them."""
        for name, value in rule_fields(rules).items():
            self[name].process_formdata([] if value is None else [value])


def _title(policy: str) -> LazyString:
    """A policy's name in the language of the page it is shown on (the engine says it)."""
    return LazyString(lambda: policy_title(policy))


class LabForm(TranslatedForm):
    a = FormField(RuleSetForm, lazy_gettext("Rule set A"))
    b = FormField(RuleSetForm, lazy_gettext("Rule set B"))
    players = IntegerField(
        lazy_gettext("Players"),
        default=4,
        validators=[
            InputRequired(lazy_gettext("Give how many players sit at the table.")),
            NumberRange(MIN_PLAYERS, MAX_PLAYERS, FROM_TO),
        ],
    )
    policy = RadioField(
        lazy_gettext("How the simulated players play"),
        choices=options((name, _title(name)) for name in POLICIES),
        default=POLICIES[0],
    )
    hands = IntegerField(
        lazy_gettext("Hands per rule set"),
        default=DEFAULT_HANDS,
        validators=[InputRequired(lazy_gettext("Give how many hands to play."))],
    )

    def check_hands(self, most: int) -> bool:
        """At least MIN_HANDS, at most the server's limit (LAB_MAX_HANDS)."""
        if self.hands.data is None or not MIN_HANDS <= self.hands.data <= most:
            if self.hands.data is not None:
                refuse(self.hands, _("From %(min)s to %(max)s.", min=MIN_HANDS, max=most))
            return False
        return True

    def settings(self) -> Settings:
        return Settings(
            self.a.form.house_rules(),
            self.b.form.house_rules(),
            self.players.data or 0,  # once valid: a number
            self.policy.data,
            self.hands.data or 0,
        )
