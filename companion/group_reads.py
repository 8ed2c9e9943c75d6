"""What the screens read of the groups: a group, its page, a player's page, its
roster, its last seating, a match in it, the group a match is in, its export.

`GroupReads` is the read half of the groups (companion/groups.py: `Groups` adds the use
cases that write, and is the one writer of the group tables, through
companion/group_statements.py). A group's history (its matches, seats and statistics)
is kept per process (companion/group_history.py) and checked on each request with one
narrow query; its matches are read through the match store.
"""

from __future__ import annotations

from werkzeug.exceptions import NotFound

from companion import group_statements
from companion.access import Kind, Phone, Role
from companion.games import NoLongerReplays
from companion.group_export import (
    CSV_TYPE,
    ZIP_TYPE,
    Download,
    Export,
    filename,
    hands_csv,
    matches_csv,
    records_zip,
)
from companion.group_history import GroupHistories, History
from companion.group_pages import (
    Group,
    GroupPage,
    Member,
    PlayerPage,
    counted,
    leaderboard,
    lists,
    player_figures,
    seating_of,
)
from companion.match_stats import MatchStatsCache
from companion.matches import Match
from companion.store import Store
from engine import EngineError, Game, name_key
from engine.tools import MatchStats, group_stats

SHOWN_MATCHES = 10  # of each list on the group page, newest first; the rest on asking
GROUP_ID_LENGTH = 32


