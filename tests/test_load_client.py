"""The load benchmark's HTTP client (bench/load/client.py) against a small server of the
test's own: it keeps its connection between requests as a phone's browser does, reads
each kind of answer to its end, and sends a request again on a new connection when the
server had closed the idle one, never when an answer was cut short."""

from __future__ import annotations

import asyncio
import gzip

from bench.load.client import Session
from tests.loops import run_apart

ANSWERS = {
    b"/length": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: s=1; Path=/\r\n\r\nhello",
    b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n",
    b"/nothing": b"HTTP/1.1 204 NO CONTENT\r\nVary: HX-Request\r\n\r\n",
    b"/gzip": b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n",
    b"/cut": b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort",
}


async def serve(close_after: int) -> tuple[asyncio.Server, list[int], list[bytes]]:
    """A server that answers by path and closes each connection after `close_after`
    answers (as gunicorn closes an idle one); it counts connections and requests."""
    connections: list[int] = []
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        for _ in range(close_after):
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            path = head.split(b" ")[1]
            seen.append(head)
            if path == b"/gzip":
                body = gzip.compress(b"zipped")
                writer.write(ANSWERS[path] % len(body) + body)
            else:
                writer.write(ANSWERS[path])
            await writer.drain()
            if path == b"/cut":
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, connections, seen


def run(
    close_after: int,
    paths: list[str],
    keep_alive: bool = True,
    heads: list[bytes] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[list[str], int]:
    """What each request was answered, and how many connections the server saw (and
    each request's head, in `heads` when given); `headers`: sent with each request."""

    async def go() -> tuple[list[str], int]:
        server, connections, seen = await serve(close_after)
        port = server.sockets[0].getsockname()[1]
        session = Session("127.0.0.1", port, timeout=5, keep_alive=keep_alive)
        texts = []
        for path in paths:
            try:
                reply = await session.request("GET", path, headers=headers)
            except ConnectionError as error:
                texts.append(f"{error} ({len(seen)} requests seen)")
                continue
            texts.append(f"{reply.status} {reply.text}")
            await asyncio.sleep(0.01)  # the server closes in between, when it does
        session.close()
        await asyncio.sleep(0.05)  # the server's side sees the close and ends its handler
        server.close()
        if heads is not None:
            heads.extend(seen)
        return texts, len(connections)

    return run_apart(go())


def test_a_connection_is_kept_for_every_kind_of_answer() -> None:
    texts, connections = run(10, ["/length", "/chunked", "/nothing", "/gzip", "/length"])
    assert texts == ["200 hello", "200 hello", "204 ", "200 zipped", "200 hello"]
    assert connections == 1


def test_a_request_goes_again_on_a_new_connection_when_the_idle_one_was_closed() -> None:
    texts, connections = run(1, ["/length", "/chunked", "/nothing"])
    assert texts == ["200 hello", "200 hello", "204 "]
    assert connections == 3


def test_with_close_every_request_has_a_connection_of_its_own() -> None:
    texts, connections = run(10, ["/length", "/length"], keep_alive=False)
    assert texts == ["200 hello", "200 hello"] and connections == 2


def test_an_answer_cut_short_is_an_error_and_is_not_sent_again() -> None:
    texts, connections = run(10, ["/length", "/cut", "/length"])
    assert texts == ["200 hello", "the answer was cut short (2 requests seen)", "200 hello"]
    assert connections == 2  # the cut connection is dropped, the next request opens one


def test_every_request_accepts_gzip_as_a_phones_browser_does() -> None:
    """Regression: the load's clients asked for no encoding, so the load never measured
    the server's gzip, which every phone gets; nor for a language, which every browser
    asks for and the app works out on every request."""
    heads: list[bytes] = []
    run(10, ["/length", "/gzip"], heads=heads)
    assert len(heads) == 2
    assert all(b"\r\nAccept-Encoding: gzip, deflate\r\n" in head for head in heads), heads
    assert all(b"\r\nAccept-Language: en-US,en;q=0.9\r\n" in head for head in heads), heads


def test_a_header_the_caller_gives_replaces_the_phones_in_any_case() -> None:
    """Regression: the phone's headers were merged by their exact names, so a caller's
    `accept-encoding` went out beside the phone's `Accept-Encoding`."""
    heads: list[bytes] = []
    run(10, ["/length"], heads=heads, headers={"accept-encoding": "identity"})
    (head,) = heads
    assert head.lower().count(b"accept-encoding:") == 1, head
    assert b"\r\naccept-encoding: identity\r\n" in head
    assert b"\r\nAccept-Language: en-US,en;q=0.9\r\n" in head
