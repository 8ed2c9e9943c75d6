"""The screens' form fields, mapped to record lines and to house rules, each way once.

The table screen posts a line as fields (who, the key's action, the cards drawn first,
a count); the new-match form and the lab post house rules as fields (a choice, a box,
a number per option of `OPTIONS`). The app renders its keys and forms from here and
reads what they post back through here, and the test driver and the load benchmark
post exactly what `line_fields` and `rule_fields` say: so the record's syntax is
written in the engine only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from .cards import Card, Color, Face
from .i18n import _
from .notation import (
    ActionLine,
    CallUno,
    Catch,
    Correct,
    Draw,
    HandLine,
    Line,
    Out,
    Play,
    Reveal,
    Roulette,
    StartLine,
    Take,
    Wins,
)
from .rules import OFFICIAL, OPTIONS, HouseRules

# ---------------------------------------------------------------- a line's fields

ACTION_FIELD: Final = "action"  # the key's action, or a header line
PLAYER_FIELD: Final = "player"  # who acts (empty for a header line)
DRAWN_FIELD: Final = "drawn"  # cards drawn before the card played
COUNT_FIELD: Final = "count"  # a roulette's, a Discard All's or a corrected count
CARDS_FIELD: Final = "cards"  # a loser's cards, as codes
POINTS_FIELD: Final = "points"  # or their points
# A line with these is posted by a reveal form (end of a hand), not the table's keys.
REVEAL_FIELDS: Final = frozenset({CARDS_FIELD, POINTS_FIELD})

Fields = Mapping[str, object]  # what a form posts, as text, or as its fields read it


@dataclass(frozen=True, slots=True)
class KeyActions:
    """The action each key posts in ACTION_FIELD: fixed ones as values, the others from
    their card, colour or player (a count or the cards drawn come in fields of their own)."""

    field: str = ACTION_FIELD
    take: str = str(Take())
    draw: str = "draw"  # with DRAWN_FIELD: drew that many and played none
    uno: str = str(CallUno())
    out: str = str(Out())
    wins: str = str(Wins())
    has: str = "has"  # with COUNT_FIELD: the count corrected

    def play(self, card: Card, color: Color | None = None, swap: str | None = None) -> str:
        """A card played, naming a colour (a wild) or a swap partner (a 7)."""
        return str(Play(card, color, swap))

    def discard_all(self, card: Card) -> str:
        """A Discard All; COUNT_FIELD says how many more cards of its colour go with it."""
        return f"{card} discard"

    def catch(self, player: str) -> str:
        return str(Catch(player))

    def roulette(self, color: Color) -> str:
        """The colour a roulette's victim named; COUNT_FIELD says how many turned up."""
        return f"roulette {color}"

    def start(self, card: Card) -> str:
        return str(StartLine(card))

    def next_hand(self, number: int) -> str:
        return str(HandLine(number))


KEY_ACTIONS: Final = KeyActions()


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _number(value: object) -> int | None:
    """A number field: None when left empty. The forms check the numbers first."""
    if value is None or value == "":
        return None
    return int(str(value))


def line_text(fields: Fields) -> str | None:
    """The line a table screen's form posts: a key's (ACTION_FIELD with PLAYER_FIELD,
    DRAWN_FIELD, COUNT_FIELD) or a reveal's (CARDS_FIELD or POINTS_FIELD); None for a
    reveal with neither. The inverse of `line_fields`."""
    player = _text(fields.get(PLAYER_FIELD))
    if fields.get(ACTION_FIELD) is None:
        points = _number(fields.get(POINTS_FIELD))
        if points is not None:
            return str(ActionLine(player, Reveal(points=points)))
        cards = _text(fields.get(CARDS_FIELD)).replace(",", " ").split()
        return f"{player}: reveals {' '.join(cards)}" if cards else None
    action = " ".join(_text(fields[ACTION_FIELD]).split())
    count = _number(fields.get(COUNT_FIELD))
    if count is not None:
        action += f" {count}"  # roulette C N, RDA discard N, has N
    if not player:
        return action  # a header: start: R5, hand: 2
    drawn = _number(fields.get(DRAWN_FIELD))
    if action == KEY_ACTIONS.draw:  # the "Drew, no play" button: the count is the stepper's
        action = str(Draw(drawn or 0))
    elif drawn:
        action = f"{Draw(drawn)}, {action}"
    return f"{player}: {action}"


class NotOnTheScreen(ValueError):
    """A line no table screen posts (the new-match form sets it)."""


