"""The engine's refusals: a small family of ValueError subclasses.

Every refusal carries the id of the rule it applies (RULINGS.md, NOTATION.md)
and a message a player understands: what was tried, why not, what instead, worded
in the language of the context that raised it (engine.i18n).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .i18n import _

if TYPE_CHECKING:  # the notation imports these errors
    from .notation import ActionLine

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


class RevealMismatch(CardCountError):
    """A reveal of more or fewer cards than the app counted: `correction` is the line
    that would set the count to what was revealed (the screen offers it in one tap)."""

    def __init__(self, message: str, correction: ActionLine) -> None:
        super().__init__(message)
        self.correction = correction


class RecordError(EngineError):
    """A record line refused while replaying: wraps the error with its line number."""

    def __init__(self, line: int, error: EngineError) -> None:
        super().__init__(_("line {line}: {message}", line=line, message=error.message), error.rule)
        self.line = line
        self.error = error
