"""What the command line does, as functions the tests can call directly."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import EngineError, NotationError, RecordError
from ..core.explain import describe, whose_turn
from ..core.game import Replay, replay
from ..core.notation import RecordLine
from ..core.rules import HouseRules

if TYPE_CHECKING:
    from .stats import Figures, Stats

EXIT_OK, EXIT_RULE, EXIT_SYNTAX = 0, 1, 2


def read_record(path: str) -> str:
    """The record's text; '-' reads standard input. Raises OSError or UnicodeDecodeError."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def check(path: str) -> tuple[int, dict[str, Any]]:
    """Exit code and JSON document of `python -m engine check FILE` (NOTATION.md)."""
    try:
        text = read_record(path)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        error = {"line": 0, "rule": "syntax", "message": f"Cannot read {path}: {why}."}
        return EXIT_SYNTAX, {"error": error, "state": None}
    return check_text(text)


def check_text(text: str) -> tuple[int, dict[str, Any]]:
    result = replay(text)
    if result.error is None:
        assert result.game is not None
        return EXIT_OK, result.game.to_json()
    return _exit_code(result.error), _error_document(result)


def _exit_code(error: RecordError) -> int:
    return EXIT_SYNTAX if isinstance(error.error, NotationError) else EXIT_RULE


def _error_document(result: Replay) -> dict[str, Any]:
    error = result.error
    assert error is not None
    return {
        "error": {"line": error.line, "rule": error.rule, "message": error.error.message},
        "state": result.game.to_json() if result.game else None,
    }


def explain(path: str) -> tuple[int, str]:
    """The game told line by line, then the verdict: for settling disputes."""
    try:
        text = read_record(path)
    except (OSError, UnicodeDecodeError) as exc:
        return EXIT_SYNTAX, f"Cannot read {path}: {exc}\n"
    result = replay(text)
    out: list[str] = []
    if result.game is not None:
        numbers = [
            i
            for i, raw in enumerate(text.splitlines(), 1)
            if raw.split("#")[0].strip() and RecordLine.parse(raw) is None  # its key: no step
        ]
        out.append(f"{numbers[0]:>4}  {result.game.lines[0]}")
        for number, (line, before, after) in zip(numbers[1:], result.game.steps(), strict=False):
            out.append(f"{number:>4}  {describe(line, before, after)}")
        out.append(f"      Now: {whose_turn(result.game.state)}")
    if result.error is None:
        return EXIT_OK, "\n".join(out) + "\n"
    error = result.error
    out.append(f"Line {error.line} is refused [{error.rule}]: {error.error.message}")
    return _exit_code(error), "\n".join(out) + "\n"


def simulate(args: argparse.Namespace) -> int:
    from .simulator import Simulation

    try:
        rules = HouseRules.parse(args.rules)
    except EngineError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_SYNTAX
    if not 2 <= args.players <= 6 or args.hands < 1:
        print("simulate needs 2 to 6 players and at least one hand.", file=sys.stderr)
        return EXIT_SYNTAX
    try:
        sim = Simulation(args.players, rules=rules, seed=args.seed, policy=args.policy)
    except ValueError:
        print(_no_policy(args.policy), file=sys.stderr)
        return EXIT_SYNTAX
    stats = sim.play_hands(args.hands)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as handle:
            handle.write(sim.game.record())
    if args.json:
        print(json.dumps(stats.to_json()))
    else:
        print(stats.report())
    return EXIT_OK if stats.mismatches == 0 else EXIT_RULE


