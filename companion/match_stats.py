"""Each match's statistics (engine.tools.MatchStats), kept per process beside its game.

A match's statistics are read once from its cached game (companion/games.py) and kept,
keyed by what keys that game: the match id, its version and last line id, its header
(players, dealer, rules), and the roster names its seats map to. A group page then only
adds up kept results (engine.tools.group_stats), so its cost stays flat as matches are
added; a match that moved on (a line recorded or undone, a player renamed) is read again
on its next use. Least recently used dropped first beyond `max_matches`.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import current_app

from companion.bounded import Bounded
from companion.matches import Match
from companion.store import Store
from engine import EngineError
from engine.tools import MatchStats, match_stats

MAX_MATCHES = 20_000  # a finished match's figures weigh a few kB

_Key = tuple[int, int, str, str, str, tuple[tuple[str, str], ...]]


class MatchStatsCache:
    """The statistics of the matches this process was asked about, by match id."""

    def __init__(self, store: Store, max_matches: int = MAX_MATCHES) -> None:
        self.store = store
        self.max_matches = max_matches
        self._kept: Bounded[str, tuple[_Key, MatchStats]] = Bounded(max_matches)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()

    def get(self, match: Match, names: Mapping[str, str] | None = None) -> MatchStats | None:
        """The match's statistics as its row names it, its players called by `names`
        (a match's name -> the roster's); None when its log no longer replays."""
        found = self.read(match, names)
        return None if found is None else found[1]

    def read(
        self, match: Match, names: Mapping[str, str] | None = None
    ) -> tuple[tuple[int, int], MatchStats] | None:
        """`get`, with the point of the log the statistics are of (version, last line
        id): the row's, unless a line was written or undone while the game was read."""
        mapped = tuple(sorted((names or {}).items()))
        key: _Key = (match.version, match.last_line_id, *_header(match), mapped)
        found = self._kept.get(match.id)
        if found is not None and found[0] == key:
            return (key[0], key[1]), found[1]
        try:
            table, stats = self.store.read_game(
                match, lambda game: match_stats(game, key=match.id, names=dict(mapped))
            )
        except EngineError:
            return None
        # The game read may be a step away from the row (a line written meanwhile):
        # keep it under the version it really is.
        read: _Key = (table.match.version, table.match.last_line_id, *_header(match), mapped)
        self._kept.put(match.id, (read, stats))
        return (read[0], read[1]), stats


def _header(match: Match) -> tuple[str, str, str]:
    return match.players, match.dealer, match.rules


def current_match_stats() -> MatchStatsCache:
    """The app's cache of match statistics (companion/services.py keeps it in app.extensions)."""
    cache: MatchStatsCache = current_app.extensions["match_stats"]
    return cache
