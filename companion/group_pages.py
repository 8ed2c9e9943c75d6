"""What a group's pages show: small values, and what the pages derive from a group's
history (companion/group_history.py). No database here: companion/groups.py reads and
writes (through companion/group_statements.py), and hands these to the views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from companion.access import Kind, Role
from companion.group_history import History, Seats
from companion.matches import Match
from engine import name_key, same_player
from engine.tools import Figures, HeadToHead, MatchStats, Stats


@dataclass(frozen=True, slots=True)
class Group:
    """A group's row: its name and its links."""

    shared_as: ClassVar[Kind] = Kind.GROUP  # its links (companion/access.py)
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

    @property
    def winner_name(self) -> str | None:
        """The winner as the roster calls them (as the match does, out of a group)."""
        if self.winner is None:
            return None
        return self.seats[self.winner][1] if self.seats else self.match.current_names[self.winner]


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
    stats: Stats  # the group's, from the engine (engine.tools.stats)
    # How many matches each list holds in all: the page shows the newest `shown` of each
    # unless asked for all (a season of 500 matches is not one phone screen).
    playing_total: int = 0
    finished_total: int = 0


@dataclass(frozen=True)
class Refusal:
    """Nothing was done: why, in a sentence."""

    message: str


def leaderboard(stats: Stats, roster: Sequence[Member]) -> list[Standing]:
    """Who leads the group, as the engine ranks its statistics (engine.tools.stats:
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


# ---------------------------------------------------------------- what pages derive


def played(match: Match, seats: Seats, stats: MatchStats | None) -> Played:
    if stats is None:
        return Played(match, seats, (), None)
    winner = None if stats.winner is None else stats.players.index(stats.winner)
    return Played(match, seats, stats.scores, winner)


def lists(history: History) -> tuple[list[Played], list[Played]]:
    """The group's matches in progress and finished, newest first."""
    every = [
        played(m, history.seats.get(m.id, ()), history.kept.get(m.id)) for m in history.matches
    ]
    return [p for p in every if not p.finished], [p for p in every if p.finished]


def player_figures(
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


def seating_of(history: History, roster: Sequence[Member]) -> list[str]:
    """Groups.last_seating, from the history (the roster as read now: who is retired)."""
    if not history.matches:
        return []
    retired = {m.id for m in roster if m.retired}
    seats = history.seats.get(history.matches[0].id, ())
    return [name for player_id, name in seats if player_id not in retired]


def counted(roster: Sequence[Member], history: History) -> list[Member]:
    """The roster with how many of the group's matches each sat in, from its seats."""
    counts = history.derived(
        "seated", lambda: Counter(p for s in history.seats.values() for p, _ in s)
    )
    return [Member(m.id, m.name, m.retired, counts[m.id]) for m in roster]
