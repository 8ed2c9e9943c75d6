"""Fixtures shared by every kind of test: the production server (`gunicorn`); and the
order the test files are handed to the workers in."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers"]

# The slowest files first (`pytest --durations=60`, at about a minute or half a minute
# each): with `--dist loadfile` (Makefile) a worker runs a whole file, so a long file
# handed out last keeps the run going on one worker while the others are done.
SLOWEST_FIRST = (
    "tests/browser/test_standalone.py",
    "tests/browser/test_taps.py",
    "tests/engine/test_properties.py",
    "tests/browser/test_look.py",
    "tests/browser/test_languages.py",
    "tests/browser/test_hand.py",
    "tests/browser/test_recorded.py",
    "tests/browser/test_standalone_update.py",
    "tests/browser/test_standalone_handed_out.py",
    "tests/app/test_bad_input.py",
    "tests/app/test_faults.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return SLOWEST_FIRST.index(path) if path in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order
