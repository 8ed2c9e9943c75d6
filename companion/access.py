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
their own (GROUPS_KEY, at most REMEMBERED_GROUPS). One path for both: each shared thing
says its `Kind` (`Match.shared_as`, `Group.shared_as`), and `Phone.role`,
`Phone.require` and `grant` take either. A group's matches are opened through the
group: its editors become editors of the match, its viewers viewers (grant), so the
match's own links and checks stay as they are.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol

from flask import render_template, request, session
from flask_babel import gettext as _
from werkzeug.exceptions import Forbidden

Role = Literal["editor", "viewer"]
SESSION_KEY = "matches"
REMEMBERED = 40  # matches a phone remembers (the cookie must stay under 4 KB)
GROUPS_KEY = "groups"
REMEMBERED_GROUPS = 8  # groups a phone remembers, beside its matches (the same cookie)
# The phone's own id, random, written with each line it records (match_line.phone): a
# table tells its own lines from another phone's. Not a secret, not a person: a new
# cookie is a new phone.
PHONE_KEY = "phone"


class Kind(Enum):
    """What is shared by link: each kind kept in a list of its own in the session (its
    value is the session's key)."""

    MATCH = SESSION_KEY
    GROUP = GROUPS_KEY

    @property
    def remembered(self) -> int:
        """How many of this kind a phone remembers."""
        return REMEMBERED if self is Kind.MATCH else REMEMBERED_GROUPS


class Shared(Protocol):
    """Something with share links: a match, a group (each says its kind)."""

    shared_as: ClassVar[Kind]

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
    """What this phone may do: its role in each match and group, and the link token it
    came with."""

    roles: Mapping[str, Any]  # the matches
    groups: Mapping[str, Any] = field(default_factory=dict)  # the same, for groups
    id: str | None = None  # PHONE_KEY: None until it records or gets a role

    def held(self, kind: Kind) -> Mapping[str, Any]:
        """{id: [role, token]} of the matches or the groups, the least recently used
        first."""
        return self.roles if kind is Kind.MATCH else self.groups

    def token(self, match_id: str, kind: Role) -> str | None:
        """The `kind` token this phone holds for the match, if any: not checked against
        the match (a write checks it in its own statement, see statements.add_line)."""
        return _token(self.roles, match_id, kind)

    def role(self, shared: Shared) -> Role | None:
        """Its role in the match or group, if the tokens it holds still open it."""
        held = self.held(shared.shared_as)
        if _token(held, shared.id, "editor") == shared.editor_token:
            return "editor"
        if _token(held, shared.id, "viewer") == shared.viewer_token:
            return "viewer"
        return None

    def require(self, shared: Shared, need: Role) -> Role:
        """The phone's role, if it is at least `need`; else a 403 that says what to do."""
        have = self.role(shared)
        if have == "editor" or (have == "viewer" and need == "viewer"):
            return have
        raise _refusal(shared.shared_as, have)

    def ids(self, kind: Kind) -> list[str]:
        """The matches (or groups) it remembers, the least recently used first."""
        return list(self.held(kind))

    def match_ids(self) -> list[str]:
        return self.ids(Kind.MATCH)

    def is_full(self) -> bool:
        """Would one more match make it forget one?"""
        return len(self.roles) >= REMEMBERED


def _refusal(kind: Kind, have: Role | None) -> NotAllowed:
    """The 403 for a phone that can only look (`have` viewer) or has no link at all."""
    if kind is Kind.GROUP:
        if have == "viewer":
            return NotAllowed(
                _("This phone can only look"),
                _(
                    "It opened the viewer link of this group, so it can't change the players "
                    "or start matches. Nothing was changed. Ask a player for the group's "
                    "editor link."
                ),
            )
        return NotAllowed(
            _("You need this group's link"),
            _(
                "Groups are open to the phones that created them or opened one of their "
                "share links. Ask someone in the group for the link or QR code. If you had "
                "access before, the links may have been renewed."
            ),
        )
    if have == "viewer":
        return NotAllowed(
            _("This phone can only watch"),
            _(
                "It opened the viewer link of this match, so it can't record plays, undo "
                "or score. Nothing was recorded. To record, open the editor link (ask a "
                "player who has it: it is in the Share panel)."
            ),
        )
    return NotAllowed(
        _("You need this match's link"),
        _(
            "Matches are open to the phones that created them or opened one of their "
            "share links. Ask someone at the table for the link or QR code (Share panel). "
            "If you had access before, the links may have been renewed."
        ),
    )


