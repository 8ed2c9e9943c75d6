"""The headers every answer of the app carries (beside Vary, which says what it varies by)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.wrappers import Response

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action {forms}; frame-ancestors {framing}"
)

HSTS = "max-age=31536000"  # a year, renewed by every answer; only with secure cookies


def response_headers(config: Mapping[str, Any], forms_to: str | None = None) -> dict[str, str]:
    """Everything comes from this server: no inline script, no framing, no sniffing; over
    HTTPS only (secure cookies), browsers never try plain HTTP again. The app in the
    phone (FRAMED_BY_ITS_PAGE, companion/standalone.py) is shown in a frame of its own
    page, of the same origin, and of no other. Its forms post to this server only, or
    also to `forms_to` (an origin: the page that sends a record to another server)."""
    framed = bool(config.get("FRAMED_BY_ITS_PAGE"))
    headers = {
        "Content-Security-Policy": CSP.format(
            framing="'self'" if framed else "'none'",
            forms=f"'self' {forms_to}" if forms_to else "'self'",
        ),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "SAMEORIGIN" if framed else "DENY",
        "Referrer-Policy": "same-origin",
    }
    if config.get("SESSION_COOKIE_SECURE"):
        headers["Strict-Transport-Security"] = HSTS
    return headers


def vary_on(response: Response, name: str) -> None:
    """Say the answer varies by the request's header `name`, written as text:
    `response.vary` parses the header into a set and back, on every answer."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = name
    elif name.lower() not in {said.strip().lower() for said in vary.split(",")}:
        # Each name whole: "Accept" is not in "Accept-Language".
        response.headers["Vary"] = f"{vary}, {name}"


def mimetype_of(response: Response) -> str:
    """The answer's media type, read as text (`response.mimetype` parses the header's
    options too, on every answer)."""
    return str(response.headers.get("Content-Type", "")).partition(";")[0].strip().lower()
