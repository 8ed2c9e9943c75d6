"""A match as a table record: exported, imported (file or pasted), and refused when bad."""

from __future__ import annotations

import io

from flask import Flask

from engine.tools.cli import check_text
from tests.app.helpers import RECORDS, Form, Page, Tabletop

LONG_MATCH = """\
players: Ann, Bob, Cy, Dee
dealer: Bob
rules: stack=sum, mercy=30, target=400
start: R5
Cy: R+2
Dee: W+6 G
Ann: take
Bob: G3
Cy: WCR
Dee: roulette B 4
Ann: B5
Bob: has 2
Bob: B7 swap Cy
Cy: uno
Cy: draw 2, B1
Dee: draw 2, BDA discard 1
Ann: B0
Bob: has 1
Bob: BS
Ann: reveals 40
Cy: reveals R5 Y3 G+2 W+10 WCR
Dee: has 2
Dee: reveals Y9 Y8
hand: 2
start: Y4
"""


def import_file(tabletop: Tabletop, text: str | bytes, name: str = "match.rec") -> Page:
    page = tabletop.get("/import")
    (form,) = page.forms("/import")
    data = form.values()
    raw = text.encode() if isinstance(text, str) else text
    data["record"] = (io.BytesIO(raw), name)
    return tabletop.follow(
        tabletop.client.post("/import", data=data, content_type="multipart/form-data")
    )


def import_text(tabletop: Tabletop, text: str) -> Page:
    page = tabletop.get("/import")
    (form,) = page.forms("/import")
    data = form.values() | {"text": text}
    return tabletop.follow(tabletop.client.post("/import", data=data))


def new_id(tabletop: Tabletop, page: Page) -> str:
    assert page.status == 303, page.text[:1000]
    location = page.response.request.path
    assert location.startswith("/m/")
    return location.removeprefix("/m/")


