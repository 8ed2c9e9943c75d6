"""The table: show it, poll it, record a line, undo."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.access import this_phone, writing_phone
from companion.forms import LineForm, UndoForm
from companion.outcomes import Changed
from companion.quiet_polls import POLL_FAILED, POLLED
from companion.store import current_store
from companion.views.respond import NOT_UNDONE, answer, form_problems, render_table
from engine import NotationError

bp = Blueprint("table", __name__, url_prefix="/m")


@bp.get("/<match_id>")
def show(match_id: str) -> tuple[str, int]:
    return render_table(current_store().table(match_id, this_phone()))


@bp.get("/<match_id>/live")
def live(match_id: str) -> Response | tuple[str, int]:
    """Polled by every open table: 204 while nothing changed, else the fresh table."""
    if (failed := request.environ.get(POLL_FAILED)) is not None:
        raise failed  # the database failed the quiet path already (companion/quiet_polls.py)
    # The quiet path found the table moved on for this very phone and poll: shown as found.
    polled = request.environ.get(POLLED) or current_store().poll(
        match_id, this_phone(), request.args.get("v", type=int), request.args.get("last", type=int)
    )
    if isinstance(polled, Changed):
        return render_table(polled.table, brought=polled.brought)
    return Response(status=204)


@bp.post("/<match_id>/line")
def record_line(match_id: str) -> Response | tuple[str, int]:
    form = LineForm()
    store, phone = current_store(), this_phone()
    if not form.validate_on_submit():
        problem = NotationError(
            _("The form was incomplete (%(problems)s).", problems=form_problems(form.errors))
        )
        return render_table(store.table(match_id, phone, "editor"), error=problem, status=422)
    version, last, key, shown = form.made_on()
    written = store.record(match_id, writing_phone(), version, last, key, form.line(), shown)
    return answer(written, match_id)


@bp.post("/<match_id>/undo")
def undo(match_id: str) -> Response | tuple[str, int]:
    form = UndoForm()
    store, phone = current_store(), this_phone()
    if not form.validate_on_submit():
        problem = NotationError(_("The undo form was incomplete."))
        return render_table(store.table(match_id, phone, "editor"), error=problem, status=422)
    version, last, key, shown = form.made_on()
    undone = store.undo(match_id, phone, version, last, key, shown)
    return answer(undone, match_id, moved_on=NOT_UNDONE, undo=True)