def _token(roles: Mapping[str, Any], key: str, kind: Role) -> str | None:
    entry = roles.get(key)
    if isinstance(entry, list) and len(entry) == 2 and entry[0] == kind:
        token = entry[1]
        return token if isinstance(token, str) else None
    return None


def _roles(kind: Kind = Kind.MATCH, held: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The session's matches (or groups): {id: [role, token]} in the order of use,
    oldest first (`held`: a session read from its cookie elsewhere)."""
    stored = (session if held is None else held).get(kind.value)
    if isinstance(stored, dict):  # a cookie from before the order was kept
        return dict(stored)
    if not isinstance(stored, list):
        return {}
    return {
        entry[0]: entry[1:]
        for entry in stored
        if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
    }


def _store(roles: dict[str, Any], kind: Kind = Kind.MATCH) -> None:
    session[kind.value] = [[shared_id, *entry] for shared_id, entry in roles.items()]
    session.permanent = True


def this_phone() -> Phone:
    """The phone making this request, from its signed session cookie."""
    phone_id = session.get(PHONE_KEY)
    return Phone(_roles(), _roles(Kind.GROUP), phone_id if isinstance(phone_id, str) else None)


def phone_from(held: Mapping[str, Any]) -> Phone:
    """The phone whose session (read from its cookie outside a request: an unchanged
    poll, companion/quiet_polls.py) is `held`."""
    phone_id = held.get(PHONE_KEY)
    return Phone(
        _roles(Kind.MATCH, held),
        _roles(Kind.GROUP, held),
        phone_id if isinstance(phone_id, str) else None,
    )


def writing_phone() -> Phone:
    """The phone making this request, about to record: with an id of its own (a cookie
    from before phones had one gets one now)."""
    phone = this_phone()
    if phone.id is not None:
        return phone
    session[PHONE_KEY] = secrets.token_urlsafe(6)
    return this_phone()


def grant(shared: Shared, role: Role) -> None:
    """Remember the role for the match or group, as its most recently used one."""
    kind = shared.shared_as
    roles = {k: v for k, v in _roles(kind).items() if k != shared.id}
    token = shared.editor_token if role == "editor" else shared.viewer_token
    roles[shared.id] = [role, token]
    if not isinstance(session.get(PHONE_KEY), str):
        session[PHONE_KEY] = secrets.token_urlsafe(6)
    while len(roles) > kind.remembered:
        roles.pop(next(iter(roles)))
    _store(roles, kind)


def opened(match_id: str) -> None:
    """The match's page was opened: it becomes the most recently used (and the
    cookie's 60 days start again)."""
    roles = _roles()
    if match_id in roles:
        roles[match_id] = roles.pop(match_id)
        _store(roles)


def keep_only(ids: Collection[str], kind: Kind = Kind.MATCH) -> None:
    """Forget the matches (or groups) not in `ids` (gone, or their links renewed: the
    tokens held can never open them again), keeping the order of the rest."""
    roles = _roles(kind)
    kept = {k: v for k, v in roles.items() if k in ids}
    if len(kept) != len(roles):
        _store(kept, kind)


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
    "Kind",
    "NotAllowed",
    "Phone",
    "Role",
    "Shared",
    "forbidden_page",
    "grant",
    "keep_only",
    "opened",
    "renew",
    "this_phone",
    "writing_phone",
]
