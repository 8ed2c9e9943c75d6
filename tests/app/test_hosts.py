"""The Host header: checked against the configured hosts (COMPANION_TRUSTED_HOSTS, the
host of COMPANION_PUBLIC_URL, the loopback names), and a malformed or oversized one is a
400 with a sentence, never a 500, on the real server (issue 13: a label over 63
characters answered gunicorn's bare 500 on every route; a 2.4 KB Host overflowed the
share page's QR code)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.inputs import trusted_hosts
from tests.app.helpers import Page, parse_html
from tests.app.test_concurrency import Browser, create_match
from tests.databases import postgres_url, reset_postgres
from tests.servers import Gunicorn

LONG_LABEL = "a" * 64 + ".example.org"
OVERSIZED = ".".join(["abcdefghi"] * 240)  # 2.4 KB of labels Werkzeug lets through
UNTRUSTED = "This app is not at that address"
MALFORMED = "This address can't be opened"


def raw_get(server: Gunicorn, path: str, host: str, cookie: str = "") -> tuple[int, str]:
    """GET `path` naming `host` in the Host header, as any client on the network can."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host)
        if cookie:
            conn.putheader("Cookie", cookie)
        conn.endheaders()
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


def said(body: str) -> str:
    """The page's text, as a reader sees it."""
    return parse_html(body).text


def cookie_of(browser: Browser) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in browser.jar)


def start(tmp_path: Path, env: dict[str, str] | None = None) -> Gunicorn:
    if url := postgres_url():
        reset_postgres(url)
    server = Gunicorn(tmp_path, env)
    server.start()
    return server


@pytest.fixture(scope="module")
def anyhost(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gunicorn]:
    """The production server with no hosts configured (development, the tests)."""
    server = start(tmp_path_factory.mktemp("anyhost"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def trusted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gunicorn]:
    env = {"COMPANION_TRUSTED_HOSTS": "nomercy.example.org, .example.net"}
    server = start(tmp_path_factory.mktemp("trusted"), env)
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------- any host


@pytest.mark.parametrize("path", ["/healthz", "/", "/rules", "/static/app.css", "/m/nope"])
def test_a_host_label_over_63_characters_is_a_400_not_a_500(anyhost: Gunicorn, path: str) -> None:
    status, body = raw_get(anyhost, path, LONG_LABEL)
    assert status == 400, body[:500]
    assert MALFORMED in said(body) and "63 characters" in said(body)


@pytest.mark.parametrize("host", ["ex ample.org", "example.org:99999", "[::1", "exa_mple.org"])
def test_a_malformed_host_is_a_400(anyhost: Gunicorn, host: str) -> None:
    status, body = raw_get(anyhost, "/", host)
    assert status == 400 and MALFORMED in said(body), (status, body[:500])


def test_an_oversized_host_on_the_share_page_is_a_400_not_a_500(anyhost: Gunicorn) -> None:
    owner = Browser()
    match_id = create_match(owner, anyhost.url, ["Ann", "Bob"])
    for host in (OVERSIZED, "a" * 2400):
        status, body = raw_get(anyhost, f"/m/{match_id}/share", host, cookie_of(owner))
        assert status == 400 and MALFORMED in said(body), (status, body[:500])
    # The same phone by a proper name: its links start there.
    status, body = raw_get(
        anyhost, f"/m/{match_id}/share", "table.example.org:8000", cookie_of(owner)
    )
    assert status == 200
    links = [a["href"] for a in parse_html(body).find_all("a", cls="link")]
    assert links and all(url.startswith("http://table.example.org:8000/") for url in links)


def test_a_nul_in_the_address_is_a_400_on_the_real_server(anyhost: Gunicorn) -> None:
    status, body = raw_get(anyhost, "/m/abc%00def", f"127.0.0.1:{anyhost.port}")
    assert status == 400 and "control character (NUL, U+0000)" in said(body)


# ---------------------------------------------------------------- configured


@pytest.mark.parametrize("host", ["evil.example.com", "nomercy.example.org.evil.com", LONG_LABEL])
def test_another_host_is_a_400(trusted: Gunicorn, host: str) -> None:
    for path in ("/healthz", "/", "/new"):
        status, body = raw_get(trusted, path, host)
        assert status == 400, (host, path, status, body[:500])
        assert UNTRUSTED in said(body) and "Traceback" not in body


def test_share_links_carry_the_trusted_host(trusted: Gunicorn) -> None:
    owner = Browser()  # on 127.0.0.1: a loopback name, always trusted
    match_id = create_match(owner, trusted.url, ["Ann", "Bob"])
    for host in ("nomercy.example.org", "nomercy.example.org:8443", "tables.example.net"):
        status, body = raw_get(trusted, f"/m/{match_id}/share", host, cookie_of(owner))
        assert status == 200, (host, body[:500])
        links = [a["href"] for a in parse_html(body).find_all("a", cls="link")]
        assert len(links) == 2 and all(url.startswith(f"http://{host}/") for url in links)
    assert raw_get(trusted, "/healthz", f"localhost:{trusted.port}")[0] == 200


# ---------------------------------------------------------------- the settings


def test_the_public_address_is_trusted_by_default(app_with: Any) -> None:
    app = app_with(PUBLIC_URL="https://nomercy.example.org/tables")
    assert app.config["TRUSTED_HOSTS"] == ["nomercy.example.org", "localhost", "127.0.0.1"]
    client = app.test_client()
    assert client.get("/", base_url="https://nomercy.example.org").status_code == 200
    refused = Page(client.get("/", base_url="http://192.168.1.7:5000"))
    assert refused.status == 400 and UNTRUSTED in refused.text


def test_the_setting_comes_from_the_environment(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_TRUSTED_HOSTS", " a.example.org,,.example.net ")
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "http://192.168.1.7:8000")
    app = app_with()
    assert app.config["TRUSTED_HOSTS"] == [
        "a.example.org",
        ".example.net",
        "192.168.1.7",
        "localhost",
        "127.0.0.1",
    ]


@pytest.mark.parametrize("setting", [None, "", " , "])
def test_unset_means_any_host(setting: str | None) -> None:
    assert trusted_hosts(setting, None) is None


def test_a_bad_setting_stops_the_start() -> None:
    with pytest.raises(ValueError, match="COMPANION_TRUSTED_HOSTS must be"):
        trusted_hosts(42, None)


def test_a_link_too_long_for_a_qr_code_is_shown_without_one(app_with: Any) -> None:
    app = app_with(PUBLIC_URL="https://nomercy.example.org/" + "t" * 2400)
    client = app.test_client()
    (form,) = Page(client.get("/new", base_url="http://localhost")).forms("/new")
    created = client.post("/new", data=form.values() | {"players-0": "Ann", "players-1": "Bob"})
    assert created.status_code == 303
    page = Page(client.get(created.headers["Location"] + "/share"))
    assert page.status == 200
    assert "too long for a QR code" in page.text and page.doc.find(cls="qr") is None
    assert all(len(a["href"]) > 2400 for a in page.doc.find_all("a", cls="link"))
