"""Every POST needs the form's CSRF token: without it nothing is recorded or created."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.app.helpers import Tabletop


@pytest.mark.parametrize("token", [None, "", "forged", "IjAi.Zz.bad"])
def test_a_line_without_a_valid_token_is_refused(
    tabletop: Tabletop, started: str, token: str | None
) -> None:
    data = {"version": "1", "player": "Ann", "action": "R3"}
    if token is not None:
        data["csrf_token"] = token
    response = tabletop.client.post(f"/m/{started}/line", data=data)
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    assert tabletop.logged(started) == ["start: R5"]
    assert tabletop.table(started).version == 1


def test_every_post_needs_the_token(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 1", "Ann: R3")
    posts = {
        f"/m/{started}/undo": {"version": "3"},
        f"/m/{started}/reveal": {"version": "3", "player": "Bob", "points": "10"},
        f"/m/{started}/line": {"version": "3", "player": "Bob", "action": "has 3"},
        "/new": {"players-0": "Ann", "players-1": "Bob", "dealer": "last", "target": "1000"},
        "/import": {"text": "players: Ann, Bob\n"},
    }
    for url, data in posts.items():
        response = tabletop.client.post(url, data=data)
        assert response.status_code == 400, url
    assert len(tabletop.logged(started)) == 3
    assert tabletop.match_count() == 1


def test_a_token_from_another_session_is_refused(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    stranger = Tabletop(app, app.test_client())
    token = stranger.get("/new").token
    page = tabletop.line(started, "Ann", "R3", token=token)
    assert page.status == 400
    assert tabletop.logged(started) == ["start: R5"]


def test_htmx_sends_the_token_in_a_header(tabletop: Tabletop, started: str) -> None:
    """The page puts the token in hx-headers; htmx requests carry it as X-CSRFToken."""
    import json

    page = tabletop.table(started)
    headers = json.loads(page.doc.one("body")["hx-headers"])
    response = tabletop.client.post(
        f"/m/{started}/line",
        data={**tabletop.hidden(started), "player": "Ann", "action": "R3"} | {"csrf_token": ""},
        headers=headers | {"HX-Request": "true"},
    )
    assert response.status_code == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]
