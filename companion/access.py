"""Who may do what with a match: share links, roles kept in the signed session cookie.

An editor link records plays; a viewer link only watches. Opening a link
remembers the role for that match in the session, with the token it came
from, so revoking the links (new tokens) takes the role away everywhere.

A phone remembers at most REMEMBERED matches (a cookie holds about 4 KB), kept
in the order they were last used (created, joined, their page opened): a new
one beyond that forgets the least recently used, and Home warns which one that
would be. The session keeps them as a list, [match id, role, token] oldest
first: a JSON object's keys come back sorted, which would lose the order.

Groups (companion/groups.py) have links of their own, kept the same way in a list of
their own (GROUPS_KEY, at most REMEMBERED_GROUPS). A group's matches are opened through
the group: its editors become editors of the match, its viewers viewers (grant), so
the match's own links and checks stay as they are.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from flask import render_template, request, session
from flask_babel import gettext as _
from werkzeug.exceptions import Forbidden

from companion.matches import Match

Role = Literal["editor", "viewer"]
SESSION_KEY = "matches"
REMEMBERED = 40  # matches a phone remembers (the cookie must stay under 4 KB)
GROUPS_KEY = "groups"
REMEMBERED_GROUPS = 8  # groups a phone remembers, beside its matches (the same cookie)
# The phone's own id, random, written with each line it records (match_line.phone): a
# table tells its own lines from another phone's. Not a secret, not a person: a new
# cookie is a new phone.
PHONE_KEY = "phone"


class Shared(Protocol):
    """Something with share links: a match, a group."""

    @property
    def id(self) -> str: ...
    @property
    def editor_token(self) -> str: ...
    @property
    def viewer_token(self) -> str: ...


class NotAllowed(Forbidden):
    def __init__(self, title: str, message: str) -> None:
        super().__init__(message)
        self.title = title


@dataclass(frozen=True)
class Phone:
    """What this phone may do: its role in each match and the link token it came with."""

    roles: Mapping[str, Any]
    groups: Mapping[str, Any] = field(default_factory=dict)  # the same, for groups
    id: str | None = None  # PHONE_KEY: None until it records or gets a role

    def token(self, match_id: str, kind: Role) -> str | None:
        """The `kind` token this phone holds for the match, if any: not checked against
        the match (a write checks it in its own statement, see statements.add_line)."""
        return _token(self.roles, match_id, kind)

    def role(self, match: Match) -> Role | None:
        return _role(self.roles, match)

    def group_role(self, group: Shared) -> Role | None:
        return _role(self.groups, group)

    def group_ids(self) -> list[str]:
        return list(self.groups)

    def require_group(self, group: Shared, kind: Role) -> Role:
        """The phone's role in the group, if it is at least `kind`; else a 403."""
        have = self.group_role(group)
        if have == "editor" or (have == "viewer" and kind == "viewer"):
            return have
        if have == "viewer":
            raise NotAllowed(
                _("This phone can only look"),
                _(
                    "It opened the viewer link of this group, so it can't change the players "
                    "or start matches. Nothing was changed. Ask a player for the group's "
                    "editor link."
                ),
            )
        raise NotAllowed(
            _("You need this group's link"),
            _(
                "Groups are open to the phones that created them or opened one of their "
                "share links. Ask someone in the group for the link or QR code. If you had "
                "access before, the links may have been renewed."
            ),
        )

    def require(self, match: Match, kind: Role) -> Role:
        """The phone's role, if it is at least `kind`; else a 403 that says what to do."""
        have = self.role(match)
        if have == "editor" or (have == "viewer" and kind == "viewer"):
            return have
        if have == "viewer":
            raise NotAllowed(
                _("This phone can only watch"),
                _(
                    "It opened the viewer link of this match, so it can't record plays, undo "
                    "or score. Nothing was recorded. To record, open the editor link (ask a "
                    "player who has it: it is in the Share panel)."
                ),
            )
        raise NotAllowed(
            _("You need this match's link"),
            _(
                "Matches are open to the phones that created them or opened one of their "
                "share links. Ask someone at the table for the link or QR code (Share panel). "
                "If you had access before, the links may have been renewed."
            ),
        )

    def match_ids(self) -> list[str]:
        """The matches it remembers, the least recently used first."""
        return list(self.roles)

    def is_full(self) -> bool:
        """Would one more match make it forget one?"""
        return len(self.roles) >= REMEMBERED


