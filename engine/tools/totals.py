"""A group's totals: matches already read (`MatchStats`) added up into `Stats`, each
player's figures and the group's, and any two players head to head; no game is read
again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..core.names import name_key
from .figures import NOTHING, Figures, MatchStats


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players, `a` and `b`, over the matches both played (counted once a hand is
    scored): how many, and how many each won (a match won by someone else, or not
    over, counts for neither); the hands both played (a knocked-out player played
    the hand too) and how many each won; and the knockouts each dealt the other.
    Pairs are (a's, b's)."""

    a: str
    b: str
    matches: int = 0
    matches_won: tuple[int, int] = (0, 0)
    hands: int = 0
    hands_won: tuple[int, int] = (0, 0)
    knockouts_dealt: tuple[int, int] = (0, 0)  # a's on b, b's on a

    @property
    def leader(self) -> str | None:
        """Who won more matches together, then more hands; None when even."""
        for pair in (self.matches_won, self.hands_won):
            if pair[0] != pair[1]:
                return self.a if pair[0] > pair[1] else self.b
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "players": [self.a, self.b],
            "matches": self.matches,
            "matches_won": list(self.matches_won),
            "hands": self.hands,
            "hands_won": list(self.hands_won),
            "knockouts_dealt": list(self.knockouts_dealt),
            "leader": self.leader,
        }


@dataclass(frozen=True, slots=True)
class Stats:
    """A group's statistics: each player's figures, the group's, and every match's."""

    matches: tuple[MatchStats, ...]  # in the order given (the app: by date)
    players: Mapping[str, Figures]  # by name as first seen, in that order
    group: Figures

    def player(self, name: str) -> Figures:
        key = name_key(name)
        for player, figures in self.players.items():
            if name_key(player) == key:
                return figures
        return NOTHING

    def leaderboard(self) -> list[tuple[str, Figures]]:
        """Players by matches won, then hands won, then points (fewest first when the
        matches were played to the lowest total), then name."""
        low = all(m.lowest_wins for m in self.matches) and bool(self.matches)
        return sorted(
            self.players.items(),
            key=lambda item: (
                -item[1].matches_won,
                -item[1].hands_won,
                item[1].points if low else -item[1].points,
                name_key(item[0]),
            ),
        )

    def head_to_head(self, a: str, b: str) -> HeadToHead:
        ka, kb = name_key(a), name_key(b)
        matches = hands = 0
        won, hands_won, dealt = [0, 0], [0, 0], [0, 0]
        for match in self.matches:
            keys = [name_key(p) for p in match.players]
            if ka not in keys or kb not in keys or not match.hands:
                continue
            matches += match.finished  # one still being played is neither side's
            hands += match.hands
            pair = (match.players[keys.index(ka)], match.players[keys.index(kb)])
            for side, name in enumerate(pair):
                won[side] += match.winner == name
                hands_won[side] += match.hand_winners.count(name)
            for ko in match.knockouts:
                if ko.by == pair[0] and ko.player == pair[1]:
                    dealt[0] += 1
                elif ko.by == pair[1] and ko.player == pair[0]:
                    dealt[1] += 1
        return HeadToHead(
            a,
            b,
            matches,
            (won[0], won[1]),
            hands,
            (hands_won[0], hands_won[1]),
            (dealt[0], dealt[1]),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "players": {name: figures.to_json() for name, figures in self.players.items()},
            "group": self.group.to_json(),
            "matches": [match.to_json() for match in self.matches],
        }


def group_stats(matches: Iterable[MatchStats]) -> Stats:
    """Add up matches already read (no game is read again)."""
    kept = tuple(matches)
    players: dict[str, Figures] = {}
    first_seen: dict[str, str] = {}  # a name as written -> the player's name as first seen
    by_key: dict[str, str] = {}  # name_key -> the name as first seen
    group = NOTHING
    for match in kept:
        group += match.group
        for name, figures in zip(match.players, match.figures, strict=True):
            first = first_seen.get(name)
            if first is None:
                first = first_seen[name] = by_key.setdefault(name_key(name), name)
            players[first] = players.get(first, NOTHING) + figures
    return Stats(kept, players, group)
