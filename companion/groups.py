"""Groups: the same friends every Friday, their roster and their matches.

One call per use case, like the matches' Store (companion/store.py), which this uses for
the matches themselves: create a group; add, rename, retire or bring back a roster
player; start a match from the roster; move a match into a group; receive a record sent
to the group's editor link (from the app in a phone); renew the links. Each
returns what it made, or a `Refusal` with the sentence a person at the table reads. What
the pages read is `GroupReads`' (companion/group_reads.py), which `Groups` extends.

A roster player's name is unique in the group the way the engine compares names
(engine.names.name_key, stored beside the name with a unique index). A player with
matches is never deleted, only retired. Renaming a player is the match store's use case:
a rename line at the end of each match they sat in ("rename: Bob, Robert", the engine's
notation), with the roster, in one transaction; the logs keep every line as it was
written, and a form made on the old names is refused as "the table moved on".

Access: a group has an editor and a viewer link, kept per phone like a match's
(companion/access.py). Its matches are opened through the group: an editor of the group
becomes an editor of the match, a viewer a viewer. Renewing the group's links renews its
matches' links too, so a leaked group link opens nothing any more.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from companion import group_statements
from companion.access import Phone
from companion.audit import audit
from companion.group_pages import Group, Member, Refusal
from companion.group_reads import GroupReads
from companion.imports import key_of
from companion.lookalikes import look_alike
from companion.matches import Match
from companion.models import new_token, now
from companion.outcomes import MovedOn, Refused, Renamed
from engine import (
    MAX_NAME_LENGTH,
    TYPED_NAME_LENGTH,
    EngineError,
    HouseRules,
    clean_name,
    name_key,
    name_problems,
    same_player,
)

GROUP_NAME_LENGTH = 40

# ---------------------------------------------------------------- the groups


class Groups(GroupReads):
    """The groups' use cases: `GroupReads` (companion/group_reads.py), and every write of
    the group tables (through companion/group_statements.py); the matches through the
    app's `Store`."""

    # ------------------------------------------------------------ a new group, its links

    def create(self, name: str) -> Group | Refusal:
        name = " ".join(name.split())
        if not name:
            return Refusal(_("Give the group a name, like Friday crew."))
        if len(name) > GROUP_NAME_LENGTH:
            return Refusal(
                _(
                    "A group's name can't be longer than %(most)s characters.",
                    most=GROUP_NAME_LENGTH,
                )
            )
        group = Group(secrets.token_urlsafe(12), name, now(), new_token(), new_token())
        with self.store.engine.begin() as connection:
            group_statements.insert_group(connection, group)
        audit("group-created", group.id, "editor")
        return group

    def renew_links(self, group_id: str, phone: Phone) -> Group:
        """New tokens for the group and for each of its matches: every old link of
        either, and every phone that opened a match through the group, loses access."""
        group = self.group(group_id, phone, "editor")
        renewed = Group(group.id, group.name, group.created_at, new_token(), new_token())
        # The group's tokens and its matches' (the match store's), in one transaction.
        self.store.renew_links_with(lambda conn: group_statements.new_links(conn, renewed))
        audit("group-renewed-links", group.id, "editor")
        return renewed

    # ------------------------------------------------------------ the roster

    def add_player(self, group_id: str, phone: Phone, typed: str) -> Member | Refusal:
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            roster = group_statements.roster(connection, group.id)
            checked = _new_name(typed, roster)
            if isinstance(checked, Refusal):
                return checked
            member = group_statements.insert_player(connection, group.id, checked)
        audit("roster-added", group.id, "editor")
        return member

    def retire(
        self, group_id: str, phone: Phone, player_id: int, retired: bool
    ) -> Member | Refusal:
        """Retire a player (left out of new matches, kept in their matches and the
        leaderboard) or bring them back."""
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            member = group_statements.member(connection, group.id, player_id)
            group_statements.set_retired(connection, [member.id], retired)
        audit("roster-retired" if retired else "roster-back", group.id, "editor")
        return Member(member.id, member.name, retired, member.matches)

    def remove(self, group_id: str, phone: Phone, player_id: int) -> Member | Refusal:
        """Take a player who never played off the roster (one with matches is retired)."""
        group = self.group(group_id, phone, "editor")
        with self.store.engine.begin() as connection:
            member = group_statements.member(connection, group.id, player_id)
            if member.matches:
                return Refusal(
                    _(
                        "%(name)s played in this group's matches, so they stay on the roster: "
                        "retire them instead.",
                        name=member.name,
                    )
                )
            group_statements.delete_player(connection, member.id)
        audit("roster-removed", group.id, "editor")
        return member

    def rename(self, group_id: str, phone: Phone, player_id: int, typed: str) -> Member | Refusal:
        """Rename a roster player: the roster, and a rename line at the end of each of
        their matches' logs (the match store's use case), in one transaction."""
        group = self.group(group_id, phone, "editor")
        with self.store.direct.connect() as connection:
            member = group_statements.member(connection, group.id, player_id)
            roster = [m for m in group_statements.roster(connection, group.id) if m.id != member.id]
            seats = group_statements.seats_of(connection, member.id)
        checked = _new_name(typed, roster)
        if isinstance(checked, Refusal):
            return checked
        if checked == member.name:
            return member

        def on_roster(connection: Connection, _match_id: str) -> None:
            group_statements.rename_player(connection, member.id, checked)

        renames = {match_id: {seat: checked} for match_id, seat in seats}
        refused = _refusal(self.store.rename(renames, phone, on_roster), member.name)
        if refused is not None:
            return refused
        audit("roster-renamed", group.id, "editor", matches=member.matches)
        return Member(member.id, checked, member.retired, member.matches)

    # ------------------------------------------------------------ matches

    def start_match(
        self,
        group_id: str,
        phone: Phone,
        names: Sequence[str],
        dealer: str,
        rules: HouseRules,
        mode: str,
    ) -> Match | Refusal:
        """A new match of the group, the players in seating order: roster players by
        name (the engine's comparison), and anyone not on the roster added to it (a
        newcomer). The engine checks the seating."""
        group = self.group(group_id, phone, "editor")
        with self.store.direct.connect() as connection:
            roster = group_statements.roster(connection, group.id)
        by_key = {name_key(m.name): m for m in roster}
        seating: list[str] = []
        newcomers: list[str] = []
        for typed in names:
            member = by_key.get(name_key(typed))
            if member is not None:
                seating.append(member.name)
                continue
            checked = _new_name(typed, roster)
            if isinstance(checked, Refusal):
                return checked
            seating.append(checked)
            newcomers.append(checked)
        if dealer and not any(same_player(dealer, name) for name in seating):
            return Refusal(_("The dealer must be one of the players."))
        dealer = next((n for n in seating if dealer and same_player(dealer, n)), seating[-1])

        def seat(connection: Connection, match_id: str) -> None:
            ids = {name_key(m.name): m.id for m in roster}
            for name in newcomers:
                ids[name_key(name)] = group_statements.insert_player(connection, group.id, name).id
            group_statements.place(
                connection, group.id, match_id, [ids[name_key(n)] for n in seating]
            )
            back = [ids[name_key(n)] for n in seating]  # a retired player seated is back
            group_statements.set_retired(connection, back, False)

        try:
            match = self.store.create(seating, dealer, rules, mode, also=seat)
        except EngineError as error:
            return Refusal(error.message)
        audit("created", match.id, "editor", group=group.id, newcomers=len(newcomers))
        return match

    def receive(self, token: str, text: str) -> Received | Refusal | None:
        """A table record sent to the group whose editor link has `token`: imported as a
        match (once: a record sent again with its key is the match it made) and moved
        into the group; None when the link opens no group. No phone's roles are read
        or given: whoever opens the link next gets them (companion/views/groups.py)."""
        group = self.open_link(token, "editor")
        if group is None:
            return None
        key = key_of(text)  # a record sent before, to another group: nothing added to it
        before = None if key is None else self.store.imported_as(key)
        if before is not None and (elsewhere := self._elsewhere(before.id, group)):
            return elsewhere
        imported = self.store.import_record(text)  # ImportRefused: the page says why
        match = imported.match
        if elsewhere := self._elsewhere(match.id, group):
            return elsewhere
        if self.group_of(match.id) is None:
            # The link is the authority here, not the sender's cookies (a phone's browser
            # sends none with a form posted from another site).
            holder = Phone(
                roles={match.id: ["editor", match.editor_token]},
                groups={group.id: ["editor", group.editor_token]},
            )
            try:
                moved = self.move_in(match.id, group.id, holder)
            except IntegrityError:  # the same record, moved in by a send at the same moment
                if (placed := self.group_of(match.id)) is None or placed.id != group.id:
                    raise
                return Received(group, match, again=True, added=imported.added)
            if isinstance(moved, Refusal):
                return moved
            match = moved
        audit("received", match.id, "editor", group=group.id, again=imported.again)
        return Received(group, match, imported.again, imported.added)

    def _elsewhere(self, match_id: str, group: Group) -> Refusal | None:
        """Why a record's match can't be received into `group`: it is in another."""
        current = self.group_of(match_id)
        if current is None or current.id == group.id:
            return None
        return Refusal(_("This match is in the group %(name)s already.", name=current.name))

    def move_in(self, match_id: str, group_id: str, phone: Phone) -> Match | Refusal:
        """Put a match played outside any group into this group: each of its names is
        the roster player of that name (the engine's comparison: the match then takes
        the roster's spelling), or a new roster player."""
        match = self.store.match(match_id, phone, "editor")
        group = self.group(group_id, phone, "editor")
        current = self.group_of(match.id)
        if current is not None:
            return Refusal(_("This match is in the group %(name)s already.", name=current.name))
        names = self.store.table(match.id, phone).state.players
        with self.store.direct.connect() as connection:
            by_key = {name_key(m.name): m for m in group_statements.roster(connection, group.id)}
        seated = [by_key.get(name_key(name)) for name in names]
        # The roster's spelling, everywhere: a rename line where the match's differs.
        renames = {
            seat: member.name
            for seat, member in enumerate(seated)
            if member is not None and member.name != names[seat]
        }

        def place(connection: Connection, _match_id: str) -> None:
            ids = [
                group_statements.insert_player(connection, group.id, name).id
                if member is None
                else member.id
                for name, member in zip(names, seated, strict=True)
            ]
            group_statements.place(connection, group.id, match.id, ids)

        refused = _refusal(self.store.rename({match.id: renames}, phone, place), None)
        if refused is not None:
            return refused
        audit("moved-into-group", match.id, "editor", group=group.id)
        return self.store.match(match.id, phone)


