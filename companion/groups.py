"""Groups: the same friends every Friday, their roster and their matches.

One call per use case, like the matches' Store (companion/store.py), which this uses for
the matches themselves: create a group; add, rename, retire or bring back a roster
player; start a match from the roster; move a match into a group; renew the links. Each
returns what it made, or a `Refusal` with the sentence a person at the table reads.

A roster player's name is unique in the group the way the engine compares names
(engine.names.name_key, stored beside the name with a unique index). A player with
matches is never deleted, only retired. Renaming a player rewrites, in one transaction,
the header and every record line of each match they sat in (engine.rename), and gives
each such match's last line a new row id: every process then rebuilds its cached game
from the new lines (companion/games.py also checks the header), and a form made on the
old names is refused as "the table moved on".

Access: a group has an editor and a viewer link, kept per phone like a match's
(companion/access.py). Its matches are opened through the group: an editor of the group
becomes an editor of the match, a viewer a viewer. Renewing the group's links renews its
matches' links too, so a leaked group link opens nothing any more.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Connection, delete, func, insert, literal, select, update
from werkzeug.exceptions import NotFound

from companion import statements
from companion.access import Phone, Role
from companion.audit import audit
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
from companion.group_history import GroupHistories, History, Point, Seats
from companion.lookalikes import check_look_alikes, look_alike
from companion.match_stats import MatchStatsCache
from companion.matches import Match
from companion.models import (
    GROUP_MATCHES,
    GROUPS,
    LINES,
    MATCHES,
    ROSTER,
    SEATS,
    new_token,
    now,
)
from companion.store import Store
from engine import EngineError, Game, HouseRules, State, name_key, name_problems, summary
from engine.i18n import SOURCE_LANGUAGE, language
from engine.names import MAX_NAME_LENGTH, TYPED_NAME_LENGTH, clean_name, same_player
from engine.rename import rename_in_log
from engine.stats import Figures, HeadToHead, MatchStats, Stats, group_stats

GROUP_NAME_LENGTH = 40
SHOWN_MATCHES = 10  # of each list on the group page, newest first; the rest on asking
GROUP_ID_LENGTH = 32

# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    name: str
    created_at: datetime
    editor_token: str
    viewer_token: str

    @classmethod
    def from_row(cls, row: Any) -> Group:
        return cls(**{name: row[name] for name in cls.__slots__})


@dataclass(frozen=True, slots=True)
class Member:
    """A roster player, and how many of the group's matches they sat in."""

    id: int
    name: str
    retired: bool
    matches: int


