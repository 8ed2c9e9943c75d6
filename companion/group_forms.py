"""The form of a new match in a group: the new-match form with roster players in the seats."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from wtforms import FieldList, SelectField, StringField

from companion.forms import NewMatchForm, options, refuse
from engine import MAX_PLAYERS, tidy_name


class GroupMatchForm(NewMatchForm):
    """Each seat picks a roster player (the last seating preselected); a newcomer typed
    in joins the roster and takes the first empty seat. Dealer, mode and house rules
    are the new-match form's, checked the same way."""

    # Seats as lists of names: what the base form reads as typed names (a name not on the
    # roster is a newcomer, Groups.start_match).
    players = FieldList(
        SelectField(lazy_gettext("Seat"), validate_choice=False),  # type: ignore[arg-type]
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    newcomer = StringField(lazy_gettext("Someone new"))

    def offer(self, roster: Sequence[str]) -> None:
        """The roster's players in every seat's list, an empty seat first."""
        choices = options([("", _("Empty seat")), *((name, name) for name in roster)])
        for entry in self.players:
            entry.choices = choices  # type: ignore[attr-defined]

    def names(self) -> list[str]:
        seats = [tidy_name(entry.data or "") for entry in self.players]
        newcomer = tidy_name(self.newcomer.data or "")
        if newcomer and "" in seats:
            seats[seats.index("")] = newcomer
        return seats

    def validate(self, extra_validators: object = None) -> bool:
        ok = super().validate(extra_validators)
        seats = [tidy_name(entry.data or "") for entry in self.players]
        if tidy_name(self.newcomer.data or "") and "" not in seats:
            refuse(self.newcomer, _("Every seat is taken: empty one for the newcomer."))
            ok = False
        return ok
