"""The headers every answer of the app carries (beside Vary, which says what it varies by)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

HSTS = "max-age=31536000"  # a year, renewed by every answer; only with secure cookies


def response_headers(config: Mapping[str, Any]) -> dict[str, str]:
    """Everything comes from this server: no inline script, no framing, no sniffing; over
    HTTPS only (secure cookies), browsers never try plain HTTP again."""
    headers = {
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }
    if config.get("SESSION_COOKIE_SECURE"):
        headers["Strict-Transport-Security"] = HSTS
    return headers
