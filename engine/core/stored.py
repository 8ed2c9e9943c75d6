"""A record as it was stored, and its lines as another table calls its players.

Both serve a match kept away from this engine's replay: a record written from the
parts an earlier version stored (which this one may refuse: nothing is lost), and a
line played at a table whose seats are called otherwise (a record sent again to a
server whose group renamed a player: the same play, at the same seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .notation import (
    Action,
    ActionLine,
    Catch,
    DealerLine,
    Draw,
    Line,
    Play,
    PlayersLine,
    RecordLine,
    RenameLine,
)
from .rules import HouseRules


def renamed(line: Line, names: Mapping[str, str]) -> Line:
    """The line naming each player as `names` calls them (any other as it does): the
    same line for a table whose seats are called otherwise. A rename line's new name is
    its own."""

    def name(player: str) -> str:
        return names.get(player, player)

    def action(done: Action) -> Action:
        if isinstance(done, Play) and done.swap is not None:
            return replace(done, swap=name(done.swap))
        if isinstance(done, Draw) and done.play is not None and done.play.swap is not None:
            return replace(done, play=replace(done.play, swap=name(done.play.swap)))
        if isinstance(done, Catch):
            return Catch(name(done.target))
        return done

    if isinstance(line, ActionLine):
        return ActionLine(name(line.player), action(line.action))
    if isinstance(line, RenameLine):
        return RenameLine(name(line.old), line.new)
    if isinstance(line, DealerLine):
        return DealerLine(name(line.name))
    if isinstance(line, PlayersLine):
        return PlayersLine(tuple(name(player) for player in line.names))
    return line


def written_record(
    players: str, dealer: str, rules: str, lines: Sequence[str], key: str | None = None
) -> str:
    """A record written from its parts as they are stored, whether or not this version
    replays them (a match stored by an earlier one): its key, if given, its players,
    its dealer, its house rules (no line for the official ones), then its lines."""
    head = [str(RecordLine(key))] if key else []
    head += [f"players: {players}", f"dealer: {dealer}"]
    if rules.strip() not in ("", str(HouseRules())):
        head.append(f"rules: {rules}")
    return "".join(f"{line}\n" for line in [*head, *lines])
