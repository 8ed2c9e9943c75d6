"""A record as it was stored, its names repaired, and its lines as another table calls
its players.

All serve a match kept away from this engine's replay: a record written from the parts
an earlier version stored (which this one may refuse: nothing is lost), the same record
with the names this version's rules refuse made ones they take (`repaired_record`), and
a line played at a table whose seats are called otherwise (a record sent again to a
server whose group renamed a player: the same play, at the same seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from .errors import NotationError
from .names import repaired_names, same_player, tidy_name
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
    find_player,
    parse_action,
    parse_line,
    strip_comment,
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


@dataclass(frozen=True)
class RepairedRecord:
    """A stored match's header and log with its names repaired (`repaired_record`)."""

    players: tuple[str, ...]
    dealer: str
    lines: tuple[str, ...]
    # Each name changed, as stored and as repaired, in seat order.
    changed: tuple[tuple[str, str], ...]


def repaired_record(
    players: str,
    dealer: str,
    lines: Sequence[str],
    alike: Callable[[str, str], bool] = same_player,
) -> RepairedRecord | None:
    """A stored match's players (its header's text), dealer and log lines with each name
    this version's rules refuse repaired (`repaired_names`), in every line that names it
    (its comment kept); every other line as it was. None when no name needs it, or when
    two seats were stored with one name (no line tells them apart); a NotationError (an
    EngineError) when a line can't be read even so (a play this version no longer
    reads: then only its record, as stored, keeps it). Whether the repaired record
    replays is its reader's to judge."""
    stored = tuple(tidy_name(part) for part in players.split(","))
    names = repaired_names(stored, alike)
    if names == stored or len(set(stored)) < len(stored):
        return None
    now = dict(zip(stored, names, strict=True))  # each name as called now: its repair
    seated = list(stored)  # the names as the stored lines call them
    written: list[str] = []
    for text in lines:
        line = _stored_line(text, seated)
        repaired = renamed(line, now) if line is not None else None
        if isinstance(line, RenameLine):  # from here on the seat is called otherwise
            seated[seated.index(line.old)] = line.new
            del now[line.old]
            now[line.new] = line.new  # a rename line's new name passed this version's rules
        comment = text[len(text.partition("#")[0].rstrip()) :] if "#" in text else ""
        written.append(text if repaired == line else f"{repaired}{comment}")
    try:
        dealt = dict(zip(stored, names, strict=True))[find_player(tidy_name(dealer), stored)]
    except NotationError:  # no player's name: left for the replay to refuse
        dealt = dealer
    return RepairedRecord(
        players=names,
        dealer=dealt,
        lines=tuple(written),
        changed=tuple((a, b) for a, b in zip(stored, names, strict=True) if a != b),
    )


def _stored_line(text: str, seated: Sequence[str]) -> Line | None:
    """A stored line read with the names it was written with: an action's player by its
    text as written (a player once named after a header word, "Players: R4", is that
    player), else as any line."""
    who, sep, rest = strip_comment(text).partition(":")
    player = tidy_name(who)
    if sep and player in seated:
        try:
            return ActionLine(player, parse_action(rest.strip(), seated))
        except NotationError:  # "hand: 3" at a table with a player called "hand"
            pass
    line = parse_line(text, seated)
    if isinstance(line, PlayersLine):  # a second header: none of this version's records
        raise NotationError(f"'{text}' seats the players again")
    return line