@dataclass(frozen=True, slots=True)
class Played:
    """One of the group's matches as its page lists it: who sat where (roster ids and
    names, in seating order), each one's score, the winner's seat (None while playing)."""

    match: Match
    seats: tuple[tuple[int, str], ...]
    scores: tuple[int, ...]
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.match.status == "match_over"


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the leaderboard."""

    player_id: int
    name: str
    played: int
    won: int
    points: int


@dataclass(frozen=True)
class GroupPage:
    group: Group
    role: Role
    roster: list[Member]
    playing: list[Played]
    finished: list[Played]
    leaderboard: list[Standing]
    last_seating: list[str]
    stats: Stats  # the group's, from the engine (engine.stats)
    # How many matches each list holds in all: the page shows the newest `shown` of each
    # unless asked for all (a season of 500 matches is not one phone screen).
    playing_total: int = 0
    finished_total: int = 0


@dataclass(frozen=True)
class Refusal:
    """Nothing was done: why, in a sentence."""

    message: str


def leaderboard(stats: Stats, roster: Sequence[Member]) -> list[Standing]:
    """Who leads the group, as the engine ranks its statistics (engine.stats:
    matches won, then hands won, then points); a match counts once a hand is scored."""
    ids = {name_key(m.name): m.id for m in roster}
    return [
        Standing(ids.get(name_key(name), -1), name, f.matches, f.matches_won, f.points)
        for name, f in stats.leaderboard()
    ]


@dataclass(frozen=True)
class MatchResult:
    """One of a player's matches: when, their points, whether they won it (None while
    it is still being played: not a loss)."""

    match: Match
    points: int
    won: bool | None


@dataclass(frozen=True)
class PlayerPage:
    """A roster player's statistics in the group, matches in date order (oldest first),
    and head-to-head against each other roster player they met."""

    group: Group
    role: Role
    member: Member
    figures: Figures
    results: list[MatchResult]
    head_to_head: list[HeadToHead]
    # What the page was made from: what it draws from that is kept with it (a chart).
    history: History | None = None


# ---------------------------------------------------------------- the groups


class Groups:
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
                row = (
                    connection.execute(select(GROUPS).where(GROUPS.c.id == group_id))
                    .mappings()
                    .first()
                )
            group = None if row is None else Group.from_row(row)
        if group is None:
            raise NotFound()
        phone.require_group(group, need)
        return group

    def groups(self, phone: Phone, need: Role = "viewer") -> list[Group]:
        """The groups this phone may `need`, by name."""
        with self.store.direct.connect() as connection:
            rows = connection.execute(
                select(GROUPS).where(GROUPS.c.id.in_(phone.group_ids()))
            ).mappings()
            found = [Group.from_row(row) for row in rows]
        allowed = [g for g in found if phone.group_role(g) in ("editor", need)]
        return sorted(allowed, key=lambda g: name_key(g.name))

    def page(self, group_id: str, phone: Phone, shown: int | None = SHOWN_MATCHES) -> GroupPage:
        """The group page: its leaderboard and statistics over every match, and the
        newest `shown` matches in progress and finished (None: all of them)."""
        group = self.group(group_id, phone)
        role = phone.group_role(group)
        assert role is not None
        roster, history = self._history(group)
        playing, finished = history.derived("lists", lambda: _lists(history))
        stats = history.stats
        return GroupPage(
            group,
            role,
            roster,
            playing[:shown],
            finished[:shown],
            leaderboard(stats, roster),
            _last_seating(history, roster),
            stats,
            len(playing),
            len(finished),
        )

    def player(self, group_id: str, phone: Phone, player_id: int) -> PlayerPage:
        """A roster player's page: their figures, matches and head-to-heads."""
        group = self.group(group_id, phone)
        role = phone.group_role(group)
        assert role is not None
        roster, history = self._history(group)
        found = [m for m in roster if m.id == player_id]
        if not found:
            raise NotFound()
        member = found[0]
        figures, results, against = history.derived(
            ("player", member.id), lambda: _player(history, member, roster)
        )
        meetings = [against[other.id] for other in roster if other.id in against]
        return PlayerPage(group, role, member, figures, list(results), meetings, history)

    def _history(self, group: Group) -> tuple[list[Member], History]:
        """The roster, and the group's history as the database has it now: the one
        kept if nothing moved, else built again, reading only the matches that moved
        (companion/group_history.py)."""
        with self.store.direct.connect() as connection:
            roster = _roster(connection, group.id, counted=False)
            names = tuple(sorted((m.id, m.name) for m in roster))
            points = _points(connection, group.id)
            previous = self.histories.get(group.id)
            if previous is not None and previous.is_of(points, names):
                return _counted(roster, previous), previous
            if previous is None or previous.roster != names:  # renamed: read it all
                previous = None
            kept_rows = {} if previous is None else {m.id: m for m in previous.matches}
            moved = {
                i for i, p in points.items() if i not in kept_rows or _point(kept_rows[i]) != p
            }
            rows = _match_rows(connection, group.id, None if previous is None else sorted(moved))
            seats = dict(previous.seats) if previous is not None else {}
            new_ids = None if previous is None else [i for i in moved if i not in seats]
            seats |= _seats(connection, group.id, new_ids)  # a match's seats never change
        rows = {i: m for i, m in kept_rows.items() if i in points} | rows
        # Newest first, as the database ordered them (created_at desc, id).
        matches = sorted(sorted(rows.values(), key=lambda m: m.id), key=_created, reverse=True)
        # A match moved in or on between the two reads: the page is made, the history
        # not kept (the next request builds it again).
        exact = len(matches) == len(points) and all(_point(m) == points.get(m.id) for m in matches)
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
                exact = exact and found[0] == _point(match)
                kept[match.id] = found[1]
        stats = group_stats(kept[m.id] for m in reversed(matches) if m.id in kept)
        history = History(points, names, tuple(matches), seats, kept, stats)
        if exact:
            self.histories.keep(group.id, history)
        return _counted(roster, history), history

    def last_seating(self, group_id: str) -> list[str]:
        """The names at the group's newest match, in seating order, retired players left
        out (what a new match offers first)."""
        with self.store.direct.connect() as connection:
            newest = connection.execute(
                select(MATCHES.c.id)
                .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
                .where(GROUP_MATCHES.c.group_id == group_id)
                .order_by(MATCHES.c.created_at.desc())
                .limit(1)
            ).scalar()
            if newest is None:
                return []
            rows = connection.execute(
                select(ROSTER.c.name)
                .join(SEATS, SEATS.c.player_id == ROSTER.c.id)
                .where(SEATS.c.match_id == newest, ~ROSTER.c.retired)
                .order_by(SEATS.c.seat)
            ).all()
        return [row[0] for row in rows]

    def roster(self, group_id: str, phone: Phone) -> list[Member]:
        group = self.group(group_id, phone)
        with self.store.direct.connect() as connection:
            return _roster(connection, group.id)

    # ------------------------------------------------------------ a new group, its links

    def create(self, name: str) -> Group | Refusal:
        name = " ".join(name.split())
        if not name:
            return Refusal(_("Give the group a name, like Friday crew."))
        if len(name) > GROUP_NAME_LENGTH:
            return Refusal(
                _(
                    "A group's name can't be longer than %(most)s characters.",
                    most=GROUP_NAME_LENGTH,
                )
            )
        group = Group(secrets.token_urlsafe(12), name, now(), new_token(), new_token())
        with self.store.engine.begin() as connection:
            connection.execute(insert(GROUPS), [_values(group)])
        audit("group-created", group.id, "editor")
        return group

    def renew_links(self, group_id: str, phone: Phone) -> Group:
        """New tokens for the group and for each of its matches: every old link of
        either, and every phone that opened a match through the group, loses access."""
        group = self.group(group_id, phone, "editor")
        renewed = Group(group.id, group.name, group.created_at, new_token(), new_token())
        with self.store.engine.begin() as connection:
            connection.execute(
                update(GROUPS)
                .where(GROUPS.c.id == group.id)
                .values(editor_token=renewed.editor_token, viewer_token=renewed.viewer_token)
            )
            match_ids = connection.execute(
                select(GROUP_MATCHES.c.match_id).where(GROUP_MATCHES.c.group_id == group.id)
            ).scalars()
            for match_id in list(match_ids):
                statements.new_links(connection, match_id, new_token(), new_token())
        audit("group-renewed-links", group.id, "editor")
        return renewed

    def open_link(self, token: str, kind: Role) -> Group | None:
        column = GROUPS.c.editor_token if kind == "editor" else GROUPS.c.viewer_token
        with self.store.direct.connect() as connection:
            row = connection.execute(select(GROUPS).where(column == token)).mappings().first()
        return None if row is None else Group.from_row(row)

    def match_in(self, group_id: str, match_id: str, phone: Phone) -> tuple[Group, Match]:
        """One of the group's matches, for a phone of the group (404 for another match)."""
        group = self.group(group_id, phone)
        with self.store.direct.connect() as connection:
            row = (
                connection.execute(
                    select(MATCHES)
                    .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
                    .where(GROUP_MATCHES.c.group_id == group.id, MATCHES.c.id == match_id)
                )
                .mappings()
                .first()
            )
        if row is None:
            raise NotFound()
        return group, Match.from_row(row)

    def group_of(self, match_id: str) -> Group | None:
        """The group a match is in, if any."""
        with self.store.direct.connect() as connection:
            row = (
                connection.execute(
                    select(GROUPS)
                    .join(GROUP_MATCHES, GROUP_MATCHES.c.group_id == GROUPS.c.id)
                    .where(GROUP_MATCHES.c.match_id == match_id)
                )
                .mappings()
                .first()
            )
        return None if row is None else Group.from_row(row)

    # ------------------------------------------------------------ the roster

    def add_player(self, group_id: str, phone: Phone, typed: str) -> Member | Refusal:
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            roster = _roster(connection, group.id)
            checked = _new_name(typed, roster)
            if isinstance(checked, Refusal):
                return checked
            member = _insert_player(connection, group.id, checked)
        audit("roster-added", group.id, "editor")
        return member

    def retire(
        self, group_id: str, phone: Phone, player_id: int, retired: bool
    ) -> Member | Refusal:
        """Retire a player (left out of new matches, kept in their matches and the
        leaderboard) or bring them back."""
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            member = _member(connection, group.id, player_id)
            connection.execute(
                update(ROSTER).where(ROSTER.c.id == member.id).values(retired=retired)
            )
        audit("roster-retired" if retired else "roster-back", group.id, "editor")
        return Member(member.id, member.name, retired, member.matches)

    def remove(self, group_id: str, phone: Phone, player_id: int) -> Member | Refusal:
        """Take a player who never played off the roster (one with matches is retired)."""
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            member = _member(connection, group.id, player_id)
            if member.matches:
                return Refusal(
                    _(
                        "%(name)s played in this group's matches, so they stay on the roster: "
                        "retire them instead.",
                        name=member.name,
                    )
                )
            connection.execute(delete(ROSTER).where(ROSTER.c.id == member.id))
        audit("roster-removed", group.id, "editor")
        return member

    def rename(self, group_id: str, phone: Phone, player_id: int, typed: str) -> Member | Refusal:
        """Rename a roster player everywhere: the roster, and each of their matches'
        players header and record lines, in one transaction."""
        group = self.group(group_id, phone, "editor")
        with self.store.direct.connect() as connection:
            member = _member(connection, group.id, player_id)
            roster = [m for m in _roster(connection, group.id) if m.id != member.id]
        checked = _new_name(typed, roster)
        if isinstance(checked, Refusal):
            return checked
        if checked == member.name:
            return member
        try:
            with self.store.engine.begin() as connection:
                match_ids = connection.execute(
                    select(SEATS.c.match_id).where(SEATS.c.player_id == member.id)
                ).scalars()
                for match_id in list(match_ids):
                    _rename_in_match(connection, match_id, member.name, checked)
                connection.execute(
                    update(ROSTER)
                    .where(ROSTER.c.id == member.id)
                    .values(name=checked, name_key=name_key(checked))
                )
        except _Undone as undone:
            return undone.refusal
        audit("roster-renamed", group.id, "editor", matches=member.matches)
        return Member(member.id, checked, member.retired, member.matches)

    # ------------------------------------------------------------ matches

    def start_match(
        self,
        group_id: str,
        phone: Phone,
        names: Sequence[str],
        dealer: str,
        rules: HouseRules,
        mode: str,
    ) -> Match | Refusal:
        """A new match of the group, the players in seating order: roster players by
        name (the engine's comparison), and anyone not on the roster added to it (a
        newcomer). The engine checks the seating."""
        group = self.group(group_id, phone, "editor")
        with self.store.direct.connect() as connection:
            roster = _roster(connection, group.id)
        by_key = {name_key(m.name): m for m in roster}
        seating: list[str] = []
        newcomers: list[str] = []
        for typed in names:
            member = by_key.get(name_key(typed))
            if member is not None:
                seating.append(member.name)
                continue
            checked = _new_name(typed, roster)
            if isinstance(checked, Refusal):
                return checked
            seating.append(checked)
            newcomers.append(checked)
        if dealer and not any(same_player(dealer, name) for name in seating):
            return Refusal(_("The dealer must be one of the players."))
        dealer = next((n for n in seating if dealer and same_player(dealer, n)), seating[-1])

        def seat(connection: Connection, match_id: str) -> None:
            ids = {name_key(m.name): m.id for m in roster}
            for name in newcomers:
                ids[name_key(name)] = _insert_player(connection, group.id, name).id
            _place(connection, group.id, match_id, [ids[name_key(n)] for n in seating])
            back = [ids[name_key(n)] for n in seating]  # a retired player seated is back
            connection.execute(update(ROSTER).where(ROSTER.c.id.in_(back)).values(retired=False))

        try:
            match = self.store.create(seating, dealer, rules, mode, also=seat)
        except EngineError as error:
            return Refusal(error.message)
        audit("created", match.id, "editor", group=group.id, newcomers=len(newcomers))
        return match

    def move_in(self, match_id: str, group_id: str, phone: Phone) -> Match | Refusal:
        """Put a match played outside any group into this group: each of its names is
        the roster player of that name (the engine's comparison: the match then takes
        the roster's spelling), or a new roster player."""
        match = self.store.match(match_id, phone, "editor")
        group = self.group(group_id, phone, "editor")
        current = self.group_of(match.id)
        if current is not None:
            return Refusal(_("This match is in the group %(name)s already.", name=current.name))
        try:
            with self.store.engine.begin() as connection:
                roster = _roster(connection, group.id)
                by_key = {name_key(m.name): m for m in roster}
                ids = []
                for name in match.player_names:
                    member = by_key.get(name_key(name))
                    if member is None:
                        member = _insert_player(connection, group.id, name)
                    elif member.name != name:  # the roster's spelling, everywhere
                        _rename_in_match(connection, match.id, name, member.name)
                    ids.append(member.id)
                _place(connection, group.id, match.id, ids)
        except _Undone as undone:
            return undone.refusal
        audit("moved-into-group", match.id, "editor", group=group.id)
        moved = self.store.match(match.id, phone)
        return moved

    # ------------------------------------------------------------ export

    def export(self, group_id: str, phone: Phone, what: Export) -> Download:
        """The group's results as a file (companion/group_export.py): every hand or
        every match as CSV, or every record in a zip. Viewers may export too."""
        group = self.group(group_id, phone)
        _roster, history = self._history(group)
        matches = list(reversed(history.matches))
        # A match whose log no longer replays is left out.
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
        except EngineError:
            return None


