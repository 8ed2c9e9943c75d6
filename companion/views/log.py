"""The match's whole log as a page, hand by hand, or as a fragment for a panel (htmx)."""

from __future__ import annotations

from flask import Blueprint, render_template

from companion import access
from companion.extensions import htmx
from companion.store import current_store

bp = Blueprint("log", __name__, url_prefix="/m")


@bp.get("/<match_id>/log")
def page(match_id: str) -> str:
    """Anyone who can see the table can read its log. An htmx request (not a boosted
    link, which swaps in a whole page) gets the page's content alone."""
    log = current_store().log(match_id, access.this_phone())
    if htmx and not htmx.boosted:
        return render_template("partials/log_body.html", log=log)
    access.renew()
    return render_template("log.html", log=log)
