"""Who may do what with a match: share links, roles kept in the signed session cookie.

An editor link records plays; a viewer link only watches. Opening a link
remembers the role for that match in the session, with the token it came
from, so revoking the links (new tokens) takes the role away everywhere.
"""

from __future__ import annotations

from typing import Literal, Protocol

from flask import render_template, request, session
from werkzeug.exceptions import Forbidden

from companion.models import Match

Role = Literal["editor", "viewer"]
SESSION_KEY = "matches"
REMEMBERED = 40  # matches a phone remembers (the cookie must stay small)


def _roles() -> dict[str, list[str]]:
    roles = session.get(SESSION_KEY)
    return roles if isinstance(roles, dict) else {}


class Shared(Protocol):
    """What a role is checked against: a Match, or just its id and tokens."""

    @property
    def id(self) -> str: ...
    @property
    def editor_token(self) -> str: ...
    @property
    def viewer_token(self) -> str: ...


def role(match: Shared) -> Role | None:
    entry = _roles().get(match.id)
    if not isinstance(entry, list) or len(entry) != 2:
        return None
    kind, token = entry
    if kind == "editor" and token == match.editor_token:
        return "editor"
    if kind == "viewer" and token == match.viewer_token:
        return "viewer"
    return None


def held_token(match_id: str, kind: Role) -> str | None:
    """The `kind` token this phone holds for the match, if any: not checked against the
    match (a write checks it in its own statement, see statements.add_line)."""
    entry = _roles().get(match_id)
    if isinstance(entry, list) and len(entry) == 2 and entry[0] == kind:
        token = entry[1]
        return token if isinstance(token, str) else None
    return None


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


def known_match_ids() -> list[str]:
    return list(_roles())


class NotAllowed(Forbidden):
    def __init__(self, title: str, message: str) -> None:
        super().__init__(message)
        self.title = title


def require(match: Shared, kind: Role) -> Role:
    """The caller's role, if it is at least `kind`; else a 403 that says what to do."""
    have = role(match)
    if have == "editor" or (have == "viewer" and kind == "viewer"):
        return have
    if have == "viewer":
        raise NotAllowed(
            "This phone can only watch",
            "It opened the viewer link of this match, so it can't record plays, undo or "
            "score. Nothing was recorded. To record, open the editor link (ask a player "
            "who has it: it is in the Share panel).",
        )
    raise NotAllowed(
        "You need this match's link",
        "Matches are open to the phones that created them or opened one of their share "
        "links. Ask someone at the table for the link or QR code (Share panel). If you had "
        "access before, the links may have been renewed.",
    )


def forbidden_page(error: NotAllowed) -> tuple[str, int, dict[str, str]]:
    page = render_template("error.html", title=error.title, message=error.description)
    # htmx never swaps a 403 in (the live poller, a boosted form): the screen would
    # freeze without a word, e.g. after the links were renewed. Reload it instead:
    # the page then says why.
    headers = {"HX-Refresh": "true"} if request.headers.get("HX-Request") == "true" else {}
    return page, 403, headers


__all__ = ["NotAllowed", "grant", "held_token", "known_match_ids", "renew", "require", "role"]
