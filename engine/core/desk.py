"""The referee desk: a ruling on one card in a made-up position, without a match, or
in a match's position as its table stands (`table_position`).

"The top card is a Wild Draw 6 with green named, +10 is pending: may I play a
Red Draw 4?" `rule_on` answers with the same checks the referee applies.

The made-up players are named in the current language ("The player"): a desk
position is built for one ruling, said at once, and never kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Color
from .errors import IllegalActionError
from .i18n import N_, _
from .legal import card_refusal, needed_to_stack
from .rules import OFFICIAL, HouseRules
from .state import Draft, State

PLAYER = N_("The player")
# The made-up table: the player asking, then two others.
SEATS = (PLAYER, N_("Next player"), N_("Other player"))


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
            _("{card} is a wild: say which colour was named for it.", card=top.name),
            "wild-color",
        )
    if stack:
        if not top.draw:
            raise IllegalActionError(
                _(
                    "A penalty is pending only when a Draw card is on top, not {card}.",
                    card=top.name,
                ),
                "stack",
            )
        if stack < top.draw:
            raise IllegalActionError(
                _(
                    "A stack with {card} on top is at least +{least}, not +{stack}.",
                    card=top.name,
                    least=top.draw,
                    stack=stack,
                ),
                "stack",
            )
    s = Draft.new(tuple(_(seat) for seat in SEATS), rules)
    s.started = True
    s.top = top
    s.color = top.color if color is None or not top.wild else color
    s.draw_pile -= 1
    s.discard_pile = 1
    s.discard_known = {top: 1}
    if stack:
        s.stack_total, s.stack_last, s.facing = stack, top.draw, "stack"
    return s.seal()


def table_position(table: State) -> State | None:
    """The desk's position as a match's table stands: its top card, active colour,
    pending stack and house rules; None while the table has no card to rule on (before
    its start card, between hands, or while a Colour Roulette turns cards up)."""
    if table.status != "playing" or table.facing == "roulette":
        return None
    if not table.started or table.top is None or table.color is None:
        return None
    stack = table.stack_total if table.facing == "stack" else 0
    return position(table.top, table.color, stack, table.rules)


def rule_on(card: Card, state: State) -> Ruling:
    """May the player whose turn it is play `card` in `state`, and why."""
    refusal = card_refusal(state, state.turn, card)
    if refusal is not None:
        return Ruling(False, refusal.rule, refusal.message)
    assert state.top is not None and state.color is not None
    fields: dict[str, object] = {"card": card.name, "color": state.color.title}
    if state.facing == "stack":
        fields |= {
            "draw": card.draw,
            "needed": needed_to_stack(state),
            "total": state.stack_total + card.draw,
        }
        if state.rules.stack == "sum":
            template = N_(
                "Yes: {card} (+{draw}) is at least the pending total (+{needed}), so it "
                "stacks: the next player faces +{total}."
            )
        else:
            template = N_(
                "Yes: {card} (+{draw}) is at least the last Draw card (+{needed}), so it "
                "stacks: the next player faces +{total}."
            )
        return Ruling(True, "stack", _(template, **fields))
    if card.wild:
        template = N_("Yes: {card} can be played: a wild can be played on any card.")
    elif card.color is state.color:
        template = N_("Yes: {card} can be played: it matches the active colour, {color}.")
    elif card.number is not None:
        template = N_("Yes: {card} can be played: it matches the number on top.")
    else:
        template = N_("Yes: {card} can be played: it matches the symbol on top.")
    return Ruling(True, "match", _(template, **fields))
