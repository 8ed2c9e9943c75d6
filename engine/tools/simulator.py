"""A table simulator: real shuffled cards, a legal policy, public lines only.

The simulator holds the true cards (draw pile, discard pile, hands, set-aside
hands). Each turn it asks the engine what is legal, lets its policy (engine/tools/policies.py:
"table", "uniform", "strategic") pick among what the true hand allows, moves the true
cards itself, and feeds the engine only the table-record line a player would say (as a
value, as the app hands a line over once parsed; tests replay its printed record as
text). After every line the engine's counts must equal the true counts: a difference is
a mismatch, reported, never hidden.

A hand's length is counted in turns, as the research simulator the project is checked
against counts them: one per action (a play, a take, a draw and the play after it, a
roulette's reveal); a skipped player gets none. The start card is a number card: an
action or wild card turned up goes back into the deck (the research simulator leaves it
in the discard pile instead).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core.cards import Card, Face, full_deck
from ..core.errors import EngineError
from ..core.game import Game
from ..core.legal import allowed_cards, judge
from ..core.notation import (
    Action,
    ActionLine,
    CallUno,
    Catch,
    Draw,
    HandLine,
    Line,
    Play,
    Reveal,
    Roulette,
    StartLine,
    Take,
)
from ..core.rules import OFFICIAL, HouseRules
from ..core.state import KNOCKOUT_POINTS, State
from .policies import POLICIES as POLICIES  # the names, as the lab and the app ask for them
from .policies import make

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
MAX_TURNS_PER_HAND = 5_000  # without Mercy, random play can pile up cards forever


@dataclass
class Stats:
    hands: int = 0
    matches: int = 0
    lines: int = 0
    turns: int = 0
    knockouts: int = 0
    reshuffles: int = 0
    biggest_stack: int = 0  # the size of the biggest stack taken
    biggest_stack_drawn: int = 0  # the most cards drawn for one stack (Mercy caps them)
    stacks_taken: int = 0
    uno_catches: int = 0
    unfinished_hands: int = 0
    mismatches: int = 0
    first_mismatch: str = ""
    turns_per_hand: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "hands": self.hands,
            "matches_finished": self.matches,
            "lines": self.lines,
            "turns": self.turns,
            "mean_turns_per_hand": round(self.turns / max(self.hands, 1), 2),
            "knockouts_per_hand": round(self.knockouts / max(self.hands, 1), 3),
            "reshuffles": self.reshuffles,
            "biggest_stack_taken": self.biggest_stack,
            "most_cards_drawn_for_a_stack": self.biggest_stack_drawn,
            "stacks_taken": self.stacks_taken,
            "uno_catches": self.uno_catches,
            "unfinished_hands": self.unfinished_hands,
            "mismatches": self.mismatches,
            "first_mismatch": self.first_mismatch or None,
        }

    def report(self) -> str:
        data = self.to_json()
        width = max(map(len, data))
        return "\n".join(
            f"{key.replace('_', ' '):<{width}}  {value}" for key, value in data.items()
        )


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One simulated hand, as the house-rule lab (engine/tools/lab.py) measures it."""

    turns: int  # actions taken: a play, a take, a draw (then play), a roulette reveal
    finished: bool  # False when it hit MAX_TURNS_PER_HAND (possible without Mercy)
    knockouts: int
    by_knockout: bool  # won by the last player standing
    reshuffles: int
    biggest_stack: int  # the size of the biggest stack taken this hand (0: none)
    first_player_won: bool  # the player who played first after the start card won
    match_hands: int | None  # when the hand ended the match: how many hands it took


@dataclass
class Truth:
    """Per player, counted from the true cards and the simulator's own choices, never
    from the engine: what a statistics module must find again in the record. Only
    hands that ended count; a knockout is dealt by the player whose card made the
    victim take the cards (nobody for one's own draw or one's own card)."""

    hands_won: Counter[str] = field(default_factory=Counter)
    points: Counter[str] = field(default_factory=Counter)
    knocked_out: Counter[str] = field(default_factory=Counter)
    knockouts_dealt: Counter[str] = field(default_factory=Counter)
    biggest_stack_taken: Counter[str] = field(default_factory=Counter)
    catches: Counter[str] = field(default_factory=Counter)
    uno_missed: Counter[str] = field(default_factory=Counter)

    def add(self, hand: Truth) -> None:
        for counter in ("hands_won", "points", "knocked_out", "knockouts_dealt", "catches"):
            getattr(self, counter).update(getattr(hand, counter))
        self.uno_missed.update(hand.uno_missed)
        for name, total in hand.biggest_stack_taken.items():
            self.biggest_stack_taken[name] = max(self.biggest_stack_taken[name], total)