# ---------------------------------------------------------------- what pages derive


def _played(match: Match, seats: Seats, stats: MatchStats | None) -> Played:
    if stats is None:
        return Played(match, seats, (), None)
    winner = None if stats.winner is None else stats.players.index(stats.winner)
    return Played(match, seats, stats.scores, winner)


def _lists(history: History) -> tuple[list[Played], list[Played]]:
    """The group's matches in progress and finished, newest first."""
    played = [
        _played(m, history.seats.get(m.id, ()), history.kept.get(m.id)) for m in history.matches
    ]
    return [p for p in played if not p.finished], [p for p in played if p.finished]


def _player(
    history: History, member: Member, roster: Sequence[Member]
) -> tuple[Figures, tuple[MatchResult, ...], dict[int, HeadToHead]]:
    """A roster player's figures, their results oldest first, and their head-to-head
    against each roster player they met (by roster id)."""
    kept, stats = history.kept, history.stats
    results = []
    for match in reversed(history.matches):
        mine = kept.get(match.id)
        seated = any(pid == member.id for pid, _name in history.seats.get(match.id, ()))
        if mine is not None and mine.hands and seated:
            figures = mine.player(member.name)
            won = bool(figures.matches_won) if match.status == "match_over" else None
            results.append(MatchResult(match, figures.points, won))
    against = {}
    for other in roster:
        meeting = stats.head_to_head(member.name, other.name)
        if meeting.matches and not same_player(meeting.b, member.name):
            against[other.id] = meeting
    return stats.player(member.name), tuple(results), against


