"""The load benchmark's page weight (bench/load/phases.py): the table page and what a first
visit downloads with it, each file counted once, however its address is written."""

from __future__ import annotations

import asyncio
import gzip
import json
from argparse import Namespace
from typing import Any

from bench.load.phases import page_weight
from bench.load.scenario import Clients, Table
from tests.loops import run_apart

ASSETS = {
    "/static/app.css": b"body { color: black; }\n" * 40,
    "/static/app.js": b"console.log('hi');\n" * 40,
    "/static/vendor/htmx.min.js": b"var htmx = {};\n" * 40,
    "/static/icon-192.png": b"\x89PNG" + bytes(range(256)) * 4,
    "/offline": b"<p>offline</p>",
}
PAGE = (
    b'<link rel="stylesheet" href="/static/app.css?v=1a2b">'
    b'<script src="/static/vendor/htmx.min.js?v=3c4d"></script>'
    b'<script src="/static/app.js?v=5e6f"></script>'
)
MANIFEST = json.dumps({"icons": [{"src": "/static/icon-192.png", "sizes": "192x192"}]})
# The service worker keeps the page's files at the addresses the page wrote, digests and all.
WORKER = (
    'var STATIC = ["/static/app.css?v=1a2b", "/static/vendor/htmx.min.js?v=3c4d", '
    '"/static/app.js?v=5e6f"];\nvar OFFLINE = "/offline";\n'
)


def weighed() -> tuple[dict[str, Any], list[str]]:
    """page_weight's result against a server holding the files above, and what it asked."""

    async def go() -> tuple[dict[str, Any], list[str]]:
        asked: list[str] = []
        files = {
            "/m/abc": PAGE,
            "/manifest.webmanifest": MANIFEST.encode(),
            "/sw.js": WORKER.encode(),
            **ASSETS,
        }

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    break
                url = head.split(b" ")[1].decode()
                asked.append(url)
                body = gzip.compress(files[url.partition("?")[0]])
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n"
                    b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                )
                await writer.drain()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        args = Namespace(timeout=5, connections="keep-alive")
        clients = Clients("127.0.0.1", port, args)
        table = Table(0, [], clients.session(), "abc")
        result = await page_weight(clients, table)
        table.editor.close()
        server.close()
        return result, asked

    return run_apart(go())


def test_a_file_the_worker_keeps_is_weighed_once_when_its_address_carries_a_digest() -> None:
    result, asked = weighed()
    names = [item["name"] for item in result["items"]]
    assert sorted(names) == sorted(
        ["table page /m/abc", "/manifest.webmanifest", "/sw.js", *ASSETS]
    ), names
    assert len(asked) == len(set(asked)) == len(names), asked
    assert result["total_gzip"] == sum(item["gzip"] for item in result["items"])