@dataclass(frozen=True)
class Received:
    """A record sent to a group: the match it is, in the group; `again` when the record
    had been received before (sent twice, or again after its answer was lost, or again
    after more was played in the phone: those lines were `added`)."""

    group: Group
    match: Match
    again: bool
    added: int = 0  # the record's lines played since it was sent, added to the match


def _new_name(typed: str, roster: Sequence[Member]) -> str | Refusal:
    """A name for the roster as the engine tidies it, or why not: the engine's name
    rule, one player per name in the group (the engine's comparison), and no name that
    looks like another's (the app's rule, companion/lookalikes.py)."""
    problem = name_problems([typed], TYPED_NAME_LENGTH)[0]
    if problem is None and not typed.strip():
        problem = _("Type the player's name.")
    if problem is not None:
        return Refusal(problem)
    try:
        name = clean_name(typed)
    except EngineError as error:
        return Refusal(error.message)
    for member in roster:
        if same_player(member.name, name):
            return Refusal(_("%(name)s is on this group's roster already.", name=member.name))
        alike = look_alike(name, member.name)
        if alike is not None:
            return Refusal(alike)
    return name


def _refusal(outcome: Renamed | Refused | MovedOn, old: str | None) -> Refusal | None:
    """What a rename in the matches (Store.rename) refused, as the group page says it."""
    if isinstance(outcome, Refused):
        return Refusal(
            _(
                "In the match of %(players)s: %(reason)s",
                players=outcome.table.match.names,
                reason=outcome.error.message,
            )
        )
    if isinstance(outcome, MovedOn):
        if old is None:
            return Refusal(_("A play was recorded in this match meanwhile: try again."))
        return Refusal(
            _(
                "A play was recorded in one of %(name)s's matches meanwhile: nothing was "
                "renamed. Try again.",
                name=old,
            )
        )
    return None


def current_groups() -> Groups:
    """The app's groups (companion/services.py keeps them in app.extensions)."""
    groups: Groups = current_app.extensions["groups"]
    return groups


__all__ = [
    "MAX_NAME_LENGTH",
    "Group",
    "Groups",
    "current_groups",
]
