"""A group's results to take away: two CSV files, and every record in a zip.

- `hands.csv`: one row per player per scored hand of each match (engine.tools.stats
  `HandRow`: points, won and how, knocked out and by whom, cards at the end, ...).
- `matches.csv`: one row per player per match (their `Figures` in that match: hands
  and the match won, points, knockouts suffered and dealt, the biggest stacks, ...).
- `records.zip`: each match's table record as `<date>-<players>.txt`, the same text as
  the match's own record download (`python -m engine check` replays each).

Two CSV files rather than one zip of both: a phone opens a CSV in its spreadsheet app
at once. Matches come oldest first (a history reads forward), hands in order.

The CSV files are data, like the record format: English column names, 1 and 0 for yes
and no, an empty cell for nothing (no cards counted, nobody). They are UTF-8 with a byte
order mark (spreadsheets then read names in any script), comma separated, lines ending
in CRLF (RFC 4180). A text cell starting with = + - @ (or a tab or carriage return) gets
a leading apostrophe: a spreadsheet would take it for a formula, and names are typed by
anyone holding the group's editor link.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.matches import Match
from engine.tools import Figures, MatchStats

Export = Literal["hands", "matches", "records"]

CSV_TYPE = "text/csv"  # sent as text/csv; charset=utf-8
ZIP_TYPE = "application/zip"

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

HAND_COLUMNS = (
    "match",
    "date",
    "hand",
    "seat",
    "player",
    "quick",
    "won",
    "won_by",
    "points",
    "knocked_out",
    "knocked_out_by",
    "knockouts_dealt",
    "cards_at_end",
    "biggest_stack_taken",
    "biggest_stack_sent",
    "uno_missed",
    "catches",
)

MATCH_COLUMNS = (
    "match",
    "date",
    "players",
    "finished",
    "seat",
    "player",
    "won_match",
    "score",
    "hands",
    "hands_won",
    "won_by_last_card",
    "won_last_standing",
    "points",
    "knockouts_suffered",
    "knockouts_dealt",
    "biggest_stack_taken",
    "biggest_stack_sent",
    "uno_missed",
    "catches",
    "average_cards_at_end",
)


@dataclass(frozen=True, slots=True)
class Download:
    """A file to send: its name, its media type, its bytes."""

    filename: str
    mimetype: str
    body: bytes


def safe_cell(value: object) -> object:
    """A cell as a spreadsheet should show it: text that would start a formula gets a
    leading apostrophe; numbers stay numbers, None an empty cell, a bool 1 or 0."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _csv(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    text = io.StringIO()
    text.write("\ufeff")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return text.getvalue().encode("utf-8")


def _date(match: Match) -> str:
    return match.created_at.strftime("%Y-%m-%d")


def hands_csv(matches: Sequence[tuple[Match, MatchStats]]) -> bytes:
    """One row per player per scored hand; seats count from 1, as the app shows them."""
    return _csv(
        HAND_COLUMNS,
        (
            (
                match.id,
                _date(match),
                row.hand,
                row.seat + 1,
                row.player,
                row.quick,
                row.won,
                row.won_by,
                row.points,
                row.knocked_out,
                row.knocked_out_by,
                row.knockouts_dealt,
                row.cards_at_end,
                row.biggest_stack_taken,
                row.biggest_stack_sent,
                row.uno_missed,
                row.catches,
            )
            for match, stats in matches
            for row in stats.rows
        ),
    )


def _average(figures: Figures) -> str:
    average = figures.average_cards_at_end
    return "" if average is None else f"{average:.2f}"


def matches_csv(matches: Sequence[tuple[Match, MatchStats]]) -> bytes:
    """One row per player per match, in progress ones included (`finished` 0)."""
    return _csv(
        MATCH_COLUMNS,
        (
            (
                match.id,
                _date(match),
                len(stats.players),
                stats.finished,
                seat + 1,
                player,
                figures.matches_won,
                stats.scores[seat],
                figures.hands,
                figures.hands_won,
                figures.won_by_last_card,
                figures.won_last_standing,
                figures.points,
                figures.knockouts_suffered,
                figures.knockouts_dealt,
                figures.biggest_stack_taken,
                figures.biggest_stack_sent,
                figures.uno_missed,
                figures.catches,
                _average(figures),
            )
            for match, stats in matches
            for seat, (player, figures) in enumerate(zip(stats.players, stats.figures, strict=True))
        ),
    )


def file_part(text: str) -> str:
    """Text as a part of a file name: letters and digits of any script kept, anything
    else (a slash, a dot, a space) a hyphen, runs of them one."""
    return re.sub(r"[\W_]+", "-", text).strip("-") or "x"


def records_zip(matches: Sequence[tuple[Match, str]]) -> bytes:
    """Each record as `<date>-<players>.txt` (a second one of the same name gets -2)."""
    body = io.BytesIO()
    taken: set[str] = set()
    with zipfile.ZipFile(body, "w", zipfile.ZIP_DEFLATED) as archive:
        for match, record in matches:
            stem = f"{_date(match)}-{file_part('-'.join(match.current_names))}"
            name, n = f"{stem}.txt", 1
            while name in taken:
                n += 1
                name = f"{stem}-{n}.txt"
            taken.add(name)
            entry = zipfile.ZipInfo(name, date_time=match.created_at.timetuple()[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, record)
    return body.getvalue()


def filename(group_name: str, what: Export) -> str:
    extension = "zip" if what == "records" else "csv"
    return f"no-mercy-{file_part(group_name)}-{what}.{extension}"
