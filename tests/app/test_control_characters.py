"""A control character anywhere in a request is refused with a 400 and a sentence,
before any view or query: PostgreSQL refuses a NUL in text, which answered 503 "the
database is not answering" while the database was fine (issue 13)."""

from __future__ import annotations

import io

import pytest
from flask import Flask

from tests.app.helpers import Page, Tabletop, share_tokens
from tests.app.test_transfer import LONG_MATCH, import_file, import_text

SENTENCE = "The request holds a control character (NUL, U+0000)"


def refused(page: Page, sentence: str = SENTENCE) -> bool:
    return page.status == 400 and sentence in page.text and "Traceback" not in page.html


def test_a_nul_in_a_match_id_is_a_400_not_a_503(tabletop: Tabletop, started: str) -> None:
    for url in (f"/m/{started}%00", f"/m/%00{started}/share", f"/m/{started}%00/record.txt"):
        assert refused(tabletop.get(url)), url
    assert refused(tabletop.get(f"/m/{started}/live", query_string={"v": "1\x00"}))
    assert refused(tabletop.get("/", query_string={"x\x00": "1"}))
    assert tabletop.table(started).status == 200


def test_a_nul_in_a_share_token_is_a_400(app: Flask, tabletop: Tabletop, started: str) -> None:
    editor, viewer = share_tokens(app, started)
    assert refused(tabletop.get(f"/j/{editor}%00"))
    assert refused(tabletop.get(f"/v/%00{viewer}"))
    assert tabletop.get(f"/v/{viewer}").status == 303  # the token itself still opens


def test_a_nul_in_a_form_key_or_value_is_a_400(tabletop: Tabletop) -> None:
    data = tabletop.new_match_values(("Ann", "Bob"))
    assert refused(tabletop.post("/new", data | {"players-0": "Ann\x00"}))
    assert refused(tabletop.post("/new", data | {"play\x00ers-0": "Cy"}))
    assert refused(tabletop.post("/new", data | {"house\x00": "x"}))
    assert tabletop.client.post("/new", data=data).status_code == 303  # the same form, clean


def test_a_nul_in_a_played_line_is_a_400(tabletop: Tabletop, started: str) -> None:
    form, button = tabletop.page(started).form_with("R4")
    values = form.values(button)
    before = tabletop.logged(started)
    for key in values:
        bad = values | {key: values[key] + "\x00"}
        assert refused(tabletop.post(form.action, bad)), key
    assert tabletop.logged(started) == before


@pytest.mark.parametrize("how", [import_file, import_text])
def test_a_nul_in_an_imported_record_is_a_400(tabletop: Tabletop, how: object) -> None:
    for bad in (LONG_MATCH.replace("Ann", "A\x00nn", 1), LONG_MATCH.replace("R5", "R5\x00")):
        assert refused(how(tabletop, bad))  # type: ignore[operator]
    assert how(tabletop, LONG_MATCH).status == 303  # type: ignore[operator]


def test_a_nul_in_an_uploaded_files_name_is_a_400(tabletop: Tabletop) -> None:
    (form,) = tabletop.get("/import").forms("/import")
    data = form.values() | {"record": (io.BytesIO(b"players: Ann, Bob\n"), "m\x00.rec")}
    page = Page(tabletop.client.post("/import", data=data, content_type="multipart/form-data"))
    assert refused(page)


@pytest.mark.parametrize(
    ("character", "named"), [("\x1b", "ESC, U+001B"), ("\x7f", "DEL, U+007F"), ("\x0b", "VT")]
)
def test_other_controls_are_named_too(tabletop: Tabletop, character: str, named: str) -> None:
    data = tabletop.new_match_values(("Ann", "Bob"))
    page = tabletop.post("/new", data | {"players-1": f"Bob{character}"})
    assert refused(page, f"The request holds a control character ({named}")


def test_tabs_and_line_breaks_in_a_pasted_record_are_fine(tabletop: Tabletop) -> None:
    text = "players: Ann, Bob\r\ndealer:\tBob\r\n"
    page = import_text(tabletop, text)
    assert page.status != 400 and "control character" not in page.text
