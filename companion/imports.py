"""A table record read for import: the match's header and log, or why not.

The engine replays the record; the app adds its own rule (names that look alike) and
its limit on a match's lines, counted before the engine replays anything (replaying
takes time and memory for each line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import format_number
from flask_babel import gettext as _

from companion.lookalikes import LookAlikeNames, check_look_alikes
from engine import (
    N_,
    ActionLine,
    DealerLine,
    EngineError,
    Game,
    HouseRules,
    Line,
    Out,
    RecordError,
    RecordLine,
    RenameLine,
    RulesLine,
    StartLine,
    Wins,
    name_key,
    renamed,
    replay,
    strip_comment,
)

# A record's lines that are not the match's log: its key, players, dealer and rules.
HEADER_LINES = 4


# A record whose key names a match imported before, when the two went on differently
# since (or the record seats other players): neither can take the other's lines.
RECORD_DIFFERS = N_(
    "A match was imported from this record before, and since then that match and this "
    "record went on with different lines: nothing was imported. Open that match to go on "
    "from there, or remove this record's first line (record: ...) to import it as a new "
    "match."
)


# A record sent again while its match is played on, on the server, at that very moment.
MATCH_BUSY = N_(
    "The match this record made is being played on the server right now: nothing was "
    "added. Send it again in a moment."
)


class ImportRefused(ValueError):
    """A record that can't become a match: names the line and the rule, or says it is
    longer than a match may be."""

    def __init__(self, error: RecordError | str) -> None:
        if isinstance(error, RecordError):
            error = _(
                "Line %(line)s [%(rule)s]: %(reason)s",
                line=error.line,
                rule=error.rule,
                reason=error.error.message,
            )
        super().__init__(error)


def key_of(text: str) -> str | None:
    """The record's key (`record:`, its first line), if it has a well-formed one."""
    for raw in text.removeprefix("\ufeff").splitlines():
        if strip_comment(raw):
            try:
                line = RecordLine.parse(raw)
            except EngineError:
                return None  # said when the record is read
            return None if line is None else line.key
    return None


def too_long(lines: int, max_lines: int) -> ImportRefused:
    return ImportRefused(
        _(
            "This record has %(lines)s lines; a match holds at most %(most)s (besides its "
            "players, dealer and rules lines): import a shorter record, or ask whoever runs "
            "this server to raise the limit (%(setting)s).",
            lines=format_number(lines),
            most=format_number(max_lines),
            setting="COMPANION_MAX_MATCH_LINES",
        )
    )


@dataclass(frozen=True)
class Imported:
    """A record as a match: its game, its header (dealer and rules) and its log."""

    game: Game
    dealer: str
    rules: HouseRules
    lines: list[str]
    results_only: bool  # quick-score lines and no start card: keep entering results
    numbers: tuple[int, ...]  # each of `lines`' number in the record's text

    def refused(self, index: int, error: EngineError) -> ImportRefused:
        """`lines[index]` refused by the engine, named by its number in the record."""
        return ImportRefused(RecordError(self.numbers[index], error))


def read_record(text: str, max_lines: int) -> Imported:
    """The record as a match, or ImportRefused naming the first line refused (by the
    engine or the app), or saying it has more than `max_lines` lines."""
    lines_in_record = sum(1 for raw in text.splitlines() if strip_comment(raw))
    if lines_in_record > max_lines + HEADER_LINES:
        raise too_long(lines_in_record, max_lines)
    result = replay(text)
    if result.error is not None:
        raise ImportRefused(result.error)
    game = result.game
    assert game is not None
    try:  # the app's rule on top of the engine's: names that look alike
        check_look_alikes(game.seating)
        check_look_alikes(game.players)
    except LookAlikeNames as error:
        raise ImportRefused(RecordError(_seating_line(text), error)) from None
    lines = list(game.lines)
    lines.pop(0)  # the players: the match's own column
    dealer, rules = game.seating[-1], HouseRules()
    # Leading dealer/rules lines become the match's header; the rest is the log.
    while lines and isinstance(lines[0], DealerLine | RulesLine):
        head = lines.pop(0)
        if isinstance(head, DealerLine):
            dealer = head.name
        else:
            assert isinstance(head, RulesLine)
            rules = head.rules
    results_only = not any(isinstance(line, StartLine) for line in lines) and any(
        isinstance(line, ActionLine) and isinstance(line.action, Wins | Out) for line in lines
    )
    if len(lines) > max_lines:
        raise too_long(lines_in_record, max_lines)
    # The log is the record's last lines: each counted as the text numbers it.
    written = [n for n, raw in enumerate(text.splitlines(), start=1) if strip_comment(raw)]
    numbers = tuple(written[len(written) - len(lines) :])
    return Imported(game, dealer, rules, [str(line) for line in lines], results_only, numbers)


# Each line of a match's log, with its players as called before it.
Played = Sequence[tuple[Line, Sequence[str]]]


def lines_to_add(
    logged: Played, sent: Played, called: Sequence[str], received: int | None = None
) -> list[tuple[int, Line]] | None:
    """What a record sent again holds that the match it made lacks (its `logged` lines):
    the lines played in the phone after it was last received, each with its place in
    `sent` and naming the players as the match calls them at its end (`called`), but a
    rename to a name the match uses already ([] when none: the match may have
    moved on since); None when the two went on with different lines, or when the match
    no longer holds all of the `received` lines it took from the record then (one was
    undone on the server since: sent again, it must not come back).

    The match's own rename lines are not the record's: a group renames its players in
    all their matches, and calls a match's players as its roster spells them when it
    takes the match in. So two lines are the same play when they name the same seats
    (`_by_seat`). With no count of `received` lines (a match imported before it was
    kept), every line the match holds but its renames counts as received."""
    at = place = 0
    while place < len(logged):
        line, players = logged[place]
        if at < len(sent) and _by_seat(line, players) == _by_seat(*sent[at]):
            at, place = at + 1, place + 1
        elif at < len(sent) and _named_so(*sent[at], players):
            at += 1  # a rename the phone made, which the match's group had made before
        elif at == len(sent):
            return []
        elif isinstance(line, RenameLine):
            place += 1
        else:
            return None
    if received is not None and at < min(received, len(sent)):
        return None
    now = list(called)
    added: list[tuple[int, Line]] = []
    for place, (line, players) in enumerate(sent[at:], start=at):
        here = renamed(line, dict(zip(players, now, strict=True)))
        if isinstance(line, RenameLine):  # renamed in the phone: the new name, here too
            now[list(players).index(line.old)] = line.new
            if isinstance(here, RenameLine) and here.old == here.new:
                continue  # the match calls the player so already (its group renamed them)
        added.append((place, here))
    return added


def _named_so(line: Line, players: Sequence[str], theirs: Sequence[str]) -> bool:
    """Is `line` a rename to the name the other table (`theirs`) calls that seat?"""
    if not isinstance(line, RenameLine):
        return False
    return name_key(theirs[list(players).index(line.old)]) == name_key(line.new)


def _by_seat(line: Line, players: Sequence[str]) -> str:
    """The line with each player named by their seat, as a name key: one play whatever
    the table calls its players."""
    return name_key(str(renamed(line, {name: f"#{seat}" for seat, name in enumerate(players)})))


def _seating_line(text: str) -> int:
    """The number of a replayed record's line that seats the players (the first, but for
    its key)."""
    lines = enumerate(text.removeprefix("\ufeff").splitlines(), start=1)
    seated = (n for n, raw in lines if strip_comment(raw) and RecordLine.parse(raw) is None)
    return next(seated, 1)
