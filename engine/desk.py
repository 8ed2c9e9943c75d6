"""The referee desk: a ruling on one card in a made-up position, without a match.

"The top card is a Wild Draw 6 with green named, +10 is pending: may I play a
Red Draw 4?" `rule_on` answers with the same checks the referee applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Color
from engine.errors import IllegalActionError
from engine.legal import card_refusal, needed_to_stack
from engine.rules import OFFICIAL, HouseRules
from engine.state import State

PLAYER = "The player"


@dataclass(frozen=True)
class Ruling:
    allowed: bool
    rule: str
    message: str


def position(
    top: Card, color: Color | None = None, stack: int = 0, rules: HouseRules = OFFICIAL
) -> State:
    """A state with `top` face up, `color` active and a pending `stack` total (0: none)."""
    if top.wild and color is None:
        raise IllegalActionError(
            f"{top.name} is a wild: say which colour was named for it.", "wild-color"
        )
    if stack:
        if not top.draw:
            raise IllegalActionError(
                f"A penalty is pending only when a Draw card is on top, not {top.name}.", "stack"
            )
        if stack < top.draw:
            raise IllegalActionError(
                f"A stack with {top.name} on top is at least +{top.draw}, not +{stack}.", "stack"
            )
    s = State.new((PLAYER, "Next player", "Other player"), rules)
    s.started = True
    s.top = top
    s.color = top.color if color is None or not top.wild else color
    s.draw_pile -= 1
    s.discard_pile = 1
    s.discard_known = {top: 1}
    if stack:
        s.stack_total, s.stack_last, s.facing = stack, top.draw, "stack"
    return s


def rule_on(card: Card, state: State) -> Ruling:
    """May the player whose turn it is play `card` in `state`, and why."""
    refusal = card_refusal(state, state.turn, card)
    if refusal is not None:
        return Ruling(False, refusal.rule, refusal.message)
    assert state.top is not None and state.color is not None
    if state.facing == "stack":
        total = state.stack_total + card.draw
        bar = "the pending total" if state.rules.stack == "sum" else "the last Draw card"
        return Ruling(
            True,
            "stack",
            f"Yes: {card.name} (+{card.draw}) is at least {bar} (+{needed_to_stack(state)}), "
            f"so it stacks: the next player faces +{total}.",
        )
    if card.wild:
        why = "a wild can be played on any card"
    elif card.color is state.color:
        why = f"it matches the active colour, {state.color.title}"
    else:
        why = f"it matches the {'number' if card.number is not None else 'symbol'} on top"
    return Ruling(True, "match", f"Yes: {card.name} can be played: {why}.")
