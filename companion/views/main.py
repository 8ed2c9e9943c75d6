"""Home (the list of matches) and a new match."""

from __future__ import annotations

from types import SimpleNamespace

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from werkzeug.wrappers import Response

from companion import access
from companion.forms import NewMatchForm
from companion.store import current_store
from engine import EngineError
from engine.game import MAX_PLAYERS, MIN_PLAYERS
from engine.names import TYPED_NAME_LENGTH

# The engine's seating and name rules, as the new-match page states them.
SEATS = SimpleNamespace(min=MIN_PLAYERS, max=MAX_PLAYERS, name_length=TYPED_NAME_LENGTH)

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    # Only the matches this phone created or opened a link to: ids are not for listing.
    matches = current_store().matches(access.this_phone())
    access.renew()
    playing = [m for m in matches if m.status != "match_over"]
    finished = [m for m in matches if m.status == "match_over"]
    return render_template("home.html", playing=playing, finished=finished)


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
