"""No Mercy rules engine: the referee for UNO Show 'Em No Mercy, standard library only.

>>> from engine import Game
>>> game = Game(["Ann", "Bob", "Cy"])
>>> _ = game.apply("start: R5")
>>> _ = game.apply("Ann: R+2")
>>> game.turn, game.state.stack_total
('Bob', 2)
"""

from .core.cards import ALL_CARDS, DECK_SIZE, Card, Color, Face, full_deck
from .core.errors import (
    CardCountError,
    EngineError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RevealMismatch,
)
from .core.explain import describe, how_scored, say, score_breakdown, summary, whose_turn
from .core.game import Game, Replay, Step, replay
from .core.legal import Legal
from .core.names import (
    MAX_NAME_LENGTH,
    SHORT_NAME_LENGTH,
    TYPED_NAME_LENGTH,
    clean_name,
    name_key,
    name_problems,
    same_player,
    short_names,
    tidy_name,
)
from .core.notation import (
    Action,
    ActionLine,
    CallUno,
    Catch,
    Correct,
    DealerLine,
    Draw,
    HandLine,
    Line,
    Out,
    Play,
    PlayersLine,
    RenameLine,
    Reveal,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    Wins,
    parse_action,
    parse_line,
)
from .core.rules import OFFICIAL, OPTIONS, HouseRules
from .core.state import CATCH_PENALTY, KNOCKOUT_POINTS, Event, HandResult, State

__all__ = [
    "ALL_CARDS",
    "CATCH_PENALTY",
    "DECK_SIZE",
    "KNOCKOUT_POINTS",
    "MAX_NAME_LENGTH",
    "OFFICIAL",
    "OPTIONS",
    "SHORT_NAME_LENGTH",
    "TYPED_NAME_LENGTH",
    "Action",
    "ActionLine",
    "CallUno",
    "Card",
    "CardCountError",
    "Catch",
    "Color",
    "Correct",
    "DealerLine",
    "Draw",
    "EngineError",
    "Event",
    "Face",
    "Game",
    "HandLine",
    "HandResult",
    "HouseRules",
    "IllegalActionError",
    "Legal",
    "Line",
    "NotationError",
    "Out",
    "OutOfTurnError",
    "Play",
    "PlayersLine",
    "RecordError",
    "RenameLine",
    "Replay",
    "Reveal",
    "RevealMismatch",
    "Roulette",
    "RulesLine",
    "StartLine",
    "State",
    "Step",
    "Take",
    "Wins",
    "clean_name",
    "describe",
    "full_deck",
    "how_scored",
    "name_key",
    "name_problems",
    "parse_action",
    "parse_line",
    "replay",
    "same_player",
    "say",
    "score_breakdown",
    "short_names",
    "summary",
    "tidy_name",
    "whose_turn",
]
