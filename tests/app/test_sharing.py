"""Share links: an editor link records, a viewer link watches, no link sees nothing.

Roles live in the signed session cookie, tied to the link's token: renewing the
links takes them away from every phone that came through the old ones.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import segno
import sqlalchemy as sa
from flask import Flask

from companion.extensions import db
from tests.app.helpers import Node, Page, Tabletop, page_token, phone, share_tokens

# ---------------------------------------------------------------- helpers


def share_links(page: Page) -> dict[str, tuple[str, Node]]:
    """The share panel's links: title -> (the URL shown, the QR code's <svg>)."""
    out = {}
    for section in page.doc.find_all("section", cls="share"):
        title = section.one("h2").text
        url = section.one("a", cls="link")["href"]
        assert section.one("a", cls="link").text == url  # the URL is shown as it is
        out[title] = (url, section.one(cls="qr").one("svg"))
    return out


def qr_modules(svg: Node) -> set[tuple[int, int]]:
    """The dark modules (row, column) an inline segno SVG draws, its quiet zone removed.

    segno draws each row's dark runs as one path of relative moves: M x y, m dx dy, h n.
    """
    (path,) = [p for p in svg.find_all("path") if p.get("stroke")]
    x = y = 0.0
    dark: set[tuple[float, float]] = set()
    for op, a, b in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:\s+(-?[\d.]+))?", path["d"]):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            run = float(a) if op == "h" else float(a) - x
            dark.update((y, x + i) for i in range(int(run)))
            x += run
    border = min(col for _, col in dark)  # the finder pattern starts the first dark row
    return {(int(row - 0.5 - border), int(col - border)) for row, col in dark}


def encodes(svg: Node, url: str) -> bool:
    """The QR code is `url`'s, at some error-correction level."""
    drawn = qr_modules(svg)
    for level in "lmqh":
        matrix = segno.make(url, error=level).matrix
        wanted = {(r, c) for r, row in enumerate(matrix) for c, bit in enumerate(row) if bit}
        if drawn == wanted:
            return True
    return False


def write_forms(page: Page) -> list[str]:
    """Actions of the forms that would change the match."""
    return [
        f.action.split("?")[0]
        for f in page.forms()
        if re.search(r"/(line|undo|reveal|share/renew)$", f.action.split("?")[0])
    ]


def fix_links(page: Page) -> list[str]:
    return [a["href"] for a in page.doc.find_all("a") if "fix=" in (a.get("href") or "")]


def home_links(client_page: Page) -> set[str]:
    return {
        href
        for a in client_page.doc.find_all("a")
        if re.fullmatch(r"/m/[\w-]+(/scores)?", href := a.get("href") or "")
    }


def match_of(href: str) -> str:
    return href.split("/")[2]


# ---------------------------------------------------------------- the share panel


