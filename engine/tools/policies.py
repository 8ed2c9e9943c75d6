"""How the simulated players choose: the simulator's policies.

The simulator (engine/tools/simulator.py) holds the true cards and asks a policy each time a
player has a choice; the policy never moves a card and never breaks a rule: it is
offered only what the engine allows (the playable cards of the hand, the stackable
ones, the players one may swap with). Every table plays one policy; its random choices
come from the simulation's own generator, so a seed gives the same hands again.

Three policies, by name (`POLICIES`; `title(name)` and `explain(name)` in the current
language):

- **table** (the default): a loose, human-looking table, the simulator's original
  behaviour, kept draw for draw so that a seed still gives the same record. It picks a
  playable card *instance* at random (two R5s in hand are twice as likely as one B7),
  answers a stack 85% of the time when it can, names the colour it holds most, swaps
  with a random player, calls UNO 70% of the time and, when someone forgets, someone
  else catches them 60% of the time. Under draw=one it keeps a playable drawn card one
  time in five.
- **uniform**: the random policy of the published research simulator the project is
  checked against: uniform over the distinct playable kinds (a kind is a colour and a
  face: two R5s are one choice); facing a stack, uniform over the distinct stackable
  kinds and taking; a uniform colour for a wild and for a Colour Roulette; a uniform
  swap partner; UNO always called (nobody is ever caught). With nothing to play it
  draws until it can, then plays that card (draw=until); under draw=one it plays or
  keeps a playable drawn card, each half the time.
- **strategic**: a careful player. It stacks whenever it can, with the smallest Draw
  card that answers (a coloured one before a wild of the same value); otherwise it
  plays the coloured card that sheds the most points (a Discard All counts the cards
  it takes with it; ties go to the colour it holds most), keeping wilds for when
  nothing else plays, and then the biggest Draw wild first. It names the colour it
  holds most, swaps a 7 with the smallest hand, names the colour it holds fewest of for
  a Colour Roulette (most of that colour is still to come), always plays a playable
  drawn card, and always calls UNO (and would catch anyone who forgot).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..core.cards import Card, Color, Face
from ..core.i18n import N_, _
from ..core.state import State

COLORS: Final = tuple(Color)


class Policy:
    """A way of choosing. Subclasses decide; the simulator moves the cards.

    Every method is given only legal options (never empty) and the true cards of the
    player who chooses; `state` is the engine's state before the choice."""

    name = ""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def answer_stack(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card | None:
        """Facing a stack: the Draw card to stack (one of `playable`, maybe empty), or
        None to take the stack."""
        raise NotImplementedError

    def play(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card:
        """The card to play, one of `playable` (the hand's playable cards, in hand order)."""
        raise NotImplementedError

    def play_drawn(self, state: State, hand: Sequence[Card], card: Card) -> bool:
        """Under draw=one: play the playable card just drawn (True) or keep it."""
        raise NotImplementedError

    def wild_color(self, hand: Sequence[Card]) -> Color:
        """The colour a wild names; `hand` is what the player holds after playing it."""
        raise NotImplementedError

    def swap_partner(self, state: State, partners: list[int]) -> int:
        """The seat a 7 swaps hands with, one of `partners`."""
        raise NotImplementedError

    def roulette_color(self, hand: Sequence[Card]) -> Color:
        """The colour the victim of a Colour Roulette names."""
        raise NotImplementedError

    def uno(self, seat: int, players: int) -> int | None:
        """`seat` just got down to one card: -1 if they call UNO, else the seat of whoever
        catches them, or None when nobody does."""
        raise NotImplementedError


class TablePolicy(Policy):
    """The simulator's original players (see the module's text), draw for draw."""

    name = "table"

    def __init__(
        self,
        rng: random.Random,
        *,
        uno_call_rate: float = 0.7,
        catch_rate: float = 0.6,
        stack_rate: float = 0.85,
        keep_drawn_rate: float = 0.2,
    ) -> None:
        super().__init__(rng)
        self.uno_call_rate, self.catch_rate = uno_call_rate, catch_rate
        self.stack_rate, self.keep_drawn_rate = stack_rate, keep_drawn_rate

    def answer_stack(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card | None:
        if playable and self.rng.random() < self.stack_rate:
            return self.rng.choice(playable)
        return None

    def play(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card:
        return self.rng.choice(playable)

    def play_drawn(self, state: State, hand: Sequence[Card], card: Card) -> bool:
        return not self.rng.random() < self.keep_drawn_rate

    def wild_color(self, hand: Sequence[Card]) -> Color:
        return self._most_held(hand)

    def swap_partner(self, state: State, partners: list[int]) -> int:
        return self.rng.choice(partners)

    def roulette_color(self, hand: Sequence[Card]) -> Color:
        return self._most_held(hand)

    def uno(self, seat: int, players: int) -> int | None:
        if self.rng.random() < self.uno_call_rate:
            return -1
        if self.rng.random() < self.catch_rate:
            return self.rng.choice([i for i in range(players) if i != seat])
        return None

    def _most_held(self, hand: Sequence[Card]) -> Color:
        counts = Counter(c.color for c in hand if c.color is not None)
        if not counts:
            return self.rng.choice(list(Color))
        return max(Color, key=lambda color: (counts[color], self.rng.random()))


class UniformPolicy(Policy):
    """The research simulator's random policy (see the module's text)."""

    name = "uniform"

    def answer_stack(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card | None:
        options: list[Card | None] = [*dict.fromkeys(playable), None]
        return self.rng.choice(options)

    def play(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card:
        return self.rng.choice(list(dict.fromkeys(playable)))

    def play_drawn(self, state: State, hand: Sequence[Card], card: Card) -> bool:
        return self.rng.random() < 0.5

    def wild_color(self, hand: Sequence[Card]) -> Color:
        return self.rng.choice(COLORS)

    def swap_partner(self, state: State, partners: list[int]) -> int:
        return self.rng.choice(partners)

    def roulette_color(self, hand: Sequence[Card]) -> Color:
        return self.rng.choice(COLORS)

    def uno(self, seat: int, players: int) -> int | None:
        return -1


class StrategicPolicy(Policy):
    """A careful player (see the module's text)."""

    name = "strategic"

    def answer_stack(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card | None:
        if not playable:
            return None
        return min(playable, key=lambda c: (c.draw, c.wild))

    def play(self, state: State, hand: Sequence[Card], playable: list[Card]) -> Card:
        coloured = [c for c in playable if not c.wild]
        if not coloured:
            return max(playable, key=lambda c: c.draw)
        held = Counter(c.color for c in hand)

        def shed(card: Card) -> tuple[int, int]:
            points = card.points
            if card.face is Face.DISCARD_ALL:
                points += sum(c.points for c in hand if c.color is card.color) - card.points
            return points, held[card.color]

        best = max(map(shed, coloured))
        return self.rng.choice([c for c in coloured if shed(c) == best])

    def play_drawn(self, state: State, hand: Sequence[Card], card: Card) -> bool:
        return True

    def wild_color(self, hand: Sequence[Card]) -> Color:
        counts = Counter(c.color for c in hand if c.color is not None)
        most = max((counts[color] for color in COLORS), default=0)
        return self.rng.choice([color for color in COLORS if counts[color] == most])

    def swap_partner(self, state: State, partners: list[int]) -> int:
        smallest = min(state.hands[i] for i in partners)
        return self.rng.choice([i for i in partners if state.hands[i] == smallest])

    def roulette_color(self, hand: Sequence[Card]) -> Color:
        counts = Counter(c.color for c in hand if c.color is not None)
        fewest = min(counts[color] for color in COLORS)
        return self.rng.choice([color for color in COLORS if counts[color] == fewest])

    def uno(self, seat: int, players: int) -> int | None:
        return -1


_POLICIES: Final[dict[str, type[Policy]]] = {
    p.name: p for p in (TablePolicy, UniformPolicy, StrategicPolicy)
}
POLICIES: Final = tuple(_POLICIES)

_TITLES: Final = {"table": N_("Table"), "uniform": N_("Uniform"), "strategic": N_("Strategic")}
_EXPLANATIONS: Final = {
    "table": N_(
        "A loose, human-looking table. Any playable card at random (a card held twice is "
        "twice as likely), a stack answered 17 times in 20 when possible, the colour held "
        "most named, UNO called 7 times in 10 and a missed call caught 6 times in 10."
    ),
    "uniform": N_(
        "The random players of the published research simulator. Every distinct playable "
        "card equally likely; facing a stack, every card that stacks and taking equally "
        "likely; colours and swap partners at random; UNO always called. With nothing to "
        "play, draw until a card plays, and play it."
    ),
    "strategic": N_(
        "Careful players. Stack whenever possible with the smallest Draw card that answers; "
        "otherwise shed the most points, keeping wilds for last; name the colour held "
        "most; swap a 7 with the smallest hand; name the colour held fewest of for a Colour "
        "Roulette; always call UNO and catch a missed call."
    ),
}


def title(name: str) -> str:
    """The policy `name` as a screen calls it, in the current language."""
    _check(name)
    return _(_TITLES[name])


def explain(name: str) -> str:
    """What the policy `name` does, in plain words and the current language."""
    _check(name)
    return _(_EXPLANATIONS[name])


def _check(name: str) -> None:
    if name not in _POLICIES:
        raise ValueError(f"no policy {name!r}: choose one of {', '.join(POLICIES)}")


def make(name: str, rng: random.Random, **table_rates: float) -> Policy:
    """The policy `name`, drawing its random choices from `rng`. `table_rates` tune the
    table policy (uno_call_rate, catch_rate, stack_rate); other policies have none."""
    _check(name)
    if name == "table":
        return TablePolicy(rng, **table_rates)
    return _POLICIES[name](rng)