def lab(args: argparse.Namespace) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of `python -m engine lab ...`."""
    from .lab import compare
    from .simulator import POLICIES

    sets = []
    for name, text in (("A", args.a), ("B", args.b)):
        try:
            sets.append(HouseRules.parse(text))
        except EngineError as exc:
            return EXIT_SYNTAX, "", f"Rule set {name} ({text}): {exc.message}\n"
    a, b = sets
    problems = []
    if not 2 <= args.players <= 6:
        problems.append("lab needs 2 to 6 players.")
    if args.hands < 2:
        problems.append("lab needs at least 2 hands per rule set.")
    if args.policy not in POLICIES:
        problems.append(_no_policy(args.policy))
    if args.jobs < 1:
        problems.append("--jobs needs at least 1 process.")
    if not args.pace > 0:
        problems.append("--pace is the seconds a turn takes: more than 0.")
    if problems:
        return EXIT_SYNTAX, "", "\n".join(problems) + "\n"
    result = compare(
        a,
        b,
        players=args.players,
        policy=args.policy,
        hands=args.hands,
        seed=args.seed,
        jobs=args.jobs,
        pace=args.pace,
    )
    if args.json:
        return EXIT_OK, json.dumps(result.to_json(), ensure_ascii=False) + "\n", ""
    return EXIT_OK, result.report(), ""


def _no_policy(name: str) -> str:
    from .simulator import POLICIES

    return f"There is no policy '{name}'. Policies: {', '.join(POLICIES)}."


def paper(args: argparse.Namespace) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of `python -m engine paper`: the
    uniform policy's mean hand length at 2-6 players against the research simulator's;
    exit 1 when a count is more than 1% away."""
    from .paper import HANDS, report, reproduce

    if args.jobs < 1:
        return EXIT_SYNTAX, "", "--jobs needs at least 1 process.\n"
    if args.hands is not None and args.hands < 2:
        return EXIT_SYNTAX, "", "paper needs at least 2 hands per player count.\n"
    rows = reproduce(HANDS if args.hands is None else args.hands, seed=args.seed, jobs=args.jobs)
    code = EXIT_OK if all(row.passed for row in rows) else EXIT_RULE
    if args.json:
        return code, json.dumps([row.to_json() for row in rows]) + "\n", ""
    return code, report(rows), ""


# The columns of `stats`: heading, then how a player's figures give it.
_STATS_COLUMNS: tuple[tuple[str, Callable[[Figures], object]], ...] = (
    ("matches", lambda f: f.matches),
    ("won", lambda f: f.matches_won),
    ("hands", lambda f: f.hands),
    ("hands won", lambda f: f.hands_won),
    ("emptied", lambda f: f.won_by_last_card),
    ("standing", lambda f: f.won_last_standing),
    ("points", lambda f: f.points),
    ("KO'd", lambda f: f.knockouts_suffered),
    ("KOs dealt", lambda f: f.knockouts_dealt),
    ("took", lambda f: f"+{f.biggest_stack_taken}" if f.biggest_stack_taken else "-"),
    ("sent", lambda f: f"+{f.biggest_stack_sent}" if f.biggest_stack_sent else "-"),
    ("UNO missed", lambda f: f.uno_missed),
    ("catches", lambda f: f.catches),
    (
        "cards at end",
        lambda f: "-" if f.average_cards_at_end is None else f"{f.average_cards_at_end:.1f}",
    ),
)


def stats(paths: Sequence[str], *, as_json: bool = False) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of `python -m engine stats FILE...`.

    Every file must replay: the first that can't be read or has a refused line is
    named on standard error (exit 2, or 1 for a line that breaks a rule, as `check`)."""
    from .stats import group_stats, match_stats

    matches = []
    for path in paths:
        try:
            text = read_record(path)
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return EXIT_SYNTAX, "", f"Cannot read {path}: {why}.\n"
        result = replay(text)
        if result.error is not None:
            error = result.error
            message = (
                f"{path}: line {error.line} is refused [{error.rule}]: {error.error.message}\n"
            )
            return _exit_code(error), "", message
        assert result.game is not None
        matches.append(match_stats(result.game, key=path))
    group = group_stats(matches)
    if as_json:
        return EXIT_OK, json.dumps(group.to_json(), ensure_ascii=False) + "\n", ""
    return EXIT_OK, stats_report(group), ""


def stats_report(group: Stats) -> str:
    """Players as a table, best first, the group's line last; then each match's awards."""
    heads = ["player"] + [head for head, _get in _STATS_COLUMNS]
    rows = [
        [name] + [str(get(figures)) for _head, get in _STATS_COLUMNS]
        for name, figures in group.leaderboard()
    ]
    rows.append(["(group)"] + [str(get(group.group)) for _head, get in _STATS_COLUMNS])
    widths = [max(len(row[i]) for row in [heads, *rows]) for i in range(len(heads))]

    def line(cells: list[str]) -> str:
        first = f"{cells[0]:<{widths[0]}}"
        rest = (f"{cell:>{width}}" for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    out = [line(heads), *map(line, rows)]
    for match in group.matches:
        if match.awards:
            out.append("")
            out.append(f"{match.key}:")
            out.extend(f"  {award}" for award in match.awards)
    return "\n".join(out) + "\n"
