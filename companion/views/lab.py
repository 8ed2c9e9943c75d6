"""The house-rule lab: the form, starting a run, and a run's page (its progress while it
runs, polled by htmx as a fragment; its result once done). Thin: parse, ask
companion.lab, render; 303 to the run's page after a start."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion import access
from companion.lab import (
    MIN_HANDS,
    Busy,
    LabRun,
    Started,
    current_lab,
    policy_explanation,
    policy_title,
)
from companion.lab_forms import HANDS_STEP, LabForm
from companion.store import current_store
from companion.views.main import SEATS
from companion.views.rules import table_to_return_to
from companion.views.share import no_store, qr_svg, share_url
from engine import EngineError, HouseRules
from engine.tools import POLICIES

if TYPE_CHECKING:
    from companion import lab_charts

bp = Blueprint("lab", __name__)

TOKEN = re.compile(r"[A-Za-z0-9_-]{8,40}")  # the shape of models.new_token()


@bp.before_request
def switched_off() -> tuple[str, int] | None:
    """Where the lab can't run (the app in the phone starts no process: LAB_ENABLED off),
    each of its pages says so instead."""
    if current_lab().enabled:
        return None
    return render_template("lab_off.html"), 200 if request.method == "GET" else 409


def _form_page(
    form: LabForm, status: int, busy: str | None = None, problem: str | None = None
) -> tuple[str, int]:
    return render_template(
        "lab.html",
        form=form,
        busy=busy,
        problem=problem,
        max_hands=current_lab().max_hands,
        min_hands=MIN_HANDS,
        hands_step=HANDS_STEP,
        seats=SEATS,
        explanations={name: policy_explanation(name) for name in POLICIES},
    ), status


@bp.route("/lab", methods=["GET", "POST"])
def start() -> Response | tuple[str, int]:
    form = LabForm()
    if request.method == "GET":
        _prefill(form, request.args.get("match"))
        return _form_page(form, 200)
    valid = form.validate_on_submit()
    hands_ok = form.check_hands(current_lab().max_hands)  # its sentence even when both fail
    if not (valid and hands_ok):
        return _form_page(form, 422)
    try:
        settings = form.settings()
    except EngineError as error:  # a rule set the engine refuses (the form checks first)
        return _form_page(form, 422, problem=error.message)
    outcome = current_lab().start(settings)
    if isinstance(outcome, Busy):
        return _form_page(form, 409, outcome.running)
    return _started(outcome)


def _started(outcome: Started) -> Response:
    return redirect(url_for("lab.run", token=outcome.run.token), code=303)


def _prefill(form: LabForm, match_id: str | None) -> None:
    """From a match's More menu: its house rules as rule set B (official as A), its
    number of players. Only a match this phone has (never an id as given, unchecked)."""
    if table_to_return_to(match_id) is None:
        return
    assert match_id is not None
    match = current_store().match(match_id, access.this_phone())
    form.b.form.fill(HouseRules.parse(match.rules))
    form.players.data = len(match.player_names)


def _run(token: str) -> LabRun:
    run = current_lab().run(token) if TOKEN.fullmatch(token) else None
    if run is None:
        abort(404)
    return run


@bp.get("/lab/<token>")
@no_store
def run(token: str) -> str:
    """The run's page; to htmx (its poll every second while it runs), the run's part
    alone (templates/partials/lab_run.html)."""
    found = _run(token)
    from companion import lab_charts  # here: a start (a phone's) needs no chart

    comparison = found.comparison()
    result = lab_charts.result(comparison) if comparison is not None else None
    if request.headers.get("HX-Request"):
        return render_template("partials/lab_run.html", run=found, result=result)
    return _run_page(found, result)


@bp.post("/lab/<token>/again")
def again(token: str) -> Response | tuple[str, int]:
    """The same comparison started anew (a run that stopped or failed), as a new run."""
    found = _run(token)
    outcome = current_lab().start(found.settings)
    if isinstance(outcome, Busy):
        return _run_page(found, None, busy=outcome.running), 409
    return _started(outcome)


def _run_page(found: LabRun, result: lab_charts.Result | None, busy: str | None = None) -> str:
    """The run's whole page: its part, its share link and QR code, and (when a start was
    refused) the run that holds the lab."""
    link = share_url("lab.run", found.token)
    return render_template(
        "lab_run.html",
        run=found,
        result=result,
        link=link,
        qr=qr_svg(link),
        policy=policy_title(found.settings.policy),
        explanation=policy_explanation(found.settings.policy),
        busy=busy,
    )
