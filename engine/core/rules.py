"""House rules as data: the official defaults and every option RULINGS.md allows."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Final, Literal

from .errors import NotationError
from .i18n import N_, _

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
                    _(
                        "House rule '{item}' needs a value: write it as option=value, "
                        "for example stack=sum. Options: {options}.",
                        item=item,
                        options=", ".join(OPTIONS),
                    )
                )
            if key not in OPTIONS:
                raise NotationError(
                    _(
                        "There is no house rule '{key}'. Options: {options}.",
                        key=key,
                        options=", ".join(OPTIONS),
                    )
                )
            if key in values:
                raise NotationError(_("House rule '{key}' is given twice.", key=key))
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
    template: str  # the explanation in English, marked for the catalogs

    @property
    def explanation(self) -> str:
        """What the option does, in the current language."""
        return _(self.template)

    def describe(self, value: object) -> str:
        """The option as a `rules:` value (notation, never translated) and what it does."""
        return f"{self.name}={_print_value(self.name, value)}: {self.explanation}"


OPTIONS: Final = {
    o.name: o
    for o in (
        Option(
            "stack",
            "last|sum",
            N_(
                "last (official): a stacked Draw card must be at least the last one played; "
                "sum: it must reach the whole pending total."
            ),
        ),
        Option(
            "draw",
            "until|one",
            N_(
                "until (official): with nothing to play you draw until you can play, and play "
                "that card; one: you draw one card, play it if you can, else your turn ends."
            ),
        ),
        Option(
            "mercy",
            "25|N|off",
            N_(
                "the Mercy limit: a player who holds this many cards is out of the hand "
                "(official 25, any number from 8 to 100, or off)."
            ),
        ),
        Option(
            "final_draw",
            "off|on",
            N_(
                "off (official): a Draw card played as the last card has no effect; on: the "
                "next player draws the pending penalty before the hand is scored."
            ),
        ),
        Option(
            "seven",
            "on|off",
            N_(
                "on (official): a 7 swaps hands with a player of your choice; off: a 7 is a "
                "plain number."
            ),
        ),
        Option(
            "zero",
            "on|off",
            N_(
                "on (official): a 0 passes every hand to the next player; off: a 0 is a plain "
                "number."
            ),
        ),
        Option(
            "target",
            "1000|N",
            N_("the score that ends the match (official 1000)."),
        ),
        Option(
            "scoring",
            "high|low",
            N_(
                "high (official): the hand's winner scores everyone's cards and 250 per "
                "knockout, first to the target wins; low: each player scores their own cards "
                "(250 if knocked out) and when anyone reaches the target the lowest total wins."
            ),
        ),
    )
}


def _parse_value(key: str, raw: str) -> object:
    def refuse(first: str, second: str) -> NotationError:
        return NotationError(
            _(
                "House rule {key}={raw} is not allowed: {key} can be {first} or {second}.",
                key=key,
                raw=raw,
                first=first,
                second=second,
            )
        )

    if key in ("stack", "draw", "scoring"):
        first, second = OPTIONS[key].choices.split("|")
        if raw not in (first, second):
            raise refuse(first, second)
        return raw
    if key in ("final_draw", "seven", "zero"):
        if raw not in ("on", "off"):
            raise refuse("on", "off")
        return raw == "on"
    if key == "mercy" and raw == "off":
        return None
    limits = MERCY_RANGE if key == "mercy" else TARGET_RANGE
    if not raw.isdigit() or int(raw) not in limits:
        low, high = limits.start, limits.stop - 1
        if key == "mercy":
            template = N_(
                "House rule {key}={raw} is not allowed: {key} can be a number from {low} to "
                "{high} or off."
            )
        else:
            template = N_(
                "House rule {key}={raw} is not allowed: {key} can be a number from {low} to {high}."
            )
        raise NotationError(_(template, key=key, raw=raw, low=low, high=high))
    return int(raw)


def _print_value(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "off"
    return str(value)


OFFICIAL: Final = HouseRules()
