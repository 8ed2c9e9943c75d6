"""A home network's https (`make serve-https` without a public name): Caddy signs the
certificate with a CA of its own, whose root (TLS_ROOT_CERT) each phone trusts once.
This page offers it with the steps for Android and iOS, and is also served over plain
http (deploy/Caddyfile): a phone opens https only once it trusts that root."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.views.share import qr_svg

bp = Blueprint("trust", __name__)


def root_certificate() -> tuple[bytes, str] | None:
    """The root certificate's file (PEM) and its fingerprint; None when none is set, or
    Caddy has not made it yet."""
    setting = current_app.config.get("TLS_ROOT_CERT")
    if not setting:
        return None
    try:
        pem = Path(str(setting)).read_bytes()
    except OSError:  # not made yet
        return None
    found = fingerprint(pem)
    return None if found is None else (pem, found)


def fingerprint(pem: bytes) -> str | None:
    """A certificate's SHA-256 fingerprint as phones show it (AB:CD:...), and as `make
    serve-https` prints it; None for a file that holds no certificate."""
    import ssl  # here: the app in the phone (Pyodide) sets no root, and has no ssl at start

    try:
        der = ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@bp.get("/trust")
def page() -> str:
    found = root_certificate()
    # The QR code other phones scan: this page over plain http, where they can open it.
    here = str(current_app.config.get("TRUST_URL") or request.base_url)
    return render_template(
        "trust.html",
        own_ca=bool(current_app.config.get("TLS_ROOT_CERT")),
        fingerprint=found[1] if found else None,
        here=here,
        qr=qr_svg(here),
        app_url=current_app.config.get("PUBLIC_URL") or url_for("main.home"),
    )


@bp.get("/trust/root.crt")
def certificate() -> Response:
    found = root_certificate()
    if found is None:
        abort(404)
    # The type a phone's browser hands to its certificate installer (iOS: a profile).
    return Response(
        found[0],
        mimetype="application/x-x509-ca-cert",
        headers={"Content-Disposition": 'attachment; filename="nomercy-root.crt"'},
    )