def _token(roles: Mapping[str, Any], key: str, kind: Role) -> str | None:
    entry = roles.get(key)
    if isinstance(entry, list) and len(entry) == 2 and entry[0] == kind:
        token = entry[1]
        return token if isinstance(token, str) else None
    return None


def _role(roles: Mapping[str, Any], shared: Shared) -> Role | None:
    if _token(roles, shared.id, "editor") == shared.editor_token:
        return "editor"
    if _token(roles, shared.id, "viewer") == shared.viewer_token:
        return "viewer"
    return None


def _roles(key: str = SESSION_KEY) -> dict[str, Any]:
    """The session's matches (or groups): {id: [role, token]} in the order of use,
    oldest first."""
    stored = session.get(key)
    if isinstance(stored, dict):  # a cookie from before the order was kept
        return dict(stored)
    if not isinstance(stored, list):
        return {}
    return {
        entry[0]: entry[1:]
        for entry in stored
        if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
    }


def _store(roles: dict[str, Any], key: str = SESSION_KEY) -> None:
    session[key] = [[match_id, *entry] for match_id, entry in roles.items()]
    session.permanent = True


def this_phone() -> Phone:
    """The phone making this request, from its signed session cookie."""
    phone_id = session.get(PHONE_KEY)
    return Phone(_roles(), _roles(GROUPS_KEY), phone_id if isinstance(phone_id, str) else None)


def writing_phone() -> Phone:
    """The phone making this request, about to record: with an id of its own (a cookie
    from before phones had one gets one now)."""
    phone = this_phone()
    if phone.id is not None:
        return phone
    session[PHONE_KEY] = secrets.token_urlsafe(6)
    return this_phone()


def grant(match: Shared, kind: Role, key: str = SESSION_KEY) -> None:
    """Remember the role for the match (or, with GROUPS_KEY, the group), as its most
    recently used one."""
    roles = {k: v for k, v in _roles(key).items() if k != match.id}
    token = match.editor_token if kind == "editor" else match.viewer_token
    roles[match.id] = [kind, token]
    if not isinstance(session.get(PHONE_KEY), str):
        session[PHONE_KEY] = secrets.token_urlsafe(6)
    most = REMEMBERED_GROUPS if key == GROUPS_KEY else REMEMBERED
    while len(roles) > most:
        roles.pop(next(iter(roles)))
    _store(roles, key)


def grant_group(group: Shared, kind: Role) -> None:
    grant(group, kind, GROUPS_KEY)


def opened(match_id: str) -> None:
    """The match's page was opened: it becomes the most recently used (and the
    cookie's 60 days start again)."""
    roles = _roles()
    if match_id in roles:
        roles[match_id] = roles.pop(match_id)
        _store(roles)


def keep_only(match_ids: Collection[str], key: str = SESSION_KEY) -> None:
    """Forget the matches (or groups) not in `match_ids` (gone, or their links renewed:
    the tokens held can never open them again), keeping the order of the rest."""
    roles = _roles(key)
    kept = {k: v for k, v in roles.items() if k in match_ids}
    if len(kept) != len(roles):
        _store(kept, key)


def renew() -> None:
    """Start the cookie's 60 days again (on whole pages, not on every poll)."""
    if SESSION_KEY in session or GROUPS_KEY in session:
        session.modified = True


def forbidden_page(error: NotAllowed) -> tuple[str, int, dict[str, str]]:
    page = render_template("error.html", title=error.title, message=error.description)
    # htmx never swaps a 403 in (the live poller, a boosted form): the screen would
    # freeze without a word, e.g. after the links were renewed. Reload it instead:
    # the page then says why.
    headers = {"HX-Refresh": "true"} if request.headers.get("HX-Request") == "true" else {}
    return page, 403, headers


__all__ = [
    "GROUPS_KEY",
    "REMEMBERED",
    "REMEMBERED_GROUPS",
    "NotAllowed",
    "Phone",
    "Role",
    "Shared",
    "forbidden_page",
    "grant",
    "grant_group",
    "keep_only",
    "opened",
    "renew",
    "this_phone",
    "writing_phone",
]
