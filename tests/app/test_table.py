"""The table screen: whose turn, the pile, the seats, and each panel an action needs."""

from __future__ import annotations

import pytest

from tests.app.helpers import Page, Tabletop, tab_name


def line_buttons(page: Page) -> list[str]:
    return [b.get("value") or "" for f in page.forms("/line") for b in f.buttons()]


def test_a_new_hand_asks_for_the_start_card(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"])
    page = tabletop.table(match_id)
    assert page.status == 200
    assert page.turn == "Hand 1"
    assert "Cy deals. Ann plays first." in page.text
    starts = line_buttons(page)
    assert "start: R5" in starts and all(v.startswith("start: ") for v in starts)
    assert page.undo_label is None and page.recorded is None  # no line yet: nothing to undo
    assert page.doc.one(cls="status").find(cls="card") is None  # no card turned up yet

    page = tabletop.press(match_id, "start: R5")

    assert page.status == 303
    assert tabletop.logged(match_id) == ["start: R5"]
    assert page.turn == "Ann"
    assert page.doc.one(cls="status").one(cls="card")["aria-label"] == "Red 5"
    assert "Red (R)" in page.doc.one(cls="status").text
    assert page.undo_label is not None and page.undo_label.startswith("Undo: ")
    assert "Red 5" in page.undo_label


def test_only_number_cards_start_a_hand(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"])
    page = tabletop.line(match_id, "", "start: RS")
    assert page.status == 422 and page.rule_links() == ["setup"]
    assert tabletop.logged(match_id) == []


def test_whose_turn_the_seats_and_the_counts(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: R3")
    assert page.turn == "Bob"
    assert "next: Cy" in page.doc.one(cls="status").text
    seats = page.seats()
    assert list(seats) == ["Ann", "Bob", "Cy"]
    assert "6/25" in seats["Ann"] and "7/25" in seats["Bob"]
    assert page.dealer() == "Cy"
    assert page.seat_in_turn() == ["Bob"]
    assert page.doc.one(cls="status").one(cls="card")["aria-label"] == "Red 3"
    # The Playable tab opens first: only the cards the engine allows, whatever their colour.
    playable = [key["aria-label"] for key in page.doc.one(cls="keys").find_all(cls="key")]
    assert "Red 4" in playable and "Blue 3" in playable and "Wild Draw 10, naming Red" in playable
    assert "Blue 4" not in playable
    # Playable keys are buttons; the rest are dimmed, and still say why when tapped.
    blue = tabletop.tab(started, "Blue")
    dim = [b for b in blue.doc.find_all("button", cls="dim")]
    assert "B3" not in [b.get("value") for b in dim]
    assert "B4" in [b.get("value") for b in dim]
    refused = tabletop.line(started, "Bob", "B4")
    assert refused.status == 422 and refused.rule_links() == ["match"]
    assert tabletop.logged(started) == ["start: R5", "Ann: R3"]


def test_out_of_turn_is_refused_with_the_rule(tabletop: Tabletop, started: str) -> None:
    page = tabletop.line(started, "Bob", "R3")
    assert page.status == 422
    assert page.rule_links() == ["turn"]
    assert page.doc.one(cls="refused").find("a")["href"] == f"/rules?table={started}#turn"
    assert "Ann" in page.refusal.text
    assert page.version == 1 and tabletop.logged(started) == ["start: R5"]


def test_a_pending_stack_shows_the_banner_and_take(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: R+2", "Bob: R+4")
    banner = page.doc.one(cls="banner")
    assert "+6 pending: stacks +4 or more, or takes 6" in banner.text
    assert page.turn == "Cy"
    assert "take" in line_buttons(page)
    assert "Take 6" in page.doc.one(cls="take").text
    page = tabletop.press(started, "take")
    assert page.status == 303
    assert page.doc.find(cls="banner") is None
    assert "13/25" in page.seats()["Cy"]
    assert page.turn == "Ann"


def test_a_wild_on_the_playable_tab_names_its_colour_in_one_tap(
    tabletop: Tabletop, started: str
) -> None:
    """Each wild that names a colour is four keys there, one per colour."""
    page = tabletop.table(started)
    named = [b for b in line_buttons(page) if b.startswith("W+10")]
    assert named == ["W+10 R", "W+10 Y", "W+10 G", "W+10 B"]
    keys = page.doc.one(cls="keys")
    assert keys.one("button", value="W+10 G")["aria-label"] == "Wild Draw 10, naming Green"
    assert keys.one("button", value="WCR")  # the roulette names no colour: one key

    page = tabletop.press(started, "W+10 G", page=page)

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: W+10 G"
    assert "+10 pending" in page.doc.one(cls="banner").text


def test_a_wild_drawn_first_names_its_colour_in_the_same_tap(
    tabletop: Tabletop, started: str
) -> None:
    page = tabletop.table(started)
    page = tabletop.press(started, "WR+4 B", page=page, drawn="2")
    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: draw 2, WR+4 B"


def test_a_wild_asks_for_one_of_four_colours(tabletop: Tabletop, started: str) -> None:
    page = tabletop.follow_up(started, "Wild Draw 6", tab="Wild")
    assert page.status == 200
    assert line_buttons(page) == ["W+6 R", "W+6 Y", "W+6 G", "W+6 B"]
    assert "Which colour does Ann name?" in page.doc.one(cls="follow-up").text

    page = tabletop.press(started, "W+6 G", page=page)

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: W+6 G"
    assert "+6 pending" in page.doc.one(cls="banner").text


def test_a_wild_without_a_colour_is_refused(tabletop: Tabletop, started: str) -> None:
    page = tabletop.line(started, "Ann", "W+6")
    assert page.status == 422 and page.rule_links() == ["wild-color"]


def test_a_seven_shows_the_swap_targets(tabletop: Tabletop, started: str) -> None:
    page = tabletop.follow_up(started, "Red 7")
    assert line_buttons(page) == ["R7 swap Bob", "R7 swap Cy"]
    tabletop.play_lines(started, "Cy: has 3")
    page = tabletop.follow_up(started, "Red 7")
    page = tabletop.press(started, "R7 swap Cy", page=page)
    assert page.status == 303
    seats = page.seats()
    assert "3/25" in seats["Ann"] and "6/25" in seats["Cy"]
    assert tabletop.logged(started)[-1] == "Ann: R7 swap Cy"


def test_a_seven_as_the_last_card_asks_nothing(tabletop: Tabletop, started: str) -> None:
    """The bug: with one card left, the 7's key still asked for a swap partner (a 7
    played as the last card wins and swaps nothing)."""
    tabletop.play_lines(started, "Ann: has 1")
    page = tabletop.tab(started, "Red")
    _form, seven = page.form_with("R7")
    assert seven["aria-label"] == "Red 7"
    assert "data-ask" in seven.attrs  # a draw entered first makes it ask after all
    page = tabletop.press(started, "R7", page=page)
    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: R7"
    assert "wins the hand" in page.text
    # After a draw (the stepper's count, sent along), the question is asked.
    tabletop.undo(started)
    seven = tabletop.tab(started, "Red").form_with("R7")[1]
    page = tabletop.get(seven["data-ask"] + "&drawn=2")
    assert line_buttons(page) == ["R7 swap Bob", "R7 swap Cy"]


@pytest.mark.parametrize("language", ["en", "de", "es", "fr", "pt-BR"])
def test_the_dealers_badge_is_not_a_letter(tabletop: Tabletop, started: str, language: str) -> None:
    """The bug: the dealer's badge was a letter, German "G" beside the green keys,
    Spanish "R" beside the red ones. Now a picture, named for a screen reader."""
    page = tabletop.get(f"/m/{started}", headers={"Accept-Language": language})
    (badge,) = page.doc.one(cls="seats").find_all("span", cls="dealer")
    assert badge.text.strip() == "" and badge.find("svg") is not None
    assert badge["role"] == "img" and badge["aria-label"]
    assert badge.ancestor("li").one("strong").text == "Cy"


def test_a_refused_card_keeps_the_keyboard_on_its_tab(tabletop: Tabletop, started: str) -> None:
    """The bug: after a refused card the keyboard went back to the Playable tab, so the
    next try began with a tab tap."""
    page = tabletop.tab(started, "Yellow")
    page = tabletop.press(started, "Y3", page=page)
    assert page.status == 422
    assert tab_name(page.doc.one("a", cls="active")) == "Yellow"
    assert page.doc.one("a", cls="active")["aria-current"] == "true"


def test_a_discard_all_asks_how_many(tabletop: Tabletop, started: str) -> None:
    page = tabletop.follow_up(started, "Red Discard All")
    count = page.doc.one(cls="follow-up").one("input", name="count")
    assert (count["min"], count["max"], count["value"]) == ("0", "6", "0")
    assert line_buttons(page) == ["RDA discard"]

    page = tabletop.press(started, "RDA discard", page=page, count="2")

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: RDA discard 2"
    assert "4/25" in page.seats()["Ann"]


def test_the_roulette_panel(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: WCR")
    assert "Colour Roulette: names a colour" in page.doc.one(cls="banner").text
    assert page.turn == "Bob"
    # The colour first (nothing is recorded by naming it), then the count, then record.
    colours = page.doc.one("form", cls="roulette").find_all("input", type="radio")
    assert [c["value"] for c in colours] == [f"roulette {c}" for c in "RYGB"]
    assert all("checked" not in c.attrs and "required" in c.attrs for c in colours)
    assert page.doc.one("input", name="count")["value"] == "1"

    page = tabletop.press(started, text="Record the roulette", action="roulette G", count="3")

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Bob: roulette G 3"
    assert "10/25" in page.seats()["Bob"]
    assert "Green (G)" in page.doc.one(cls="status").text
    assert page.turn == "Cy"


def test_drawing_then_playing(tabletop: Tabletop, started: str) -> None:
    page = tabletop.table(started)
    stepper = page.doc.one(cls="drew").one("input", name="drawn")
    assert (stepper["value"], stepper["min"]) == ("0", "0")
    assert "draw" in line_buttons(page)  # drew and played nothing (refused under draw=until)

    page = tabletop.press(started, "R3", page=page, drawn="2")  # two taps on +, then R3

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: draw 2, R3"
    assert "8/25" in page.seats()["Ann"]
    refused = tabletop.line(started, "Bob", "draw 2")
    assert refused.status == 422 and refused.rule_links() == ["draw"]


def test_a_drawn_card_counts_for_the_follow_up(tabletop: Tabletop, started: str) -> None:
    """Ann holds one card, draws one and plays a 7: she holds two, so she swaps."""
    tabletop.play_lines(started, "Ann: has 1")
    # Her last card, played without drawing, swaps nothing: the 7's key plays it at once;
    # after a draw the phone asks its question (static/app.js), the count sent along.
    seven = tabletop.table(started).form_with("R7")[1]
    page = tabletop.get(seven["data-ask"] + "&drawn=1")
    assert line_buttons(page) == ["R7 swap Bob", "R7 swap Cy"]
    page = tabletop.press(started, "R7 swap Bob", page=page)
    assert page.status == 303, tabletop.problem(page)
    assert tabletop.logged(started)[-1] == "Ann: draw 1, R7 swap Bob"
    assert "7/25" in page.seats()["Ann"] and "1/25" in page.seats()["Bob"]


def test_uno_called_and_caught_buttons(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: has 2", "Ann: R3")
    row = page.doc.one(cls="uno-row")
    assert "Ann has one card" in row.text
    assert "uno" in line_buttons(page)
    assert "1 card!" in page.seats()["Ann"]
    caught = row.one("a", **{"aria-label": "Caught Ann without UNO"})

    page = tabletop.get(caught["href"])  # who caught her?
    assert "Ann draws 2" in page.doc.one(cls="follow-up").text
    catchers = [b["value"] for f in page.forms("/line") for b in f.buttons()]
    assert catchers == ["Bob", "Cy"]
    page = tabletop.press(started, "Bob", page=page)

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Bob: catch Ann"
    assert "3/25" in page.seats()["Ann"]
    assert page.doc.find(cls="uno-row") is None


def test_uno_called_in_time(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 2", "Ann: R3")
    page = tabletop.press(started, "uno")
    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Ann: uno"
    assert page.doc.find(cls="uno-row") is None
    assert "UNO" in page.seats()["Ann"]
    late = tabletop.line(started, "Bob", "catch Ann")
    assert late.status == 422 and late.rule_links() == ["uno"]


def test_correcting_a_count(tabletop: Tabletop, started: str) -> None:
    seat = tabletop.table(started).doc.one(cls="seats").find_all("a")[1]
    page = tabletop.get(seat["href"])  # tapping Bob's seat
    assert page.status == 200
    (form,) = [f for f in page.forms("/line") if f.values().get("player") == "Bob"]
    assert (form.values()["action"], form.values()["count"]) == ("has", "7")  # the tracked count

    data = form.values(form.buttons()[0]) | {"count": "9"}  # two taps on +
    page = tabletop.follow(tabletop.client.post(form.action, data=data), started)

    assert page.status == 303
    assert tabletop.logged(started)[-1] == "Bob: has 9"
    assert "9/25" in page.seats()["Bob"]
    assert tabletop.table(started, fix="Nobody").doc.find("input", id_="fix-count") is None


def test_the_end_of_a_hand_reveals_and_next_hand(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Ann: has 1", "Ann: R3")
    assert page.turn == "Ann wins the hand"
    reveals = page.forms("/reveal")
    assert [f.values()["player"] for f in reveals] == ["Bob", "Cy"]
    assert "Bob reveals 7 cards" in page.doc.one(cls="actions").text

    page = tabletop.reveal(started, "Bob", points=40)
    assert page.status == 303
    assert [f.values()["player"] for f in page.forms("/reveal")] == ["Cy"]
    assert "Bob: 40" in page.doc.one(cls="tally").text
    refused = tabletop.reveal(started, "Cy", cards="R5 W+6")  # Cy holds 7
    assert refused.status == 422 and refused.rule_links() == ["cards"]
    tabletop.play_lines(started, "Cy: has 2")
    page = tabletop.reveal(started, "Cy", cards="R5, W+6")
    assert page.status == 303
    assert page.turn == "Hand 1 scored"
    assert tabletop.state(started)["scores"] == {"Ann": 95, "Bob": 0, "Cy": 0}
    next_hand = page.doc.one(cls="actions")
    assert "Next hand: Ann deals" in next_hand.text
    assert "Ann scores 95" in next_hand.text  # how the score was made

    page = tabletop.press(started, text="Next hand")

    assert page.status == 303
    assert page.turn == "Hand 2"
    assert "Ann deals. Bob plays first." in page.text
    assert tabletop.logged(started)[-1] == "hand: 2"


def test_a_reveal_with_nothing_entered(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: has 1", "Ann: R3")
    page = tabletop.reveal(started, "Bob")
    assert page.status == 422
    assert "Enter Bob's cards" in page.refusal.text
    assert len(tabletop.logged(started)) == 3


def test_a_knockout_shows_on_the_seat(tabletop: Tabletop, started: str) -> None:
    page = tabletop.play_lines(started, "Bob: has 20", "Ann: W+6 B", "Bob: take")
    seats = page.seats()
    assert "OUT" in seats["Bob"]
    said = page.recorded or ""
    assert (
        said.startswith("Recorded: Bob took the stack")
        and "Bob reached 25 cards and is knocked out" in said
    )
    assert page.doc.one("section", cls="recorded").classes == ["recorded", "warning"]
    assert page.turn == "Cy"


def test_a_finished_match_offers_the_scoreboard(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"], target="50")
    page = tabletop.play_lines(match_id, "start: R5", "Ann: has 1", "Ann: R3")
    page = tabletop.reveal(match_id, "Bob", points=60)
    assert page.turn == "Ann wins the match!"
    links = [a["href"] for a in page.doc.one(cls="actions").find_all("a")]
    assert f"/m/{match_id}/scores" in links
    assert any(link.startswith("/new?players=Ann") for link in links)
    refused = tabletop.line(match_id, "", "hand: 2")
    assert refused.status == 422 and refused.rule_links() == ["hand-over"]


def test_bad_query_arguments_are_ignored(tabletop: Tabletop, started: str) -> None:
    for query in (
        {"card": "XYZ"},
        {"card": "W+6", "tab": "Q"},
        {"drawn": "lots"},
        {"drawn": "-3"},
        {"drawn": "9" * 400},
        {"fix": "ann"},
        {"tab": "W" * 1000},
    ):
        page = tabletop.table(started, **query)
        assert page.status == 200, query
        assert page.version == 1


def test_an_unknown_match_is_a_friendly_404(tabletop: Tabletop) -> None:
    for url in ("/m/nope", "/m/" + "x" * 33, "/m/" + "x" * 5000, "/m/%C3%BC", "/nowhere"):
        page = tabletop.get(url)
        assert page.status == 404, url
        assert "Nothing here" in page.text
        assert page.doc.find("a", href="/") is not None
