"""The engine's refusals: a small family of ValueError subclasses.

Every refusal carries the id of the rule it applies (RULINGS.md, NOTATION.md)
and a message a player understands: what was tried, why not, what instead, worded
in the language of the context that raised it (engine.i18n).
"""

from __future__ import annotations

from typing import Final

from engine.i18n import _

RULE_IDS: Final = (
    "syntax",
    "setup",
    "turn",
    "match",
    "stack",
    "wild-color",
    "swap",
    "discard-all",
    "roulette",
    "draw",
    "mercy",
    "uno",
    "scoring",
    "hand-over",
    "cards",
)


class EngineError(ValueError):
    """Anything the engine refuses. `rule` is one of RULE_IDS."""

    rule: str = "syntax"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            if rule not in RULE_IDS:
                raise ValueError(f"unknown rule id {rule!r}")
            self.rule = rule

    @property
    def message(self) -> str:
        return str(self.args[0])


class NotationError(EngineError):
    """A line that cannot be read: an unknown card, player or word, a bad number."""

    rule = "syntax"


class IllegalActionError(EngineError):
    """A well-formed line that breaks a rule of the game."""

    rule = "match"


class OutOfTurnError(IllegalActionError):
    """Somebody acted who may not act now."""

    rule = "turn"


class CardCountError(IllegalActionError):
    """More cards than the deck or a hand holds."""

    rule = "cards"


class RecordError(EngineError):
    """A record line refused while replaying: wraps the error with its line number."""

    def __init__(self, line: int, error: EngineError) -> None:
        super().__init__(_("line {line}: {message}", line=line, message=error.message), error.rule)
        self.line = line
        self.error = error
