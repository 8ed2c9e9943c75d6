"""Quick score: hands entered as results only (out / wins, then reveals), to a match winner."""

from __future__ import annotations

from flask import Flask

from tests.app.helpers import Tabletop


def test_the_quick_panel_replaces_the_start_card(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick", target="300")
    page = tabletop.table(match_id)
    panel = page.doc.one(cls="actions")
    assert "Hand 1: who won?" in panel.text  # the winner first, one tap
    assert not any(
        (b.get("value") or "").startswith("start:") for f in page.forms() for b in f.buttons()
    )
    actions = {f.values()["action"]: [b["value"] for b in f.buttons()] for f in page.forms("/line")}
    assert actions == {"wins": ["Ann", "Bob", "Cy"]}


def test_the_losers_come_up_one_after_the_other_on_the_keypad(tabletop: Tabletop) -> None:
    """Winner first, then each loser in turn: knocked out in one tap, or points."""
    match_id = tabletop.create(["Ann", "Bob", "Cy", "Dee"], mode="quick")
    page = tabletop.press(match_id, "Bob")  # Bob won
    assert page.status == 303
    keypad = page.doc.one("form", cls="keypad-form")
    assert keypad.one("h3").text == "Ann"  # the first loser in seat order
    page = tabletop.press(match_id, text="Ann was knocked out")
    assert page.status == 303 and tabletop.logged(match_id)[-1] == "Ann: out"
    assert page.doc.one("form", cls="keypad-form").one("h3").text.split()[0] == "Cy"
    form = page.forms("/reveal")[0]
    page = tabletop.follow(
        tabletop.client.post(form.action, data=form.values() | {"points": "23"}), match_id
    )
    assert page.status == 303 and tabletop.logged(match_id)[-1] == "Cy: reveals 23"
    assert "Cy: 23 points" in page.doc.one(cls="tally").text
    page = tabletop.press(match_id, text="Dee was knocked out")
    assert page.status == 303
    assert tabletop.state(match_id)["scores"]["Bob"] == 250 + 23 + 250


def test_a_quick_match_played_to_its_winner(tabletop: Tabletop, app: Flask) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick", target="300")

    # Hand 1: Ann won, Bob was knocked out, Cy shows 35 points.
    page = tabletop.press(match_id, "Ann")
    assert page.status == 303 and page.turn == "Ann wins the hand"
    page = tabletop.press(match_id, text="Bob was knocked out")
    assert page.status == 303
    assert [f.values()["player"] for f in page.forms("/reveal")] == ["Cy"]
    page = tabletop.reveal(match_id, "Cy", points=35)
    assert page.status == 303 and page.turn == "Hand 1 scored"
    assert tabletop.state(match_id)["scores"] == {"Ann": 285, "Bob": 0, "Cy": 0}

    # Hand 2, typed as the table form sends it: Cy wins, the others reveal.
    page = tabletop.press(match_id, text="Next hand")
    assert page.status == 303 and "Hand 2: who won?" in page.doc.one(cls="actions").text
    assert tabletop.line(match_id, "Cy", "wins").status == 303
    assert tabletop.reveal(match_id, "Ann", cards="R5 W+6").status == 303
    assert tabletop.reveal(match_id, "Bob", points=20).status == 303
    assert tabletop.state(match_id)["scores"] == {"Ann": 285, "Bob": 0, "Cy": 75}

    # Hand 3: Ann wins and passes 300.
    tabletop.press(match_id, text="Next hand")
    tabletop.line(match_id, "Ann", "wins")
    tabletop.reveal(match_id, "Bob", points=10)
    page = tabletop.reveal(match_id, "Cy", points=12)

    assert page.status == 303
    assert page.turn == "Ann wins the match!"
    state = tabletop.state(match_id)
    assert state["status"] == "match_over" and state["match_winner"] == "Ann"
    assert state["scores"] == {"Ann": 307, "Bob": 0, "Cy": 75}
    board = tabletop.get(f"/m/{match_id}/scores")
    assert "Ann wins the match!" in board.doc.one(cls="celebrate").text
    assert len(board.doc.one("table", cls="hands").one("tbody").find_all("tr")) == 3
    with app.app_context():
        assert tabletop.match(match_id).status == "match_over"
    finished = tabletop.get("/")
    assert f"/m/{match_id}/scores" in [a["href"] for a in finished.doc.find_all("a")]


def test_everyone_else_out_wins_by_knockout(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick")
    tabletop.line(match_id, "Ann", "out")
    page = tabletop.line(match_id, "Bob", "out")
    assert page.status == 303
    assert tabletop.state(match_id)["scores"]["Cy"] == 500
    assert page.turn == "Hand 1 scored"


def test_quick_results_are_refused_when_they_break_a_rule(tabletop: Tabletop) -> None:
    match_id = tabletop.create(["Ann", "Bob"], mode="quick")
    assert tabletop.line(match_id, "Ann", "wins").status == 303
    page = tabletop.line(match_id, "Bob", "wins")
    assert page.status == 422 and page.rule_links() == ["hand-over"]
    page = tabletop.reveal(match_id, "Bob", points=2000)
    assert page.status == 422 and page.rule_links() == ["cards"]
    assert tabletop.logged(match_id) == ["Ann: wins"]


def test_a_referee_match_does_not_take_quick_results_once_started(
    tabletop: Tabletop, started: str
) -> None:
    page = tabletop.line(started, "Ann", "wins")
    assert page.status == 422 and page.rule_links() == ["setup"]
    assert tabletop.logged(started) == ["start: R5"]


def test_a_quick_hand_does_not_claim_card_counts(tabletop: Tabletop) -> None:
    """The app never saw a quick hand's cards: the reveal panel can't say "7 cards"."""
    match_id = tabletop.create(["Ann", "Bob", "Cy"], mode="quick")
    page = tabletop.line(match_id, "Ann", "wins")
    panel = page.doc.one(cls="actions")
    for form in page.forms("/reveal"):
        assert "7 cards" not in form.node.text  # the form's heading leaves the count out
    assert "7 cards" not in panel.text, panel.text  # ... and so should the tally above it
    # Any number of cards may be revealed in a quick hand.
    page = tabletop.reveal(match_id, "Bob", cards="R1 R2 R3 R4 R5 R6 R7 R8 R9")
    assert page.status == 303
    assert tabletop.state(match_id)["scores"]["Ann"] == 0
    page = tabletop.reveal(match_id, "Cy", points=400)
    assert tabletop.state(match_id)["scores"]["Ann"] == 445
