"""Share links from a configured public address (COMPANION_PUBLIC_URL), else from the
address the phone opened; a warning when that address is this machine's loopback."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from companion.views.share import qr_svg
from tests.app.helpers import Page, phone, share_tokens

WARNING = "Other phones can't open these links."


def share_page(app: Flask, base_url: str = "http://localhost") -> tuple[Page, str, str]:
    """The share panel of a new match, seen from `base_url`; the (editor, viewer) tokens."""
    client = app.test_client()  # every request to `base_url`: the cookie is kept there
    (form,) = Page(client.get("/new", base_url=base_url)).forms("/new")
    data = form.values() | {"players-0": "Ann", "players-1": "Bob"}
    created = client.post("/new", data=data, base_url=base_url)
    assert created.status_code == 303
    match_id = created.headers["Location"].rsplit("/", 1)[1]
    page = Page(client.get(f"/m/{match_id}/share", base_url=base_url))
    assert page.status == 200
    return page, *share_tokens(app, match_id)


def links(page: Page) -> list[str]:
    return [a["href"] for a in page.doc.find_all("a", cls="link")]


# ---------------------------------------------------------------- not configured


def test_links_from_the_address_the_phone_opened(app: Flask) -> None:
    page, editor, viewer = share_page(app, "http://192.168.1.7:5000")
    assert links(page) == [
        f"http://192.168.1.7:5000/j/{editor}",
        f"http://192.168.1.7:5000/v/{viewer}",
    ]
    for url in links(page):
        assert str(qr_svg(url)) in page.html  # the QR code says the same
    assert WARNING not in page.text


@pytest.mark.parametrize(
    "base_url",
    ["http://localhost", "http://127.0.0.1:5000", "http://127.1.2.3", "http://[::1]:5000"],
)
def test_a_loopback_address_is_explained(app: Flask, base_url: str) -> None:
    page, _, _ = share_page(app, base_url)
    box = page.doc.one(cls="loopback")
    assert WARNING in box.text
    assert "network address" in box.text and "COMPANION_PUBLIC_URL" in box.text
    assert all(url.startswith(base_url) for url in links(page))


def test_a_name_that_only_looks_local_is_not_loopback(app: Flask) -> None:
    page, _, _ = share_page(app, "http://localhost.example.org")
    assert page.doc.find(cls="loopback") is None


# ---------------------------------------------------------------- configured


@pytest.mark.parametrize(
    ("setting", "base"),
    [
        ("https://nomercy.example.org", "https://nomercy.example.org"),
        ("https://nomercy.example.org/", "https://nomercy.example.org"),
        ("https://example.org/games/nomercy/", "https://example.org/games/nomercy"),
        ("http://192.168.1.7:8000", "http://192.168.1.7:8000"),
    ],
)
def test_links_from_the_public_address(app_with: Any, setting: str, base: str) -> None:
    app = app_with(PUBLIC_URL=setting)
    page, editor, viewer = share_page(app, "http://127.0.0.1:5000")  # opened on the server
    assert links(page) == [f"{base}/j/{editor}", f"{base}/v/{viewer}"]
    for url in links(page):
        assert str(qr_svg(url)) in page.html
    assert page.doc.find(cls="loopback") is None
    # The link's path is the app's own: it opens the match.
    other = phone(app, f"/v/{viewer}")
    assert other.client.get(links(page)[1].removeprefix(base)).status_code == 303


def test_the_setting_comes_from_the_environment(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "https://nomercy.example.org/")
    app = app_with()
    assert app.config["PUBLIC_URL"] == "https://nomercy.example.org"
    page, editor, _ = share_page(app)
    assert links(page)[0] == f"https://nomercy.example.org/j/{editor}"


def test_a_loopback_public_address_is_explained_too(app_with: Any) -> None:
    # Opened by another loopback name: with PUBLIC_URL set, the app answers only for its
    # host and the loopback names (TRUSTED_HOSTS; test_hosts.py).
    page, _, _ = share_page(app_with(PUBLIC_URL="http://localhost:8000"), "http://127.0.0.1")
    assert WARNING in page.doc.one(cls="loopback").text
    assert links(page)[0].startswith("http://localhost:8000/j/")


@pytest.mark.parametrize("value", ["", None])
def test_empty_is_unset(app_with: Any, value: str | None) -> None:
    app = app_with(PUBLIC_URL=value)
    assert app.config["PUBLIC_URL"] is None


@pytest.mark.parametrize(
    "value",
    [
        "nomercy.example.org",
        "//nomercy.example.org",
        "/nomercy",
        "ftp://nomercy.example.org",
        "javascript:alert(1)",
        "https://",
        "https://nomercy.example.org/?x=1",
        "https://nomercy.example.org/#top",
        "https://user:pass@nomercy.example.org",
        123,
    ],
)
def test_a_bad_setting_stops_the_start(app_with: Any, value: object) -> None:
    with pytest.raises(ValueError, match="COMPANION_PUBLIC_URL must be") as raised:
        app_with(PUBLIC_URL=value)
    assert repr(value) in str(raised.value)


def test_a_bad_setting_from_the_environment_stops_the_start(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "nomercy.example.org")
    with pytest.raises(ValueError, match="absolute http:// or https:// URL"):
        app_with()