def _last_seating(history: History, roster: Sequence[Member]) -> list[str]:
    """Groups.last_seating, from the history (the roster as read now: who is retired)."""
    if not history.matches:
        return []
    retired = {m.id for m in roster if m.retired}
    seats = history.seats.get(history.matches[0].id, ())
    return [name for player_id, name in seats if player_id not in retired]


# ---------------------------------------------------------------- the database


def _values(group: Group) -> dict[str, Any]:
    return {name: getattr(group, name) for name in Group.__slots__}


def _roster(connection: Connection, group_id: str, counted: bool = True) -> list[Member]:
    """The group's players, by name; with how many matches each sat in (0 unless
    `counted`: a group's history counts them from its seats)."""
    played = (
        select(func.count())
        .select_from(SEATS)
        .where(SEATS.c.player_id == ROSTER.c.id)
        .scalar_subquery()
    )
    columns = [ROSTER.c.id, ROSTER.c.name, ROSTER.c.retired, played if counted else literal(0)]
    rows = connection.execute(select(*columns).where(ROSTER.c.group_id == group_id)).all()
    members = [Member(row[0], row[1], bool(row[2]), row[3]) for row in rows]
    return sorted(members, key=lambda m: (m.retired, name_key(m.name)))


def _counted(roster: Sequence[Member], history: History) -> list[Member]:
    """The roster with how many of the group's matches each sat in, from its seats."""
    counts = history.derived(
        "seated", lambda: Counter(p for s in history.seats.values() for p, _ in s)
    )
    return [Member(m.id, m.name, m.retired, counts[m.id]) for m in roster]


