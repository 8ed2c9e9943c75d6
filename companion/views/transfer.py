"""A match as a table record: download it, or upload one as a new match."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as Redirect

from companion import access
from companion.forms import ImportForm
from companion.imports import ImportRefused
from companion.store import current_store
from companion.views.respond import form_problems

bp = Blueprint("transfer", __name__)

# A file of up to 1 MB: 10,000 lines (MAX_MATCH_LINES) of about 10 bytes each are 100 kB,
# so this leaves room for long names; the request itself may be 2 MB (MAX_CONTENT_LENGTH:
# this file and as much pasted text).
MAX_RECORD_BYTES = 1_000_000


@bp.get("/m/<match_id>/record.txt")
def export_record(match_id: str) -> Response:
    match, text = current_store().export(match_id, access.this_phone())
    stamp = match.created_at.strftime("%Y-%m-%d")
    return Response(
        text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="no-mercy-{stamp}-{match.id}.rec"'},
    )


@bp.route("/import", methods=["GET", "POST"])
def import_record() -> Redirect | tuple[str, int]:
    form = ImportForm()
    problem = None
    if form.validate_on_submit():
        upload = form.record.data
        text = form.text.data or ""
        if upload is not None and getattr(upload, "filename", None):
            raw = upload.read(MAX_RECORD_BYTES + 1)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                problem = _("That file is not a text table record (it is not UTF-8 text).")
            if len(raw) > MAX_RECORD_BYTES:  # never import the first megabyte of a longer file
                problem = _("That file is too large for a table record (more than 1 MB).")
        if problem is None and not text.strip():
            problem = _("Choose a record file or paste a record.")
        if problem is None:
            try:
                imported = current_store().import_record(text)
            except ImportRefused as error:
                problem = _("Not imported. %(reason)s", reason=error)
            else:
                access.grant(imported.match, "editor")
                if imported.added:
                    flash(
                        ngettext(
                            "This record was imported before: the line played since was "
                            "added to the match it made.",
                            "This record was imported before: the %(num)d lines played "
                            "since were added to the match it made.",
                            imported.added,
                        )
                    )
                elif imported.again:
                    flash(_("This record was imported before: here is the match it made."))
                return redirect(url_for("table.show", match_id=imported.match.id), code=303)
    elif form.errors:
        problem = _("The form was incomplete: %(problems)s", problems=form_problems(form.errors))
    status = 422 if problem else 200
    limits = {"max_lines": current_store().max_lines, "max_bytes": MAX_RECORD_BYTES}
    return render_template("import.html", form=form, problem=problem, **limits), status
