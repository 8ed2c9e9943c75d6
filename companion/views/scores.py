"""The end of a hand (reveals) and the scoreboard."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, render_template
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.access import opened, this_phone, writing_phone
from companion.charts import DASHES, MARKERS, PALETTE
from companion.forms import RevealForm
from companion.store import current_store
from companion.views.respond import answer, match_awards, render_table
from engine import NotationError, State, to_go

bp = Blueprint("scores", __name__, url_prefix="/m")

CHART_W, CHART_H, PAD = 320, 180, 28


@bp.post("/<match_id>/reveal")
def reveal(match_id: str) -> Response | tuple[str, int]:
    form = RevealForm()
    store, phone = current_store(), this_phone()
    line = form.line() if form.validate_on_submit() else None
    if line is None:
        problem = (
            NotationError(
                _(
                    "Enter %(name)s's cards (like %(example)s) or their points.",
                    name=form.player.data,
                    example="R5 G+2 W+6",
                )
            )
            if not form.errors
            else NotationError(_("The reveal form was incomplete."))
        )
        return render_table(store.table(match_id, phone, "editor"), error=problem, status=422)
    version, last, key, shown = form.made_on()
    written = store.record(match_id, writing_phone(), version, last, key, line, shown)
    return answer(written, match_id)


@dataclass(frozen=True)
class Line:
    name: str
    color: str
    marker: str  # the shape's name, for a test or a class
    shape: str  # its SVG path data (MARKERS)
    points: str  # SVG polyline points
    last: tuple[float, float]
    dash: str  # its stroke pattern (charts.DASHES)


def chart(state: State) -> tuple[list[Line], list[tuple[float, str]], float | None]:
    """Cumulative totals after each hand, as polylines in a CHART_W x CHART_H box."""
    totals = [[0] * len(state.players)]
    for result in state.history:
        totals.append([t + p for t, p in zip(totals[-1], result.points, strict=True)])
    top = max(max(max(row) for row in totals), state.rules.target, 1)
    width, height = CHART_W - 2 * PAD, CHART_H - 2 * PAD
    steps = max(len(totals) - 1, 1)

    def xy(hand: int, score: int) -> tuple[float, float]:
        return (PAD + width * hand / steps, PAD + height * (1 - score / top))

    lines = []
    for i, name in enumerate(state.players):
        pts = [xy(h, row[i]) for h, row in enumerate(totals)]
        lines.append(
            Line(
                name,
                PALETTE[i],
                *MARKERS[i],
                " ".join(f"{x:.1f},{y:.1f}" for x, y in pts),
                pts[-1],
                DASHES[i],
            )
        )
    ticks = [(xy(0, v)[1], str(v)) for v in (0, top // 2, top)]
    target_y = xy(0, state.rules.target)[1] if state.rules.target <= top else None
    return lines, ticks, target_y


def short_names(names: list[str], shortest: int = 3, longest: int = 5) -> list[str]:
    """Column heads that fit six to a phone's width: the names cut to the fewest
    letters (`shortest` to `longest`) that still tell the players apart, else cut
    to `shortest` letters and numbered by seat."""
    for size in range(shortest, longest + 1):
        heads = [name[:size].strip() for name in names]
        if len({head.casefold() for head in heads}) == len(heads):
            return heads
    return [f"{name[:shortest].strip()}{seat}" for seat, name in enumerate(names, start=1)]


@bp.get("/<match_id>/scores")
def board(match_id: str) -> str:
    table = current_store().table(match_id, this_phone())
    opened(table.match.id)  # a use: this phone forgets it last
    state = table.state
    lines, ticks, target_y = chart(state)
    target = state.rules.target
    ranking = state.ranking()
    heads = short_names(list(state.players))
    return render_template(
        "scoreboard.html",
        match=table.match,
        state=state,
        lines=lines,
        ticks=ticks,
        target=target,
        to_go=to_go(state),
        target_y=target_y,
        ranking=ranking,
        heads=heads,
        key=[(head, name) for head, name in zip(heads, state.players, strict=True) if head != name],
        width=CHART_W,
        height=CHART_H,
        pad=PAD,
        awards=match_awards(table),
    )