def test_export_is_the_record(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3", "Bob: draw 2, R7 swap Ann")
    response = tabletop.client.get(f"/m/{started}/record.txt")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert started in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    assert text == (
        "players: Ann, Bob, Cy\ndealer: Cy\nstart: R5\nAnn: R3\nBob: draw 2, R7 swap Ann\n"
    )
    assert check_text(text) == (0, tabletop.state(started))


def test_round_trip_through_a_file(tabletop: Tabletop) -> None:
    played = tabletop.play_record(LONG_MATCH)
    assert played.refused_at is None, tabletop.problem(played.page)
    original = tabletop.state(played.match_id)
    assert original["hand"] == 2 and original["scores"]["Bob"] == 185

    exported = tabletop.export(played.match_id)
    page = import_file(tabletop, exported)

    copy = new_id(tabletop, page)
    assert copy != played.match_id
    assert tabletop.state(copy) == original
    assert tabletop.export(copy) == exported
    assert tabletop.logged(copy) == tabletop.logged(played.match_id)
    assert page.version == len(tabletop.logged(copy))
    assert tabletop.match_count() == 2


def test_round_trip_through_pasted_text(tabletop: Tabletop) -> None:
    played = tabletop.play_record(LONG_MATCH)
    page = import_text(tabletop, tabletop.export(played.match_id))
    copy = new_id(tabletop, page)
    assert tabletop.state(copy) == tabletop.state(played.match_id)
    # The copy plays on like the original.
    assert tabletop.line(copy, "Dee", "Y5").status == 303
    assert tabletop.state(copy)["turn"] == "Ann"


def test_a_handwritten_record_with_comments(tabletop: Tabletop) -> None:
    text = (RECORDS / "r38-next-hand.rec").read_text()
    page = import_text(tabletop, text.replace("\n", "\r\n"))
    copy = new_id(tabletop, page)
    assert tabletop.state(copy) == check_text(text)[1]
    assert not any(line.startswith("#") for line in tabletop.logged(copy))


def test_the_imported_match_is_listed(tabletop: Tabletop) -> None:
    copy = new_id(tabletop, import_text(tabletop, "players: Ann, Bob\nstart: R5\n"))
    home = tabletop.get("/")
    assert f"/m/{copy}" in [a["href"] for a in home.doc.find_all("a")]


def test_a_bad_record_is_refused_with_line_and_rule(tabletop: Tabletop) -> None:
    text = (RECORDS / "p02-match.rec").read_text()
    for page in (import_text(tabletop, text), import_file(tabletop, text)):
        assert page.status == 422
        alert = page.doc.one(cls="refused")
        assert "Line 4" in alert.text and "[match]" in alert.text
    assert tabletop.match_count() == 0


def test_a_syntax_error_is_refused(tabletop: Tabletop) -> None:
    page = import_text(tabletop, "players: Ann, Bob\nstart: R5\nAnn: R55\n")
    assert page.status == 422
    assert "Line 3" in page.text and "[syntax]" in page.text
    page = import_text(tabletop, "start: R5\n")
    assert page.status == 422 and "Line 1" in page.text
    assert tabletop.match_count() == 0


def test_nothing_to_import(tabletop: Tabletop) -> None:
    for page in (import_text(tabletop, ""), import_text(tabletop, "  \n\n")):
        assert page.status == 422
        assert "Choose a record file or paste a record" in page.text
    page = import_file(tabletop, "\xff\xfe\x00garbage".encode("latin-1"))
    assert page.status == 422 and "not UTF-8" in page.text
    assert tabletop.match_count() == 0


def test_the_import_page(tabletop: Tabletop) -> None:
    page = tabletop.get("/import")
    assert page.status == 200
    (form,) = page.forms("/import")
    assert form.node.get("enctype") == "multipart/form-data"
    assert form.node.find("input", type="file", name="record") is not None
    assert form.node.find("textarea", name="text") is not None


def test_a_quick_score_record_imports_as_quick(tabletop: Tabletop, app: Flask) -> None:
    page = import_text(tabletop, "players: Ann, Bob\nBob: out\n")
    copy = new_id(tabletop, page)
    with app.app_context():
        assert tabletop.match(copy).mode == "quick"
    assert tabletop.state(copy)["status"] == "hand_over"


def test_an_upload_too_large_is_refused(tabletop: Tabletop) -> None:
    page = import_file(tabletop, "players: Ann, Bob\n" + "# filler\n" * 300_000)
    assert page.status == 413
    assert tabletop.match_count() == 0


def test_an_unknown_record_is_a_404(tabletop: Tabletop) -> None:
    page = tabletop.get("/m/nope/record.txt")
    assert page.status == 404 and "Nothing here" in page.text


def test_a_long_file_is_refused_not_cut_short(tabletop: Tabletop) -> None:
    """A file over the record limit (1 MB) but under the upload limit is not imported
    from its first megabyte: that would silently drop the last lines."""
    text = "players: Ann, Bob\n" + "#" * 1_100_000 + "\nstart: R5\nAnn: R3\n"
    page = import_file(tabletop, text)
    assert page.status == 422
    assert "too large" in page.doc.one(cls="refused").text
    assert tabletop.match_count() == 0


def test_a_pasted_text_too_long_is_refused(tabletop: Tabletop) -> None:
    page = import_text(tabletop, "players: Ann, Bob\n" + "#" * 1_100_000 + "\n")
    assert page.status in (413, 422)
    assert tabletop.match_count() == 0


def test_names_beyond_ascii_survive_the_round_trip(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Zoë", "Jean  Luc", "名前", "R5", "Take"])
    tabletop.play_lines(match_id, "start: R5", "Zoë: R3", "Jean Luc: has 1", "jean luc: R7")
    for name in ("Zoë", "名前", "R5", "Take"):
        assert tabletop.reveal(match_id, name, points=7).status == 303
    exported = tabletop.export(match_id)
    assert exported.startswith("players: Zoë, Jean Luc, 名前, R5, Take\n")
    assert "Jean Luc: R7\n" in exported  # names keep the case they were seated with
    copy = new_id(tabletop, import_file(tabletop, exported))
    assert tabletop.state(copy) == tabletop.state(match_id)
    assert tabletop.state(copy)["scores"]["Jean Luc"] == 28
    tabletop.play_lines(copy, "hand: 2", "start: R5")
    seat = tabletop.table(copy).doc.one(cls="seats").find_all("a")[2]
    assert seat["href"].endswith("&fix=%E5%90%8D%E5%89%8D")
    fix = tabletop.get(seat["href"]).doc.one("input", id_="fix-count").ancestor("form")
    assert fix is not None and Form(fix).values()["player"] == "名前"


def test_an_imported_match_can_be_undone(tabletop: Tabletop) -> None:
    copy = new_id(tabletop, import_text(tabletop, "players: Ann, Bob\nstart: R5\nAnn: R3\n"))
    page = tabletop.undo(copy)
    assert page.status == 303
    assert tabletop.logged(copy) == ["start: R5"]
