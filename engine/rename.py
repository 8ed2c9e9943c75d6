"""Renaming a player in a record: every line that names them, printed again.

A player's name is in the `players:` and `dealer:` headers, before the colon of each of
their actions, after `swap` (a 7's partner, also in `draw N, R7 swap Ann`) and after
`catch`. Each line is parsed with the seating, so a name is found the way the engine
finds it (engine.names: "ann" and "Ann" are one player), and printed in canonical form.
Whether the new name is allowed beside the others is the caller's question
(engine.names.name_problems); this only rewrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.names import clean_name, same_player
from engine.notation import (
    ActionLine,
    Catch,
    DealerLine,
    Draw,
    Line,
    Play,
    PlayersLine,
    parse_line,
)


def renamed_seating(players: Sequence[str], old: str, new: str) -> list[str]:
    """The seating with `old` called `new` (a NotationError if `new` is no name)."""
    new = clean_name(new)
    return [new if same_player(name, old) else name for name in players]


def _play(play: Play, old: str, new: str) -> Play:
    if play.swap is not None and same_player(play.swap, old):
        return replace(play, swap=new)
    return play


def renamed_line(line: Line, old: str, new: str) -> Line:
    """The line with the player `old` called `new` wherever it names them."""
    if isinstance(line, PlayersLine):
        return PlayersLine(tuple(new if same_player(n, old) else n for n in line.names))
    if isinstance(line, DealerLine):
        return DealerLine(new) if same_player(line.name, old) else line
    if not isinstance(line, ActionLine):
        return line
    action = line.action
    if isinstance(action, Play):
        action = _play(action, old, new)
    elif isinstance(action, Draw) and action.play is not None:
        action = replace(action, play=_play(action.play, old, new))
    elif isinstance(action, Catch) and same_player(action.target, old):
        action = Catch(new)
    player = new if same_player(line.player, old) else line.player
    return ActionLine(player, action)


def rename_in_log(players: Sequence[str], lines: Sequence[str], old: str, new: str) -> list[str]:
    """A match's log lines (after its header) with `old` called `new`, in canonical form.
    `players` is the seating the lines were written for. Raises the engine's
    NotationError for a line it can't read (a log the app stored always reads)."""
    new = clean_name(new)
    out = []
    for text in lines:
        line = parse_line(text, players)
        out.append(text if line is None else str(renamed_line(line, old, new)))
    return out
