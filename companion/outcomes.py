"""What a use case of the matches (companion/store.py) returns: its outcome as data.

The views render from these; none of them holds anything but values (a `Table` is a
match with its game as of one point of its log).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import format_number
from flask_babel import gettext as _
from sqlalchemy import Connection

from companion.matches import Match, Table
from companion.taps import Why
from engine import EngineError, Step


@dataclass(frozen=True)
class Recorded:
    """The line is in the log."""

    step: Step


@dataclass(frozen=True)
class Undone:
    """The last line is out of the log: the step it had made."""

    step: Step


@dataclass(frozen=True)
class ImportedMatch:
    """The match a record was imported as: new, or (`again`) the one its key (`record:`)
    named, imported before from the same record (and played on since, in the phone that
    sent it, when lines were `added`)."""

    match: Match
    again: bool
    added: int = 0  # the record's lines played since it was sent, added to the match


@dataclass(frozen=True)
class AlreadyDone:
    """This very form was acted on before (a double tap, a resubmission): it counted once."""


@dataclass(frozen=True)
class MovedOn:
    """The table moved on since the form was made: nothing done; the table as it is now."""

    table: Table


@dataclass(frozen=True)
class Refused:
    """The engine refused the line (or there is nothing to undo): nothing done."""

    table: Table
    error: EngineError


@dataclass(frozen=True)
class NotTaken:
    """The tap came from a screen the person could not have read yet (a double tap's
    second tap, a tap just after a refresh brought another phone's change: see
    companion/taps.py): nothing done; the table as it is, and why."""

    table: Table
    why: Why


@dataclass(frozen=True)
class Renamed:
    """Players are called by new names in these matches (by id): a rename line each
    (none where they were called that already)."""

    matches: tuple[str, ...]


@dataclass(frozen=True)
class Unchanged:
    """A poll: the table is as the screen shows it."""


@dataclass(frozen=True)
class Changed:
    """A poll: the table moved on; here it is. `brought`: the row id of the line another
    phone recorded that the poller had not seen (taps.UNDONE_ELSEWHERE: another phone's
    undo; 0: neither)."""

    table: Table
    brought: int = 0


@dataclass(frozen=True)
class Full:
    """The match holds as many lines as a match may (`Store.max_lines`): nothing done."""

    table: Table
    max_lines: int

    @property
    def message(self) -> str:
        return str(
            _(
                "This match is full: a match holds at most %(most)s lines, so nothing more can be "
                "recorded in it (undo still works). Start a new match with the same players to "
                "play on.",
                most=format_number(self.max_lines),
            )
        )


Written = Recorded | AlreadyDone | MovedOn | Refused | Full | NotTaken
# More to write with a new match, in its transaction: given the connection and its id.
Also = Callable[[Connection, str], None]
