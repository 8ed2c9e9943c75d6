"""How the table screen answers: the page or its fragment, and each outcome of a change."""

from __future__ import annotations

from flask import flash, render_template, request, url_for
from werkzeug.wrappers import Response

from companion import access
from companion.extensions import htmx
from companion.matches import Table
from companion.store import AlreadyDone, MovedOn, Recorded, Refused, Undone
from companion.table_view import TAB_KEYS, TableView, tab_key
from engine import DECK_SIZE, Card, EngineError, NotationError

UI_ARGS = ("tab", "card", "drawn", "fix")  # what the screen shows, kept across live updates

MOVED_ON = (
    "The table moved on while you were tapping: someone else recorded a play. "
    "Here is the table as it is now; nothing of yours was recorded."
)
NOT_UNDONE = (
    "Not undone: the table moved on since your screen showed it (someone recorded or undid "
    "a line). Check the last plays and undo again if needed."
)


def render_table(
    table: Table, *, error: EngineError | None = None, notice: str | None = None, status: int = 200
) -> tuple[str, int]:
    """The table page, or its fragment for htmx; what the screen showed (the query's UI
    arguments) is shown again."""
    picked = None
    if card := request.args.get("card", ""):
        try:
            picked = Card.parse(card)
        except NotationError:
            picked = None
    default_tab = tab_key(table.state.color) if table.state.color else "R"
    tab = request.args.get("tab", default_tab)
    if tab not in TAB_KEYS:
        tab = default_tab
    drawn = min(max(0, request.args.get("drawn", 0, type=int) or 0), DECK_SIZE)
    view = TableView(table, tab=tab, picked=picked, drawn=drawn)
    if not htmx:
        access.renew()
    return (
        render_template(
            "partials/table_body.html" if htmx else "table.html",
            match=table.match,
            view=view,
            can_edit=access.this_phone().role(table.match) == "editor",
            error=error,
            notice=notice,
            fix=request.args.get("fix"),
            ui={k: request.args[k] for k in UI_ARGS if request.args.get(k)},
        ),
        status,
    )


def answer(
    outcome: Recorded | Undone | AlreadyDone | MovedOn | Refused,
    match_id: str,
    moved_on: str = MOVED_ON,
) -> Response | tuple[str, int]:
    """A change's outcome as the table hears it: the table again after a 303 (a reload
    never posts twice), or the table as it is with why nothing was done."""
    match outcome:
        case Recorded() | AlreadyDone():  # a double tap: the first one counted
            return after_change(match_id)
        case Undone(text=text):
            return after_change(match_id, notice=f"Undone: {text}")
        case MovedOn(table=table):
            return render_table(table, notice=moved_on, status=409)
        case Refused(table=table, error=error):
            return render_table(table, error=error, status=422)


def after_change(match_id: str, notice: str | None = None) -> Response:
    """303 to the table: a reload never posts twice; htmx follows it for the fragment.

    No body: nothing shows it (a browser and htmx go straight to the Location)."""
    if notice:
        flash(notice)
    return Response(status=303, headers={"Location": url_for("table.show", match_id=match_id)})


def form_problems(errors: dict[str, list[str]]) -> str:
    """A form's field errors in one sentence."""
    return "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in errors.items())
