"""A group's statistics, read from its matches: one pass over each game's history.

`match_stats(game)` reads one replayed `Game` once, line by line with the states
before and after each line, and returns a `MatchStats`: the match's figures per
player, a row per player per scored hand (`HandRow`), every knockout with who
dealt it (`Knockout`), and the match's awards. `group_stats(matches)` adds up any
number of `MatchStats` without reading a game again, so a caller that keeps the
`MatchStats` of a finished match (it never changes) pays for a new match only.
The values are in figures.py, the adding up in totals.py; this module names them all.

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

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Final

from ..core.game import Game
from ..core.notation import ActionLine, Catch, Correct, Draw, Line, Out, Play, Roulette, Take
from ..core.state import FinalDraw, HandWon, KnockedOut, State
from .figures import BIG_STACK as BIG_STACK
from .figures import FIELDS as FIELDS
from .figures import NOTHING as NOTHING
from .figures import Award as Award
from .figures import AwardKind as AwardKind
from .figures import Figures as Figures
from .figures import HandRow as HandRow
from .figures import Knockout as Knockout
from .figures import KnockoutHow as KnockoutHow
from .figures import MatchKey as MatchKey
from .figures import MatchStats as MatchStats
from .figures import WonBy as WonBy
from .totals import HeadToHead as HeadToHead
from .totals import Stats as Stats
from .totals import group_stats as group_stats


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
    totals = [[0] * len(FIELDS) for _seat in range(n)]
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


_INDEX: Final = {name: i for i, name in enumerate(FIELDS)}


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


def stats(games: Iterable[Game]) -> Stats:
    """The statistics of these matches; each is keyed by its place (0, 1, ...)."""
    return group_stats(match_stats(game, key=i) for i, game in enumerate(games))
