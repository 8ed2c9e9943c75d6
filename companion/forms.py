"""The app's forms (WTForms through Flask-WTF, so every POST carries a CSRF token)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import LazyString, lazy_gettext
from flask_babel import gettext as _
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    StringField,
    TextAreaField,
)

# The stubs don't know SelectChoice yet (WTForms 3.2 added it; plain tuples are deprecated).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from companion.catalogs import TranslatedForm
from companion.lookalikes import look_alike_problems
from companion.models import MODES
from engine import (
    DECK_SIZE,
    MAX_PLAYERS,
    MERCY_RANGE,
    MIN_PLAYERS,
    OFFICIAL,
    OPTIONS,
    TARGET_RANGE,
    TYPED_NAME_LENGTH,
    HouseRules,
    line_text,
    mercy_problem,
    name_problems,
    rule_values,
    rules_from_fields,
    tidy_name,
)


def options(pairs: Iterable[tuple[str, str | LazyString]]) -> list[SelectChoice]:
    """(value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


def _explain(option: str) -> LazyString:
    """A house rule's explanation (the engine's sentence), in the language of the page
    it is shown on."""
    return LazyString(lambda: _(OPTIONS[option].explanation))


FROM_TO = lazy_gettext("From %(min)s to %(max)s.")
# What each value of a house rule's choice is called on the form (the values are the
# engine's: engine.fields.rule_values).
CHOICE_LABELS = {
    "last": lazy_gettext("At least the last Draw card (official)"),
    "sum": lazy_gettext("At least the total"),
    "until": lazy_gettext("Draw until playable (official)"),
    "one": lazy_gettext("Draw one"),
    "high": lazy_gettext("Winner scores, highest wins (official)"),
    "low": lazy_gettext("Lowest wins"),
}


def rule_choices(option: str) -> list[SelectChoice]:
    """A house rule's choice as radios: the engine's values, the official one first."""
    return options((value, CHOICE_LABELS[value]) for value in rule_values(option))


class NewMatchForm(TranslatedForm):
    players = FieldList(
        StringField(lazy_gettext("Name")),  # checked by the engine's name rules (validate)
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    # A radio beside each name row ("1".."6"); "last", what a form with none ticked
    # posts, is the last name listed.
    dealer = RadioField(
        lazy_gettext("Deals"),
        choices=options([("last", lazy_gettext("The last player listed"))])
        + options(
            (str(i), lazy_gettext("Player %(num)s", num=i)) for i in range(1, MAX_PLAYERS + 1)
        ),
        default="last",
        description=lazy_gettext("The player after the dealer, clockwise, plays first."),
    )
    mode = RadioField(
        lazy_gettext("Mode"),
        choices=options((mode, lazy_gettext(label)) for mode, label in MODES.items()),
        default="referee",
        validators=[DataRequired()],
    )
    stack = RadioField(
        lazy_gettext("Stacking"),
        choices=rule_choices("stack"),
        default=OFFICIAL.stack,
        description=_explain("stack"),
    )
    draw = RadioField(
        lazy_gettext("Drawing"),
        choices=rule_choices("draw"),
        default=OFFICIAL.draw,
        description=_explain("draw"),
    )
    mercy_on = BooleanField(lazy_gettext("Mercy rule"), default=True, description=_explain("mercy"))
    mercy = IntegerField(
        lazy_gettext("Mercy limit"),
        default=OFFICIAL.mercy,
        validators=[
            Optional(),
            NumberRange(
                MERCY_RANGE.start,
                MERCY_RANGE.stop - 1,
                lazy_gettext("From %(min)s to %(max)s cards."),
            ),
        ],
    )
    final_draw = BooleanField(
        lazy_gettext("Final draw"), default=OFFICIAL.final_draw, description=_explain("final_draw")
    )
    seven = BooleanField(
        lazy_gettext("7 swaps hands"), default=OFFICIAL.seven, description=_explain("seven")
    )
    zero = BooleanField(
        lazy_gettext("0 passes hands"), default=OFFICIAL.zero, description=_explain("zero")
    )
    target = IntegerField(
        lazy_gettext("Target score"),
        default=OFFICIAL.target,
        validators=[
            InputRequired(lazy_gettext("Give the score that ends the match.")),
            NumberRange(TARGET_RANGE.start, TARGET_RANGE.stop - 1, FROM_TO),
        ],
        description=_explain("target"),
    )
    scoring = RadioField(
        lazy_gettext("Scoring"),
        choices=rule_choices("scoring"),
        default=OFFICIAL.scoring,
        description=_explain("scoring"),
    )

    def names(self) -> list[str]:
        return [tidy_name(entry.data or "") for entry in self.players]

    def fill_names(self, players: str) -> None:
        """The seats filled in from "Ann, Bob, Cy" (a new match with the same players)."""
        for entry, name in zip(self.players, players.split(","), strict=False):
            entry.data = tidy_name(name)[:TYPED_NAME_LENGTH]

    def validate(self, extra_validators: Any = None) -> bool:
        ok: bool = super().validate(extra_validators)
        self.problems: list[str] = []  # about the names as a whole
        names = [name for name in self.names() if name]
        if len(names) < MIN_PLAYERS:
            self.problems.append(_("Enter at least %(num)s names.", num=MIN_PLAYERS))
            ok = False
        for entry, problem in zip(self.players, name_problems(self.names()), strict=True):
            if problem is not None:
                refuse(entry, problem)
                ok = False
        # On top of the engine's rule, the app's: names that look alike (lookalikes.py).
        for entry, problem in zip(self.players, look_alike_problems(self.names()), strict=True):
            if problem is not None and not entry.errors:
                refuse(entry, problem)
                ok = False
        row = self.dealer_row()
        # A value no radio offers was already refused by the field's own check.
        if row is not None and not self.names()[row - 1]:
            refuse(self.dealer, _("The dealer's row has no name."))
            ok = False
        problem = mercy_problem(self.data)
        if problem is not None:
            refuse(self.mercy, problem)
            ok = False
        return ok

    def house_rules(self) -> HouseRules:
        """Once valid: the house rules chosen (the engine reads the fields)."""
        return rules_from_fields(self.data)

    def dealer_row(self) -> int | None:
        """The row (1 to 6) whose radio is ticked: the one chosen, else the last row
        with a name (the default, as far as the page knows the names yet)."""
        if self.dealer.data == "last":
            filled = [row for row, name in enumerate(self.names(), start=1) if name]
            return filled[-1] if filled else None
        rows = [str(i) for i in range(1, MAX_PLAYERS + 1)]
        return int(self.dealer.data) if self.dealer.data in rows else None

    def dealer_name(self) -> str:
        """Once valid: the name typed in the dealer's row."""
        row = self.dealer_row()
        assert row is not None
        return self.names()[row - 1]


def refuse(field: Field, message: str) -> None:
    """Say what is wrong beside the field."""
    field.errors = [*field.errors, message]


KEY = [Optional(), Length(max=40)]  # the idempotency key of a rendered form
CARDS = FROM_TO


class TableForm(TranslatedForm):
    """A form the table screen posts (the page renders it, with csrf_token()).

    CSRFProtect checks the token of every POST before any view runs, so these forms
    only read and check their fields; checking the token twice would cost a second
    signature on the hottest request.
    """

    class Meta:
        csrf = False

    # The table the form was made on: its version and last line (an undo and a new line
    # elsewhere leave the version as it was, not the last line). Pages from before this
    # field send no `last`: then the version alone is checked.
    version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    last = IntegerField(validators=[Optional(), NumberRange(min=0)])
    key = HiddenField(validators=KEY)
    # When and how its screen was shown, signed (companion/taps.py): a tap on a screen
    # nobody could have read yet is not taken.
    shown = HiddenField(validators=[Optional(), Length(max=64)])

    def made_on(self) -> tuple[int, int | None, str | None, str | None]:
        """The table the form was made on (version, last line), its key and its screen's
        stamp, once valid."""
        assert self.version.data is not None
        return self.version.data, self.last.data, self.key.data or None, self.shown.data or None


class LineForm(TableForm):
    """One record line from the table screen: who, what, and the table it was read from."""

    player = StringField(validators=[Optional(), Length(max=60)])
    action = StringField(validators=[InputRequired(), Length(max=400)])
    drawn = IntegerField(validators=[Optional(), NumberRange(0, DECK_SIZE, CARDS)])
    count = IntegerField(validators=[Optional(), NumberRange(0, DECK_SIZE, CARDS)])

    def line(self) -> str:
        """The line's text, as the engine reads the fields (engine.fields.line_text)."""
        return line_text(self.data) or ""


class UndoForm(TableForm):
    """Undo the last line of the table the form was made on."""


class RevealForm(TableForm):
    player = HiddenField(validators=[DataRequired(), Length(max=60)])
    cards = StringField(lazy_gettext("Cards"), validators=[Optional(), Length(max=600)])
    points = IntegerField(
        lazy_gettext("Or points"),
        validators=[Optional(), NumberRange(0, 10_000, lazy_gettext("From 0 to 10000."))],
    )

    def line(self) -> str | None:
        """The reveal's line (None with neither cards nor points), as the engine reads
        the fields (engine.fields.line_text)."""
        return line_text(self.data)


class ImportForm(TranslatedForm):
    record = FileField(lazy_gettext("Table record file"))
    text = TextAreaField(
        lazy_gettext("Or paste the record"), validators=[Optional(), Length(max=1_000_000)]
    )


class SendForm(TranslatedForm):
    """The group a match is sent to (companion/views/sending.py): its editor link."""

    link = StringField(
        lazy_gettext("The group's editor link"), validators=[DataRequired(), Length(max=2000)]
    )


class RemoveForm(TranslatedForm):
    """Remove a match this version no longer replays (companion/views/unreplayable.py):
    ticked once its record is kept, since nothing brings a removed match back here."""

    sure = BooleanField(
        lazy_gettext("Its record is downloaded, or not needed"), validators=[DataRequired()]
    )


class RepairForm(TranslatedForm):
    """Repair the names of a match this version refuses for them (its page shows what
    each becomes: companion/views/unreplayable.py)."""
