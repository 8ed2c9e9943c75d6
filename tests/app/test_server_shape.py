"""The production server's shape (gunicorn.conf.py as `make serve` runs it) against
clients an attacker controls: slow bodies and slow readers must not starve it, a
malformed body gets a sentence and a 400."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress

from tests.servers import Gunicorn

SLOW_CLIENTS = 8  # more than the two sync workers that used to face the network, x4


def raw(server: Gunicorn, request: bytes) -> socket.socket:
    """A connection to the server that has sent `request` (bytes as they are)."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    connection.sendall(request)
    return connection


def answer(connection: socket.socket) -> bytes:
    """Everything the server sends back until it closes the connection."""
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@contextmanager
def slow_bodies(
    server: Gunicorn,
    count: int,
    connect: Callable[[bytes], socket.socket] | None = None,
    host: str = "127.0.0.1",
) -> Iterator[None]:
    """`count` clients that sent a POST's headers and then send one byte of the body
    every 2 seconds, for as long as the block runs; each connection made by
    `connect(headers)` (default: a plain one to the server, `raw`)."""
    headers = (
        "POST /import HTTP/1.1\r\n"
        f"Host: {host}:{server.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        "Content-Length: 100000\r\n\r\n"
    ).encode()
    connect = connect or (lambda sent: raw(server, sent))
    stop = threading.Event()
    with ExitStack() as stack:
        connections = [stack.enter_context(connect(headers)) for _ in range(count)]

        def drip() -> None:
            while not stop.wait(2):
                for connection in connections:
                    with suppress(OSError):  # the server gave up on it: fine
                        connection.sendall(b"a")

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        try:
            yield
        finally:
            stop.set()
            dripper.join()


def healthz_times(server: Gunicorn) -> list[float]:
    """How long /healthz took to answer, asked every half second for 5 s (an answer
    that takes over a second fails)."""
    times = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        started = time.monotonic()
        with server.open("/healthz", timeout=1) as response:
            assert response.status == 200
        times.append(time.monotonic() - started)
        time.sleep(0.5)
    return times


def test_slow_clients_do_not_starve_the_server(gunicorn: Gunicorn) -> None:
    """Regression: four clients sending a body byte every 2 s held both sync workers,
    and /healthz got no answer for 45 s."""
    with slow_bodies(gunicorn, SLOW_CLIENTS):
        time.sleep(0.5)  # every slow client is in (a worker thread holds each)
        times = healthz_times(gunicorn)
    assert len(times) >= 5 and max(times) < 1, times


def test_slow_readers_of_a_large_answer_do_not_starve_the_server(gunicorn: Gunicorn) -> None:
    """Clients that ask for the app in the phone's largest file (14.5 MB) and then read
    nothing: gunicorn's thread sending it waits for them once the kernel's buffers are
    full (deploy/'s proxies take an answer whole first: test_https.py). Each holds a
    thread, and the others keep answering: why a worker has 32 threads with no proxy in
    front (docs/PERFORMANCE.md, "Server shapes"; with one thread a worker, two such
    clients kept /healthz from answering for 10 s)."""
    request = (
        f"GET /standalone/python/site.zip HTTP/1.1\r\nHost: 127.0.0.1:{gunicorn.port}\r\n\r\n"
    ).encode()
    with ExitStack() as stack:
        readers = [stack.enter_context(raw(gunicorn, request)) for _ in range(SLOW_CLIENTS)]
        for reader in readers:
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            assert reader.recv(12) == b"HTTP/1.1 200"  # the build is there: it is being sent
        time.sleep(0.5)  # every reader's thread is stuck sending
        times = healthz_times(gunicorn)
    assert len(times) >= 5 and max(times) < 1, times


def test_a_malformed_chunked_body_is_a_400_with_a_sentence(gunicorn: Gunicorn) -> None:
    """Regression: a chunked body with a chunk size that is no number answered 500 (the
    error surfaced from gunicorn where the app reads the form)."""
    for path in ("/import", "/new", "/m/nothing/line"):
        request = (
            f"POST {path} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{gunicorn.port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Transfer-Encoding: chunked\r\n"
            "Connection: close\r\n\r\n"
            "zz\r\nabc\r\n0\r\n\r\n"
        ).encode()
        with raw(gunicorn, request) as connection:
            reply = answer(connection).decode()
        assert reply.startswith("HTTP/1.1 400 "), reply[:500]
        assert "This request could not be read" in reply and "nothing was recorded" in reply
    with gunicorn.open("/healthz") as response:
        assert response.status == 200
