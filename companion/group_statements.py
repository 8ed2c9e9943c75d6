"""Every statement on a group's tables: the group, its roster, its matches and seats.

The one module that reads and writes `player_group`, `roster_player`, `group_match` and
`match_seat` (companion/models.py); a group's matches themselves are the match store's
(companion/statements.py). Each function takes the caller's connection, so a use case
(companion/groups.py) makes its transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, literal, select, update
from werkzeug.exceptions import NotFound

from companion.group_history import Point, Seats
from companion.group_pages import Group, Member
from companion.matches import Match
from companion.models import GROUP_MATCHES, GROUPS, MATCHES, ROSTER, SEATS, now
from engine import name_key

# ---------------------------------------------------------------- groups


def group(connection: Connection, group_id: str) -> Group | None:
    row = connection.execute(select(GROUPS).where(GROUPS.c.id == group_id)).mappings().first()
    return None if row is None else Group.from_row(row)


def groups(connection: Connection, ids: Sequence[str]) -> list[Group]:
    rows = connection.execute(select(GROUPS).where(GROUPS.c.id.in_(ids))).mappings()
    return [Group.from_row(row) for row in rows]


def by_token(connection: Connection, column: str, token: str) -> Group | None:
    """The group whose `column` (editor_token or viewer_token) is `token`."""
    query = select(GROUPS).where(GROUPS.c[column] == token)
    row = connection.execute(query).mappings().first()
    return None if row is None else Group.from_row(row)


def insert_group(connection: Connection, group: Group) -> None:
    connection.execute(insert(GROUPS), [_values(group)])


def new_links(connection: Connection, group: Group) -> list[str]:
    """The group's tokens as `group` has them; its matches' ids (their links renew too)."""
    connection.execute(
        update(GROUPS)
        .where(GROUPS.c.id == group.id)
        .values(editor_token=group.editor_token, viewer_token=group.viewer_token)
    )
    return list(
        connection.execute(
            select(GROUP_MATCHES.c.match_id).where(GROUP_MATCHES.c.group_id == group.id)
        ).scalars()
    )


def group_of(connection: Connection, match_id: str) -> Group | None:
    """The group a match is in, if any."""
    row = (
        connection.execute(
            select(GROUPS)
            .join(GROUP_MATCHES, GROUP_MATCHES.c.group_id == GROUPS.c.id)
            .where(GROUP_MATCHES.c.match_id == match_id)
        )
        .mappings()
        .first()
    )
    return None if row is None else Group.from_row(row)


def match_in(connection: Connection, group_id: str, match_id: str) -> Match | None:
    """The match, if it is one of the group's."""
    row = (
        connection.execute(
            select(MATCHES)
            .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
            .where(GROUP_MATCHES.c.group_id == group_id, MATCHES.c.id == match_id)
        )
        .mappings()
        .first()
    )
    return None if row is None else Match.from_row(row)


def newest_seating(connection: Connection, group_id: str) -> list[str]:
    """The roster names at the group's newest match, in seating order, retired players
    left out."""
    newest = connection.execute(
        select(MATCHES.c.id)
        .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
        .where(GROUP_MATCHES.c.group_id == group_id)
        .order_by(MATCHES.c.created_at.desc())
        .limit(1)
    ).scalar()
    if newest is None:
        return []
    rows = connection.execute(
        select(ROSTER.c.name)
        .join(SEATS, SEATS.c.player_id == ROSTER.c.id)
        .where(SEATS.c.match_id == newest, ~ROSTER.c.retired)
        .order_by(SEATS.c.seat)
    ).all()
    return [row[0] for row in rows]


# ---------------------------------------------------------------- the roster


def set_retired(connection: Connection, player_ids: Sequence[int], retired: bool) -> None:
    connection.execute(update(ROSTER).where(ROSTER.c.id.in_(player_ids)).values(retired=retired))


def delete_player(connection: Connection, player_id: int) -> None:
    connection.execute(delete(ROSTER).where(ROSTER.c.id == player_id))


def rename_player(connection: Connection, player_id: int, name: str) -> None:
    connection.execute(
        update(ROSTER).where(ROSTER.c.id == player_id).values(name=name, name_key=name_key(name))
    )


