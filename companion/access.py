"""Who may do what with a match: share links, roles kept in the signed session cookie.

An editor link records plays; a viewer link only watches. Opening a link
remembers the role for that match in the session, with the token it came
from, so revoking the links (new tokens) takes the role away everywhere.

A phone remembers at most REMEMBERED matches (a cookie holds about 4 KB), kept
in the order they were last used (created, joined, their page opened): a new
one beyond that forgets the least recently used, and Home warns which one that
would be. The session keeps them as a list, [match id, role, token] oldest
first: a JSON object's keys come back sorted, which would lose the order.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from flask import render_template, request, session
from flask_babel import gettext as _
from werkzeug.exceptions import Forbidden

from companion.matches import Match

Role = Literal["editor", "viewer"]
SESSION_KEY = "matches"
REMEMBERED = 40  # matches a phone remembers (the cookie must stay under 4 KB)


class NotAllowed(Forbidden):
    def __init__(self, title: str, message: str) -> None:
        super().__init__(message)
        self.title = title


@dataclass(frozen=True)
class Phone:
    """What this phone may do: its role in each match and the link token it came with."""

    roles: Mapping[str, Any]

    def token(self, match_id: str, kind: Role) -> str | None:
        """The `kind` token this phone holds for the match, if any: not checked against
        the match (a write checks it in its own statement, see statements.add_line)."""
        entry = self.roles.get(match_id)
        if isinstance(entry, list) and len(entry) == 2 and entry[0] == kind:
            token = entry[1]
            return token if isinstance(token, str) else None
        return None

    def role(self, match: Match) -> Role | None:
        if self.token(match.id, "editor") == match.editor_token:
            return "editor"
        if self.token(match.id, "viewer") == match.viewer_token:
            return "viewer"
        return None

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


def _roles() -> dict[str, Any]:
    """The session's matches: {id: [role, token]} in the order of use, oldest first."""
    stored = session.get(SESSION_KEY)
    if isinstance(stored, dict):  # a cookie from before the order was kept
        return dict(stored)
    if not isinstance(stored, list):
        return {}
    return {
        entry[0]: entry[1:]
        for entry in stored
        if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
    }


def _store(roles: dict[str, Any]) -> None:
    session[SESSION_KEY] = [[match_id, *entry] for match_id, entry in roles.items()]
    session.permanent = True


def this_phone() -> Phone:
    """The phone making this request, from its signed session cookie."""
    return Phone(_roles())


def grant(match: Match, kind: Role) -> None:
    """Remember the role for the match, as its most recently used one."""
    roles = {k: v for k, v in _roles().items() if k != match.id}
    token = match.editor_token if kind == "editor" else match.viewer_token
    roles[match.id] = [kind, token]
    while len(roles) > REMEMBERED:
        roles.pop(next(iter(roles)))
    _store(roles)


def opened(match_id: str) -> None:
    """The match's page was opened: it becomes the most recently used (and the
    cookie's 60 days start again)."""
    roles = _roles()
    if match_id in roles:
        roles[match_id] = roles.pop(match_id)
        _store(roles)


def keep_only(match_ids: Collection[str]) -> None:
    """Forget the matches not in `match_ids` (gone, or their links renewed: the
    tokens held can never open them again), keeping the order of the rest."""
    roles = _roles()
    kept = {k: v for k, v in roles.items() if k in match_ids}
    if len(kept) != len(roles):
        _store(kept)


def renew() -> None:
    """Start the cookie's 60 days again (on whole pages, not on every poll)."""
    if SESSION_KEY in session:
        session.modified = True


def forbidden_page(error: NotAllowed) -> tuple[str, int, dict[str, str]]:
    page = render_template("error.html", title=error.title, message=error.description)
    # htmx never swaps a 403 in (the live poller, a boosted form): the screen would
    # freeze without a word, e.g. after the links were renewed. Reload it instead:
    # the page then says why.
    headers = {"HX-Refresh": "true"} if request.headers.get("HX-Request") == "true" else {}
    return page, 403, headers


__all__ = [
    "REMEMBERED",
    "NotAllowed",
    "Phone",
    "Role",
    "forbidden_page",
    "grant",
    "keep_only",
    "opened",
    "renew",
    "this_phone",
]
