"""A group's history kept per process, so its page costs the same at 500 matches as at 50.

A group page and a player's page need every match of the group: its row, its seats,
its statistics (companion/match_stats.py), all of them added up (engine.tools.stats). Reading
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

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, cast

from companion.bounded import Bounded
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
    _derived: Bounded[Hashable, object] = field(default_factory=lambda: Bounded(MAX_DERIVED))

    def is_of(self, points: Mapping[str, Point], roster: tuple[tuple[int, str], ...]) -> bool:
        """Is this the history of the group at these points, with this roster?"""
        return self.roster == roster and self.points == points

    def derived(self, what: Hashable, make: Callable[[], T]) -> T:
        """`make()` computed once for this history (a page's lists, a player's figures)."""
        found = self._derived.get(what)
        if found is not None:
            return cast(T, found)
        made = make()  # outside the lock: two requests may both make it, never wait
        kept = self._derived.setdefault(what, lambda: made)
        self._derived.bound()  # the least recently used first
        return cast(T, kept)


class GroupHistories:
    """The last history built of each group this process was asked about."""

    def __init__(self, max_groups: int = MAX_GROUPS) -> None:
        self.max_groups = max_groups
        self._kept: Bounded[str, History] = Bounded(max_groups)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()

    def get(self, group_id: str) -> History | None:
        """The group's last history, whatever its key (the caller checks it)."""
        return self._kept.get(group_id)

    def keep(self, group_id: str, history: History) -> None:
        self._kept.put(group_id, history)
