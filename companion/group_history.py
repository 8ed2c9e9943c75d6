"""A group's history kept per process, so its page costs the same at 500 matches as at 50.

A group page and a player's page need every match of the group: its row, its seats,
its statistics (companion/match_stats.py), all of them added up (engine.stats). Reading
and adding up 500 matches on each request made the page grow with the group. Here a
process keeps, per group, the last `History` it built, keyed by what names it exactly:

- each of the group's matches' version and last line id (one narrow SQL query a
  request): a line recorded or undone (a rename is a line too) or a match moved in
  changes it, in whichever process it happened, because line ids are
  never reused (companion/games.py relies on the same);
- the roster's ids and names, which the request reads anyway (a player renamed).

A request whose key matches uses the kept history as it is; otherwise it is built again
from the previous one: only the matches whose state changed are read again. A history is
kept only when everything in it was read at exactly its key (a line recorded meanwhile
leaves it unkept: the next request builds it again). What pages derive from a history
(their lists, a player's figures) is kept beside it (`History.derived`), so it is
computed once per change too.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, cast

from companion.matches import Match
from engine.tools import MatchStats, Stats

T = TypeVar("T")

MAX_GROUPS = 100  # a history weighs its matches' rows: a few hundred kB at 500 matches
# What pages derive from one history: a player's chart is a point per match (116 kB of
# markup at 500), so a history keeps the last few (players, languages) only.
MAX_DERIVED = 16

# A match's place in its log: (version, last line id).
Point = tuple[int, int]
Seats = tuple[tuple[int, str], ...]  # roster (id, name) by seat


@dataclass(eq=False)
class History:
    """A group's matches and statistics as of one state of the database."""

    points: Mapping[str, Point]  # each match's version and last line id: the key
    roster: tuple[tuple[int, str], ...]  # the roster's (id, name): the key too
    matches: tuple[Match, ...]  # newest first
    seats: Mapping[str, Seats]
    kept: Mapping[str, MatchStats]  # a match whose log no longer replays has none
    stats: Stats  # every kept match added up, oldest first
    _derived: dict[Hashable, object] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def is_of(self, points: Mapping[str, Point], roster: tuple[tuple[int, str], ...]) -> bool:
        """Is this the history of the group at these points, with this roster?"""
        return self.roster == roster and self.points == points

    def derived(self, what: Hashable, make: Callable[[], T]) -> T:
        """`make()` computed once for this history (a page's lists, a player's figures)."""
        with self._lock:
            if what in self._derived:
                return cast(T, self._derived[what])
        made = make()  # outside the lock: two requests may both make it, never wait
        with self._lock:
            kept = self._derived.setdefault(what, made)
            while len(self._derived) > MAX_DERIVED:  # the oldest first (dicts keep order)
                del self._derived[next(iter(self._derived))]
            return cast(T, kept)


class GroupHistories:
    """The last history built of each group this process was asked about."""

    def __init__(self, max_groups: int = MAX_GROUPS) -> None:
        self.max_groups = max_groups
        self._kept: OrderedDict[str, History] = OrderedDict()
        self._lock = threading.Lock()  # guards the dictionary only

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def get(self, group_id: str) -> History | None:
        """The group's last history, whatever its key (the caller checks it)."""
        with self._lock:
            found = self._kept.get(group_id)
            if found is not None:
                self._kept.move_to_end(group_id)
            return found

    def keep(self, group_id: str, history: History) -> None:
        with self._lock:
            self._kept[group_id] = history
            self._kept.move_to_end(group_id)
            while len(self._kept) > self.max_groups:
                self._kept.popitem(last=False)
