"""Who may do what with a match: share links, roles kept in the signed session cookie.

An editor link records plays; a viewer link only watches. Opening a link
remembers the role for that match in the session, with the token it came
from, so revoking the links (new tokens) takes the role away everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from flask import render_template, request, session
from werkzeug.exceptions import Forbidden

from companion.matches import Match

Role = Literal["editor", "viewer"]
SESSION_KEY = "matches"
REMEMBERED = 40  # matches a phone remembers (the cookie must stay small)


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
                "This phone can only watch",
                "It opened the viewer link of this match, so it can't record plays, undo "
                "or score. Nothing was recorded. To record, open the editor link (ask a "
                "player who has it: it is in the Share panel).",
            )
        raise NotAllowed(
            "You need this match's link",
            "Matches are open to the phones that created them or opened one of their "
            "share links. Ask someone at the table for the link or QR code (Share panel). "
            "If you had access before, the links may have been renewed.",
        )

    def match_ids(self) -> list[str]:
        return list(self.roles)


def _roles() -> dict[str, Any]:
    roles = session.get(SESSION_KEY)
    return roles if isinstance(roles, dict) else {}


def this_phone() -> Phone:
    """The phone making this request, from its signed session cookie."""
    return Phone(_roles())


def grant(match: Match, kind: Role) -> None:
    roles = {k: v for k, v in _roles().items() if k != match.id}
    token = match.editor_token if kind == "editor" else match.viewer_token
    roles[match.id] = [kind, token]
    while len(roles) > REMEMBERED:
        roles.pop(next(iter(roles)))
    session[SESSION_KEY] = roles
    session.permanent = True


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


__all__ = ["NotAllowed", "Phone", "Role", "forbidden_page", "grant", "renew", "this_phone"]
