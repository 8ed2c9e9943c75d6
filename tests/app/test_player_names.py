"""Names that look the same are one player, or refused (issue 13, finding 8).

The six names of the finding, typed into the new-match form as a browser posts
them and written in an imported record: a zero-width space alone, a NUL, a
right-to-left override, "Ann" beside "Ann" and a zero-width space, é written two
ways, "Аnn" with a Cyrillic А beside "Ann". The engine refuses the first five
(engine.names); the app refuses the look-alike (companion/lookalikes.py).
"""

from __future__ import annotations

import pytest
from flask import Flask

from companion.lookalikes import look_alike, look_alike_problems
from tests.app.helpers import Page, Tabletop, dealer_field
from tests.app.test_transfer import import_file, import_text, new_id

ZWSP, NUL, RLO = "\u200b", "\x00", "\u202e"
E_ONE, E_TWO = "Jos\u00e9", "Jose\u0301"  # é as one character, and as e + combining acute
CYRILLIC_ANN = "\u0410nn"

# The players typed, the seat whose field says what is wrong, and the sentence.
FINDING_8 = [
    ([ZWSP, "Bob"], 0, "A name can't contain U+200B ZERO WIDTH SPACE: it is invisible"),
    ([f"A{NUL}nn", "Bob"], 0, "control character"),
    ([f"{RLO}Ann", "Bob"], 0, "A name can't contain U+202E RIGHT-TO-LEFT OVERRIDE"),
    (["Ann", f"Ann{ZWSP}"], 1, "A name can't contain U+200B ZERO WIDTH SPACE"),
    ([E_ONE, E_TWO], 1, "Two players can't have the same name."),
    (
        [CYRILLIC_ANN, "Ann"],
        0,
        f"'{CYRILLIC_ANN}' looks like 'Ann': its \u0410 is U+0410 CYRILLIC CAPITAL LETTER A, "
        "where 'Ann' has U+0041 LATIN CAPITAL LETTER A.",
    ),
]
IDS = ["zero-width-space", "nul", "right-to-left-override", "ann-zwsp", "e-two-ways", "cyrillic"]


def new_match(tabletop: Tabletop, players: list[str]) -> Page:
    data = tabletop.new_match_values(players, dealer="1")
    return Page(tabletop.client.post("/new", data=data))


def match_count(tabletop: Tabletop) -> int:
    return sum(len(ul.find_all("li")) for ul in tabletop.get("/").doc.find_all("ul", cls="matches"))


@pytest.mark.parametrize(("players", "seat", "sentence"), FINDING_8, ids=IDS)
def test_the_new_match_form_refuses_names_that_look_the_same(
    tabletop: Tabletop, players: list[str], seat: int, sentence: str
) -> None:
    page = new_match(tabletop, players)
    if NUL in players[0]:
        # The request guard may refuse a control character before the form sees it
        # (400); the form's own refusal is a 422 beside the field. Either says which.
        assert page.status in (400, 422) and "U+0000" in page.text
    else:
        assert page.status == 422
        field = page.doc.one("input", name=f"players-{seat}")
        row = field.ancestor("li") or field.ancestor("div")
        assert row is not None and sentence in row.text, row.text if row else page.text
    assert sentence in page.text
    # The sentences quote no invisible character (an override would turn them around).
    said = " ".join(p.text for p in page.doc.find_all("p", cls="error"))
    assert RLO not in said and NUL not in said
    assert match_count(tabletop) == 0


@pytest.mark.parametrize(("players", "seat", "sentence"), FINDING_8, ids=IDS)
def test_an_imported_record_refuses_names_that_look_the_same(
    tabletop: Tabletop, players: list[str], seat: int, sentence: str
) -> None:
    record = f"# a match\nplayers: {', '.join(players)}\nstart: R5\n"
    page = import_file(tabletop, record)
    assert page.status in (400, 422)
    if NUL not in record:
        engine_sentence = sentence.replace("A name", "name").replace(
            "Two players can't have the same name.", "Two players are called"
        )
        assert page.status == 422 and "Not imported. Line 2 [" in page.text
        assert engine_sentence.removeprefix("name ") in page.text, page.text
    assert match_count(tabletop) == 0


def test_the_names_of_one_script_are_welcome(tabletop: Tabletop) -> None:
    for players in (
        ["Анна", "Ann", "Ελένη"],
        ["田中さん", "김민준", "José"],
        ["Zoë", "O'Neil", "Mary-Ann"],
        ["Anna", "Анна"],  # two scripts, but a reader tells them apart
    ):
        match_id = tabletop.create(players, dealer=dealer_field(players, players[-1]))
        assert tabletop.state(match_id)["players"] == players


def test_a_name_typed_decomposed_is_stored_composed(tabletop: Tabletop, app: Flask) -> None:
    match_id = tabletop.create([E_TWO, "Bob"], dealer=dealer_field([E_TWO, "Bob"], "Bob"))
    assert tabletop.state(match_id)["players"] == [E_ONE, "Bob"]
    with app.app_context():
        assert tabletop.match(match_id).players == f"{E_ONE}, Bob"


def test_a_record_with_decomposed_names_imports_and_plays(tabletop: Tabletop) -> None:
    """A record saved before names were normalised (NFC) still imports, every line finds
    its player, and the table records the next play by the name as it shows it."""
    record = f"players: {E_TWO}, Bob\ndealer: Bob\nstart: R5\n{E_TWO}: R3\nBob: R7 swap {E_TWO}\n"
    match_id = new_id(tabletop, import_text(tabletop, record))
    assert tabletop.state(match_id)["players"] == [E_ONE, "Bob"]
    tabletop.play_lines(match_id, f"{E_ONE}: R1")
    exported = tabletop.client.get(f"/m/{match_id}/record.txt").get_data(as_text=True)
    assert E_TWO not in exported and f"{E_ONE}: R1" in exported


def test_look_alikes_are_found_both_ways_and_said_on_every_copy() -> None:
    assert look_alike(CYRILLIC_ANN, "Ann") and look_alike("Ann", CYRILLIC_ANN)
    assert look_alike("0scar", "Oscar") and look_alike("AI", "Al")  # a digit, I and l
    problems = look_alike_problems(["Bob", CYRILLIC_ANN, "Cy", "Ann"])
    assert problems[0] is None and problems[2] is None
    assert problems[1] is not None and problems[1].startswith(f"'{CYRILLIC_ANN}' looks like 'Ann'")
    assert problems[3] is not None and problems[3].startswith(f"'Ann' looks like '{CYRILLIC_ANN}'")
    # One player by the engine's rule is the engine's refusal, not a look-alike.
    assert look_alike("ANN", "ann") is None and look_alike(E_ONE, E_TWO) is None
    for a, b in [("Анна", "Anna"), ("José", "Jose"), ("Ann", "Anne"), ("Mia", "Mla")]:
        assert look_alike(a, b) is None, (a, b)