def seats_of(connection: Connection, player_id: int) -> list[tuple[str, int]]:
    """Where the player sat: (match id, seat from 0) in each of their matches."""
    rows = connection.execute(
        select(SEATS.c.match_id, SEATS.c.seat).where(SEATS.c.player_id == player_id)
    ).all()
    return [(match_id, seat - 1) for match_id, seat in rows]  # seats count from 1


def _values(group: Group) -> dict[str, Any]:
    return {name: getattr(group, name) for name in Group.__slots__}


def roster(connection: Connection, group_id: str, counted: bool = True) -> list[Member]:
    """The group's players, by name; with how many matches each sat in (0 unless
    `counted`: a group's history counts them from its seats)."""
    played = (
        select(func.count())
        .select_from(SEATS)
        .where(SEATS.c.player_id == ROSTER.c.id)
        .scalar_subquery()
    )
    columns = [ROSTER.c.id, ROSTER.c.name, ROSTER.c.retired, played if counted else literal(0)]
    rows = connection.execute(select(*columns).where(ROSTER.c.group_id == group_id)).all()
    members = [Member(row[0], row[1], bool(row[2]), row[3]) for row in rows]
    return sorted(members, key=lambda m: (m.retired, name_key(m.name)))


def member(connection: Connection, group_id: str, player_id: int) -> Member:
    found = [m for m in roster(connection, group_id) if m.id == player_id]
    if not found:
        raise NotFound()
    return found[0]


def insert_player(connection: Connection, group_id: str, name: str) -> Member:
    player_id = connection.execute(
        insert(ROSTER)
        .values(
            group_id=group_id,
            name=name,
            name_key=name_key(name),
            retired=False,
            created_at=now(),
        )
        .returning(ROSTER.c.id)
    ).scalar_one()
    return Member(player_id, name, False, 0)


def place(connection: Connection, group_id: str, match_id: str, player_ids: list[int]) -> None:
    connection.execute(insert(GROUP_MATCHES), [{"match_id": match_id, "group_id": group_id}])
    connection.execute(
        insert(SEATS),
        [
            {"match_id": match_id, "seat": seat, "player_id": player_id}
            for seat, player_id in enumerate(player_ids, 1)
        ],
    )


def points(connection: Connection, group_id: str) -> dict[str, Point]:
    """Each of the group's matches' version and last line id: what names its history."""
    rows = connection.execute(
        select(MATCHES.c.id, MATCHES.c.version, MATCHES.c.last_line_id)
        .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
        .where(GROUP_MATCHES.c.group_id == group_id)
    ).all()
    return {match_id: (version, last) for match_id, version, last in rows}


def point(match: Match) -> Point:
    return match.version, match.last_line_id


def created(match: Match) -> datetime:
    return match.created_at


def match_rows(connection: Connection, group_id: str, ids: list[str] | None) -> dict[str, Match]:
    """The rows of these of the group's matches (None: all of them), by id."""
    query = (
        select(MATCHES)
        .join(GROUP_MATCHES, GROUP_MATCHES.c.match_id == MATCHES.c.id)
        .where(GROUP_MATCHES.c.group_id == group_id)
    )
    if ids is not None:
        if not ids:
            return {}
        query = query.where(MATCHES.c.id.in_(ids))
    matches = (Match.from_row(row) for row in connection.execute(query).mappings())
    return {m.id: m for m in matches}


def seats(connection: Connection, group_id: str, match_ids: list[str] | None) -> dict[str, Seats]:
    """Each match's roster players, in seating order: these matches' (None: all the
    group's)."""
    query = (
        select(SEATS.c.match_id, ROSTER.c.id, ROSTER.c.name)
        .join(ROSTER, ROSTER.c.id == SEATS.c.player_id)
        .where(ROSTER.c.group_id == group_id)
        .order_by(SEATS.c.match_id, SEATS.c.seat)
    )
    if match_ids is not None:
        if not match_ids:
            return {}
        query = query.where(SEATS.c.match_id.in_(match_ids))
    rows = connection.execute(query).all()
    seats: dict[str, list[tuple[int, str]]] = {}
    for match_id, player_id, name in rows:
        seats.setdefault(match_id, []).append((player_id, name))
    return {k: tuple(v) for k, v in seats.items()}
