"""`Game`: one match, its record lines and the state after each of them.

The game owns the history (a snapshot per line), so undo restores the exact
previous state, and `record()` prints lines that parse back to the same game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from . import referee
from .errors import EngineError, IllegalActionError, NotationError, RecordError
from .i18n import _
from .legal import Legal
from .names import clean_name, name_key
from .notation import (
    Action,
    ActionLine,
    DealerLine,
    Line,
    PlayersLine,
    RecordLine,
    RulesLine,
    find_player,
    parse_line,
    record_key,
)
from .rules import OFFICIAL, HouseRules
from .state import Event, State

MIN_PLAYERS, MAX_PLAYERS = 2, 6
BYTE_ORDER_MARK = "\ufeff"  # U+FEFF at the start of a text file says it is UTF-8


class Step(NamedTuple):
    """A line with the states before and after it."""

    line: Line
    before: State
    after: State


class Game:
    """A match between 2 and 6 players, line by line."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        dealer: str | None = None,
        rules: HouseRules = OFFICIAL,
        key: str | None = None,
    ) -> None:
        names = tuple(clean_name(name) for name in players)
        _check_seating(names)
        # The record's own key (`record:`, its first line), if its maker gave it one.
        self.key = None if key is None else record_key(key)
        self._lines: list[Line] = [PlayersLine(names)]
        self._states: list[State] = [State.new(names, OFFICIAL)]
        if dealer is not None:
            self.apply(DealerLine(self._name(dealer)))
        if rules != OFFICIAL:
            self.apply(RulesLine(rules))

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a whole record; raises RecordError naming the first bad line."""
        result = replay(text)
        if result.error is not None:
            raise result.error
        assert result.game is not None
        return result.game

    # ------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def seating(self) -> tuple[str, ...]:
        """The players as the first line seated them (a rename line changes `players`)."""
        return self._states[0].players

    @property
    def rules(self) -> HouseRules:
        return self.state.rules

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(self._lines)

    @property
    def turn(self) -> str | None:
        """Whose action the table waits for; None once the hand is won."""
        return self.legal_actions().turn

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last line caused by itself (knockouts, reshuffles, ...)."""
        return self.state.events

    def __len__(self) -> int:
        return len(self._lines)

    def steps(self) -> Iterator[Step]:
        """Each line after the first with the states before and after it."""
        for i in range(1, len(self._lines)):
            yield Step(self._lines[i], self._states[i - 1], self._states[i])

    def last_steps(self, count: int) -> tuple[Step, ...]:
        """The last `count` steps (fewer if the game is shorter), oldest first."""
        first = max(1, len(self._lines) - count)
        return tuple(
            Step(self._lines[i], self._states[i - 1], self._states[i])
            for i in range(first, len(self._lines))
        )

    def legal_actions(self) -> Legal:
        return Legal(self.state)

    def record(self, *, key: bool = True) -> str:
        """The table record of the game: one line each, parsing back to this game. A file
        format: English whatever the language spoken (nothing here is translated). With
        key=False, without its key (`record:`): for whoever may read it but not hold it."""
        keyed = f"{RecordLine(self.key)}\n" if self.key is not None and key else ""
        return keyed + "".join(f"{line}\n" for line in self._lines)

    def to_json(self) -> dict[str, object]:
        return self.state.to_json()

    # ------------------------------------------------------------ changing

    def parse(self, text: str) -> Line | None:
        return parse_line(text, self.players)

    def apply(self, line: Line | str) -> State:
        """Apply a line (or its text); raises an EngineError and changes nothing if refused.
        (`judge` then `push`, without the step between them: a simulator's every line.)"""
        if isinstance(line, str):
            line = _parse_one(line, self.players)
        after = referee.apply(self._states[-1], line)
        self._lines.append(line)
        self._states.append(after)
        return after

    def judge(self, line: Line | str) -> Step:
        """What the line (or its text) would do, without doing it: raises an EngineError
        if it is refused. `push` the step to make it happen."""
        if isinstance(line, str):
            line = _parse_one(line, self.players)
        before = self._states[-1]
        return Step(line, before, referee.apply(before, line))

    def judge_all(self, lines: Sequence[Line | str]) -> tuple[Step, ...]:
        """What the lines (or their texts) would do one after another, without doing
        them: raises the first refusal. `push` the steps, in order, to make them happen."""
        return tuple(self.judge_each(lines))

    def judge_each(self, lines: Sequence[Line | str]) -> Iterator[Step]:
        """`judge_all`, one step at a time: the steps before a refusal are those the
        lines before it make (how many tells which line it refuses). A text names the
        players as they are called at its turn (after a rename line among the lines
        before it)."""
        before = self._states[-1]
        for line in lines:
            if isinstance(line, str):
                line = _parse_one(line, before.players)
            step = Step(line, before, referee.apply(before, line))
            yield step
            before = step.after

    def push(self, step: Step) -> State:
        """Make a judged step happen; it must have been judged on the game as it is."""
        if step.before is not self._states[-1]:
            raise ValueError("the step was judged on another state of the game")
        self._lines.append(step.line)
        self._states.append(step.after)
        return step.after

    def act(self, player: str, action: Action) -> State:
        return self.apply(ActionLine(self._name(player), action))

    def is_legal(self, line: Line | str) -> bool:
        try:
            if isinstance(line, str):
                parsed = self.parse(line)
                if parsed is None:
                    return False
                line = parsed
            referee.apply(self.state, line)
        except EngineError:
            return False
        return True

    def undo(self) -> Line:
        """Take back the last line and return it; the seating line can't be undone."""
        if len(self._lines) == 1:
            raise IllegalActionError(_("There is nothing to undo."), "setup")
        self._states.pop()
        return self._lines.pop()

    def _name(self, text: str) -> str:
        return find_player(text, self.players)


