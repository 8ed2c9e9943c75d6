"""`run_apart`: asyncio.run for a test's coroutine, in a thread of its own. A browser test
before it in the same process leaves Playwright's event loop running in the main thread,
where asyncio.run refuses to start."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(main: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result()
