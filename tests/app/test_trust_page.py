"""A home network's https (issue 29, point 1): the page that offers the server's own
root certificate (TLS_ROOT_CERT, made by Caddy's internal CA under make serve-https) to
phones, with its fingerprint and the steps for Android and iOS."""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path
from typing import Any

from tests.app.helpers import Tabletop

# Stands for Caddy's root: the page reads a PEM file, it never checks what it signs.
DER = b"0\x82\x01\x0a" + bytes(range(200))
PEM = ssl.DER_cert_to_PEM_cert(DER)
FINGERPRINT = ":".join(f"{b:02X}" for b in hashlib.sha256(DER).digest())


def test_the_page_offers_the_root_with_its_fingerprint_and_steps(
    app_with: Any, tmp_path: Path
) -> None:
    root = tmp_path / "root.crt"
    root.write_text(PEM)
    app = app_with(
        TLS_ROOT_CERT=str(root),
        TRUST_URL="http://192.168.1.7/trust",
        PUBLIC_URL="https://192.168.1.7",
        TRUSTED_HOSTS=None,
    )
    phone = Tabletop(app, app.test_client())
    page = phone.get("/trust")
    assert page.status == 200
    assert FINGERPRINT in page.text
    assert page.doc.find("a", href="/trust/root.crt") is not None
    for step in ("search for “CA certificate”", "Certificate Trust Settings"):
        assert step in page.text
    # Other phones scan this page at its plain http address; the app opens over https.
    assert page.doc.one("div", cls="qr").find("svg") is not None
    assert page.doc.find("a", href="http://192.168.1.7/trust") is not None
    assert page.doc.find("a", href="https://192.168.1.7") is not None
    download = phone.client.get("/trust/root.crt")
    assert download.status_code == 200 and download.data == PEM.encode()
    assert download.mimetype == "application/x-x509-ca-cert"
    assert "nomercy-root.crt" in download.headers["Content-Disposition"]
    # Home and every share panel lead to it: a new phone opens https only after it.
    assert phone.get("/").doc.find("a", href="/trust") is not None
    match_id = phone.create()
    assert phone.get(f"/m/{match_id}/share").doc.find("a", href="/trust") is not None


def test_the_page_speaks_the_phones_language(app_with: Any, tmp_path: Path) -> None:
    root = tmp_path / "root.crt"
    root.write_text(PEM)
    app = app_with(TLS_ROOT_CERT=str(root))
    client = app.test_client()
    page = client.get("/trust", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Diesem Server vertrauen" in page and FINGERPRINT in page


def test_a_root_not_made_yet_is_a_sentence_not_an_error(app_with: Any, tmp_path: Path) -> None:
    app = app_with(TLS_ROOT_CERT=str(tmp_path / "not-yet" / "root.crt"))
    phone = Tabletop(app, app.test_client())
    page = phone.get("/trust")
    assert page.status == 200
    assert "This server's certificate is not made yet" in page.text
    answer = phone.client.get("/trust/root.crt")
    assert answer.status_code == 404


def test_a_public_certificate_needs_nothing_installed(app_with: Any) -> None:
    app = app_with()
    phone = Tabletop(app, app.test_client())
    page = phone.get("/trust")
    assert page.status == 200 and "there is nothing to install" in page.text
    assert phone.client.get("/trust/root.crt").status_code == 404
    assert phone.get("/").doc.find("a", href="/trust") is None
    match_id = phone.create()
    assert phone.get(f"/m/{match_id}/share").doc.find("a", href="/trust") is None
