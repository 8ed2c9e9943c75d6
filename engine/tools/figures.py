"""The figures of a group's statistics, as values: a player's `Figures`, a match's
`MatchStats` with its `HandRow`s, `Knockout`s and `Award`s (engine/tools/stats.py reads
them from a game; engine/tools/totals.py adds them up)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Final, Literal

from ..core.i18n import _, ngettext
from ..core.names import name_key

MatchKey = str | int | None
KnockoutHow = Literal["stack", "roulette", "catch", "final_draw", "draw", "correction", "quick"]
WonBy = Literal["last_card", "last_standing"]
AwardKind = Literal["knockouts_dealt", "survived", "sent", "catches", "last_standing"]

BIG_STACK: Final = 10  # a stack from +10 up earns an award (survived, sent)


@dataclass(frozen=True, slots=True)
class Figures:
    """What some hands add up to: one player's (in a match, or overall), or a group's.

    `matches` are finished matches (one still being played is neither won nor lost).
    For a group: `matches` counted, `matches_won` finished, `hands` scored and
    `hands_won` the same; knockouts suffered are all knockouts, dealt those
    somebody dealt; the average of cards is over every player's hand."""

    matches: int = 0
    matches_won: int = 0
    hands: int = 0
    hands_won: int = 0
    won_by_last_card: int = 0
    won_last_standing: int = 0
    points: int = 0
    knockouts_suffered: int = 0
    knockouts_dealt: int = 0
    biggest_stack_taken: int = 0
    biggest_stack_sent: int = 0
    uno_missed: int = 0
    catches: int = 0
    cards_at_end: int = 0  # added up over the hands counted
    hands_counted: int = 0  # hands whose cards at the end are known

    @property
    def average_cards_at_end(self) -> float | None:
        return self.cards_at_end / self.hands_counted if self.hands_counted else None

    def __add__(self, other: Figures) -> Figures:
        """Counts add up; the biggest stacks are the larger of the two."""
        a, b = self, other
        return Figures(
            a.matches + b.matches,
            a.matches_won + b.matches_won,
            a.hands + b.hands,
            a.hands_won + b.hands_won,
            a.won_by_last_card + b.won_by_last_card,
            a.won_last_standing + b.won_last_standing,
            a.points + b.points,
            a.knockouts_suffered + b.knockouts_suffered,
            a.knockouts_dealt + b.knockouts_dealt,
            max(a.biggest_stack_taken, b.biggest_stack_taken),
            max(a.biggest_stack_sent, b.biggest_stack_sent),
            a.uno_missed + b.uno_missed,
            a.catches + b.catches,
            a.cards_at_end + b.cards_at_end,
            a.hands_counted + b.hands_counted,
        )

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = asdict(self)
        average = self.average_cards_at_end
        data["average_cards_at_end"] = None if average is None else round(average, 2)
        return data


FIELDS: Final = tuple(f.name for f in fields(Figures))
NOTHING: Final = Figures()


@dataclass(frozen=True, slots=True)
class Knockout:
    hand: int
    player: str
    by: str | None  # who dealt it; None: nobody
    cards: int  # held when knocked out (a quick result: set aside)
    how: KnockoutHow


@dataclass(frozen=True, slots=True)
class HandRow:
    """One player in one scored hand (a CSV row per player per hand)."""

    match: MatchKey
    hand: int
    player: str
    seat: int
    quick: bool  # entered as a result only
    won: bool
    won_by: WonBy | None
    points: int  # added to the player's total
    knocked_out: bool
    knocked_out_by: str | None
    knockouts_dealt: int
    cards_at_end: int | None  # None: knocked out, or a quick hand
    biggest_stack_taken: int
    biggest_stack_sent: int
    uno_missed: int
    catches: int


@dataclass(frozen=True, slots=True)
class Award:
    """A line for the winner's screen; said in the current language when shown."""

    kind: AwardKind
    player: str
    n: int

    def __str__(self) -> str:
        if self.kind == "knockouts_dealt":
            return ngettext(
                "{player} dealt {n} knockout",
                "{player} dealt {n} knockouts",
                self.n,
                player=self.player,
            )
        if self.kind == "survived":  # a stack of BIG_STACK or more: always plural
            return _("{player} survived a +{n}", player=self.player, n=self.n)
        if self.kind == "sent":
            return _("{player} sent the biggest stack: +{n}", player=self.player, n=self.n)
        if self.kind == "catches":
            return ngettext(
                "{player} caught {n} missed UNO",
                "{player} caught {n} missed UNOs",
                self.n,
                player=self.player,
            )
        return ngettext(
            "{player} won {n} hand as the last player left",
            "{player} won {n} hands as the last player left",
            self.n,
            player=self.player,
        )

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "player": self.player, "n": self.n, "text": str(self)}


@dataclass(frozen=True, slots=True)
class MatchStats:
    """One match read once: what the group page, a player's page and the CSV need."""

    key: MatchKey  # the caller's name for the match (an id, a file)
    players: tuple[str, ...]  # in seating order
    lines: int
    scores: tuple[int, ...]  # match totals, by seat
    lowest_wins: bool
    winner: str | None  # the match's winner, once it is over
    hand_winners: tuple[str, ...]  # by scored hand, in order
    figures: tuple[Figures, ...]  # by seat
    group: Figures  # the match as a whole
    rows: tuple[HandRow, ...]
    knockouts: tuple[Knockout, ...]  # in scored hands, in order
    awards: tuple[Award, ...]

    @property
    def hands(self) -> int:
        return len(self.hand_winners)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def player(self, name: str) -> Figures:
        key = name_key(name)
        for seat, player in enumerate(self.players):
            if name_key(player) == key:
                return self.figures[seat]
        return NOTHING

    def to_json(self) -> dict[str, object]:
        return {
            "match": self.key,
            "players": list(self.players),
            "lines": self.lines,
            "hands": self.hands,
            "winner": self.winner,
            "scores": dict(zip(self.players, self.scores, strict=True)),
            "figures": {p: f.to_json() for p, f in zip(self.players, self.figures, strict=True)},
            "knockouts": [asdict(k) for k in self.knockouts],
            "awards": [a.to_json() for a in self.awards],
        }
