"""The phone's session cookie, its signature checked once per cookie, not once per request.

Every request a phone makes carries the same signed cookie (its roles: companion/access.py)
until the session changes, and every open table polls every 1.5 s. Flask's cookie session
builds a serializer and checks the cookie's HMAC signature anew on each request (two
HMACs: a key derived from the secret, then the signature), the better part of what an
unchanged poll costs (companion/quiet_polls.py). `KeptSessions` is Flask's
`SecureCookieSessionInterface` with one serializer per set of keys, and each cookie it has
verified remembered by its exact text with the time it was signed: the same text is the
same verified session. Its age is still checked against the session's lifetime on every
request, and its payload decoded anew each time the app opens it (a request may change its
session; what the app gets is never a shared object). The quiet path, which only reads a
session, gets the payload decoded once per cookie (`held`): shared by its polls, and
never changed. A cookie it has not verified is checked as Flask checks it, and one that
fails is never remembered.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadData, BadSignature, URLSafeTimedSerializer

from companion.bounded import Bounded

# A verified cookie is kept as its text (a phone's is 100-300 characters) and the time it
# was signed: 4,096 of them about 2 MB a worker (17 MB were every cookie 4 kB).
MOST_COOKIES = 4096
# Its payload too, once the quiet path read it, if the cookie is no longer than this: a
# phone's decodes to 1-3 kB of objects; one of 4 kB (about 50 matches) to some 15 kB,
# decoded on each poll instead (4,096 such would be 60 MB a worker).
LONGEST_HELD = 1024
# A payload not decoded yet (the app decodes its own each request).
UNREAD: Mapping[str, Any] = MappingProxyType({})


class KeptSessions(SecureCookieSessionInterface):
    def __init__(self, most: int = MOST_COOKIES) -> None:
        # (keys, cookie) -> the time it was signed, and its payload once `held` read it
        self._verified: Bounded[tuple[tuple[Any, ...], str], tuple[float, Mapping[str, Any]]]
        self._verified = Bounded(most)
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
        lifetime (BadData otherwise: BadSignature, SignatureExpired): the app's own copy."""
        return self._as_session(self._decode(app, cookie)[2])

    def held(self, app: Flask, cookie: str) -> Mapping[str, Any]:
        """The same session, decoded once per cookie, for a reader that changes nothing
        (an unchanged poll: companion/quiet_polls.py). Every later poll with the cookie
        shares it: its top level is read-only, and nothing may change what it holds
        (access.phone_from copies what it takes)."""
        kept = self._verify(app, cookie)[2]
        if kept is not None and kept[1] is not UNREAD:
            return kept[1]
        key, signed, data = self._decode(app, cookie)
        payload = MappingProxyType(self._as_session(data))
        if len(cookie) <= LONGEST_HELD:
            self._verified.put(key, (signed, payload))
        return payload

    def _decode(self, app: Flask, cookie: str) -> tuple[tuple[tuple[Any, ...], str], float, Any]:
        """The cookie's key, the time it was signed and its payload, decoded now: its
        signature checked (and remembered) unless it was verified within its lifetime."""
        serializer, key, kept = self._verify(app, cookie)
        if kept is None:
            data, at = serializer.loads(cookie, max_age=self._max_age(app), return_timestamp=True)
            self._verified.put(key, (at.timestamp(), UNREAD))
            return key, at.timestamp(), data
        # Signed as payload.timestamp.signature (a compressed payload starts with a dot).
        return key, kept[0], serializer.load_payload(cookie.rsplit(".", 2)[0].encode())

    def _verify(
        self, app: Flask, cookie: str
    ) -> tuple[
        URLSafeTimedSerializer, tuple[tuple[Any, ...], str], tuple[float, Mapping[str, Any]] | None
    ]:
        """The serializer, the cookie's key, and what is kept of it if it was verified
        and is still within the session's lifetime (None: verify it now)."""
        keys = self._keys(app)
        serializer = self._serializer(app, keys)
        if serializer is None:
            raise BadData("no secret key: the app has no sessions to read")
        key = (keys, cookie)
        kept = self._verified.get(key)
        if kept is not None and not 0 <= time.time() - kept[0] <= self._max_age(app):
            kept = None
        return serializer, key, kept

    @staticmethod
    def _max_age(app: Flask) -> int:
        return int(app.permanent_session_lifetime.total_seconds())

    @staticmethod
    def _as_session(data: Any) -> dict[str, Any]:
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
