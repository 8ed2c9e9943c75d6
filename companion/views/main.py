"""Home (the list of matches) and a new match."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from companion import access, store
from companion.extensions import db
from companion.forms import NewMatchForm
from companion.models import Match
from engine import EngineError

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    # Only the matches this phone created or opened a link to: ids are not for listing.
    known = access.known_match_ids()
    access.renew()
    matches = db.session.scalars(
        select(Match).where(Match.id.in_(known)).order_by(Match.updated_at.desc())
    ).all()
    matches = [m for m in matches if access.role(m)]
    playing = [m for m in matches if m.status != "match_over"]
    finished = [m for m in matches if m.status == "match_over"]
    return render_template("home.html", playing=playing, finished=finished)


@bp.route("/new", methods=["GET", "POST"])
def new_match() -> str | Response | tuple[str, int]:
    form = NewMatchForm()
    if request.method == "GET":
        again = request.args.get("players", "")
        for entry, name in zip(form.players, again.split(","), strict=False):
            entry.data = name.strip()[:20]
    if form.validate_on_submit():
        try:
            match = store.create_match(
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
    return render_template("new_match.html", form=form), status
