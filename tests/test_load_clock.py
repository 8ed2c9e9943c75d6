"""The load benchmark's screens poll on htmx's clock (bench/load/scenario.py), as the table's
`every 1500ms` poller does in a browser: after a 204 the same poller asks again a period
after it last asked, however long the answer took; a table that came (200) is a new
poller, whose period starts when it came. The editor's own screen polls too between its
plays. (A phone that waited for a slow answer and then waited a whole period more lined
up with every other phone the same slow moment held: the load came back in bursts.)"""

from __future__ import annotations

import asyncio
import statistics
import time
from argparse import Namespace
from itertools import pairwise

from bench.load.scenario import Clients, Table
from tests.loops import run_apart

PAGE = b'<div class="live" hx-get="/m/abc/live?v=%d&amp;last=%d"></div>'
POLL = 0.2  # seconds between a poller's asks
LATE = 0.1  # how long each answer takes


def asked_at(
    changed: bool, run: str, seconds: float, updates: str = "polled", late: float = LATE
) -> list[float]:
    """When a screen asked (seconds from its start), and last when it was done, with a
    server whose every answer takes `late` seconds: a 204, or with `changed` a new table
    each time; `run` is "phone" (a watching phone) or "editor" (the editor's screen for
    `seconds` between two plays)."""

    async def go() -> list[float]:
        asked: list[float] = []
        served = 0

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal served
            while True:
                try:
                    await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    break
                asked.append(time.monotonic())
                await asyncio.sleep(late)
                if changed:
                    served += 1
                    body = PAGE % (served, served)
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body))
                    writer.write(body)
                else:
                    writer.write(b"HTTP/1.1 204 NO CONTENT\r\n\r\n")
                await writer.drain()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        args = Namespace(updates=updates, poll=POLL, timeout=5, connections="keep-alive")
        clients = Clients("127.0.0.1", port, args)
        clients.clock.deadline = time.monotonic() + seconds + 1
        table = Table(0, [], clients.session(), "abc")
        table.see(PAGE % (0, 0))
        phone = clients.session()
        began = time.monotonic()
        if run == "phone":
            clients.clock.deadline = time.monotonic() + seconds
            await clients.watch(table, phone, seed=0)
        else:
            await clients.think(table, seconds)
        done = time.monotonic()
        phone.close()
        table.editor.close()
        server.close()
        return [at - began for at in [*asked, done]]

    return run_apart(go())


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in pairwise(times)]


def asks(times: list[float]) -> list[float]:
    return times[:-1]  # the last is when the screen was done


def test_a_poller_answered_late_asks_again_a_period_after_it_last_asked() -> None:
    asked = asks(asked_at(changed=False, run="phone", seconds=1.6))
    assert len(asked) >= 5
    # Not POLL + LATE (0.3 s) apart: the answer's time is inside the period.
    assert abs(statistics.median(gaps(asked)) - POLL) < 0.04


def test_a_table_that_came_starts_its_new_poller_s_period_when_it_came() -> None:
    asked = asks(asked_at(changed=True, run="phone", seconds=1.6))
    assert len(asked) >= 4
    assert abs(statistics.median(gaps(asked)) - (POLL + LATE)) < 0.04


def test_the_editor_s_screen_polls_between_its_plays() -> None:
    # Between two plays 0.75 s apart the editor's table asks at 0.2, 0.4 and 0.6 s.
    asked = asks(asked_at(changed=False, run="editor", seconds=0.75))
    assert len(asked) == 3
    assert abs(statistics.median(gaps(asked)) - POLL) < 0.04


def test_a_told_editor_s_screen_asks_nothing_between_its_plays() -> None:
    assert asks(asked_at(changed=False, run="editor", seconds=0.75, updates="pushed")) == []


def test_after_a_new_table_the_editor_s_poller_asks_a_period_after_it_came() -> None:
    # Answers at 0.3, 0.6 and 0.9 s bring new tables: asks at 0.2, 0.5 and 0.8 s.
    asked = asks(asked_at(changed=True, run="editor", seconds=1.0))
    assert len(asked) == 3
    assert abs(statistics.median(gaps(asked)) - (POLL + LATE)) < 0.04


def test_a_slow_answer_never_makes_the_editor_s_screen_ask_twice_at_once_or_late() -> None:
    # Each answer takes 0.5 s: asked at 0.2, then as that answer comes (0.7); the one
    # due as the next comes (1.2) is after the 1 s pause, so it is not asked.
    *asked, done = asked_at(changed=False, run="editor", seconds=1.0, late=0.5)
    assert len(asked) == 2
    assert asked[1] - asked[0] > 0.45
    assert done < 1.3
