"""Home (the list of matches) and a new match."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import format_timedelta
from werkzeug.wrappers import Response

from companion import access
from companion.forms import NewMatchForm
from companion.matches import Match
from companion.models import now
from companion.store import current_store
from companion.views.share import share_url
from engine import MAX_PLAYERS, MIN_PLAYERS, TYPED_NAME_LENGTH, EngineError

# The engine's seating and name rules, as the new-match page states them.
SEATS = SimpleNamespace(min=MIN_PLAYERS, max=MAX_PLAYERS, name_length=TYPED_NAME_LENGTH)

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    # Only the matches this phone created or opened a link to: ids are not for listing.
    store = current_store()
    matches = store.matches(access.this_phone())
    access.keep_only({m.id for m in matches})  # the rest can never be opened again
    access.renew()
    playing = [m for m in matches if m.status != "match_over"]
    finished = [m for m in matches if m.status == "match_over"]
    return render_template(
        "home.html",
        playing=playing,
        finished=finished,
        forgotten_next=forgotten_next(access.this_phone(), matches),
        remembered=access.REMEMBERED,
        summaries=store.summaries(matches),
        last_played=played_ago(matches),
        groups=_groups(),
    )


def played_ago(matches: list[Match]) -> dict[str, str]:
    """When each match last changed, as the phone's language says a while ago ("5
    minutes ago"): what tells two matches of the same players apart."""
    at = now()
    return {m.id: format_timedelta(m.updated_at - at, add_direction=True) for m in matches}


def _groups() -> list[Any]:
    """The groups this phone knows (companion/groups.py); the rest are forgotten."""
    from companion.groups import current_groups

    known = current_groups().groups(access.this_phone())
    access.keep_only({g.id for g in known}, access.Kind.GROUP)
    return known


@dataclass(frozen=True)
class Forgotten:
    """The match a phone that holds the most it remembers forgets next, and the link
    that brings it back (the editor link only to an editor: it is a secret)."""

    match: Match
    role: access.Role
    link: str


def forgotten_next(phone: access.Phone, matches: list[Match]) -> Forgotten | None:
    if not phone.is_full():
        return None
    by_id = {m.id: m for m in matches}
    oldest = by_id.get(phone.match_ids()[0])
    if oldest is None:
        return None
    role = phone.role(oldest)
    if role == "editor":
        return Forgotten(oldest, role, share_url("share.join", token=oldest.editor_token))
    return Forgotten(oldest, "viewer", share_url("share.watch", token=oldest.viewer_token))


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links to (icons: static/,
    drawn by scripts/make_icons.py)."""
    assert current_app.static_folder is not None
    return send_from_directory(
        current_app.static_folder, "favicon.ico", mimetype="image/x-icon", max_age=86400
    )


@bp.route("/new", methods=["GET", "POST"])
def new_match() -> str | Response | tuple[str, int]:
    form = NewMatchForm()
    if request.method == "GET":
        form.fill_names(request.args.get("players", ""))  # "new match, same players"
    if form.validate_on_submit():
        try:
            match = current_store().create(
                [name for name in form.names() if name],
                form.dealer_name(),
                form.house_rules(),
                form.mode.data,
            )
        except EngineError as error:
            form.problems.append(error.message)
        else:
            access.grant(match, "editor")  # the phone that created the match is an editor
            return redirect(url_for("table.show", match_id=match.id), code=303)
    status = 422 if request.method == "POST" else 200
    return render_template("new_match.html", form=form, seats=SEATS), status
