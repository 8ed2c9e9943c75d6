"""The load benchmark's phones told of each line (`--updates pushed`, bench/load/scenario.py):
the best a push could do, measured against polling (docs/PERFORMANCE.md). A told phone asks
once to see its table, then once for each line it is told of, and nothing more; a polling
phone keeps asking every --poll seconds."""

from __future__ import annotations

import asyncio
import time
from argparse import Namespace

from bench.load.scenario import Clients, Table
from tests.loops import run_apart

PAGE = b'<div class="live" hx-get="/m/abc/live?v=%d&amp;last=%d"></div>'


def watched(updates: str, lines: int) -> list[str]:
    """The URLs one phone asked while its editor recorded `lines` lines, 0.2 s apart,
    in a window of 1.2 s."""

    async def go() -> list[str]:
        asked: list[str] = []
        version = 0

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    break
                url = head.split(b" ")[1].decode()
                asked.append(url)
                if f"v={version}&" in url:
                    writer.write(b"HTTP/1.1 204 NO CONTENT\r\n\r\n")
                else:
                    body = PAGE % (version, version)
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body))
                    writer.write(body)
                await writer.drain()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        args = Namespace(updates=updates, poll=0.05, timeout=5, connections="keep-alive")
        clients = Clients("127.0.0.1", port, args)
        clients.clock.deadline = time.monotonic() + 1.2
        table = Table(0, [], clients.session(), "abc", version=1)
        version = 1
        phone = clients.session()
        watching = asyncio.create_task(clients.watch(table, phone, seed=0))
        await asyncio.sleep(0.2)
        for _ in range(lines):
            version += 1
            table.tell_phones()
            await asyncio.sleep(0.2)
        await watching
        phone.close()
        table.editor.close()
        server.close()
        return asked

    return run_apart(go())


def test_a_told_phone_asks_once_to_see_its_table_then_once_a_line() -> None:
    asked = watched("pushed", lines=3)
    assert asked == [
        "/m/abc/live?v=0",
        "/m/abc/live?v=1&last=1",
        "/m/abc/live?v=2&last=2",
        "/m/abc/live?v=3&last=3",
    ]


def test_a_polling_phone_keeps_asking() -> None:
    asked = watched("polled", lines=1)
    assert len(asked) > 10
