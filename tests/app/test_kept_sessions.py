"""The session cookie verified once per cookie (companion/sessions.py): what a phone's
session says, and what the app refuses, are the same as with Flask's own sessions,
however many times the same cookie comes back."""

from __future__ import annotations

import time
from datetime import timedelta
from secrets import token_urlsafe

import pytest
from flask import Flask, session
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

from companion.sessions import LONGEST_HELD, KeptSessions


def tampered(cookie: str) -> str:
    """The cookie with one character of its signature changed, in the middle: the last
    character's low bits are not part of the signature's bytes, so a change there may
    change nothing."""
    payload, stamp, signature = cookie.rsplit(".", 2)
    middle = len(signature) // 2
    other = "A" if signature[middle] != "A" else "B"
    return f"{payload}.{stamp}.{signature[:middle]}{other}{signature[middle + 1 :]}"


def add_routes(app: Flask) -> None:
    """A route that says what the session holds, and one that changes it in place
    without saying so (Flask saves only what it sees changed)."""

    def holds() -> dict[str, object]:
        return dict(session)

    def touch() -> str:
        session["phone"]["seen"] = "changed in place"  # not saved: no `modified`
        return "ok"

    def sign_in() -> str:
        session["phone"] = {"id": "p1"}
        return "ok"

    app.add_url_rule("/test/holds", "test_holds", holds)
    app.add_url_rule("/test/touch", "test_touch", touch)
    app.add_url_rule("/test/sign-in", "test_sign_in", sign_in)


def signed_earlier(app: Flask, data: dict[str, object], seconds: int) -> str:
    """A session cookie as the app signs it, but `seconds` ago."""
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    now = int(time.time())

    class Earlier(TimestampSigner):
        def get_timestamp(self) -> int:
            return now - seconds

    earlier = URLSafeTimedSerializer(
        app.secret_key,  # type: ignore[arg-type]
        salt=interface.salt,
        serializer=interface.serializer,
        signer=Earlier,
        signer_kwargs={"key_derivation": "hmac", "digest_method": interface.digest_method},
    )
    return earlier.dumps(data)


def test_the_app_reads_its_sessions_through_kept_sessions(app: Flask) -> None:
    assert isinstance(app.session_interface, KeptSessions)


def test_the_same_cookie_says_the_same_session_each_time(app: Flask) -> None:
    add_routes(app)
    client = app.test_client()
    client.get("/test/sign-in")
    answers = [client.get("/test/holds").get_json() for _ in range(3)]
    assert answers == [{"phone": {"id": "p1"}}] * 3


def test_a_session_changed_in_place_and_not_saved_is_not_seen_by_the_next_request(
    app: Flask,
) -> None:
    """The remembered cookie is text: each request decodes its own session."""
    add_routes(app)
    client = app.test_client()
    client.get("/test/sign-in")
    client.get("/test/holds")
    client.get("/test/touch")
    assert client.get("/test/holds").get_json() == {"phone": {"id": "p1"}}


def test_a_remembered_cookie_still_expires(app: Flask) -> None:
    add_routes(app)
    cookie = signed_earlier(app, {"phone": {"id": "old"}}, seconds=120)
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    assert client.get("/test/holds").get_json() == {"phone": {"id": "old"}}
    app.permanent_session_lifetime = timedelta(seconds=60)
    assert client.get("/test/holds").get_json() == {}
    with pytest.raises(SignatureExpired):
        app.session_interface.read(app, cookie)  # type: ignore[attr-defined]


def test_a_cookie_older_than_the_lifetime_is_refused_the_first_time(app: Flask) -> None:
    add_routes(app)
    app.permanent_session_lifetime = timedelta(seconds=60)
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], signed_earlier(app, {"a": 1}, 120))
    assert client.get("/test/holds").get_json() == {}


