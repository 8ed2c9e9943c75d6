"""Share a match or a group: editor and viewer links with QR codes, and renewing them."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, ParamSpec, Protocol
from urllib.parse import urlsplit

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
from companion.groups import current_groups
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


def share_url(endpoint: str, token: str | None = None) -> str:
    """The absolute link to `endpoint` (with its token, if it takes one) from
    `link_base()` (the app's root there)."""
    path = (url_for(endpoint, token=token) if token else url_for(endpoint)).removeprefix(
        request.script_root
    )
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
    import segno  # here: a phone's start imports what its first page needs only

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


class SharedBy(Protocol):
    """The service of one kind of shared thing: the match store, the groups."""

    def shared(
        self, shared_id: str, phone: access.Phone, need: access.Role = "viewer"
    ) -> access.Shared:
        """The match or group, if this phone may `need` it (403, 404 otherwise)."""

    def renew_links(self, shared_id: str, phone: access.Phone) -> access.Shared:
        """New links: the old ones stop working at once (editors only)."""

    def open_link(self, token: str, role: access.Role) -> access.Shared | None:
        """The match or group whose `role` link has this token, if any."""


@dataclass(frozen=True)
class Sharing:
    """The share views of one kind of thing shared by link: its panel (the links and
    their QR codes), renewing the links, and opening an editor or a viewer link. Matches
    and groups differ only in what is written here; each registers its endpoints on a
    blueprint (the match's on this one, the group's on companion/views/groups.py)."""

    service: Callable[[], SharedBy]
    at: str  # the thing's own path: "/m/<match_id>"
    id_name: str  # its variable in `at`
    links: tuple[str, str]  # the editor and viewer links' paths, before "/<token>"
    endpoints: tuple[str, str, str, str]  # the panel, renew, join and watch endpoints
    # The page a link opens (an endpoint taking `id_name`), and the panel's own words.
    home: str
    help: Callable[[], tuple[str, str]]  # what each link does (editor, viewer)
    gone: Callable[[], str]  # a link that opens nothing
    page: Callable[[Any], dict[str, Any]]  # the rest the share page is given

    def register(self, blueprint: Blueprint) -> None:
        panel, renew, join, watch = self.endpoints
        blueprint.add_url_rule(f"{self.at}/share", panel, no_store(self.panel))
        blueprint.add_url_rule(f"{self.at}/share/renew", renew, self.renew, methods=["POST"])
        blueprint.add_url_rule(f"{self.links[0]}/<token>", join, no_store(self.join))
        blueprint.add_url_rule(f"{self.links[1]}/<token>", watch, no_store(self.watch))

    def _endpoint(self, which: int) -> str:
        return f"{request.blueprint}.{self.endpoints[which]}"

    def panel(self, **ids: str) -> str:
        phone = access.this_phone()
        shared = self.service().shared(ids[self.id_name], phone)
        editor = phone.role(shared) == "editor"
        if not current_app.config.get("SHARE_LINKS", True):
            # The app in the phone (companion/standalone.py): its links would name an
            # address no other phone reaches. The page says how it is shared instead.
            sending = editor and bool(current_app.config.get("SEND_TO_SERVER"))
            return render_template(
                "share.html",
                links=[],
                editor=False,
                in_this_phone=True,
                sending=sending,
                **self.page(shared),
            )
        editor_help, viewer_help = self.help()
        links = share_links(
            (editor_help, share_url(self._endpoint(2), token=shared.editor_token))
            if editor
            else None,
            (viewer_help, share_url(self._endpoint(3), token=shared.viewer_token)),
        )
        return render_template(
            "share.html",
            links=links,
            editor=editor,
            base=link_base(),
            loopback=is_loopback(link_base()),
            **self.page(shared),
        )

    def renew(self, **ids: str) -> Response:
        shared = self.service().renew_links(ids[self.id_name], access.this_phone())
        access.grant(shared, "editor")  # this phone stays an editor
        flash(_("New links made: the old editor and viewer links no longer work."))
        return redirect(url_for(self._endpoint(0), **self._ids(shared)), code=303)

    def join(self, token: str) -> Response:
        return self._open(token, "editor")

    def watch(self, token: str) -> Response:
        return self._open(token, "viewer")

    def _open(self, token: str, role: access.Role) -> Response:
        shared = self.service().open_link(token[:64], role)
        if shared is None:
            raise access.NotAllowed(_("This link doesn't work"), self.gone())
        if not (role == "viewer" and access.this_phone().role(shared) == "editor"):
            access.grant(shared, role)  # an editor opening the viewer link stays an editor
        return redirect(url_for(self.home, **self._ids(shared)), code=303)

    def _ids(self, shared: access.Shared) -> dict[str, Any]:
        return {self.id_name: shared.id}


MATCHES = Sharing(
    current_store,
    "/m/<match_id>",
    "match_id",
    ("/j", "/v"),
    ("panel", "renew", "join", "watch"),
    "table.show",
    lambda: (
        _("Records plays, undoes, scores. Give it to whoever enters plays."),
        _("Sees the table live; can't record anything."),
    ),
    lambda: _(
        "It was mistyped, or an editor renewed the match's links. Ask for the new link or QR code."
    ),
    lambda match: {"match": match},
)

GROUPS = Sharing(
    current_groups,
    "/g/<group_id>",
    "group_id",
    ("/gj", "/gv"),
    ("share", "renew", "join", "watch"),
    "groups.show",
    lambda: (
        _("Changes the roster, starts matches and records them."),
        _("Sees the group's matches, leaderboard and roster; can't change anything."),
    ),
    lambda: _(
        "It was mistyped, or an editor renewed the group's links. Ask for the new link or QR code."
    ),
    lambda group: {
        "match": None,
        "heading": _("Share this group"),
        "title": group.name,
        "renew_url": url_for("groups.renew", group_id=group.id),
        "renew_help": _(
            "A link leaked? New links stop the old ones at once, and the links of the "
            "group's matches too; this phone stays an editor."
        ),
        "back_url": url_for("groups.show", group_id=group.id),
        "back_label": _("Back to the group"),
    },
)

MATCHES.register(bp)  # the group's: companion/views/groups.py