def _member(connection: Connection, group_id: str, player_id: int) -> Member:
    found = [m for m in _roster(connection, group_id) if m.id == player_id]
    if not found:
        raise NotFound()
    return found[0]


def _insert_player(connection: Connection, group_id: str, name: str) -> Member:
    player_id = connection.execute(
        insert(ROSTER)
        .values(
            group_id=group_id,
            name=name,
            name_key=name_key(name),
            retired=False,
            created_at=now(),
        )
        .returning(ROSTER.c.id)
    ).scalar_one()
    return Member(player_id, name, False, 0)


def _place(connection: Connection, group_id: str, match_id: str, player_ids: list[int]) -> None:
    connection.execute(insert(GROUP_MATCHES), [{"match_id": match_id, "group_id": group_id}])
    connection.execute(
        insert(SEATS),
        [
            {"match_id": match_id, "seat": seat, "player_id": player_id}
            for seat, player_id in enumerate(player_ids, 1)
        ],
    )


def _points(connection: Connection, group_id: str) -> dict[str, Point]:
    """Each of the group's matches' version and last line id: what names its history."""
    rows = connection.execute(
        select(MATCHES.c.id, MATCHES.c.version, MATCHES.c.last_line_id)
        .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
        .where(GROUP_MATCHES.c.group_id == group_id)
    ).all()
    return {match_id: (version, last) for match_id, version, last in rows}