class Simulation:
    """Plays hands at one simulated table, match after match."""

    def __init__(
        self,
        players: int = 4,
        *,
        rules: HouseRules = OFFICIAL,
        seed: int = 0,
        uno_call_rate: float = 0.7,
        catch_rate: float = 0.6,
        stack_rate: float = 0.85,
        policy: str = "table",
        seat_policies: Sequence[str] | None = None,
    ) -> None:
        """`policy` is how every simulated player chooses; `seat_policies` (one name per
        seat) seats players of different policies at one table, for a head-to-head."""
        names = list(seat_policies) if seat_policies is not None else [policy] * players
        for name in {policy, *names}:
            if name not in POLICIES:
                raise ValueError(f"no policy {name!r}: choose one of {', '.join(POLICIES)}")
        if len(names) != players:
            raise ValueError(f"{players} players need {players} seat policies, not {len(names)}")
        self.rng = random.Random(seed)
        self.names = NAMES[:players]
        self.rules = rules
        self._limit = rules.mercy if rules.mercy is not None else 1 << 30  # Mercy (none: never)
        rates = {"uno_call_rate": uno_call_rate, "catch_rate": catch_rate, "stack_rate": stack_rate}
        made = {name: make(name, self.rng, **rates) for name in dict.fromkeys(names)}
        self.policies = [made[name] for name in names]  # each seat's, sharing one generator
        self.stats = Stats()
        self.truth = Truth()  # over the hands that ended
        self._hand_truth = Truth()
        self._knocked: list[int] = []  # this hand, truly
        self._pending_by: int | None = None  # who played the stack's last card, the roulette
        self._hand_biggest_stack = 0
        self._new_match()
        self.draw: list[Card] = []
        self.discard: list[Card] = []
        self.hands: list[list[Card]] = []
        self.aside: list[Card] = []

    def _new_match(self) -> None:
        self.game = Game(self.names, rules=self.rules)
        self.state = self.game.state  # the engine's state after the last line said

    # ------------------------------------------------------------ driving

    def play_hands(self, count: int) -> Stats:
        for _ in range(count):
            self.play_hand()
        return self.stats

    def play_hand(self) -> HandOutcome:
        state = self.state
        if state.status == "match_over" or (state.status == "playing" and state.started):
            self._new_match()  # the match is won, or its last hand never ended
        elif state.status == "hand_over":
            self.hands = []  # dealt anew below
            self.say(HandLine(state.hand + 1))
        self._deal()
        turns, reshuffles, first = 0, self.state.reshuffles, self.state.turn
        self._hand_biggest_stack = 0
        while self.state.status == "playing":
            if turns == MAX_TURNS_PER_HAND:
                self.stats.unfinished_hands += 1
                return self._outcome(turns, reshuffles, first, finished=False)
            self._take_turn()
            turns += 1
            self._uno_moment()
        self._score_truly()
        self._reveal()
        self.truth.add(self._hand_truth)
        self.stats.hands += 1
        self.stats.turns += turns
        self.stats.turns_per_hand.append(turns)
        self.stats.knockouts += len(self.state.out)
        if self.state.status == "match_over":
            self.stats.matches += 1
        return self._outcome(turns, reshuffles, first, finished=True)

    def _outcome(self, turns: int, reshuffles: int, first: int, *, finished: bool) -> HandOutcome:
        s = self.state
        return HandOutcome(
            turns=turns,
            finished=finished,
            knockouts=len(s.out),
            by_knockout=finished and len(s.out) == len(self.names) - 1,
            reshuffles=s.reshuffles - reshuffles,
            biggest_stack=self._hand_biggest_stack,
            first_player_won=finished and s.hand_winner == first,
            match_hands=s.hand if s.status == "match_over" else None,
        )

    def act(self, seat: int, action: Action) -> None:
        """`seat`'s action, said as a line."""
        self.say(ActionLine(self.names[seat], action))

    def say(self, line: Line) -> None:
        """Feed one public line to the engine and compare its counts with the truth. The
        simulator hands the engine the line itself, as the app does after parsing: its text
        is only printed (a mismatch, the record)."""
        before = self.state.reshuffles
        try:
            s = self.state = self.game.apply(line)
        except EngineError as exc:
            self._mismatch(f"the engine refused '{line}': [{exc.rule}] {exc.message}")
            raise
        self.stats.lines += 1
        self.stats.reshuffles += s.reshuffles - before
        self._compare(line, s)

    def _compare(self, line: Line, s: State) -> None:
        if not self.hands:
            return
        true_hands = tuple([len(h) for h in self.hands])
        if (
            s.draw_pile == len(self.draw)
            and s.set_aside == len(self.aside)
            and s.discard_pile == (len(self.discard) if s.started else 0)
            and s.hands == true_hands
        ):
            return  # every line: the quick answer first
        checks = {
            "hands": (s.hands, true_hands),
            "draw pile": (s.draw_pile, len(self.draw)),
            "discard pile": (s.discard_pile, len(self.discard) if s.started else 0),
            "set aside": (s.set_aside, len(self.aside)),
        }
        for what, (engine_says, truth) in checks.items():
            if engine_says != truth:
                self._mismatch(f"after '{line}': {what} is {engine_says}, truly {truth}")

    def _mismatch(self, text: str) -> None:
        self.stats.mismatches += 1
        if not self.stats.first_mismatch:
            self.stats.first_mismatch = f"hand {self.state.hand}: {text}"

    # ------------------------------------------------------------ the cards

    def _deal(self) -> None:
        deck = full_deck()
        self.rng.shuffle(deck)
        n = len(self.names)
        self.hands = [deck[i * 7 : (i + 1) * 7] for i in range(n)]
        self.draw = deck[n * 7 :]
        self.aside = []
        self.discard = []
        self._hand_truth, self._knocked, self._pending_by = Truth(), [], None
        # Action and wild cards turned up at the start go back into the deck.
        while self.draw[-1].number is None:
            self.draw.insert(self.rng.randrange(len(self.draw)), self.draw.pop())
        start = self.draw.pop()
        self.discard.append(start)
        self.say(StartLine(start))

    def _draw_one(self) -> Card | None:
        if not self.draw:
            if len(self.discard) <= 1 and not self.aside:
                return None
            top = self.discard.pop()
            self.draw = self.discard + self.aside
            self.rng.shuffle(self.draw)
            self.discard, self.aside = [top], []
        return self.draw.pop()

    def _give(self, seat: int, count: int, by: int | None) -> int:
        """Draw up to `count` cards into a hand, stopping at the Mercy limit, because of
        `by`'s card (None: nobody's). Returns how many were drawn."""
        drawn = 0
        while drawn < count and len(self.hands[seat]) < self._limit:
            card = self._draw_one()
            if card is None:
                break
            self.hands[seat].append(card)
            drawn += 1
        self._knock_out_if_over(seat, by)
        return drawn

    def _knock_out_if_over(self, seat: int, by: int | None) -> None:
        if len(self.hands[seat]) >= self._limit:
            self.aside += self.hands[seat]
            self.hands[seat] = []
            self._knocked.append(seat)
            self._hand_truth.knocked_out[self.names[seat]] += 1
            if by is not None and by != seat:
                self._hand_truth.knockouts_dealt[self.names[by]] += 1

    # ------------------------------------------------------------ a turn

    def _take_turn(self) -> None:
        s = self.state
        seat = s.turn
        if s.facing == "roulette":
            self._roulette(seat)
            return
        hand = self.hands[seat]
        allowed = allowed_cards(s)  # the engine's: the kinds that play now, not yet exhausted
        playable = [c for c in hand if c in allowed]
        if s.facing == "stack":
            card = self.policies[seat].answer_stack(s, hand, playable)
            if card is not None:
                self._play(seat, card)
            else:
                total = s.stack_total
                self._hand_biggest_stack = max(self._hand_biggest_stack, total)
                self._took(seat, total)
                drawn = self._give(seat, total, self._pending_by)
                self.stats.stacks_taken += 1
                self.stats.biggest_stack = max(self.stats.biggest_stack, total)
                self.stats.biggest_stack_drawn = max(self.stats.biggest_stack_drawn, drawn)
                self.act(seat, Take())
        elif playable:
            self._play(seat, self.policies[seat].play(s, hand, playable))
        else:
            self._draw_until_playable(seat)

    def _draw_until_playable(self, seat: int) -> None:
        """Nothing to play: draw until a card plays (draw=until) or one card (draw=one).
        Each drawn card is judged by the rules on the top card as it is; not by the
        kinds the engine allowed before the draw, which leave out kinds whose every
        copy was in the discard pile: a reshuffle during the draw brings them back."""
        s = self.state
        hand = self.hands[seat]
        drawn = 0
        while True:
            card = self._draw_one()
            if card is None:
                break
            hand.append(card)
            drawn += 1
            if len(hand) >= self._limit:
                break
            if judge(card, "play", s.top, s.color, 0) is None:
                if self.rules.draw == "one" and not self.policies[seat].play_drawn(s, hand, card):
                    break  # may keep it
                self._play(seat, card, drawn=drawn)
                return
            if self.rules.draw == "one":
                break
        self._knock_out_if_over(seat, None)
        self.act(seat, Draw(drawn))

    def _play(self, seat: int, card: Card, drawn: int = 0) -> None:
        """Play `card` from the hand (the last of `drawn` cards drawn, if any)."""
        s = self.state
        hand = self.hands[seat]
        hand.remove(card)
        extra: list[Card] = []
        if card.face is Face.DISCARD_ALL:
            extra = [c for c in hand if c.color is card.color]
            for c in extra:
                hand.remove(c)
        color = None
        if card.wild and card.face is not Face.WILD_ROULETTE:
            color = self.policies[seat].wild_color(hand)
        swap_with: int | None = None
        if card.number == 7 and self.rules.seven and hand:
            swap_with = self.policies[seat].swap_partner(s, [i for i in s.active if i != seat])
        play = Play(
            card,
            color=color,
            swap=None if swap_with is None else self.names[swap_with],
            discard=len(extra),
        )
        self.discard += extra
        self.discard.append(card)
        if swap_with is not None:
            self.hands[seat], self.hands[swap_with] = self.hands[swap_with], self.hands[seat]
        elif card.number == 0 and self.rules.zero and hand:
            seats = [seat]
            while (after := s.next_active(seats[-1])) != seat:
                seats.append(after)
            moved = [self.hands[i] for i in seats]
            for i, cards in zip(seats[1:] + seats[:1], moved, strict=True):
                self.hands[i] = cards
        if not hand and card.draw and self.rules.final_draw:
            direction = -s.direction if card.face is Face.WILD_REVERSE_DRAW4 else s.direction
            victim = self._next_active(seat, direction, s.out)
            self._took(victim, s.stack_total + card.draw)
            self._give(victim, s.stack_total + card.draw, seat)
        elif hand and (card.draw or card.face is Face.WILD_ROULETTE):
            self._pending_by = seat
        self.act(seat, Draw(drawn, play) if drawn else play)

    def _next_active(self, seat: int, direction: int, out: tuple[int, ...]) -> int:
        n = len(self.names)
        seat = (seat + direction) % n
        while seat in out:
            seat = (seat + direction) % n
        return seat

    def _roulette(self, seat: int) -> None:
        color = self.policies[seat].roulette_color(self.hands[seat])
        hand, revealed = self.hands[seat], 0
        while len(hand) < self._limit:
            card = self._draw_one()
            if card is None:
                break
            hand.append(card)
            revealed += 1
            if card.color is color:
                break
        self._knock_out_if_over(seat, self._pending_by)
        self.act(seat, Roulette(color, revealed))

    # ------------------------------------------------------------ UNO and the end

    def _uno_moment(self) -> None:
        """Whoever just got down to one card calls UNO, or is caught, or gets away."""
        for seat in sorted(self.state.uno_open):
            catcher = self.policies[seat].uno(seat, len(self.names))
            if catcher == -1:
                self.act(seat, CallUno())
            elif catcher is not None:
                self._give(seat, 2, catcher)
                self._hand_truth.catches[self.names[catcher]] += 1
                self._hand_truth.uno_missed[self.names[seat]] += 1
                self.stats.uno_catches += 1
                self.act(catcher, Catch(self.names[seat]))

    def _took(self, seat: int, total: int) -> None:
        biggest = self._hand_truth.biggest_stack_taken
        biggest[self.names[seat]] = max(biggest[self.names[seat]], total)

    def _score_truly(self) -> None:
        """The hand's winner and points from the true hands (the rules' scoring)."""
        left = [i for i in range(len(self.names)) if i not in self._knocked]
        winner = next((i for i in left if not self.hands[i]), left[0])
        truth, knocked = self._hand_truth, len(self._knocked)
        truth.hands_won[self.names[winner]] += 1
        held = {i: sum(c.points for c in self.hands[i]) for i in left if i != winner}
        if self.rules.scoring == "high":
            truth.points[self.names[winner]] += sum(held.values()) + KNOCKOUT_POINTS * knocked
        else:
            for i, points in held.items():
                truth.points[self.names[i]] += points
            for i in self._knocked:
                truth.points[self.names[i]] += KNOCKOUT_POINTS

    def _reveal(self) -> None:
        for name in self.game.legal_actions().revealers:
            cards = self.hands[self.names.index(name)]
            if self.rng.random() < 0.3:
                self.say(ActionLine(name, Reveal(points=sum(c.points for c in cards))))
            else:
                self.say(ActionLine(name, Reveal(cards=tuple(cards))))
