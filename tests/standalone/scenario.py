"""A hand played through the standalone app's bridge (companion/standalone.py), as the
page posts it: the same function runs in this Python and, sent as source, in Pyodide
(tests/standalone/test_in_pyodide.py), so the two can be compared. Standard library and
the engine only: nothing else is there to import in both."""

from __future__ import annotations

import re
import secrets
from typing import Any
from urllib.parse import urlencode

from engine import HouseRules, rule_fields

HX = [("HX-Request", "true")]
FORM = [("Content-Type", "application/x-www-form-urlencoded")]
# A stack taken, a swap: the lines a hand's first turns post.
LINES = ("start: R5", "Ann: R+2", "Bob: W+6 G", "Cy: take", "Ann: G3", "Bob: G7 swap Cy")
SETTLE = {"TAP_SETTLE_MS": "0", "TAP_REFRESH_MS": "0"}


def _token(body: bytes) -> str:
    found = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', body)
    assert found is not None, body[:300]
    return found.group(1).decode()


def _location(answer: Any) -> str:
    assert answer.status == 303, (answer.status, answer.body[:300])
    return str(dict(answer.headers)["Location"])


def _shown(screen: bytes) -> dict[str, str]:
    """The hidden fields of the table's forms: its token, and the table they were made on."""
    fields = {"csrf_token": _token(screen)}
    for name in ("version", "last", "shown"):
        found = re.search(rf'name="{name}" value="([^"]*)"'.encode(), screen)
        if found is not None:
            fields[name] = found.group(1).decode()
    return fields


def record(phone: Any, table: str, line: str) -> Any:
    """Post a line as the table's form posts it (its hidden fields read off the screen)."""
    fields = _shown(phone.answer("GET", table, HX).body) | {"key": secrets.token_hex(6)}
    who, _, action = line.partition(":")
    if who == "start":
        fields |= {"player": "", "action": line}
    else:
        fields |= {"player": who, "action": action.strip()}
    return phone.answer("POST", f"{table}/line", FORM + HX, urlencode(fields).encode())


def undo(phone: Any, table: str) -> Any:
    """Tap Undo, as the table's form posts it."""
    fields = _shown(phone.answer("GET", table, HX).body)
    return phone.answer("POST", f"{table}/undo", FORM + HX, urlencode(fields).encode())


def new_match(phone: Any) -> str:
    """A new match of three, as the new-match form posts it: its table's path."""
    page = phone.answer("GET", "/new", [])
    fields = {"csrf_token": _token(page.body), "dealer": "last", "mode": "referee"}
    fields |= {f"players-{i}": name for i, name in enumerate(("Ann", "Bob", "Cy"))}
    fields |= {k: v for k, v in rule_fields(HouseRules()).items() if v is not None}
    return _location(phone.answer("POST", "/new", FORM, urlencode(fields).encode()))


def play(phone: Any) -> dict[str, Any]:
    """A new match of three, the hand's lines, an undo of the last one; what the table
    then shows (its text, ids and tokens left out) and its record."""
    table = new_match(phone)
    statuses = [record(phone, table, line).status for line in LINES]
    undone = undo(phone, table)
    shown = phone.answer("GET", table, []).body.decode()
    text = re.sub(r"<[^>]+>", " ", shown.split("<main", 1)[1])
    return {
        "statuses": [*statuses, undone.status],
        "text": " ".join(text.replace(table.rsplit("/", 1)[1], "ID").split()),
        "record": phone.answer("GET", f"{table}/record.txt", []).body.decode(),
    }
