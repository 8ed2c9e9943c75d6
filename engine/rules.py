"""House rules as data: the official defaults and every option RULINGS.md allows."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Final, Literal

from engine.errors import NotationError

StackRule = Literal["last", "sum"]
DrawRule = Literal["until", "one"]
ScoringRule = Literal["high", "low"]

MERCY_RANGE: Final = range(8, 101)
TARGET_RANGE: Final = range(1, 100_001)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules a table plays by. The defaults are the official sheet's."""

    stack: StackRule = "last"
    draw: DrawRule = "until"
    mercy: int | None = 25
    final_draw: bool = False
    seven: bool = True
    zero: bool = True
    target: int = 1000
    scoring: ScoringRule = "high"

    @property
    def is_official(self) -> bool:
        return self == OFFICIAL

    @property
    def lowest_wins(self) -> bool:
        """Is the match won by the lowest total (scoring=low) rather than the highest?"""
        return self.scoring == "low"

    @classmethod
    def parse(cls, text: str) -> HouseRules:
        """Parse the value of a `rules:` header, e.g. `stack=sum, mercy=30`."""
        values: dict[str, object] = {}
        for item in re.split(r"[,\s]+", text.strip()):
            if not item or item.lower() == "official":
                continue
            key, sep, raw = item.partition("=")
            key, raw = key.strip().lower(), raw.strip().lower()
            if not sep or not raw:
                raise NotationError(
                    f"House rule '{item}' needs a value: write it as option=value, "
                    f"for example stack=sum. Options: {', '.join(OPTIONS)}."
                )
            if key not in OPTIONS:
                raise NotationError(
                    f"There is no house rule '{key}'. Options: {', '.join(OPTIONS)}."
                )
            if key in values:
                raise NotationError(f"House rule '{key}' is given twice.")
            values[key] = _parse_value(key, raw)
        return cls(**values)  # type: ignore[arg-type]

    def __str__(self) -> str:
        """The options that differ from the official rules, as a `rules:` value."""
        parts = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value != field.default:
                parts.append(f"{field.name}={_print_value(field.name, value)}")
        return ", ".join(parts) or "official"

    def changes(self) -> list[str]:
        """The options that differ from the official rules, each explained."""
        return [
            OPTIONS[f.name].describe(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        ]

    def describe(self) -> list[str]:
        """One line per option, in plain words, for the rules page and the UI."""
        return [OPTIONS[f.name].describe(getattr(self, f.name)) for f in dataclasses.fields(self)]


@dataclass(frozen=True)
class Option:
    name: str
    choices: str  # as NOTATION.md writes them: defaults first
    explanation: str

    def describe(self, value: object) -> str:
        return f"{self.name}={_print_value(self.name, value)}: {self.explanation}"


OPTIONS: Final = {
    o.name: o
    for o in (
        Option(
            "stack",
            "last|sum",
            "last (official): a stacked Draw card must be at least the last one played; "
            "sum: it must reach the whole pending total.",
        ),
        Option(
            "draw",
            "until|one",
            "until (official): with nothing to play you draw until you can play, and play "
            "that card; one: you draw one card, play it if you can, else your turn ends.",
        ),
        Option(
            "mercy",
            "25|N|off",
            "the Mercy limit: a player who holds this many cards is out of the hand "
            "(official 25, any number from 8 to 100, or off).",
        ),
        Option(
            "final_draw",
            "off|on",
            "off (official): a Draw card played as the last card has no effect; on: the "
            "next player draws the pending penalty before the hand is scored.",
        ),
        Option(
            "seven",
            "on|off",
            "on (official): a 7 swaps hands with a player of your choice; off: a 7 is a "
            "plain number.",
        ),
        Option(
            "zero",
            "on|off",
            "on (official): a 0 passes every hand to the next player; off: a 0 is a plain number.",
        ),
        Option(
            "target",
            "1000|N",
            "the score that ends the match (official 1000).",
        ),
        Option(
            "scoring",
            "high|low",
            "high (official): the hand's winner scores everyone's cards and 250 per "
            "knockout, first to the target wins; low: each player scores their own cards "
            "(250 if knocked out) and when anyone reaches the target the lowest total wins.",
        ),
    )
}


def _parse_value(key: str, raw: str) -> object:
    def refuse(allowed: str) -> NotationError:
        return NotationError(f"House rule {key}={raw} is not allowed: {key} can be {allowed}.")

    if key in ("stack", "draw", "scoring"):
        words = OPTIONS[key].choices.split("|")
        if raw not in words:
            raise refuse(" or ".join(words))
        return raw
    if key in ("final_draw", "seven", "zero"):
        if raw not in ("on", "off"):
            raise refuse("on or off")
        return raw == "on"
    if key == "mercy" and raw == "off":
        return None
    limits = MERCY_RANGE if key == "mercy" else TARGET_RANGE
    if not raw.isdigit() or int(raw) not in limits:
        off = " or off" if key == "mercy" else ""
        raise refuse(f"a number from {limits.start} to {limits.stop - 1}{off}")
    return int(raw)


def _print_value(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "off"
    return str(value)


OFFICIAL: Final = HouseRules()
