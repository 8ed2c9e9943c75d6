"""Groups: a new group, its page (matches, leaderboard, roster), a new match from the
roster, its share links, and moving a match into a group. Thin: parse, ask
companion.groups, render; 303 after every change."""

from __future__ import annotations

import io
from collections.abc import Callable

from flask import Blueprint, flash, redirect, render_template, request, send_file, url_for
from flask_babel import format_date, get_locale, get_timezone
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import access, charts
from companion.group_export import Export
from companion.group_forms import GroupMatchForm
from companion.group_pages import Refusal
from companion.group_reads import SHOWN_MATCHES
from companion.groups import current_groups
from companion.store import current_store
from companion.views.main import SEATS, played_ago
from companion.views.share import GROUPS
from engine import TYPED_NAME_LENGTH

bp = Blueprint("groups", __name__)


def _page(group_id: str, error: str | None = None, status: int = 200) -> tuple[str, int]:
    """The group page, or its body for htmx; with why a change was refused."""
    every = request.args.get("all") == "1"  # every match listed, not the newest few
    page = current_groups().page(group_id, access.this_phone(), None if every else SHOWN_MATCHES)
    template = "partials/group_body.html" if request.headers.get("HX-Request") else "group.html"
    figures = page.stats.leaderboard()
    listed = [p.match for p in [*page.playing, *page.finished]]
    return render_template(
        template,
        page=page,
        # A match in progress says its hand, whose turn and who leads (the engine's
        # line, as Home says it); every match when it was last played.
        summaries=current_store().summaries([p.match for p in page.playing]),
        last_played=played_ago(listed),
        error=error,
        name_length=TYPED_NAME_LENGTH,
        wins=charts.win_shares([(name, f.matches_won) for name, f in figures]),
        knockouts=charts.knockouts(
            [(name, f.knockouts_dealt, f.knockouts_suffered) for name, f in figures]
        ),
    ), status


def _done(group_id: str, notice: str | None = None) -> Response:
    if notice:
        flash(notice)
    return redirect(url_for("groups.show", group_id=group_id), code=303)


def _answer(group_id: str, outcome: object, notice: str) -> Response | tuple[str, int]:
    if isinstance(outcome, Refusal):
        return _page(group_id, outcome.message, 422)
    return _done(group_id, notice)


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> str | Response | tuple[str, int]:
    if request.method == "GET":
        return render_template("group_new.html", error=None, name="")
    name = request.form.get("name", "")
    group = current_groups().create(name)
    if isinstance(group, Refusal):
        return render_template("group_new.html", error=group.message, name=name), 422
    access.grant(group, "editor")  # the phone that created it is an editor
    return redirect(url_for("groups.show", group_id=group.id), code=303)


@bp.get("/g/<group_id>")
def show(group_id: str) -> tuple[str, int]:
    access.renew()
    return _page(group_id)


@bp.get("/g/<group_id>/p/<player_id>")
def player(group_id: str, player_id: str) -> str:
    """A roster player's statistics in the group, their results over time, and how
    they fare against each other player."""
    page = current_groups().player(group_id, access.this_phone(), _player_id(player_id))

    def chart() -> charts.Results:
        return charts.results(
            [(format_date(r.match.created_at), r.points, r.won) for r in page.results]
        )

    # The chart has a point per match: drawn once per change of the group, language and
    # time zone, and kept with the group's history (companion/group_history.py).
    key = ("results chart", page.member.id, str(get_locale()), str(get_timezone()))

    def kept(draw: Callable[[], Markup]) -> Markup:
        return draw() if page.history is None else page.history.derived(key, draw)

    return render_template("group_player.html", page=page, chart=chart, kept=kept)


# ---------------------------------------------------------------- the roster


@bp.post("/g/<group_id>/players")
def add_player(group_id: str) -> Response | tuple[str, int]:
    name = request.form.get("name", "")
    outcome = current_groups().add_player(group_id, access.this_phone(), name)
    return _answer(
        group_id, outcome, _("%(name)s joined the roster.", name=getattr(outcome, "name", ""))
    )