def _point(match: Match) -> Point:
    return match.version, match.last_line_id


def _created(match: Match) -> datetime:
    return match.created_at


def _match_rows(connection: Connection, group_id: str, ids: list[str] | None) -> dict[str, Match]:
    """The rows of these of the group's matches (None: all of them), by id."""
    query = (
        select(MATCHES)
        .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
        .where(GROUP_MATCHES.c.group_id == group_id)
    )
    if ids is not None:
        if not ids:
            return {}
        query = query.where(MATCHES.c.id.in_(ids))
    matches = (Match.from_row(row) for row in connection.execute(query).mappings())
    return {m.id: m for m in matches}


def _seats(connection: Connection, group_id: str, match_ids: list[str] | None) -> dict[str, Seats]:
    """Each match's roster players, in seating order: these matches' (None: all the
    group's)."""
    query = (
        select(SEATS.c.match_id, ROSTER.c.id, ROSTER.c.name)
        .join(ROSTER, ROSTER.c.id == SEATS.c.player_id)
        .where(ROSTER.c.group_id == group_id)
        .order_by(SEATS.c.match_id, SEATS.c.seat)
    )
    if match_ids is not None:
        if not match_ids:
            return {}
        query = query.where(SEATS.c.match_id.in_(match_ids))
    rows = connection.execute(query).all()
    seats: dict[str, list[tuple[int, str]]] = {}
    for match_id, player_id, name in rows:
        seats.setdefault(match_id, []).append((player_id, name))
    return {k: tuple(v) for k, v in seats.items()}