def test_the_editor_sees_both_links_with_qr_codes(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    editor, viewer = share_tokens(app, started)
    page = tabletop.get(f"/m/{started}/share")
    assert page.status == 200

    links = share_links(page)
    assert list(links) == ["Editor link", "Viewer link"]
    (editor_url, editor_qr), (viewer_url, viewer_qr) = links.values()
    for url in (editor_url, viewer_url):
        parts = urlsplit(url)
        assert parts.scheme == "http" and parts.netloc == "localhost", url  # absolute
    assert urlsplit(editor_url).path == f"/j/{editor}"
    assert urlsplit(viewer_url).path == f"/v/{viewer}"
    # Each QR code is inline (no image to fetch) and encodes exactly the link shown.
    assert page.doc.find("img") is None
    assert encodes(editor_qr, editor_url) and encodes(viewer_qr, viewer_url)
    assert not encodes(editor_qr, viewer_url)
    # The editor may renew the links.
    assert write_forms(page) == [f"/m/{started}/share/renew"]


def test_a_viewer_sees_only_the_viewer_link(app: Flask, started: str) -> None:
    editor, viewer = share_tokens(app, started)
    watcher = phone(app, f"/v/{viewer}")
    page = watcher.get(f"/m/{started}/share")
    assert page.status == 200
    links = share_links(page)
    assert list(links) == ["Viewer link"]
    url, qr = links["Viewer link"]
    assert urlsplit(url).path == f"/v/{viewer}" and encodes(qr, url)
    assert editor not in page.html
    assert write_forms(page) == []
    assert "renew" not in page.html.lower() and "Make new links" not in page.html


# ---------------------------------------------------------------- the links


def test_the_editor_link_makes_an_editor(app: Flask, tabletop: Tabletop, started: str) -> None:
    editor, _ = share_tokens(app, started)
    other = phone(app)
    response = other.client.get(f"/j/{editor}")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/m/{started}"
    page = other.table(started)
    assert page.status == 200 and page.version == 1
    assert f"/m/{started}/line" in write_forms(page) and f"/m/{started}/undo" in write_forms(page)
    assert other.line(started, "Ann", "R3").status == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_the_viewer_link_makes_a_viewer(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    _, viewer = share_tokens(app, started)
    watcher = phone(app, f"/v/{viewer}")
    page = watcher.table(started)
    assert page.status == 200 and page.version == 2
    assert page.turn == "Bob"
    # It follows the table live...
    poller = page.table.one(cls="live")
    assert poller["hx-get"].startswith(f"/m/{started}/live?")
    assert "every" in poller["hx-trigger"]
    # ...and has nothing to record with: no action form, no undo, no count to correct.
    assert page.forms() == []
    assert fix_links(page) == []
    assert "Watching" in page.doc.one(cls="actions").text
    assert page.doc.find(cls="undo-bar") is None
    # It can read the rest: the scoreboard and the record.
    assert watcher.get(f"/m/{started}/scores").status == 200
    assert watcher.export(started).splitlines()[-1] == "Ann: R3"


def test_the_viewer_table_offers_nothing_to_write_in_any_state(app: Flask) -> None:
    """A finished quick match and one waiting for reveals: still no form for the viewer."""
    owner = phone(app)
    quick = owner.create(["Ann", "Bob"], mode="quick", target="50")
    scoring = owner.create(["Cy", "Dee"], mode="quick")
    owner.line(scoring, "Cy", "wins")
    owner.line(quick, "Ann", "wins")
    owner.reveal(quick, "Bob", points=60)
    for match_id in (quick, scoring):
        assert owner.table(match_id).forms(), match_id  # the editor has something to do
        watcher = phone(app, f"/v/{share_tokens(app, match_id)[1]}")
        page = watcher.table(match_id)
        assert page.forms() == [] and fix_links(page) == [], match_id


def test_a_viewer_can_write_nothing(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 1", "Ann: R3")  # Ann won: reveals are due
    editor, viewer = share_tokens(app, started)
    before = tabletop.logged(started)
    watcher = phone(app, f"/v/{viewer}")
    page = watcher.table(started)
    token = page_token(page)  # a valid CSRF token: the refusal is about the role
    common = {"csrf_token": token, "version": str(page.version), "key": "k1"}
    posts = {
        f"/m/{started}/line": common | {"player": "Bob", "action": "has 3"},
        f"/m/{started}/undo": common,
        f"/m/{started}/reveal": common | {"player": "Bob", "points": "10"},
        f"/m/{started}/share/renew": {"csrf_token": token},
    }
    for url, data in posts.items():
        for headers in ({}, {"HX-Request": "true"}):
            refused = Page(watcher.client.post(url, data=data, headers=headers))
            assert refused.status == 403, url
            assert "This phone can only watch" in refused.text, url
            assert "Nothing was recorded" in refused.text, url
            assert "editor link" in refused.text, url
            # htmx does not swap a 403 in: it is told to reload the screen instead.
            assert refused.response.headers.get("HX-Refresh") == ("true" if headers else None)
    assert tabletop.logged(started) == before
    with app.app_context(), db.engine.connect() as conn:
        used = conn.execute(sa.text("SELECT key FROM used_key WHERE match_id = :m"), {"m": started})
        assert "k1" not in set(used.scalars())
    assert share_tokens(app, started) == (editor, viewer)
    # Still a viewer, still watching.
    assert watcher.table(started).status == 200


def test_an_editor_opening_the_viewer_link_stays_an_editor(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    _, viewer = share_tokens(app, started)
    assert tabletop.client.get(f"/v/{viewer}").status_code == 303
    assert tabletop.line(started, "Ann", "R3").status == 303


def test_a_viewer_opening_the_editor_link_becomes_an_editor(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    editor, viewer = share_tokens(app, started)
    other = phone(app, f"/v/{viewer}")
    assert other.table(started).forms() == []
    assert other.client.get(f"/j/{editor}").status_code == 303
    assert other.table(started).forms("/line")  # the screen now has the forms
    assert other.line(started, "Ann", "R3").status == 303


# ---------------------------------------------------------------- no link


@pytest.mark.parametrize("path", ["", "/live", "/live?v=0", "/scores", "/record.txt", "/share"])
def test_no_link_no_match(app: Flask, started: str, path: str) -> None:
    stranger = phone(app)
    page = stranger.get(f"/m/{started}{path}")
    assert page.status == 403
    assert "You need this match's link" in page.text
    assert "Ask someone at the table for the link" in page.text
    assert "Traceback" not in page.html and "Forbidden" not in page.doc.one("h1").text
    assert page.doc.find(id_="table") is None
    assert "Ann" not in page.text  # not even the players' names


def test_no_link_can_write_nothing(app: Flask, tabletop: Tabletop, started: str) -> None:
    stranger = phone(app)
    token = page_token(stranger.get("/"))
    data = {"csrf_token": token, "version": "1", "player": "Ann", "action": "R3"}
    for url in ("/line", "/undo", "/reveal", "/share/renew"):
        page = Page(stranger.client.post(f"/m/{started}{url}", data=data))
        assert page.status == 403, url
        assert "You need this match's link" in page.text
    assert tabletop.logged(started) == ["start: R5"]


@pytest.mark.parametrize("kind", ["j", "v"])
def test_unknown_and_mistyped_links_are_refused(
    app: Flask, tabletop: Tabletop, started: str, kind: str
) -> None:
    editor, viewer = share_tokens(app, started)
    real = editor if kind == "j" else viewer
    other = editor if kind == "v" else viewer
    mistyped = real[:-1] + ("A" if real[-1] != "A" else "B")
    for token in (
        "nonsense",
        mistyped,
        real.upper() if real.upper() != real else real + "x",
        other,
        "x" * 500,
    ):
        stranger = phone(app)
        page = stranger.get(f"/{kind}/{token}")
        assert page.status == 403, token
        assert "This link doesn't work" in page.text
        assert "mistyped" in page.text and "renewed" in page.text
        assert stranger.get(f"/m/{started}").status == 403  # and it gave no role


def test_an_unknown_match_id(tabletop: Tabletop) -> None:
    page = tabletop.get("/m/no-such-match")
    assert page.status == 404 and "There is no such match" in page.text


# ---------------------------------------------------------------- renewing


def test_renewing_the_links(app: Flask, tabletop: Tabletop, started: str) -> None:
    old_editor, old_viewer = share_tokens(app, started)
    joined = phone(app, f"/j/{old_editor}")
    watcher = phone(app, f"/v/{old_viewer}")
    assert joined.table(started).status == 200 and watcher.table(started).status == 200

    panel = tabletop.get(f"/m/{started}/share")
    (form,) = panel.forms("/share/renew")
    response = tabletop.client.post(form.action, data=form.values())
    assert response.status_code == 303
    assert response.headers["Location"] == f"/m/{started}/share"
    page = tabletop.follow(response)
    assert any("New links made" in n for n in page.notices)

    new_editor, new_viewer = share_tokens(app, started)
    assert {new_editor, new_viewer}.isdisjoint({old_editor, old_viewer})
    assert new_editor != new_viewer
    urls = {title: url for title, (url, _) in share_links(page).items()}
    assert urlsplit(urls["Editor link"]).path == f"/j/{new_editor}"
    assert urlsplit(urls["Viewer link"]).path == f"/v/{new_viewer}"

    # The phones that came through the old links lose the match, for reading and writing.
    for other in (joined, watcher):
        for path in ("", "/live?v=1", "/scores", "/record.txt", "/share"):
            refused = other.get(f"/m/{started}{path}")
            assert refused.status == 403, path
            assert "the links may have been renewed" in refused.text
        assert home_links(other.get("/")) == set()
    refused = joined.line(started, "Ann", "R3", token=page_token(joined.get("/")), version=1)
    assert refused.status == 403
    # The old links themselves stop working, even for a new phone.
    for link in (f"/j/{old_editor}", f"/v/{old_viewer}"):
        page = phone(app).get(link)
        assert page.status == 403 and "This link doesn't work" in page.text
        assert joined.get(link).status == 403
    # The phone that renewed stays an editor.
    assert tabletop.line(started, "Ann", "R3").status == 303
    # The new links work.
    new_joined = phone(app, f"/j/{new_editor}")
    assert new_joined.line(started, "Bob", "R4").status == 303
    new_watcher = phone(app, f"/v/{new_viewer}")
    page = new_watcher.table(started)
    assert page.status == 200 and page.version == 3 and page.forms() == []
    # The phones of the old links come back by opening the new ones.
    assert joined.client.get(f"/j/{new_editor}").status_code == 303
    assert joined.table(started).version == 3
    assert joined.line(started, "Cy", "R6").status == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3", "Bob: R4", "Cy: R6"]


def test_renewing_twice_keeps_only_the_newest_links(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    seen = [share_tokens(app, started)]
    for _ in range(2):
        (form,) = tabletop.get(f"/m/{started}/share").forms("/share/renew")
        assert tabletop.client.post(form.action, data=form.values()).status_code == 303
        seen.append(share_tokens(app, started))
    assert len({t for pair in seen for t in pair}) == 6
    for editor, viewer in seen[:-1]:
        assert phone(app).get(f"/j/{editor}").status == 403
        assert phone(app).get(f"/v/{viewer}").status == 403
    assert phone(app, f"/j/{seen[-1][0]}").table(started).status == 200


# ---------------------------------------------------------------- the home page


def test_home_lists_only_this_phones_matches(app: Flask) -> None:
    ann, bob, stranger = phone(app), phone(app), phone(app)
    first = ann.create(["Ann", "Bob"])
    second = bob.create(["Cy", "Dee"])
    third = bob.create(["Eve", "Fay"])
    assert {match_of(h) for h in home_links(ann.get("/"))} == {first}
    assert {match_of(h) for h in home_links(bob.get("/"))} == {second, third}
    assert home_links(stranger.get("/")) == set()
    assert "Eve, Fay" not in ann.get("/").text and "Ann, Bob" not in bob.get("/").text

    # Opening a link adds the match, whichever the role.
    assert bob.client.get(f"/v/{share_tokens(app, first)[1]}").status_code == 303
    assert ann.client.get(f"/j/{share_tokens(app, third)[0]}").status_code == 303
    assert {match_of(h) for h in home_links(bob.get("/"))} == {first, second, third}
    assert {match_of(h) for h in home_links(ann.get("/"))} == {first, third}
    assert home_links(stranger.get("/")) == set()

    # Renewed links take the match off the home page of the phones that used them.
    (form,) = bob.get(f"/m/{third}/share").forms("/share/renew")
    assert bob.client.post(form.action, data=form.values()).status_code == 303
    assert {match_of(h) for h in home_links(ann.get("/"))} == {first}
    assert {match_of(h) for h in home_links(bob.get("/"))} == {first, second, third}


# ---------------------------------------------------------------- CSRF


def test_a_post_without_the_token_is_refused(app: Flask, tabletop: Tabletop, started: str) -> None:
    tokens = share_tokens(app, started)
    data = {"version": "1", "key": "no-token", "player": "Ann", "action": "R3"}
    for url, form in (
        (f"/m/{started}/line", data),
        (f"/m/{started}/undo", {"version": "1"}),
        (f"/m/{started}/share/renew", {}),
    ):
        for headers in ({}, {"HX-Request": "true"}):
            page = Page(tabletop.client.post(url, data=form, headers=headers))
            assert page.status == 400, url
            assert "This form has expired" in page.text and "nothing was recorded" in page.text
    assert tabletop.logged(started) == ["start: R5"]
    assert share_tokens(app, started) == tokens


def test_the_token_in_the_htmx_header_is_enough(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    page = tabletop.table(started)
    header = {"X-CSRFToken": page_token(page), "HX-Request": "true"}
    assert page_token(page) == page.token  # the header carries the forms' token
    hidden = tabletop.hidden(started) | {"csrf_token": ""}  # the header's token only
    data = hidden | {"key": "htmx-1", "player": "Ann", "action": "R3"}
    response = tabletop.client.post(f"/m/{started}/line", data=data, headers=header)
    assert response.status_code == 303
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]

    tabletop.table(started)
    hidden = tabletop.hidden(started) | {"csrf_token": ""}
    response = tabletop.client.post(f"/m/{started}/undo", data=hidden, headers=header)
    assert response.status_code == 303
    assert tabletop.logged(started) == ["start: R5"]

    tokens = share_tokens(app, started)
    response = tabletop.client.post(f"/m/{started}/share/renew", headers=header)
    assert response.status_code == 303
    assert share_tokens(app, started) != tokens
    # A wrong header is no better than none.
    bad = header | {"X-CSRFToken": "forged"}
    response = tabletop.client.post(f"/m/{started}/line", data=data | {"key": "h2"}, headers=bad)
    assert response.status_code == 400
    assert tabletop.logged(started) == ["start: R5"]
