"""Fixtures shared by every kind of test: the production server (`gunicorn`); and the
order the test files are handed to the workers in."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.servers"]

# The slowest files first, by their tests' time (`pytest --durations=0`, summed by file:
# 30 s to 2 minutes each; measured again 2026-11-29): with `--dist loadfile` (Makefile)
# a worker runs a whole file, so a long file handed out last keeps the run going on one
# worker while the others are done.
SLOWEST_FIRST = (
    "tests/engine/test_properties.py",
    "tests/browser/test_one_hand.py",
    "tests/browser/test_languages.py",
    "tests/browser/test_double_taps.py",
    "tests/browser/test_look.py",
    "tests/browser/test_screen_fixes.py",
    "tests/browser/test_standalone.py",
    "tests/browser/test_taps.py",
    "tests/app/test_bad_input.py",
    "tests/browser/test_recorded.py",
    "tests/app/test_taps.py",
    "tests/browser/test_never_lost.py",
    "tests/browser/test_hand.py",
    "tests/browser/test_standalone_download.py",
    "tests/app/test_records.py",
    "tests/browser/test_standalone_update.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return SLOWEST_FIRST.index(path) if path in SLOWEST_FIRST else len(SLOWEST_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order
