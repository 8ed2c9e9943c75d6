"""Share a match: editor and viewer links with QR codes, and renewing them."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import access
from companion.store import current_store

bp = Blueprint("share", __name__)
P = ParamSpec("P")


def no_store(view: Callable[P, object]) -> Callable[P, Response]:
    """Answers that show or carry a link's token: no browser or proxy keeps a copy."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> Response:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapped


def link_base() -> str:
    """Where share links start: the configured public address (COMPANION_PUBLIC_URL),
    else the address this phone opened the app at."""
    public: str | None = current_app.config.get("PUBLIC_URL")
    return public or request.url_root.rstrip("/")


def share_url(endpoint: str, token: str) -> str:
    """The absolute link to `endpoint` from `link_base()` (the app's root there)."""
    path = url_for(endpoint, token=token).removeprefix(request.script_root)
    return link_base() + path


def is_loopback(url: str) -> bool:
    """An address that means "this very machine" on any device that opens it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(url: str) -> Markup | None:
    """An inline SVG QR code (no image request, no inline script); None when the link is
    too long for one (the page then says so, and shows the link)."""
    try:
        code = segno.make(url, error="m")
    except segno.DataOverflowError:
        return None
    # A viewBox, not a width and height: the stylesheet sizes it, and the code scales.
    return Markup(code.svg_inline(scale=5, dark="#000", light="#fff", border=2, omitsize=True))


Link = tuple[str, str, str, str, Markup | None]  # title, help, QR label, URL, QR code


def share_links(editor: tuple[str, str] | None, viewer: tuple[str, str]) -> list[Link]:
    """A share panel's links, each (help, URL): the editor link (None: not shown to a
    viewer), then the viewer link, with their titles and QR codes."""
    links = []
    if editor is not None:
        links.append((_("Editor link"), editor[0], _("QR code of the editor link"), editor[1]))
    links.append((_("Viewer link"), viewer[0], _("QR code of the viewer link"), viewer[1]))
    return [(title, help, qr_label, url, qr_svg(url)) for title, help, qr_label, url in links]


@bp.get("/m/<match_id>/share")
@no_store
def panel(match_id: str) -> str:
    phone = access.this_phone()
    match = current_store().match(match_id, phone)
    editor = phone.role(match) == "editor"
    links = share_links(
        (
            _("Records plays, undoes, scores. Give it to whoever enters plays."),
            share_url("share.join", token=match.editor_token),
        )
        if editor
        else None,
        (
            _("Sees the table live; can't record anything."),
            share_url("share.watch", token=match.viewer_token),
        ),
    )
    return render_template(
        "share.html",
        match=match,
        links=links,
        editor=editor,
        base=link_base(),
        loopback=is_loopback(link_base()),
    )


@bp.post("/m/<match_id>/share/renew")
def renew(match_id: str) -> Response:
    match = current_store().renew_links(match_id, access.this_phone())
    access.grant(match, "editor")  # this phone stays an editor
    flash(_("New links made: the old editor and viewer links no longer work."))
    return redirect(url_for("share.panel", match_id=match.id), code=303)


def _open(token: str, kind: access.Role) -> Response:
    match = current_store().open_link(token[:64], kind)
    if match is None:
        raise access.NotAllowed(
            _("This link doesn't work"),
            _(
                "It was mistyped, or an editor renewed the match's links. Ask for the new link "
                "or QR code."
            ),
        )
    if not (kind == "viewer" and access.this_phone().role(match) == "editor"):
        access.grant(match, kind)  # an editor opening the viewer link stays an editor
    return redirect(url_for("table.show", match_id=match.id), code=303)


@bp.get("/j/<token>")
@no_store
def join(token: str) -> Response:
    return _open(token, "editor")


@bp.get("/v/<token>")
@no_store
def watch(token: str) -> Response:
    return _open(token, "viewer")
