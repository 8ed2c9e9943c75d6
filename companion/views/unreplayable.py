"""A match this version of the app no longer replays (stored before a newer rule: a name
it now refuses, say): wherever it is opened, a page of its own, never a 500. It says what
is wrong in plain words, offers the record as stored, and lets its editor repair its
names (when that makes it replay: companion/repairs.py) or remove it."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from companion.access import NotAllowed, this_phone, writing_phone
from companion.forms import RemoveForm, RepairForm
from companion.games import NoLongerReplays
from companion.store import current_store

bp = Blueprint("unreplayable", __name__, url_prefix="/m")


def unreplayable_page(error: NoLongerReplays) -> tuple[str, int, dict[str, str]]:
    """The page a match that no longer replays answers with (a 409: it is there, and
    can't be played on); to htmx (a live table polling it), a reload that shows it."""
    try:
        match = current_store().match(error.match_id, this_phone())
    except NotAllowed:  # opened through a page of its group: not this phone's to see
        match = None
    where = (
        _("In its players, dealer or rules: %(reason)s", reason=error.message)
        if error.play == 0
        else _("In play %(number)s: %(reason)s", number=error.play, reason=error.message)
    )
    editor = match is not None and this_phone().role(match) == "editor"
    repair = current_store().name_repair(match) if editor and match is not None else None
    page = render_template(
        "unreplayable.html",
        match=match,
        where=where,
        form=RemoveForm() if editor else None,
        repair=repair,
        repair_form=RepairForm() if repair else None,
    )
    # A live table of this match, or a tap on it: reloaded, it shows this page. (Another
    # page's htmx request is answered as it is: its own page says what it could not do.)
    own = (request.view_args or {}).get("match_id") == error.match_id
    refresh = own and request.headers.get("HX-Request")
    return page, 409, {"HX-Refresh": "true"} if refresh else {}


@bp.post("/<match_id>/remove")
def remove(match_id: str) -> Response:
    """Remove the match, if it no longer replays (else nothing: its table shows)."""
    form = RemoveForm()
    if not form.validate_on_submit():
        flash(_("Tick the box first: a removed match can't be brought back here."))
        return redirect(url_for("table.show", match_id=match_id), 303)
    if current_store().remove_unreplayable(match_id, writing_phone()):
        flash(_("The match was removed."))
        return redirect(url_for("main.home"), 303)
    return redirect(url_for("table.show", match_id=match_id), 303)


@bp.post("/<match_id>/repair")
def repair(match_id: str) -> Response:
    """Repair the match's names (its page offers it when that makes it replay), and show
    its table again; else its page, which says so (a second tap finds the match opens:
    nothing to say)."""
    store, phone = current_store(), writing_phone()
    repaired = store.repair_names(match_id, phone)
    if repaired is None:
        if store.state(store.match(match_id, phone)) is None:
            flash(_("Its names could not be repaired here: download its record to keep it."))
    else:
        changes = [
            _("“%(old)s” becomes “%(new)s”", old=old, new=new) for old, new in repaired.changes()
        ]
        flash(
            ngettext(
                "Name repaired (%(names)s): every play is kept.",
                "Names repaired (%(names)s): every play is kept.",
                len(changes),
                names="; ".join(changes),
            )
        )
    return redirect(url_for("table.show", match_id=match_id), 303)