def _player_id(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 10 else -1


@bp.post("/g/<group_id>/players/<player_id>/name")
def rename_player(group_id: str, player_id: str) -> Response | tuple[str, int]:
    name = request.form.get("name", "")
    outcome = current_groups().rename(group_id, access.this_phone(), _player_id(player_id), name)
    return _answer(
        group_id, outcome, _("Renamed %(name)s everywhere.", name=getattr(outcome, "name", ""))
    )


@bp.post("/g/<group_id>/players/<player_id>/retired")
def retire_player(group_id: str, player_id: str) -> Response | tuple[str, int]:
    retired = request.form.get("retired") == "1"
    groups = current_groups()
    outcome = groups.retire(group_id, access.this_phone(), _player_id(player_id), retired)
    name = getattr(outcome, "name", "")
    said = _("%(name)s is retired.", name=name) if retired else _("%(name)s is back.", name=name)
    return _answer(group_id, outcome, said)


@bp.post("/g/<group_id>/players/<player_id>/remove")
def remove_player(group_id: str, player_id: str) -> Response | tuple[str, int]:
    outcome = current_groups().remove(group_id, access.this_phone(), _player_id(player_id))
    name = getattr(outcome, "name", "")
    return _answer(group_id, outcome, _("%(name)s is off the roster.", name=name))


# ---------------------------------------------------------------- matches


@bp.route("/g/<group_id>/new", methods=["GET", "POST"])
def new_match(group_id: str) -> str | Response | tuple[str, int]:
    groups, phone = current_groups(), access.this_phone()
    group = groups.group(group_id, phone, "editor")
    roster = [m.name for m in groups.roster(group.id, phone) if not m.retired]
    form = GroupMatchForm()
    form.offer(roster)
    if request.method == "GET":
        form.fill_names(", ".join(groups.last_seating(group.id)))  # the last seating first
    if form.validate_on_submit():
        match = groups.start_match(
            group.id,
            phone,
            [name for name in form.names() if name],
            form.dealer_name(),
            form.house_rules(),
            form.mode.data,
        )
        if isinstance(match, Refusal):
            form.problems.append(match.message)
        else:
            access.grant(match, "editor")
            return redirect(url_for("table.show", match_id=match.id), code=303)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "group_match.html", form=form, group=group, seats=SEATS, roster=roster
    ), status


@bp.get("/g/<group_id>/m/<match_id>")
def open_match(group_id: str, match_id: str) -> Response:
    """One of the group's matches, opened with the phone's role in the group."""
    phone = access.this_phone()
    group, match = current_groups().match_in(group_id, match_id[:64], phone)
    role = phone.require(group, "viewer")
    if phone.role(match) != "editor":  # a match's editor stays one
        access.grant(match, role)
    if match.status == "match_over":
        return redirect(url_for("scores.board", match_id=match.id), code=303)
    return redirect(url_for("table.show", match_id=match.id), code=303)


@bp.route("/m/<match_id>/group", methods=["GET", "POST"])
def move_in(match_id: str) -> str | Response | tuple[str, int]:
    """Put a match into one of the groups this phone edits (editors of the match only)."""
    phone = access.this_phone()
    groups = current_groups()
    match = current_store().match(match_id, phone, "editor")
    current = groups.group_of(match.id)
    mine = groups.groups(phone, "editor")
    error = None
    if request.method == "POST" and current is None:
        chosen = request.form.get("group", "")
        if chosen not in {g.id for g in mine}:
            error = _("Pick one of your groups.")
        else:
            moved = groups.move_in(match.id, chosen, phone)
            if isinstance(moved, Refusal):
                error = moved.message
            else:
                return _done(chosen, _("The match is in the group now."))
    status = 422 if error else 200
    return render_template(
        "group_move.html", match=match, current=current, groups=mine, error=error
    ), status


# ---------------------------------------------------------------- export


def _download(group_id: str, what: Export) -> Response:
    """Every hand or every match as CSV, or every record in a zip (viewers too)."""
    download = current_groups().export(group_id, access.this_phone(), what)
    return send_file(
        io.BytesIO(download.body),
        mimetype=download.mimetype,
        as_attachment=True,
        download_name=download.filename,
        max_age=0,
    )


@bp.get("/g/<group_id>/hands.csv")
def export_hands(group_id: str) -> Response:
    return _download(group_id, "hands")


@bp.get("/g/<group_id>/matches.csv")
def export_matches(group_id: str) -> Response:
    return _download(group_id, "matches")


@bp.get("/g/<group_id>/records.zip")
def export_records(group_id: str) -> Response:
    return _download(group_id, "records")


# ---------------------------------------------------------------- sharing

GROUPS.register(bp)  # its share panel and links (companion/views/share.py)
