"""`make serve-https` (issue 29, point 1): gunicorn behind Caddy, on loopback with
Caddy's own CA as on a home network. https answers with HSTS and a secure cookie,
plain http offers only the page with the CA's root (and sends everything else to
https), and slow clients are held by Caddy, never by a gunicorn worker."""

from __future__ import annotations

import hashlib
import socket
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from companion.paths import ROOT
from companion.views import phone
from companion.views.headers import response_headers
from tests.app.test_server_shape import healthz_times, slow_bodies
from tests.databases import postgres_url, reset_postgres
from tests.servers import HttpsServer


@contextmanager
def serving(instance: Path, env: dict[str, str] | None = None) -> Iterator[HttpsServer]:
    if url := postgres_url():
        reset_postgres(url)
    server = HttpsServer(instance, env)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def https(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpsServer]:
    """make serve-https as it runs, one for this file's tests of it (each start takes
    seconds, and CI's time is counted)."""
    with serving(tmp_path_factory.mktemp("https")) as server:
        yield server


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def plain(url: str) -> tuple[int, dict[str, str], bytes]:
    """A GET over plain http, redirects not followed."""
    opener = urllib.request.build_opener(NoRedirect())
    try:
        with opener.open(url, timeout=5) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def test_https_answers_with_hsts_and_secure_cookies(https: HttpsServer) -> None:
    with https.open("/healthz") as answer:
        assert answer.status == 200
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
    with https.open("/new") as answer:  # a form: its CSRF token opens a session
        cookies = answer.headers.get_all("Set-Cookie")
    assert cookies and all("Secure" in cookie for cookie in cookies), cookies
    # The certificate is for the names a phone opens, signed by this server's CA only.
    with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
        urllib.request.urlopen(https.url + "/healthz", timeout=5)


def test_plain_http_offers_the_root_and_sends_the_rest_to_https(https: HttpsServer) -> None:
    status, headers, _ = plain(https.plain_url + "/new?x=1")
    assert status == 308
    assert headers["Location"] == f"https://localhost:{https.port}/new?x=1"
    root = https.root.read_bytes()
    fingerprint = hashlib.sha256(ssl.PEM_cert_to_DER_cert(root.decode())).hexdigest().upper()
    status, _, body = plain(https.plain_url + "/trust")
    assert status == 200
    page = body.decode()
    assert ":".join(fingerprint[i : i + 2] for i in range(0, 64, 2)) in page
    # Other phones scan the page at its plain address, then open the app over https.
    assert f'href="http://{HttpsServer.HOST}:{https.http_port}/trust"' in page
    assert f'href="https://{HttpsServer.HOST}:{https.port}"' in page
    status, headers, body = plain(https.plain_url + "/trust/root.crt")
    assert (status, body) == (200, root)
    assert headers["Content-Type"] == "application/x-x509-ca-cert"


SLOW_CLIENTS = 16  # two sync workers alone were stopped by two (test_server_shape.py)


def tls_client(server: HttpsServer) -> Callable[[bytes], socket.socket]:
    """A connection over TLS to the server (trusting its CA) that has sent `request`."""

    def connect(request: bytes) -> socket.socket:
        raw = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        connection = server.context().wrap_socket(raw, server_hostname="localhost")
        connection.sendall(request)
        return connection

    return connect


def test_slow_clients_are_held_by_caddy(tmp_path: Path) -> None:
    """Two sync workers of one thread each (the server shape slow clients stop at
    once) behind Caddy: 16 clients dribbling their bodies reach no worker, and /healthz
    answers within a second all along."""
    shape = {"GUNICORN_WORKER_CLASS": "sync", "GUNICORN_THREADS": "1"}
    with serving(tmp_path, shape) as server:
        assert "Serving: 2 workers x 1 thread (sync)" in server.log()
        with slow_bodies(server, SLOW_CLIENTS, tls_client(server), "localhost"):
            time.sleep(0.5)
            times = healthz_times(server)
    assert len(times) >= 5 and max(times) < 1, times


def test_slow_readers_of_a_large_answer_are_held_by_caddy(https: HttpsServer) -> None:
    """make serve-https's shape, two threads a worker: 16 clients ask for the app in the
    phone's largest file (14.5 MB) and read nothing. Caddy sends it from disk and takes
    the app's answers whole (deploy/Caddyfile), so no worker's thread waits on them, and
    /healthz answers within a second all along (streamed through gunicorn, two such
    clients kept it from answering for 10 s with one thread a worker:
    docs/PERFORMANCE.md, "Server shapes"). Regression: with one thread, a connection
    Caddy opened and sent nothing on held a worker, and a download waited 5 s for its
    first byte."""
    assert "Serving: 2 workers x 2 threads (gthread)" in https.log()
    request = b"GET /standalone/python/site.zip HTTP/1.1\r\nHost: localhost\r\n\r\n"
    connect = tls_client(https)
    with ExitStack() as stack:
        readers = [stack.enter_context(connect(request)) for _ in range(SLOW_CLIENTS)]
        for reader in readers:
            assert reader.recv(12) == b"HTTP/1.1 200"  # the build is there: it is being sent
        time.sleep(0.5)  # every answer has left gunicorn (or is stuck there)
        times = healthz_times(https)
    assert len(times) >= 5 and max(times) < 1, times


def test_the_app_in_the_phone_comes_from_disk_with_the_apps_headers(https: HttpsServer) -> None:
    """Caddy sends the build's files itself (deploy/Caddyfile), nothing held in memory and
    no gunicorn thread held, with the headers the app gives them (companion/views/phone.py:
    its policy, the app's every-answer headers, checked on every visit); a name the build
    lacks, and the build's page, are the app's to answer."""
    build = ROOT / "build" / "standalone"
    expected = response_headers({"SESSION_COOKIE_SECURE": True}) | {
        "Content-Security-Policy": phone.CSP,
        "Cache-Control": "no-cache",  # the app's max_age=0: checked with the server each time
    }
    for name in ("sw.js", "python/site.zip.gz", "pyodide/pyodide.asm.wasm"):
        with https.open(f"/standalone/{name}") as answer:
            assert answer.status == 200
            assert answer.read() == (build / name).read_bytes(), name
            sent = {key: answer.headers[key] for key in expected}
        assert sent == expected, name
    with https.open("/standalone/") as answer:  # the build's page: the app's
        assert answer.status == 200 and b"<html" in answer.read().lower()
    opener = urllib.request.build_opener(
        NoRedirect(), urllib.request.HTTPSHandler(context=https.context())
    )
    try:
        opener.open(https.url + "/standalone/app/m/abc", timeout=5)
    except urllib.error.HTTPError as error:  # a page of the app: opened by its page
        with error:
            assert error.code == 303
            assert "/standalone/?open=" in error.headers["Location"]
    else:
        raise AssertionError("a page of the app in the phone was not sent to its page")