class GroupReads:
    """The groups in the database; the matches through the app's `Store`."""

    def __init__(
        self,
        store: Store,
        match_stats: MatchStatsCache | None = None,
        histories: GroupHistories | None = None,
    ) -> None:
        self.store = store
        self.match_stats = MatchStatsCache(store) if match_stats is None else match_stats
        # Each group's matches and statistics, kept per process (companion/group_history.py).
        self.histories = GroupHistories() if histories is None else histories

    # ------------------------------------------------------------ reading

    def group(self, group_id: str, phone: Phone, need: Role = "viewer") -> Group:
        """The group, if this phone may `need` it (403 otherwise, 404 if there is none)."""
        group = None
        if len(group_id) <= GROUP_ID_LENGTH:
            with self.store.direct.connect() as connection:
                group = group_statements.group(connection, group_id)
        if group is None:
            raise NotFound()
        phone.require(group, need)
        return group

    shared = group  # what companion/views/share.py asks of anything shared by link

    def groups(self, phone: Phone, need: Role = "viewer") -> list[Group]:
        """The groups this phone may `need`, by name."""
        with self.store.direct.connect() as connection:
            found = group_statements.groups(connection, phone.ids(Kind.GROUP))
        allowed = [g for g in found if phone.role(g) in ("editor", need)]
        return sorted(allowed, key=lambda g: name_key(g.name))

    def page(self, group_id: str, phone: Phone, shown: int | None = SHOWN_MATCHES) -> GroupPage:
        """The group page: its leaderboard and statistics over every match, and the
        newest `shown` matches in progress and finished (None: all of them)."""
        group = self.group(group_id, phone)
        role = phone.role(group)
        assert role is not None
        roster, history = self._history(group)
        playing, finished = history.derived("lists", lambda: lists(history))
        stats = history.stats
        return GroupPage(
            group,
            role,
            roster,
            playing[:shown],
            finished[:shown],
            leaderboard(stats, roster),
            seating_of(history, roster),
            stats,
            len(playing),
            len(finished),
        )

    def player(self, group_id: str, phone: Phone, player_id: int) -> PlayerPage:
        """A roster player's page: their figures, matches and head-to-heads."""
        group = self.group(group_id, phone)
        role = phone.role(group)
        assert role is not None
        roster, history = self._history(group)
        found = [m for m in roster if m.id == player_id]
        if not found:
            raise NotFound()
        member = found[0]
        figures, results, against = history.derived(
            ("player", member.id), lambda: player_figures(history, member, roster)
        )
        meetings = [against[other.id] for other in roster if other.id in against]
        return PlayerPage(group, role, member, figures, list(results), meetings, history)

    def _history(self, group: Group) -> tuple[list[Member], History]:
        """The roster, and the group's history as the database has it now: the one
        kept if nothing moved, else built again, reading only the matches that moved
        (companion/group_history.py)."""
        with self.store.direct.connect() as connection:
            roster = group_statements.roster(connection, group.id, counted=False)
            names = tuple(sorted((m.id, m.name) for m in roster))
            points = group_statements.points(connection, group.id)
            previous = self.histories.get(group.id)
            if previous is not None and previous.is_of(points, names):
                return counted(roster, previous), previous
            if previous is None or previous.roster != names:  # renamed: read it all
                previous = None
            kept_rows = {} if previous is None else {m.id: m for m in previous.matches}
            moved = {
                i
                for i, p in points.items()
                if i not in kept_rows or group_statements.point(kept_rows[i]) != p
            }
            rows = group_statements.match_rows(
                connection, group.id, None if previous is None else sorted(moved)
            )
            seats = dict(previous.seats) if previous is not None else {}
            new_ids = None if previous is None else [i for i in moved if i not in seats]
            seats |= group_statements.seats(
                connection, group.id, new_ids
            )  # a match's seats never change
        rows = {i: m for i, m in kept_rows.items() if i in points} | rows
        # Newest first, as the database ordered them (created_at desc, id).
        matches = sorted(
            sorted(rows.values(), key=lambda m: m.id), key=group_statements.created, reverse=True
        )
        # A match moved in or on between the two reads: the page is made, the history
        # not kept (the next request builds it again).
        exact = len(matches) == len(points) and all(
            group_statements.point(m) == points.get(m.id) for m in matches
        )
        kept: dict[str, MatchStats] = {}
        for match in matches:
            if previous is not None and match.id not in moved and match.id in previous.kept:
                kept[match.id] = previous.kept[match.id]
                continue
            names_in = dict(
                zip(match.player_names, (n for _id, n in seats.get(match.id, ())), strict=False)
            )
            found = self.match_stats.read(match, names_in)
            if found is not None:
                exact = exact and found[0] == group_statements.point(match)
                kept[match.id] = found[1]
        stats = group_stats(kept[m.id] for m in reversed(matches) if m.id in kept)
        history = History(points, names, tuple(matches), seats, kept, stats)
        if exact:
            self.histories.keep(group.id, history)
        return counted(roster, history), history

    def last_seating(self, group_id: str) -> list[str]:
        """The names at the group's newest match, in seating order, retired players left
        out (what a new match offers first)."""
        with self.store.direct.connect() as connection:
            return group_statements.newest_seating(connection, group_id)

    def roster(self, group_id: str, phone: Phone) -> list[Member]:
        group = self.group(group_id, phone)
        with self.store.direct.connect() as connection:
            return group_statements.roster(connection, group.id)

    def open_link(self, token: str, kind: Role) -> Group | None:
        column = "editor_token" if kind == "editor" else "viewer_token"
        with self.store.direct.connect() as connection:
            return group_statements.by_token(connection, column, token)

    def match_in(self, group_id: str, match_id: str, phone: Phone) -> tuple[Group, Match]:
        """One of the group's matches, for a phone of the group (404 for another match)."""
        group = self.group(group_id, phone)
        with self.store.direct.connect() as connection:
            match = group_statements.match_in(connection, group.id, match_id)
        if match is None:
            raise NotFound()
        return group, match

    def group_of(self, match_id: str) -> Group | None:
        """The group a match is in, if any."""
        with self.store.direct.connect() as connection:
            return group_statements.group_of(connection, match_id)

    # ------------------------------------------------------------ export

    def export(self, group_id: str, phone: Phone, what: Export) -> Download:
        """The group's results as a file (companion/group_export.py): every hand or
        every match as CSV, or every record in a zip. Viewers may export too."""
        group = self.group(group_id, phone)
        _roster, history = self._history(group)
        matches = list(reversed(history.matches))
        # A match whose log no longer replays: its record as stored, and no rows.
        if what == "records":
            records = [(m, self._record(m)) for m in matches]
            body = records_zip([(m, text) for m, text in records if text is not None])
            return Download(filename(group.name, what), ZIP_TYPE, body)
        read = [(m, history.kept[m.id]) for m in matches if m.id in history.kept]
        body = hands_csv(read) if what == "hands" else matches_csv(read)
        return Download(filename(group.name, what), CSV_TYPE, body)

    def _record(self, match: Match) -> str | None:
        try:
            return self.store.read_game(match, Game.record)[1]
        except NoLongerReplays:  # its record as stored: nothing is lost
            return self.store.stored_record(match)
        except EngineError:
            return None
