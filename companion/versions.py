"""Unchanged polls without a query, from PostgreSQL's notifications.

A trigger (migrations a1c0ffee0004-5) announces on the channel `companion_match`, at
the commit of every change to a match row's version or last line, "<id> <version>
<last line id>", and "<id> gone" when its links are renewed or it is deleted. A line
added is announced with the line: "<id> <version> <last line id> <previous last line
id> <text>"; those are kept (`added`) for the process's cached games (store.py). Each
process listens on a connection of its own and remembers, for the matches it has read,
their share tokens and their latest version and last line. A poll first takes in what
has arrived (a read of that connection's socket: no round trip) and, when the match is
remembered, answers from memory.

Why the memory stays right:
- It starts from a read of the match row and then follows every change, in commit
  order, so it ends where the database is.
- A notification still on its way (milliseconds) lets a poll answer "unchanged" for a
  table that has just moved on; the next poll, 1.5 s later, shows it. A change this
  process makes itself is remembered at once.
- A read is remembered only if no notification came in while it ran: it might be
  older than one of them.
- When the listening connection fails or can't open, everything remembered is
  forgotten and polls read the database until it is back (tried again every RETRY s).
- A connection can also die without a word (a firewall dropping an idle one, a
  database host lost): nothing then says that nothing is heard any more. So no
  match is answered from memory for more than FRESH seconds after its row was last
  read: a change is shown at worst that much later, whatever went wrong.
- SQLite has no notifications: there every poll reads the match row, a local read.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Engine

CHANNEL = "companion_match"
RETRY = 5.0  # seconds before listening again after a failure
FRESH = 10.0  # seconds a row read is trusted with what was heard since
REMEMBERED = 20_000  # matches, least recently polled forgotten first
ADDED = 10_000  # lines heard and not yet taken by the games, oldest dropped first


@dataclass
class Known:
    """A match row as last read, followed since: what a poll checks (the share tokens
    and where the log is) and what it shows when the log moved (`row`'s header)."""

    id: str
    editor_token: str
    viewer_token: str
    version: int
    last_line_id: int
    row: dict[str, Any] = field(default_factory=dict)  # as read: its version is older
    read_at: float = field(default_factory=time.monotonic)

    @classmethod
    def read(cls, row: Mapping[str, Any]) -> Known:
        """A match row as just read (its columns by name)."""
        return cls(
            row["id"],
            row["editor_token"],
            row["viewer_token"],
            row["version"],
            row["last_line_id"],
            dict(row),
        )

    def as_read_now(self) -> dict[str, Any]:
        return self.row | {"version": self.version, "last_line_id": self.last_line_id}


@dataclass(frozen=True)
class AddedLine:
    """A line added to a match, as heard: it follows the line `previous` (0: none)."""

    match_id: str
    version: int  # its sequence number
    line_id: int
    previous: int
    text: str


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdecimal()


class Listener:
    """One process's listening connection and what it has learnt."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connection: Any = None  # a psycopg Connection, in autocommit
        self.failed_at = 0.0
        self.known: OrderedDict[str, Known] = OrderedDict()
        self.arrived = 0  # notifications taken in so far
        # Each names the log it follows, so any of them may be dropped or taken late.
        self.added: deque[AddedLine] = deque(maxlen=ADDED)
        self.lock = threading.Lock()

    # -- the connection

    def _listening(self) -> bool:
        if self.connection is not None:
            return True
        if time.monotonic() - self.failed_at < RETRY:
            return False
        try:
            raw = self.engine.raw_connection()
            connection = raw.driver_connection
            raw.detach()  # its own, for good: never back into the pool
            assert connection is not None
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
        except Exception:
            self.failed_at = time.monotonic()
            return False
        self.connection = connection
        self.arrived += 1  # a row read before this can't be followed: don't remember it
        return True

    def _fail(self) -> None:
        """Nothing known can be trusted once a notification may have been missed."""
        self.known.clear()
        self.arrived += 1
        connection, self.connection = self.connection, None
        self.failed_at = time.monotonic()
        with contextlib.suppress(Exception):  # it is broken already
            connection.close()

    def _take_in(self) -> bool:
        """Apply whatever has arrived; False when nothing can be trusted now."""
        if not self._listening():
            return False
        try:
            # libpq's own calls: they read what is on the socket without waiting, and
            # (unlike Connection.notifies) fail when the server has closed it.
            pgconn = self.connection.pgconn
            pgconn.consume_input()
            pgconn.consume_input()  # the first may take only a server's goodbye, not its close
            while (note := pgconn.notifies()) is not None:
                self.arrived += 1
                self._apply(note.extra.decode())
        except Exception:
            self._fail()
            return False
        return True

    def _apply(self, payload: str) -> None:
        match_id, _, rest = payload.partition(" ")
        parts = rest.split(" ", 3)
        if len(parts) in (2, 4) and all(_is_number(part) for part in parts[:3]):
            version, last_line_id = int(parts[0]), int(parts[1])
            if len(parts) == 4:
                self.added.append(
                    AddedLine(match_id, version, last_line_id, int(parts[2]), parts[3])
                )
            known = self.known.get(match_id)
            if known is not None:
                known.version, known.last_line_id = version, last_line_id
        else:  # "gone" (new links, or no match any more), or nothing it understands
            self.known.pop(match_id, None)

    # -- what the app asks

    def recall(self, match_id: str) -> Known | None:
        """What was heard of the match (a copy), if it was read FRESH seconds ago at most."""
        with self.lock:
            if not self._take_in():
                return None
            known = self.known.get(match_id)
            if known is None or time.monotonic() - known.read_at > FRESH:
                return None
            self.known.move_to_end(match_id)
            return replace(known)

    def added_lines(self) -> list[AddedLine]:
        """The lines heard added since the last call, oldest first."""
        with self.lock:
            self._take_in()
            taken = list(self.added)
            self.added.clear()
            return taken

    def mark(self) -> int:
        """Call before reading a match row to remember (see `learn`): from then on,
        every change is heard."""
        with self.lock:
            self._take_in()
            return self.arrived

    def learn(self, mark: int, row: Known) -> None:
        """Remember a match row read after `mark`, unless a notification came since."""
        with self.lock:
            if self.connection is None or self.arrived != mark:
                return
            self.known[row.id] = row
            self.known.move_to_end(row.id)
            while len(self.known) > REMEMBERED:
                self.known.popitem(last=False)

    def moved(self, mark: int, match_id: str, version: int, last_line_id: int) -> None:
        """This process changed the match (after `mark`): remember it now, not when the
        news arrives; unless news came in meanwhile, which may be newer than this."""
        with self.lock:
            known = self.known.get(match_id)
            if known is None:
                return
            if self.arrived != mark:
                del self.known[match_id]
            else:
                known.version, known.last_line_id = version, last_line_id

    def drop(self, match_id: str) -> None:
        """This process renewed the match's links: read its row again next time."""
        with self.lock:
            self.known.pop(match_id, None)
            self.arrived += 1

    def forget(self) -> None:
        """Start afresh: nothing remembered, and listen again at once if it had failed."""
        with self.lock:
            self.known.clear()
            self.arrived += 1
            self.failed_at = 0.0


_listeners: dict[tuple[int, str], Listener] = {}
_listeners_lock = threading.Lock()
# The same engine's listener again without rendering its URL (asked several times a
# request): engine id -> (the engine, which keeps the id from being reused; pid; listener).
_by_engine: dict[int, tuple[Engine, int, Listener]] = {}


def listener(engine: Engine) -> Listener | None:
    """This process's listener for the engine's database (None: not PostgreSQL)."""
    if engine.dialect.name != "postgresql":
        return None
    pid = os.getpid()
    seen = _by_engine.get(id(engine))
    if seen is not None and seen[0] is engine and seen[1] == pid:
        return seen[2]
    key = (pid, engine.url.render_as_string(hide_password=False))
    with _listeners_lock:
        found = _listeners.get(key)
        if found is None:
            # After a fork the parent's listeners are left alone: their connections are
            # the parent's.
            found = _listeners[key] = Listener(engine)
        if len(_by_engine) > 100:  # test runs make an engine per app
            _by_engine.clear()
        _by_engine[id(engine)] = (engine, pid, found)
        return found


def forget_everything() -> None:
    with _listeners_lock:
        for found in _listeners.values():
            found.forget()
