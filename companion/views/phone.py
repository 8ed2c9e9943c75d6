"""The app in the phone, handed out by this server: the standalone build (`make
standalone`, issue 28) served at /standalone/ as any static host would serve it, and a
page (/phone) with its link and QR code, and what a phone needs to keep it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal
from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import get_locale
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

from companion.views.headers import response_headers
from companion.views.share import is_loopback, qr_svg, share_url

bp = Blueprint("phone", __name__)

# The build's page runs WebAssembly (Pyodide) in a worker of its own, and frames the app.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def build_folder() -> Path | None:
    """The build this server hands out (STANDALONE_BUILD), if it was made."""
    setting = current_app.config.get("STANDALONE_BUILD")
    folder = Path(setting) if setting else None
    return folder if folder is not None and (folder / "build.js").is_file() else None


def build_listing(folder: Path) -> dict[str, Any]:
    """What the build's build.js says (scripts/build_standalone.py writes it): its
    version, and its files, each [path, size] or [path, size, size of its .gz]."""
    text = (folder / "build.js").read_text()
    listed: dict[str, Any] = json.loads(text.partition("self.BUILD =")[2].strip().rstrip(";"))
    return listed


def first_visit_bytes(folder: Path) -> int:
    """What a phone downloads: each file build.js lists, as the .gz beside it where the
    build made one (standalone/site/files.js)."""
    return sum(entry[-1] for entry in build_listing(folder)["files"])


@bp.get("/phone")
def page() -> str:
    url = share_url("phone.site")
    folder = build_folder()
    size = first_visit_bytes(folder) if folder else 0
    return render_template(
        "phone.html",
        built=folder is not None,
        url=url,
        qr=qr_svg(url) if folder else None,
        size=format_decimal(round(size / 1e6), locale=get_locale()),
        kept=url.startswith("https://") or is_loopback(url),
    )


@bp.get("/standalone/", defaults={"name": "index.html"}, endpoint="site")
@bp.get("/standalone/<path:name>")
def file(name: str) -> Response:
    folder = build_folder()
    if folder is None:
        abort(404)
    found = safe_join(str(folder), name)
    if found is None or not Path(found).is_file():
        if name.startswith("app/"):
            # A page of the app in a phone that has not kept it: its page opens it there.
            asked = request.script_root + request.full_path.rstrip("?")
            return redirect(url_for("phone.site", open=asked), code=303)
        abort(404)
    # Checked again on every visit (a 304 when unchanged): a new build is seen at once. A
    # .gz as it is (the page unpacks it: standalone/site/files.js), not Content-Encoding.
    gzipped = "application/gzip" if name.endswith(".gz") else None
    sent = send_from_directory(folder, name, max_age=0, mimetype=gzipped)
    sent.headers.update(response_headers(current_app.config) | {"Content-Security-Policy": CSP})
    return sent
