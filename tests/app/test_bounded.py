"""The one bounded cache (companion/bounded.py): least recently used dropped first."""

from __future__ import annotations

import threading

from companion.bounded import Bounded


def test_beyond_its_bound_the_least_recently_used_goes_first() -> None:
    kept: Bounded[str, int] = Bounded(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # now the most recently used
    kept.put("c", 3)
    assert kept.peek("b") is None and kept.get("a") == 1 and kept.get("c") == 3
    assert len(kept) == 2


def test_peek_leaves_the_order_as_it_is() -> None:
    kept: Bounded[str, int] = Bounded(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.peek("a") == 1
    kept.put("c", 3)
    assert kept.peek("a") is None and kept.values() == [2, 3]


def test_setdefault_makes_a_value_once_and_bound_drops_by_weight() -> None:
    kept: Bounded[str, list[int]] = Bounded(5, weight=len)
    first = kept.setdefault("a", list)
    assert kept.setdefault("a", lambda: [9]) is first
    first.extend([1, 2, 3, 4])  # it grew: only `bound` notices
    kept.setdefault("b", lambda: [1, 2])
    assert len(kept) == 2
    kept.bound()
    assert kept.peek("a") is None and kept.peek("b") == [1, 2]


def test_the_newest_is_kept_whatever_it_weighs() -> None:
    kept: Bounded[str, list[int]] = Bounded(3, weight=len)
    kept.put("a", [1])
    kept.put("huge", list(range(10)))
    assert kept.values() == [list(range(10))]


def test_clear_and_many_threads_at_once() -> None:
    kept: Bounded[int, int] = Bounded(50)

    def work(start: int) -> None:
        for n in range(start, start + 500):
            kept.put(n % 80, n)
            kept.get((n * 7) % 80)
            kept.setdefault(n % 90, lambda: 0)

    threads = [threading.Thread(target=work, args=(i * 1000,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) <= 50 + 4  # setdefault alone never drops; put does
    kept.bound()
    assert len(kept) == 50
    kept.clear()
    assert len(kept) == 0 and kept.values() == []
