"""`Bounded`: the one bounded cache of a process, least recently used dropped first.

The games (companion/games.py), each match's statistics (companion/match_stats.py) and
each group's history (companion/group_history.py) are kept per process in one of these.
Thread-safe: its lock guards the dictionary only, never a value, and is never held
while a value is built or the database asked, so a request never waits on another's work.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _one(_value: object) -> int:
    return 1


class Bounded(Generic[K, V]):
    """At most `most` in weight (each value's `weight`, 1 by default); the newest value
    is always kept, whatever it weighs."""

    def __init__(self, most: int, weight: Callable[[V], int] = _one) -> None:
        self.most = most
        self.weight = weight
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def values(self) -> list[V]:
        with self._lock:
            return list(self._kept.values())

    def get(self, key: K) -> V | None:
        """The value kept under `key`, now the most recently used; None if none."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def peek(self, key: K) -> V | None:
        """The value kept under `key`, its place left as it is."""
        with self._lock:
            return self._kept.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key` as the most recently used; drop beyond the bound."""
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            self._drop()

    def setdefault(self, key: K, make: Callable[[], V]) -> V:
        """The value under `key` (now the most recently used), or `make()` kept there
        (cheap: it runs under the lock; no bound applied, see `bound`)."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                found = self._kept[key] = make()
            self._kept.move_to_end(key)
            return found

    def bound(self) -> None:
        """Drop the least recently used beyond the bound (weights may have grown)."""
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self.weight is _one:
            while len(self._kept) > max(self.most, 1):
                self._kept.popitem(last=False)
            return
        total = sum(self.weight(v) for v in self._kept.values())
        while len(self._kept) > 1 and total > self.most:
            _key, dropped = self._kept.popitem(last=False)
            total -= self.weight(dropped)
