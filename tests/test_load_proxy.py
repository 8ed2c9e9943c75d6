"""The load benchmark in front of deploy/'s proxy (`python -m bench.load --proxy caddy`):
its clients reach gunicorn through Caddy, and the proxy's CPU is counted apart from the
server's; and under another server (`--server granian`), the same app answers."""

from __future__ import annotations

import argparse
import http.client

from bench.load.servers import ROOT, Server


def server_args(**given: object) -> argparse.Namespace:
    """The server's arguments as `python -m bench.load` gives them, two workers."""
    shape = {"server": "gunicorn", "proxy": "none", "workers": 2, "threads": None}
    args = {"app": "bench.bare_wsgi:app", "root": ROOT, "start_timeout": 60}
    return argparse.Namespace(**shape | args | given)


def test_the_load_reaches_gunicorn_through_caddy() -> None:
    server = Server("proxied", server_args(proxy="caddy", threads=3), None)
    try:
        server.start()
        assert server.shape() == {"workers": 2, "threads": 3, "class": "gthread", "proxy": "caddy"}
        for _ in range(20):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            connection.request("GET", "/bench/bare")
            answer = connection.getresponse()
            assert (answer.status, answer.read()) == (200, b"ok")
            assert "Caddy" in answer.getheader("Server", "")
            connection.close()
        assert server.proxy_cpu_seconds() > 0
    finally:
        server.stop()
        server.cleanup(keep=False)
    assert server.proxy is not None and server.proxy.poll() is not None  # stopped with it


def test_the_load_reaches_the_same_app_under_granian() -> None:
    server = Server("granian", server_args(server="granian"), None)
    try:
        server.start()
        assert server.shape() == {
            "name": "granian",
            "workers": 2,
            "threads": 1,
            "class": "blocking threads",
        }
        for path, body in (("/bench/bare", b"ok"), ("/healthz", None)):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            connection.request("GET", path)
            answer = connection.getresponse()
            assert answer.status == 200 and (body is None or answer.read() == body), path
            connection.close()
        assert server.cpu_seconds() > 0
    finally:
        server.stop()
        server.cleanup(keep=False)