def _check_seating(names: tuple[str, ...]) -> None:
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalActionError(
            _(
                "No Mercy is played by {least} to {most} players, not {count}.",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                count=len(names),
            ),
            "setup",
        )
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            first = seen[key]
            if first == name:
                message = _(
                    "Two players are called '{name}': names are the same whatever the case, "
                    "and however an accent or a wide letter is typed. Give each player a "
                    "different name.",
                    name=name,
                )
            else:
                message = _(
                    "Two players are called '{first}' and '{name}': names are the same "
                    "whatever the case, and however an accent or a wide letter is typed. Give "
                    "each player a different name.",
                    first=first,
                    name=name,
                )
            raise IllegalActionError(message, "setup")
        seen[key] = name


@dataclass(frozen=True)
class Replay:
    """A replayed record: the game up to the first refused line, and that refusal."""

    game: Game | None
    error: RecordError | None


def replay(text: str) -> Replay:
    """Replay a record line by line; stop at the first refused line.

    A byte-order mark at the start (editors such as Notepad save one) is not part
    of the record: it is skipped."""
    game: Game | None = None
    key: str | None = None
    text = text.removeprefix(BYTE_ORDER_MARK)
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            if game is None and (keyed := RecordLine.parse(raw)) is not None:
                if key is not None:
                    raise NotationError(_("A record has one key: 'record:' comes once, first."))
                key = keyed.key  # the record's key, before its players
                continue
            line = parse_line(raw, game.players if game else ())
            if line is None:
                continue
            if game is None:
                if not isinstance(line, PlayersLine):
                    raise NotationError(
                        _("A record starts by seating the players (players: Ann, Bob, Cy).")
                    )
                game = Game(line.names, key=key)
            else:
                game.apply(line)
        except EngineError as error:
            return Replay(game, RecordError(number, error))
    if game is None:
        return Replay(
            None,
            RecordError(1, NotationError(_("The record is empty: it starts with 'players: ...'."))),
        )
    return Replay(game, None)


def _parse_one(text: str, players: Sequence[str]) -> Line:
    line = parse_line(text, players)
    if line is None:
        raise NotationError(_("The line is empty: nothing to record."))
    return line
