"""The table: whose turn, what they face, the card keyboard, undo, live updates."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, render_template, request, url_for
from sqlalchemy import Row
from werkzeug.wrappers import Response

from companion import access, store
from companion.extensions import db, htmx
from companion.forms import LineForm, UndoForm
from companion.models import Match
from companion.table_view import TableView, tab_key
from engine import Card, EngineError, NotationError

bp = Blueprint("table", __name__, url_prefix="/m")

UI_ARGS = ("tab", "card", "drawn", "fix")  # what the screen shows, kept across live updates


def get_match(match_id: str, need: access.Role = "viewer") -> Match:
    """The match to show or to record a line in: one read, a snapshot (store.read_match)."""
    match = store.read_match(match_id) if len(match_id) <= 32 else None
    if match is None:
        abort(404)
    access.require(match, need)
    return match


def match_to_change(match_id: str, need: access.Role = "editor") -> Match:
    """The match itself, in the session, for changes to the row (undo, new links)."""
    if len(match_id) > 32:
        abort(404)
    match: Match = db.get_or_404(Match, match_id)
    access.require(match, need)
    return match


def render_table(
    match: Match, *, error: EngineError | None = None, notice: str | None = None, status: int = 200
) -> tuple[str, int]:
    # Held still while the page is made: with threads, another request for this match
    # must not move its game on mid-page.
    with store.reading(match) as table:
        picked = None
        card_arg = request.args.get("card", "")
        if card_arg:
            try:
                picked = Card.parse(card_arg)
            except NotationError:
                picked = None
        state = table.game.state
        default_tab = tab_key(state.color) if state.color else "R"
        tab = request.args.get("tab", default_tab)
        if tab not in ("R", "Y", "G", "B", "W"):
            tab = default_tab
        drawn = max(0, min(request.args.get("drawn", 0, type=int) or 0, 168))
        view = TableView(table, tab=tab, picked=picked, drawn=drawn)
        template = "partials/table_body.html" if htmx else "table.html"
        if not htmx:
            access.renew()
        ui = {k: request.args[k] for k in UI_ARGS if request.args.get(k)}
        return (
            render_template(
                template,
                match=match,
                view=view,
                can_edit=access.role(match) == "editor",
                error=error,
                notice=notice,
                fix=request.args.get("fix"),
                drawn=drawn,
                ui=ui,
            ),
            status,
        )


@bp.get("/<match_id>")
def show(match_id: str) -> tuple[str, int]:
    return render_table(get_match(match_id))


@bp.get("/<match_id>/live")
def live(match_id: str) -> Response | tuple[str, int]:
    """Polled by every open table: 204 while nothing changed, else the fresh table.

    The common answer costs no query on PostgreSQL, where the process hears of every
    change (versions.py), and one read of the match row on SQLite. A changed table
    costs, besides, a read of the lines this process has not applied yet.
    """
    known = store.known_state(match_id)
    if known is not None and access.role(known):  # a refusal comes from the database
        if _unchanged(known):
            return Response(status=204)
        shown = request.args.get("v", type=int)
        if shown is not None and shown < known.version:
            # Behind what was heard: show that (the header as read, the log as heard).
            # Otherwise the screen may be ahead of the news: ask the database.
            return render_table(store.snapshot(known))
    row = store.read_match_row(match_id) if len(match_id) <= 32 else None
    if row is None:
        abort(404)
    access.require(row, "viewer")
    if _unchanged(row):
        return Response(status=204)
    return render_table(store.snapshot(row))


def made_on(
    match: Match | store.versions.Known | Row[Any], version: int | None, last: int | None
) -> bool:
    """Is the match the table a form or poller was made on (its version, and last line
    if named: pages older than that field don't)?"""
    return match.version == version and last in (None, match.last_line_id)


def _unchanged(match: Match | store.versions.Known | Row[Any]) -> bool:
    """Does the poller show the table as it is?"""
    return made_on(match, request.args.get("v", type=int), request.args.get("last", type=int))


@bp.post("/<match_id>/line")
def record_line(match_id: str) -> Response | tuple[str, int]:
    form = LineForm()
    if not form.validate_on_submit():
        problems = "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items())
        return render_table(
            get_match(match_id, "editor"),
            error=NotationError(f"The form was incomplete ({problems})."),
            status=422,
        )
    return record(match_id, form.version.data, form.line(), form.key.data, form.last.data)


def record(
    match_id: str, version: int, line: str, key: str | None, last: int | None = None
) -> Response | tuple[str, int]:
    """Append a line for a form, answering the way the table needs to hear it.

    Most often this process has the game cached at the form's version: one statement
    writes the line if the match is still that game. Otherwise (or if the engine
    refuses the line) bring the game up to the match and go the whole way, which
    explains any refusal.
    """
    key = key or None
    token = access.held_token(match_id, "editor")
    if token and store.append_cached(match_id, token, version, line, key, last):
        return after_change(match_id)
    # The match as this process heard it, if that is where the form was made (the write
    # checks it again); else, and for any refusal, as the database has it.
    known = store.known_state(match_id)
    if known is not None and made_on(known, version, last) and access.role(known) == "editor":
        match = store.snapshot(known)
    else:
        match = get_match(match_id, "editor")
    try:
        store.append(match, version, line, key, last)
    except store.AlreadyDone:
        return after_change(match_id)  # a double tap: the first one counted
    except store.StaleVersion as stale:
        # The table as it is now: the snapshot read before the write is behind it.
        return render_table(get_match(match_id, "editor"), notice=str(stale), status=409)
    except EngineError as error:
        now = get_match(match_id, "editor")
        if not made_on(now, version, last):  # judged on a table that has moved on since
            return render_table(now, notice=str(store.StaleVersion(now.version)), status=409)
        return render_table(now, error=error, status=422)
    return after_change(match_id)


@bp.post("/<match_id>/undo")
def undo(match_id: str) -> Response | tuple[str, int]:
    match = match_to_change(match_id)
    form = UndoForm()
    if not form.validate_on_submit():
        return render_table(match, error=NotationError("The undo form was incomplete."), status=422)
    try:
        line = store.undo(match, form.version.data, form.key.data or None, form.last.data)
    except store.AlreadyDone:
        return after_change(match.id)
    except store.StaleVersion:
        return render_table(
            match,
            notice="Not undone: the table moved on since your screen showed it (someone "
            "recorded or undid a line). Check the last plays and undo again if needed.",
            status=409,
        )
    except EngineError as error:
        return render_table(match, error=error, status=422)
    return after_change(match.id, notice=f"Undone: {line}")


def after_change(match_id: str, notice: str | None = None) -> Response:
    """303 to the table: a reload never posts twice; htmx follows it for the fragment.

    No body: nothing shows it (a browser and htmx go straight to the Location)."""
    if notice:
        flash(notice)
    return Response(status=303, headers={"Location": url_for("table.show", match_id=match_id)})
