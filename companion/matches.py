"""A match as a request carries it, and a table as a screen shows it: small values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, TypedDict

from companion.access import Kind
from engine import SOURCE_LANGUAGE, Game, HouseRules, Legal, State, Step, language, summary


@dataclass(frozen=True, slots=True)
class Match:
    """A match's row, as one read gave it: its header, where its log is, its links."""

    shared_as: ClassVar[Kind] = Kind.MATCH  # its links (companion/access.py)
    id: str
    players: str  # "Ann, Bob, Cy", in seating order: the record's header
    names: str  # the same players as called now (a rename line changes them)
    dealer: str
    rules: str  # the `rules:` value, "official" when none
    mode: str  # "referee" or "quick"
    created_at: datetime
    updated_at: datetime
    status: str
    summary: str
    version: int  # the last line's sequence number (0: no line yet)
    last_line_id: int  # its row id (0: none): with the version, it names the whole log
    editor_token: str
    viewer_token: str
    record_key: str | None = None  # its record's own key, if it was imported from a keyed one
    record_lines: int | None = None  # the lines of that record it took when last received

    @classmethod
    def from_row(cls, row: Mapping[Any, Any]) -> Match:
        return cls(**{name: row[name] for name in cls.__slots__})

    @property
    def player_names(self) -> list[str]:
        """The players as the record's header seated them."""
        return [name.strip() for name in self.players.split(",")]

    @property
    def current_names(self) -> list[str]:
        """The players as called now (after any rename line)."""
        return [name.strip() for name in self.names.split(",")]

    def made_on(self, version: int | None, last: int | None) -> bool:
        """Is this the table a form or a poller was made on: its version, and its last
        line when named (pages from before that field don't name it)?"""
        return self.version == version and last in (None, self.last_line_id)

    def new_game(self) -> Game:
        """A game with only the header applied: its key, players, dealer, house rules."""
        return Game(
            self.player_names,
            dealer=self.dealer,
            rules=HouseRules.parse(self.rules),
            key=self.record_key,
        )


RECENT = 6  # plays a table shows


@dataclass(frozen=True, slots=True)
class Table:
    """A match with its game as of one point of the log: what a screen is made from.

    Values only (states are never changed once made), so a page is made from it
    without holding anything while other requests move the game on.
    """

    match: Match  # its version and last line are those of the state
    state: State
    # The last few lines with the states around them, oldest first (the header's lines
    # too, while the log is shorter: "Cy deals hand 1").
    recent: tuple[Step, ...]
    # The phone that recorded the last line (access.Phone.id); None: no line, an
    # imported one, or one from before phones were told apart.
    last_by: str | None = None

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def last_line_id(self) -> int:
        return self.match.last_line_id

    @property
    def legal(self) -> Legal:
        return Legal(self.state)

    @property
    def last_step(self) -> Step | None:
        """The log's last line (what undo takes back); None with no line yet."""
        return self.recent[-1] if self.version else None


class Follows(TypedDict):
    status: str
    summary: str
    names: str


def row_follows(state: State) -> Follows:
    """The match row's columns that follow its state: status, the summary for the home
    page (stored, so in English: the database holds no translated sentence), and the
    players' names as called now."""
    with language(SOURCE_LANGUAGE):
        said = summary(state)[:200]
    return {"status": state.status, "summary": said, "names": ", ".join(state.players)}
