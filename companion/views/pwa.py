"""The app on the home screen: its manifest, its service worker and its offline page.

The worker (templates/sw.js) precaches every file of static/ and the offline page under
a cache named after the content of static/ and templates/, so a deploy that changes
either installs a new worker, whose activation deletes the old cache. It never stores
or answers anything else: no page of a match, no form posted, no live poll.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from companion.languages import html_lang
from companion.static_files import static_url

bp = Blueprint("pwa", __name__)

NAME = "No Mercy Companion"
SHORT_NAME = "No Mercy"
# The top bar's accent; the dark scheme's page background (base.html says both to the
# browser for each scheme, the manifest has room for one).
THEME_LIGHT = "#6a1b9a"
THEME_DARK = "#121212"
BACKGROUND = "#fafafa"
ICONS = [  # file in static/, size, purpose
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "maskable"),
]
NO_CACHE = {"Cache-Control": "no-cache"}  # always asked again (an answer may be kept)


@bp.record_once
def _theme(state: Any) -> None:
    state.app.jinja_env.globals.update(theme_light=THEME_LIGHT, theme_dark=THEME_DARK)


def static_files() -> list[Path]:
    """The files of static/ the worker precaches, in a stable order: all but the icons
    the browser fetches itself to install the app (the manifest's, Safari's), which no
    page shows (keeping them would add about 55 KB to a phone's first visit), and the
    favicon, kept at the address pages name, /favicon.ico."""
    assert current_app.static_folder is not None
    root = Path(current_app.static_folder)
    for_install = {name for name, _size, _purpose in ICONS} | {"apple-touch-icon.png"}
    for_install.add("favicon.ico")
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.name not in for_install
    )


def cache_version() -> str:
    """A digest of static/ and templates/ (the offline page): a deploy that changes any
    of them is a new worker with a new cache. Computed once per process (each time
    while debugging, when files change under a running server)."""
    known = current_app.extensions.get("pwa_version")
    if known and not current_app.debug:
        return str(known)
    assert current_app.static_folder is not None and current_app.template_folder is not None
    digest = hashlib.sha256()
    for root in (Path(current_app.static_folder), Path(str(current_app.template_folder))):
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    version = digest.hexdigest()[:16]
    current_app.extensions["pwa_version"] = version
    return version


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    root = request.script_root + "/"
    body: dict[str, Any] = {
        "id": root,
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": _("The referee and scorekeeper at a table of UNO Show 'Em No Mercy."),
        "lang": html_lang(),
        "start_url": url_for("main.home"),
        "scope": root,
        "display": "standalone",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "icons": [
            {
                "src": static_url(name),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for name, size, purpose in ICONS
        ],
    }
    return Response(
        current_app.json.dumps(body), mimetype="application/manifest+json", headers=NO_CACHE
    )


@bp.get("/sw.js")
def worker() -> Response:
    """Served from the root, so its scope is the whole app."""
    assert current_app.static_folder is not None
    root = Path(current_app.static_folder)
    static = [static_url(p.relative_to(root).as_posix()) for p in static_files()]
    body = render_template(
        "sw.js",
        version=cache_version(),
        offline=url_for("pwa.offline"),
        static=[*static, url_for("main.favicon")],
    )
    return Response(body, mimetype="text/javascript", headers=NO_CACHE)


@bp.get("/offline")
def offline() -> tuple[str, int, dict[str, str]]:
    """What a phone shows, from the worker's cache, when the server can't be reached."""
    return render_template("offline.html"), 200, NO_CACHE
