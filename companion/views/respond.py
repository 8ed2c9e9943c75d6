"""How the table screen answers: the page or its fragment, and each outcome of a change."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

from flask import flash, get_flashed_messages, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import access
from companion.extensions import htmx
from companion.match_stats import current_match_stats
from companion.matches import Table
from companion.outcomes import (
    AlreadyDone,
    Full,
    MovedOn,
    NotTaken,
    Recorded,
    Refused,
    Undone,
)
from companion.rendered import current_parts
from companion.store import current_store
from companion.table_view import PLAYABLE, TAB_KEYS, TableView
from companion.taps import refusal
from engine import DECK_SIZE, N_, Card, EngineError, NotationError, say

# What the screen has open, kept in the table's URL (never in the browser's history: the
# table's links don't push it). A follow-up is bound to the table it was opened on.
FOLLOW_UPS = ("card", "drawn", "fix", "catch")
UI_ARGS = ("tab", *FOLLOW_UPS)

# Marked here, translated where they are shown.
MOVED_ON = N_(
    "The table moved on while you were tapping: someone else recorded a play. "
    "Here is the table as it is now; nothing of yours was recorded."
)
NOT_UNDONE = N_(
    "Not undone: the table moved on since your screen showed it (someone recorded or undid "
    "a line). Check the last plays and undo again if needed."
)
STALE = N_(
    "The table moved on since that question was opened, so it was closed and nothing was "
    "recorded. Here is the table as it is now."
)


# What each kept piece of the screen (a part, templates/partials/table_<part>.html, or a
# watcher's whole fragment) shows beyond its match and language: the table as it is (its
# version and last line), the phone's role, what the screen has open, who recorded the
# last line. A piece is rendered once for each different answer, so one that needs less
# is rendered less: the dock once a match and role, the status and the last plays once a
# table for editors and watchers alike.
KEPT_BY = {
    "status": ("table",),
    "log": ("table",),
    "seats": ("table", "role"),
    "dock": ("role",),
    "keyboard": ("table", "role", "open"),
    "watching": ("table", "last by"),
}
# The characters a query keeps as they are, as url_for writes a query (werkzeug.urls).
QUERY_SAFE = "!$'()*,/:;?@"


def screen_args(table: Table) -> tuple[dict[str, str], bool]:
    """The query's UI arguments if they were made on this table (its version and last
    line, `v` and `last`); else none, and whether a follow-up was closed because of it."""
    asked = {k: request.args[k] for k in UI_ARGS if request.args.get(k)}
    made_on = request.args.get("v", type=int), request.args.get("last", type=int)
    if made_on[0] is not None and table.match.made_on(made_on[0], made_on[1]):
        return asked, False
    return {}, any(k in asked for k in FOLLOW_UPS)


def render_table(
    table: Table,
    *,
    error: EngineError | None = None,
    notice: str | None = None,
    full: str | None = None,
    not_taken: str | None = None,
    brought: int = 0,
    status: int = 200,
) -> tuple[str, int]:
    """The table page, or its fragment for htmx, with what the screen had open (the
    query's UI arguments) when it was opened on this very table. `full`: why nothing
    more can be recorded (the match holds as many lines as a match may); `not_taken`:
    why a tap was not taken (companion/taps.py); `brought`: the line (or undo) of
    another phone a live refresh brings (Changed.brought), stamped on its forms."""
    ui, closed = screen_args(table)
    if closed and notice is None:
        notice = _(STALE)
    picked = None
    if card := ui.get("card", ""):
        try:
            picked = Card.parse(card)
        except NotationError:
            picked = None
    tab = ui.get("tab", PLAYABLE)
    if tab not in TAB_KEYS:
        tab = PLAYABLE
    try:
        drawn = min(max(0, int(ui.get("drawn", 0))), DECK_SIZE)
    except ValueError:
        drawn = 0
    phone = access.this_phone()
    taps = current_store().taps
    view = TableView(
        table,
        tab=tab,
        picked=picked,
        drawn=drawn,
        fix=ui.get("fix"),
        catch=ui.get("catch"),
        quick=table.match.mode == "quick",
        shown=taps.stamp(table, brought),
        phone=phone.id,
    )
    if not htmx:
        access.opened(table.match.id)  # a use: this phone forgets it last
        access.renew()

    # This table's screen: built once, its variants (a tab, a card, a seat) by `at`.
    here = url_for("table.show", match_id=table.match.id, v=table.version, last=table.last_line_id)

    def at(**args: Any) -> str:
        """A URL of this table's screen with something open, bound to this table (its
        query as url_for writes one). Each value quoted as urlencode quotes it (the
        names are Python's), without urlencode's checks: a screen asks for 10-20."""
        return here + "".join(
            f"&{k}={quote_plus(str(v), safe=QUERY_SAFE)}" for k, v in args.items()
        )

    can_edit = phone.role(table.match) == "editor"
    # What the screen and each of its parts are rendered from.
    common = {
        "match": table.match,
        "view": view,
        "s": view.state,
        "legal": view.legal,
        "turn": view.legal.turn,
        "can_edit": can_edit,
        "at": at,
        "ui": ui,
        "awards": match_awards(table),
    }

    # Every kept part is kept per match, language and the app's own path.
    seen_as = (table.match.id, str(get_locale()), request.script_root)

    def kept_as(name: str) -> tuple[object, ...]:
        """What a kept piece of the screen is the same for (KEPT_BY): it is rendered
        once for all phones that ask the same (companion/rendered.py)."""
        needs = KEPT_BY[name]
        return (
            *(name, *seen_as),
            *((table.version, table.last_line_id) if "table" in needs else ()),
            *((can_edit,) if "role" in needs else ()),
            # What is open: checked values (a query's own words never make a key).
            *((view.tab, view.drawn) if "open" in needs else ()),
            *((view.last_by,) if "last by" in needs else ()),
        )

    def part(name: str) -> Markup:
        """A part of the screen (templates/partials/table_<name>.html), kept."""
        return current_parts().get(
            kept_as(name), lambda: render_template(f"partials/table_{name}.html", **common)
        )

    def screen() -> str:
        return render_template(
            "partials/table_body.html" if htmx else "table.html",
            **common,
            part=part,
            error=error,
            notice=notice,
            full=full,
            not_taken=not_taken,
            # The screen a form posts from (its table and what it has open): a tap that
            # is refused shows that same screen again (a tab, a card's question).
            made={"v": table.version, "last": table.last_line_id, **ui},
            settle_ms=taps.settle_ms,
        )

    # A watching phone's fragment, with nothing open and nothing to tell it alone, holds
    # nothing of its own (no form, no stamp): the same for every watcher who sees this
    # table the same way (who recorded its last line), rendered once for all.
    alone = ui or error or notice or full or not_taken or get_flashed_messages()
    if htmx and not can_edit and not alone:
        return current_parts().get(kept_as("watching"), screen), status
    return screen(), status


def match_awards(table: Table) -> list[str]:
    """The match's awards (engine.tools.stats), said in the page's language, once it is won."""
    if table.state.match_winner is None:
        return []
    stats = current_match_stats().get(table.match)
    return [] if stats is None else [str(award) for award in stats.awards]


def answer(
    outcome: Recorded | Undone | AlreadyDone | MovedOn | Refused | Full | NotTaken,
    match_id: str,
    moved_on: str = MOVED_ON,
    undo: bool = False,
) -> Response | tuple[str, int]:
    """A change's outcome as the table hears it: the table again after a 303 (a reload
    never posts twice), or the table as it is with why nothing was done."""
    match outcome:
        case Recorded() | AlreadyDone():  # the same form twice: the first one counted
            return after_change(match_id)
        case Undone(step=step):
            return after_change(match_id, undone=_("Undone: %(play)s", play=say(*step)))
        case NotTaken(table=table, why=why):
            return render_table(table, not_taken=refusal(why, table, undo), status=409)
        case MovedOn(table=table):
            return render_table(table, notice=_(moved_on), status=409)
        case Refused(table=table, error=error):
            return render_table(table, error=error, status=422)
        case Full(table=table):
            return render_table(table, full=outcome.message, status=422)


def after_change(match_id: str, undone: str | None = None) -> Response:
    """303 to the table: a reload never posts twice; htmx follows it for the fragment.
    `undone`: what an undo took back, said once in the table's confirmation.

    No body: nothing shows it (a browser and htmx go straight to the Location)."""
    if undone:
        flash(undone, "undone")
    return Response(status=303, headers={"Location": url_for("table.show", match_id=match_id)})


def form_problems(errors: dict[str, list[str]]) -> str:
    """A form's field errors in one sentence."""
    return "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in errors.items())
