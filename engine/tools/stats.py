"""A group's statistics, read from its matches: one pass over each game's history.

`match_stats(game)` reads one replayed `Game` once, line by line with the states
before and after each line, and returns a `MatchStats`: the match's figures per
player, a row per player per scored hand (`HandRow`), every knockout with who
dealt it (`Knockout`), and the match's awards. `group_stats(matches)` adds up any
number of `MatchStats` without reading a game again, so a caller that keeps the
`MatchStats` of a finished match (it never changes) pays for a new match only.

What counts:

- A hand counts once it is scored; the hand under way when a record ends counts
  for nothing yet. A match counts (played, and won by its winner) once its first
  hand is scored.
- A knockout is dealt by the player whose card made the victim take the cards
  (the engine's `KnockedOut.by`): a stack's last card, a Colour Roulette, a
  catch, a last Draw card under final_draw. A draw on one's own turn, a count
  corrected, a quick result and one's own card are dealt by nobody. A 7 swap or
  a 0 pass never knocks anyone out by itself: the hands that move were all under
  the Mercy limit, and the player of the 7 or 0 holds one card fewer.
- A stack taken is its total (+12), also when Mercy stopped the draw; it was
  sent by the player of its last card. Under final_draw the last Draw card's
  penalty is a stack too.
- UNO missed: caught without a call. Cards at the end of a hand: held by each
  player still in the hand when it was scored, the winner included (0 after
  the last card); hands entered as a quick result have no count.
- Quick-score hands (`wins`, `out`, `reveals`) count for what they record:
  hands, wins, points, knockouts (dealt by nobody).

Players are told apart by the engine's name rule (`name_key`: "ann" is "Ann"),
shown as first seen; `names` renames a match's players (a group's roster).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Final, Literal

from ..core.game import Game
from ..core.i18n import _, ngettext
from ..core.names import name_key
from ..core.notation import ActionLine, Catch, Correct, Draw, Line, Out, Play, Roulette, Take
from ..core.state import FinalDraw, HandWon, KnockedOut, State

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


_FIELDS: Final = tuple(f.name for f in fields(Figures))
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


class _HandTally:
    """What one hand has added up so far, by seat."""

    __slots__ = ("catches", "dealt", "knocked_by", "missed", "sent", "survived", "taken")

    def __init__(self, n: int) -> None:
        self.dealt = [0] * n
        self.knocked_by: list[int | None] = [None] * n
        self.taken = [0] * n
        self.sent = [0] * n
        self.survived = [0] * n  # the biggest stack taken without being knocked out
        self.missed = [0] * n
        self.catches = [0] * n


def match_stats(
    game: Game, *, key: MatchKey = None, names: Mapping[str, str] | None = None
) -> MatchStats:
    """The statistics of one match, in one pass over its history."""
    # `names` maps the names seated first; a match shows its players as now called.
    shown = tuple(names.get(p, p) for p in game.seating) if names else game.players
    seating: tuple[str, ...] = ()
    n = len(shown)
    totals = [[0] * len(_FIELDS) for _seat in range(n)]
    hand_winners: list[str] = []
    rows: list[HandRow] = []
    knockouts: list[Knockout] = []  # of scored hands
    pending: list[Knockout] = []  # of the hand under way
    tally = _HandTally(n)
    won_by: WonBy = "last_card"
    survived_best = [0] * n
    lines = 1
    for line, before, after in game.steps():
        lines += 1
        if before.players is not seating:  # the first line, or a player renamed
            seating = before.players
            seat_of = {name: seat for seat, name in enumerate(seating)}
        if isinstance(line, ActionLine):
            seat, action = seat_of[line.player], line.action
            if isinstance(action, Take):
                total, by = before.stack_total, before.pending_by
                _stack(tally, seat, total, by)
                if seat not in after.out:
                    tally.survived[seat] = max(tally.survived[seat], total)
            elif isinstance(action, Catch):
                tally.catches[seat] += 1
                tally.missed[seat_of[action.target]] += 1
            elif after.rules.final_draw and isinstance(action, Play | Draw) and after.events:
                for event in after.events:
                    if isinstance(event, FinalDraw):
                        play = action if isinstance(action, Play) else action.play
                        assert play is not None
                        total = before.stack_total + (play.card.draw or 0)
                        _stack(tally, seat_of[event.player], total, seat)
        if len(after.out) > len(before.out) and after.hand == before.hand:
            for victim in after.out[len(before.out) :]:
                dealer, cards, how = _knockout(line, before, after, victim, seat_of)
                who = None if dealer is None else shown[dealer]
                pending.append(Knockout(after.hand, shown[victim], who, cards, how))
                if dealer is not None:
                    tally.dealt[dealer] += 1
                tally.knocked_by[victim] = dealer
        if after.hand_winner is not None and before.hand_winner is None:
            won_by = "last_card"
            for event in after.events:
                if isinstance(event, HandWon) and event.by_knockout:
                    won_by = "last_standing"
        if len(after.history) > len(before.history):
            result = after.history[-1]
            hand_winners.append(shown[result.winner])
            knockouts += pending
            for seat in range(n):
                out = seat in result.knocked_out
                won = seat == result.winner
                held = None if out or after.quick else after.hands[seat]
                by = tally.knocked_by[seat]
                row = HandRow(
                    match=key,
                    hand=result.hand,
                    player=shown[seat],
                    seat=seat,
                    quick=after.quick,
                    won=won,
                    won_by=won_by if won else None,
                    points=result.points[seat],
                    knocked_out=out,
                    knocked_out_by=None if by is None else shown[by],
                    knockouts_dealt=tally.dealt[seat],
                    cards_at_end=held,
                    biggest_stack_taken=tally.taken[seat],
                    biggest_stack_sent=tally.sent[seat],
                    uno_missed=tally.missed[seat],
                    catches=tally.catches[seat],
                )
                rows.append(row)
                _add_row(totals[seat], row)
                survived_best[seat] = max(survived_best[seat], tally.survived[seat])
            pending = []
            tally = _HandTally(n)
    state = game.state
    # A match counts once it is finished: one still being played is neither won nor
    # lost (its hands count as they are scored).
    played = 1 if hand_winners and state.match_winner is not None else 0
    figures = []
    for seat in range(n):
        values = totals[seat]
        values[_INDEX["matches"]] = played
        values[_INDEX["matches_won"]] = 1 if played and state.match_winner == seat else 0
        figures.append(Figures(*values))
    group = _match_as_a_whole(figures, played, state.match_winner is not None, len(hand_winners))
    match = MatchStats(
        key=key,
        players=shown,
        lines=lines,
        scores=state.scores,
        lowest_wins=state.rules.lowest_wins,
        winner=None if state.match_winner is None else shown[state.match_winner],
        hand_winners=tuple(hand_winners),
        figures=tuple(figures),
        group=group,
        rows=tuple(rows),
        knockouts=tuple(knockouts),
        awards=(),
    )
    return _with_awards(match, survived_best)


def _stack(tally: _HandTally, victim: int, total: int, by: int | None) -> None:
    tally.taken[victim] = max(tally.taken[victim], total)
    if by is not None and by != victim:
        tally.sent[by] = max(tally.sent[by], total)


def _knockout(
    line: Line, before: State, after: State, victim: int, seat_of: Mapping[str, int]
) -> tuple[int | None, int, KnockoutHow]:
    """Who dealt the knockout of `victim` on this line (a seat or None), their cards, how."""
    for event in after.events:
        if isinstance(event, KnockedOut) and seat_of[event.player] == victim:
            by = None if event.by is None else seat_of[event.by]
            cards = event.cards
            break
    else:  # a quick result: the line itself says so, no event
        by, cards = None, after.set_aside - before.set_aside
    assert isinstance(line, ActionLine)
    action = line.action
    how: KnockoutHow = "final_draw"  # the one knockout of a line by someone else's play
    if isinstance(action, Out):
        how = "quick"
    elif isinstance(action, Take):
        how = "stack"
    elif isinstance(action, Roulette):
        how = "roulette"
    elif isinstance(action, Catch):
        how = "catch"
    elif isinstance(action, Correct):
        how = "correction"
    elif isinstance(action, Draw) and seat_of[line.player] == victim:
        how = "draw"
    return by, cards, how


_INDEX: Final = {name: i for i, name in enumerate(_FIELDS)}


def _add_row(values: list[int], row: HandRow) -> None:
    """Add one hand to a player's running figures (a list in Figures' field order)."""
    i = _INDEX
    values[i["hands"]] += 1
    if row.won:
        values[i["hands_won"]] += 1
        values[i["won_by_last_card" if row.won_by == "last_card" else "won_last_standing"]] += 1
    values[i["points"]] += row.points
    values[i["knockouts_suffered"]] += row.knocked_out
    values[i["knockouts_dealt"]] += row.knockouts_dealt
    taken, sent = i["biggest_stack_taken"], i["biggest_stack_sent"]
    values[taken] = max(values[taken], row.biggest_stack_taken)
    values[sent] = max(values[sent], row.biggest_stack_sent)
    values[i["uno_missed"]] += row.uno_missed
    values[i["catches"]] += row.catches
    if row.cards_at_end is not None:
        values[i["cards_at_end"]] += row.cards_at_end
        values[i["hands_counted"]] += 1


def _match_as_a_whole(figures: list[Figures], played: int, finished: bool, hands: int) -> Figures:
    whole = NOTHING
    for player in figures:
        whole += player
    won = 1 if finished and played else 0
    return replace(whole, matches=played, matches_won=won, hands=hands, hands_won=hands)


def _with_awards(match: MatchStats, survived: list[int]) -> MatchStats:
    """A few lines for the winner's screen: the best at something, ties all named."""
    awards: list[Award] = []

    def best(kind: AwardKind, by_seat: Iterable[int], least: int) -> None:
        values = list(by_seat)
        top = max(values, default=0)
        if top >= least:
            awards.extend(
                Award(kind, match.players[seat], top)
                for seat, value in enumerate(values)
                if value == top
            )

    best("knockouts_dealt", (f.knockouts_dealt for f in match.figures), 1)
    best("survived", survived, BIG_STACK)
    best("sent", (f.biggest_stack_sent for f in match.figures), BIG_STACK)
    best("catches", (f.catches for f in match.figures), 1)
    best("last_standing", (f.won_last_standing for f in match.figures), 1)
    return replace(match, awards=tuple(awards))


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

    def hand_rows(self) -> Iterator[HandRow]:
        for match in self.matches:
            yield from match.rows

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


def stats(games: Iterable[Game]) -> Stats:
    """The statistics of these matches; each is keyed by its place (0, 1, ...)."""
    return group_stats(match_stats(game, key=i) for i, game in enumerate(games))
