"""A match stored with names this version's rules refuse (from before the rules), repaired
(issue 29): the engine's repair (`engine.repaired_record`: each such name made one the
rules take, in the header and in every line that names it; the app's look-alike rule
told apart too), read and judged as an import before anything is written, so what is
written replays. Its editor is offered it on the match's page (Store.repair_names); the
data migration a1c0ffee0013 made the same repair, with the engine's rule alone, on
every match when the server was upgraded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.imports import Imported, ImportRefused, read_record
from companion.lookalikes import look_alike
from engine import (
    EngineError,
    RepairedRecord,
    repaired_record,
    same_player,
    visible_name,
    written_record,
)


def alike(name: str, other: str) -> bool:
    """The app's rule for two names on one table: one player, or names that look alike."""
    return same_player(name, other) or look_alike(name, other) is not None


@dataclass(frozen=True)
class NameRepair:
    """What repairing a stored match's names makes of it: its header and log, and the
    same judged as an import (`judged`: its game, as it then replays)."""

    repaired: RepairedRecord
    judged: Imported

    def changes(self) -> list[tuple[str, str]]:
        """Each name changed, as stored (every character shown) and as repaired."""
        return [(visible_name(old), new) for old, new in self.repaired.changed]


def name_repair(
    players: str, dealer: str, rules: str, lines: Sequence[str], max_lines: int
) -> NameRepair | None:
    """The repair of a stored match's names; None when no name needs it, a line can't be
    read even so, or the repaired record would not replay either (a rule or a play this
    version no longer reads: only its record, as stored, keeps it then)."""
    try:
        repaired = repaired_record(players, dealer, lines, alike)
    except EngineError:
        return None
    if repaired is None:
        return None
    header = (", ".join(repaired.players), repaired.dealer, rules)
    try:
        judged = read_record(written_record(*header, list(repaired.lines)), max_lines)
    except ImportRefused:
        return None
    return NameRepair(repaired, judged)
