"""Send to a server: a match played in the app in the phone (companion/standalone.py)
sent to a group on a server, by the group's editor link, and the server's end that
receives it (`Groups.receive`).

The phone's page checks the link, then shows a form that its browser posts to the server
(in a new tab, which shows what the server did). That post comes from another site, so
it carries none of the browser's cookies for the server: the link is its authority, and
nothing is written to a session on receiving; the server then sends the browser on to
the group's link, which opens the match with its roles, as any link does. A record sent
twice, or again after its answer was lost, is the same match there (its key, `record:`,
which every match made in the phone has: Store(keyed=True)); sent again after more was
played in the phone, the lines played since are added to it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from companion import access
from companion.extensions import csrf
from companion.forms import SendForm
from companion.group_pages import Refusal
from companion.groups import current_groups
from companion.imports import ImportRefused
from companion.store import current_store
from companion.views.errors import error_page
from companion.views.headers import response_headers
from companion.views.respond import form_problems
from companion.views.share import GROUPS, no_store
from companion.views.transfer import MAX_RECORD_BYTES

bp = Blueprint("sending", __name__)

# A group's editor link (companion/views/share.py, GROUPS: /gj/<token>), wherever the
# server has the app.
GROUP_LINK = re.compile(r"(?P<root>.*)/gj/(?P<token>[A-Za-z0-9_-]{8,64})/?")
SENT_TO = "send_to"  # the session's last group link, offered again
HOST = re.compile(r"[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+")  # a name, an IPv4 or an IPv6 address


@dataclass(frozen=True)
class GroupLink:
    """A group's editor link on a server, as typed: where records for it are posted."""

    origin: str  # https://uno.example.org
    root: str  # the app's path there ("" at the top)
    token: str

    @property
    def records(self) -> str:
        return f"{self.origin}{self.root}/gj/{self.token}/records"

    @property
    def text(self) -> str:
        return f"{self.origin}{self.root}/gj/{self.token}"


def group_link(typed: str) -> GroupLink | None:
    """The group's editor link in what was typed or pasted, if it is one."""
    parts = urlsplit(typed.strip())
    found = GROUP_LINK.fullmatch(parts.path)
    try:
        port = parts.port  # a ValueError when it is not a port
    except ValueError:
        return None
    host = parts.hostname or ""
    if (
        parts.scheme not in ("http", "https")
        or found is None
        or parts.username is not None
        or parts.password is not None
        or not HOST.fullmatch(host)
    ):
        return None
    # Made again from its checked parts (it goes into the page's form-action policy).
    where = f"[{host}]" if ":" in host else host
    origin = f"{parts.scheme}://{where}" + (f":{port}" if port is not None else "")
    return GroupLink(origin, found["root"], found["token"])


# ---------------------------------------------------------------- the phone's end


@bp.route("/m/<match_id>/send", methods=["GET", "POST"])
def send(match_id: str) -> Response:
    """The link asked for (GET, or a link that is not one), then the form that sends."""
    if not current_app.config.get("SEND_TO_SERVER"):
        abort(404)
    phone = access.this_phone()
    match = current_store().match(match_id, phone, "editor")  # its key goes with it
    form = SendForm()
    problem = None
    if request.method == "GET":
        form.link.data = form.link.data or session.get(SENT_TO, "")
    elif not form.validate_on_submit():
        problem = _("The form was incomplete: %(problems)s", problems=form_problems(form.errors))
    elif (link := group_link(form.link.data or "")) is None:
        problem = _(
            "That is not a group's editor link. On the server, open the group, then Share, "
            "and copy the first link: it has /gj/ in it."
        )
    else:
        session[SENT_TO] = link.text
        record = current_store().export(match.id, phone)[1]
        page = render_template("send.html", match=match, link=link, record=record)
        answer = make_response(page)
        answer.headers.update(response_headers(current_app.config, forms_to=link.origin))
        return answer
    page = render_template("send.html", match=match, form=form, problem=problem)
    return make_response(page, 422 if problem else 200)


# ---------------------------------------------------------------- the server's end


@bp.post("/gj/<token>/records")
@csrf.exempt  # type: ignore[untyped-decorator]  # the link is the authority (see above)
def receive(token: str) -> Response | tuple[str, int]:
    """A record sent to a group from the app in a phone."""
    text = request.form.get("record", "")
    if not text.strip() or len(text.encode()) > MAX_RECORD_BYTES:
        return error_page(_("Not sent"), _("The record sent was empty or too long.")), 400
    try:
        received = current_groups().receive(token[:64], text)
    except ImportRefused as error:
        return error_page(_("Not sent"), _("Not imported. %(reason)s", reason=error)), 422
    if received is None:
        raise access.NotAllowed(_("This link doesn't work"), GROUPS.gone())
    if isinstance(received, Refusal):
        return error_page(_("Not sent"), received.message), 409
    to = url_for(".received", token=token, match_id=received.match.id)
    said = {"again": 1} if received.again else {}
    if received.added:
        said["added"] = received.added
    return redirect(to + (f"?{urlencode(said)}" if said else ""), code=303)


@bp.get("/gj/<token>/received/<match_id>")
@no_store
def received(token: str, match_id: str) -> Response:
    """The browser that sent a record, sent on: the group's link opened (its roles given,
    with this browser's own cookies) and the match shown, with what happened."""
    group = current_groups().open_link(token[:64], "editor")
    if group is None:
        raise access.NotAllowed(_("This link doesn't work"), GROUPS.gone())
    access.grant(group, "editor")
    added = request.args.get("added", 0, type=int)
    if request.args.get("again") and added > 0:
        flash(
            ngettext(
                "This record was sent before: the line played since was added to the "
                "match, in %(group)s.",
                "This record was sent before: the %(num)d lines played since were added "
                "to the match, in %(group)s.",
                added,
                group=group.name,
            )
        )
    elif request.args.get("again"):
        flash(
            _(
                "This record was sent before: here is the match it made, in %(group)s.",
                group=group.name,
            )
        )
    else:
        flash(_("Received: the match is in %(group)s now.", group=group.name))
    return redirect(url_for("groups.open_match", group_id=group.id, match_id=match_id[:64]), 303)