def test_a_tampered_cookie_is_refused_every_time(app: Flask) -> None:
    add_routes(app)
    client = app.test_client()
    client.get("/test/sign-in")
    name = app.config["SESSION_COOKIE_NAME"]
    good = client.get_cookie(name)
    assert good is not None
    bad = tampered(good.value)
    stranger = app.test_client()
    stranger.set_cookie(name, bad)
    for _ in range(2):
        assert stranger.get("/test/holds").get_json() == {}
        with pytest.raises(BadSignature):
            app.session_interface.read(app, bad)  # type: ignore[attr-defined]


def test_a_cookie_of_a_retired_key_is_refused_once_the_key_is_gone(app: Flask) -> None:
    add_routes(app)
    client = app.test_client()
    client.get("/test/sign-in")
    assert client.get("/test/holds").get_json() == {"phone": {"id": "p1"}}
    # The key rotated: the old one still accepted as a fallback, then retired.
    app.config["SECRET_KEY_FALLBACKS"] = [app.secret_key]
    app.secret_key = "rotated"
    assert client.get("/test/holds").get_json() == {"phone": {"id": "p1"}}
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get("/test/holds").get_json() == {}


# ---------------------------------------------------------------- read-only, for the quiet path


def cookie_of(app: Flask) -> str:
    add_routes(app)
    client = app.test_client()
    client.get("/test/sign-in")
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    return cookie.value


def test_a_held_session_says_what_the_apps_copy_says(app: Flask) -> None:
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    # As a phone's polls find it: the app read the cookie first (its page), then held.
    cookie = cookie_of(app)
    assert interface.read(app, cookie) == {"phone": {"id": "p1"}}
    assert dict(interface.held(app, cookie)) == {"phone": {"id": "p1"}}
    assert dict(interface.held(app, cookie)) == interface.read(app, cookie)
    # Held before the app read it: the same.
    other = signed_earlier(app, {"phone": {"id": "p2"}}, seconds=5)
    assert dict(interface.held(app, other)) == interface.read(app, other) == {"phone": {"id": "p2"}}


def test_a_held_session_cannot_be_changed_and_the_apps_copy_is_its_own(app: Flask) -> None:
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    cookie = cookie_of(app)
    held = interface.held(app, cookie)
    with pytest.raises(TypeError):
        held["phone"] = {"id": "someone else"}  # type: ignore[index]
    copy = interface.read(app, cookie)
    copy["phone"]["id"] = "changed in the app's copy"  # nested: the app's copy is its own
    assert dict(interface.held(app, cookie)) == {"phone": {"id": "p1"}}
    assert held["phone"] == {"id": "p1"}


@pytest.mark.parametrize("app_read_it_first", [False, True])
def test_a_held_session_still_expires(app: Flask, app_read_it_first: bool) -> None:
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    cookie = signed_earlier(app, {"phone": {"id": "old"}}, seconds=120)
    if app_read_it_first:
        interface.read(app, cookie)
    assert dict(interface.held(app, cookie)) == {"phone": {"id": "old"}}
    app.permanent_session_lifetime = timedelta(seconds=60)
    with pytest.raises(SignatureExpired):
        interface.held(app, cookie)


def test_a_long_cookies_session_is_held_as_any_other(app: Flask) -> None:
    """A cookie past LONGEST_HELD is decoded on each poll, not kept decoded: the same."""
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    # Tokens as a phone's roles hold them: random, so the cookie's zlib can't shrink them.
    many = {"matches": [[token_urlsafe(12), "viewer", token_urlsafe(16)] for _ in range(40)]}
    cookie = signed_earlier(app, many, seconds=1)
    assert len(cookie) > LONGEST_HELD
    for _ in range(2):
        assert dict(interface.held(app, cookie)) == many


def test_a_tampered_cookie_is_never_held(app: Flask) -> None:
    interface = app.session_interface
    assert isinstance(interface, KeptSessions)
    bad = tampered(cookie_of(app))
    for _ in range(2):
        with pytest.raises(BadSignature):
            interface.held(app, bad)
