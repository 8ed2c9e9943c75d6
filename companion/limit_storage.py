"""Where the rate limits count (companion/limits.py): the storage RATELIMIT_STORAGE_URI
names, memory:// (each process counts on its own) or redis://... (across processes and
hosts). In memory, counts whose window has ended are dropped when read and swept every few
hundred writes (`SweptMemoryStorage`), not by the timer thread limits' own memory storage
starts on writes (about every other write of a busy server, 0.1-0.25 ms each). Imported
only when limits are on."""

from __future__ import annotations

import time
from typing import Any

from limits.storage import MemoryStorage, Storage, storage_from_string

# Writes between two sweeps of the ended windows' counts (memory only).
SWEEP_EVERY = 500
# How long a count waits for Redis, in seconds, before the request is let through
# uncounted (companion/limits.py): a Redis host gone from the network must not hold a
# play for redis-py's default of no limit at all. The URI's own settings win
# (redis://host/0?socket_timeout=1).
REDIS_WAIT = {"socket_connect_timeout": 0.25, "socket_timeout": 0.25}


class SweptMemoryStorage(MemoryStorage):
    """limits' memory storage, its ended counts dropped on a read (as limits does) and
    swept every SWEEP_EVERY writes, with no thread started per write (limits' own starts
    one, once, when it is made)."""

    # Its own scheme: limits registers each storage class under its schemes, and this
    # one must not take "memory" over.
    STORAGE_SCHEME = ["swept-memory"]  # noqa: RUF012 (limits reads it as the class's)

    def __init__(self, uri: str | None = None, **options: Any) -> None:
        super().__init__(uri, **options)
        self.writes = 0

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        self.get(key)  # a count whose window ended starts again
        with self.locks[key]:
            self.storage[key] += amount
            if self.storage[key] == amount:
                self.expirations[key] = time.time() + expiry
        self.writes += 1
        if self.writes % SWEEP_EVERY == 0:
            self.sweep()
        return self.storage.get(key, 0)

    def sweep(self) -> None:
        """Drop every count whose window has ended."""
        now = time.time()
        for key, ends in list(self.expirations.items()):
            if ends <= now:
                self.get(key)


def storage_for(uri: str) -> Storage:
    """memory:// counts in this process, swept (SweptMemoryStorage); any other URI is
    limits' own (redis://...), its errors raised as limits' StorageError."""
    if uri.startswith("memory://"):
        return SweptMemoryStorage(wrap_exceptions=True)
    options: dict[str, Any] = {"wrap_exceptions": True}
    if uri.startswith(("redis", "valkey")):
        options |= REDIS_WAIT
    storage = storage_from_string(uri, **options)
    if not isinstance(storage, Storage):  # an asyncio storage ("async+redis://")
        raise ValueError(f"RATELIMIT_STORAGE_URI {uri!r}: an asyncio storage can't serve this app.")
    return storage
