"""The phone's session cookie, its signature checked once per cookie, not once per request.

Every request a phone makes carries the same signed cookie (its roles: companion/access.py)
until the session changes, and every open table polls every 1.5 s. Flask's cookie session
builds a serializer and checks the cookie's HMAC signature anew on each request (two
HMACs: a key derived from the secret, then the signature), the better part of what an
unchanged poll costs (companion/quiet_polls.py). `KeptSessions` is Flask's
`SecureCookieSessionInterface` with one serializer per set of keys, and each cookie it has
verified remembered by its exact text with the time it was signed: the same text is the
same verified session. Its age is still checked against the session's lifetime on every
request, and its payload decoded anew each time (a request may change its session; the
remembered cookie is text, never a shared object). A cookie it has not verified is checked
as Flask checks it, and one that fails is never remembered.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadData, BadSignature, URLSafeTimedSerializer

from companion.bounded import Bounded

# A verified cookie is kept as its text (a phone's is 100-300 characters) and the time it
# was signed: 4,096 of them about 2 MB a worker (17 MB were every cookie 4 kB).
MOST_COOKIES = 4096


class KeptSessions(SecureCookieSessionInterface):
    def __init__(self, most: int = MOST_COOKIES) -> None:
        # (keys, cookie) -> the time it was signed
        self._verified: Bounded[tuple[tuple[Any, ...], str], float] = Bounded(most)
        self._serializers: dict[tuple[Any, ...], URLSafeTimedSerializer] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, built once per set of keys (the secret and its fallbacks)."""
        return self._serializer(app, self._keys(app))

    def _serializer(self, app: Flask, keys: tuple[Any, ...]) -> URLSafeTimedSerializer | None:
        if not keys:
            return None
        found = self._serializers.get(keys)
        if found is None:
            found = super().get_signing_serializer(app)
            assert found is not None
            self._serializers[keys] = found
        return found

    def read(self, app: Flask, cookie: str) -> dict[str, Any]:
        """The session the cookie holds, if the app signed it within the session's
        lifetime (BadData otherwise: BadSignature, SignatureExpired)."""
        keys = self._keys(app)
        serializer = self._serializer(app, keys)
        if serializer is None:
            raise BadData("no secret key: the app has no sessions to read")
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (keys, cookie)
        signed = self._verified.get(key)
        if signed is not None and 0 <= time.time() - signed <= max_age:
            # Signed as payload.timestamp.signature (a compressed payload starts with a dot).
            data = serializer.load_payload(cookie.rsplit(".", 2)[0].encode())
        else:
            data, at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
            self._verified.put(key, at.timestamp())
        return data if isinstance(data, dict) else {}

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            return self.session_class(self.read(app, cookie))
        except BadSignature:
            return self.session_class()

    @staticmethod
    def _keys(app: Flask) -> tuple[Any, ...]:
        if not app.secret_key:
            return ()
        return (*(app.config.get("SECRET_KEY_FALLBACKS") or ()), app.secret_key)


def init_sessions(app: Flask) -> None:
    app.session_interface = KeptSessions()