def line_fields(line: Line) -> dict[str, str]:
    """What the table screen posts to record `line`, besides its hidden fields: a reveal
    form's fields (REVEAL_FIELDS) or a key's. The inverse of `line_text`."""
    if isinstance(line, StartLine | HandLine):
        return {ACTION_FIELD: str(line)}
    if not isinstance(line, ActionLine):
        raise NotOnTheScreen(f"'{line}' is set by the new-match form, not the table screen")
    player, action = line.player, line.action
    if isinstance(action, Reveal):
        if action.points is not None:
            return {PLAYER_FIELD: player, CARDS_FIELD: "", POINTS_FIELD: str(action.points)}
        codes = " ".join(map(str, action.cards or ()))
        return {PLAYER_FIELD: player, CARDS_FIELD: codes, POINTS_FIELD: ""}
    fields = {PLAYER_FIELD: player}
    if isinstance(action, Draw):
        fields[DRAWN_FIELD] = str(action.count)  # the "Drew first" stepper, then...
        if action.play is None:  # ... the "Drew, no play" button
            return fields | {ACTION_FIELD: KEY_ACTIONS.draw}
        action = action.play  # ... or the card
    if isinstance(action, Play):  # the card keyboard, or a card's follow-up panel
        fields.setdefault(DRAWN_FIELD, "0")
        if action.card.face is Face.DISCARD_ALL:  # its panel: the count, 0 or more
            return fields | {
                ACTION_FIELD: KEY_ACTIONS.discard_all(action.card),
                COUNT_FIELD: str(action.discard),
            }
    if isinstance(action, Roulette):  # the colour chosen, then the count
        return fields | {
            ACTION_FIELD: KEY_ACTIONS.roulette(action.color),
            COUNT_FIELD: str(action.count),
        }
    if isinstance(action, Correct):  # a player's count: the number alone
        return fields | {ACTION_FIELD: KEY_ACTIONS.has, COUNT_FIELD: str(action.count)}
    assert isinstance(action, Play | Take | CallUno | Catch | Wins | Out)
    return fields | {ACTION_FIELD: str(action)}


# ---------------------------------------------------------------- house rules' fields

MERCY_SWITCH: Final = "mercy_on"  # the Mercy rule's box; the limit is the "mercy" field
TICKED: Final = "y"  # what a ticked box posts
RuleKind = Literal["choice", "switch", "number"]


def rule_kind(option: str) -> RuleKind:
    """How the form asks an option of `OPTIONS`: one of its values (a radio), on or off
    (a box), or a number ("mercy" is a number with a box of its own, MERCY_SWITCH)."""
    values = set(OPTIONS[option].choices.split("|"))
    if "N" in values:
        return "number"
    return "switch" if values == {"on", "off"} else "choice"


def rule_values(option: str) -> tuple[str, ...]:
    """The values a choice of `OPTIONS` offers, the official one first."""
    return tuple(OPTIONS[option].choices.split("|"))


def rule_fields(rules: HouseRules, prefix: str = "") -> dict[str, str | None]:
    """The house-rule fields for `rules` as a browser posts them: None for a box left
    unticked (a browser then posts nothing for it); each name after `prefix` (the lab's
    rule sets: "a-", "b-"). The inverse of `rules_from_fields`."""
    fields: dict[str, str | None] = {}
    for option in OPTIONS:
        value = getattr(rules, option)
        if option == "mercy":
            fields[MERCY_SWITCH] = TICKED if value is not None else None
            fields[option] = str(OFFICIAL.mercy if value is None else value)
        elif rule_kind(option) == "switch":
            fields[option] = TICKED if value else None
        else:
            fields[option] = str(value)
    return {prefix + name: value for name, value in fields.items()}


def _ticked(value: object) -> bool:
    return value not in (None, False, "", "false")


def mercy_problem(fields: Fields, prefix: str = "") -> str | None:
    """Why the house-rule fields give no Mercy rule: switched on without a limit."""
    on, limit = fields.get(prefix + MERCY_SWITCH), fields.get(prefix + "mercy")
    if _ticked(on) and _number(limit) is None:
        return _("Give the Mercy limit, or switch the Mercy rule off.")
    return None


def rules_from_fields(fields: Fields, prefix: str = "") -> HouseRules:
    """The house rules the fields give (as posted, or as a form's fields read them), each
    name after `prefix`: an option left out is the official one. Raises NotationError for
    a value no option allows, ValueError for a Mercy rule switched on without a limit."""
    problem = mercy_problem(fields, prefix)
    if problem is not None:
        raise ValueError(problem)
    values: dict[str, object] = {}
    for option in OPTIONS:
        value = fields.get(prefix + option)
        kind = rule_kind(option)
        if option == "mercy" and not _ticked(fields.get(prefix + MERCY_SWITCH)):
            values[option] = None
        elif kind == "switch":
            values[option] = _ticked(value)
        elif kind == "number":
            number = _number(value)
            values[option] = getattr(OFFICIAL, option) if number is None else number
        elif value is not None and value != "":
            values[option] = value
    # Through the notation's own checks: a value no option allows is refused there.
    rules = dataclasses.replace(OFFICIAL, **values)  # type: ignore[arg-type]
    return HouseRules.parse(str(rules))