def _new_name(typed: str, roster: Sequence[Member]) -> str | Refusal:
    """A name for the roster as the engine tidies it, or why not: the engine's name
    rule, one player per name in the group (the engine's comparison), and no name that
    looks like another's (the app's rule, companion/lookalikes.py)."""
    problem = name_problems([typed], TYPED_NAME_LENGTH)[0]
    if problem is None and not typed.strip():
        problem = _("Type the player's name.")
    if problem is not None:
        return Refusal(problem)
    try:
        name = clean_name(typed)
    except EngineError as error:
        return Refusal(error.message)
    for member in roster:
        if same_player(member.name, name):
            return Refusal(_("%(name)s is on this group's roster already.", name=member.name))
        alike = look_alike(name, member.name)
        if alike is not None:
            return Refusal(alike)
    return name


class _Undone(Exception):
    """A refusal midway through a transaction: it is rolled back."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def _rename_in_match(connection: Connection, match_id: str, old: str, new: str) -> None:
    """Call `old` `new` in one match: its header and every line, in the caller's
    transaction; the last line gets a new row id (see the module's docstring). Raises
    _Undone when the new name clashes with another player of that match."""
    row = statements.read_match(connection, match_id)
    assert row is not None
    match = Match.from_row(row)
    players = match.player_names
    renamed = [new if same_player(name, old) else name for name in players]
    others = [name for name in players if not same_player(name, old)]
    clash = next((name for name in others if same_player(name, new)), None)
    if clash is not None:
        raise _Undone(
            Refusal(
                _(
                    "%(new)s can't be the new name: %(other)s played in one of %(old)s's matches "
                    "(%(players)s), and one match can't have two players of one name.",
                    new=new,
                    other=clash,
                    old=old,
                    players=match.players,
                )
            )
        )
    try:
        check_look_alikes(renamed)
    except EngineError as error:
        raise _Undone(Refusal(error.message)) from None
    lines = connection.execute(
        select(
            LINES.c.id,
            LINES.c.seq,
            LINES.c.text,
            LINES.c.form_key,
            LINES.c.phone,
            LINES.c.created_at,
        )
        .where(LINES.c.match_id == match.id)
        .order_by(LINES.c.seq)
    ).all()
    texts = rename_in_log(players, [line.text for line in lines], old, new)
    dealer = new if same_player(match.dealer, old) else match.dealer
    game = Game(renamed, dealer=dealer, rules=HouseRules.parse(match.rules))
    for text in texts:
        game.apply(text)
    state: State = game.state
    with language(SOURCE_LANGUAGE):  # the stored summary is English (see store._summary)
        said = summary(state)[:200]
    # The match row first, guarded on the log read: a line recorded meanwhile elsewhere
    # would have moved it (and this rename then refuses rather than miss that line).
    moved = connection.execute(
        update(MATCHES)
        .where(
            MATCHES.c.id == match.id,
            MATCHES.c.version == match.version,
            MATCHES.c.last_line_id == match.last_line_id,
        )
        .values(players=", ".join(renamed), dealer=dealer, summary=said)
    )
    if moved.rowcount != 1 or len(lines) != match.version:
        raise _Undone(
            Refusal(
                _(
                    "A play was recorded in one of %(name)s's matches meanwhile: nothing was "
                    "renamed. Try again.",
                    name=old,
                )
            )
        )
    for line, text in zip(lines, texts, strict=True):
        if text != line.text:
            connection.execute(update(LINES).where(LINES.c.id == line.id).values(text=text))
    if lines:  # a new id for the last line: the log every process caches is a new one
        last = lines[-1]
        connection.execute(delete(LINES).where(LINES.c.id == last.id))
        new_id = connection.execute(
            insert(LINES)
            .values(
                match_id=match.id,
                seq=last.seq,
                text=texts[-1],
                form_key=last.form_key,
                phone=last.phone,
                created_at=last.created_at,
            )
            .returning(LINES.c.id)
        ).scalar_one()
        connection.execute(
            update(MATCHES).where(MATCHES.c.id == match.id).values(last_line_id=new_id)
        )


def current_groups() -> Groups:
    """The app's groups (create_app keeps them in app.extensions)."""
    groups: Groups = current_app.extensions["groups"]
    return groups


__all__ = [
    "MAX_NAME_LENGTH",
    "Group",
    "GroupPage",
    "Groups",
    "MatchResult",
    "Member",
    "Played",
    "PlayerPage",
    "Refusal",
    "Standing",
    "current_groups",
    "leaderboard",
]
