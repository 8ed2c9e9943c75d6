"""The match's log as a page: every line in plain sentences, hand by hand, oldest first.

Anyone who can see the table can read it (editor and viewer links alike), a stranger
can't; htmx gets the page's content alone, to open it as a panel.
"""

from __future__ import annotations

import time

from flask import Flask

from engine import Game, HouseRules, describe, score_breakdown, whose_turn
from engine.tools.simulator import Simulation
from tests.app.helpers import Node, Page, Tabletop, a_line_from_elsewhere, phone, share_tokens

HTMX = {"HX-Request": "true"}
# Hand 1 (Cy deals): Ann goes out with her last card, Bob and Cy reveal, which scores
# it. Hand 2: the deal passes to Ann, Bob plays first.
TWO_HANDS = (
    "start: R5",
    "Ann: has 1",
    "Ann: R3",
    "Bob: reveals 20",
    "Cy: reveals G4 B7 R1 R2 G3 Y1 Y2",
    "hand: 2",
    "start: G2",
    "Bob: G9",
)


def hands(page: Page) -> dict[str, Node]:
    """The page's hand sections, by id."""
    return {s["id"]: s for s in page.doc.find_all("section", cls="log-hand")}


def sentences(section: Node) -> list[str]:
    return [li.text for li in section.one("ol").find_all("li")]


def expected_sentences(match_lines: list[str]) -> list[str]:
    """The engine's own sentence for each line of a Ann, Bob, Cy match dealt by Cy."""
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    for text in match_lines:
        game.apply(text)
    return [describe(*step) for step in game.steps()]


def a_played_match(tabletop: Tabletop, *lines: str) -> str:
    match_id = tabletop.create(("Ann", "Bob", "Cy"))
    tabletop.play_lines(match_id, *lines)
    return match_id


# ---------------------------------------------------------------- who may read it


def test_the_editor_reads_the_log_as_a_page(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    page = tabletop.get(f"/m/{started}/log")
    assert page.status == 200
    assert page.doc.find("html") is not None
    assert page.doc.one("h1").text == "Log of the match"
    (hand,) = hands(page).values()
    assert sentences(hand) == expected_sentences(["start: R5", "Ann: R3"])
    # Back to the table at the top and the bottom; the record stays a download.
    back = [a for a in page.doc.find_all("a") if a.text == "Back to the table"]
    assert [a["href"] for a in back] == [f"/m/{started}"] * 2
    links = page.doc.one("main").find_all("a")
    assert links[0] is back[0] and links[-1] is back[1]
    assert page.doc.one("a", href=f"/m/{started}/record.txt").text == "Download the record"


def test_a_viewer_link_reads_the_log_too(app: Flask, tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    watcher = phone(app, f"/v/{share_tokens(app, started)[1]}")
    page = watcher.get(f"/m/{started}/log")
    assert page.status == 200
    assert sentences(hands(page)["hand-1"]) == sentences(
        hands(tabletop.get(f"/m/{started}/log"))["hand-1"]
    )
    assert page.forms() == []  # nothing to write with on the log
    fragment = watcher.get(f"/m/{started}/log", headers=HTMX)
    assert fragment.status == 200 and "hand-1" in hands(fragment)


def test_another_editor_link_reads_the_log(app: Flask, started: str) -> None:
    player = phone(app, f"/j/{share_tokens(app, started)[0]}")
    assert player.get(f"/m/{started}/log").status == 200
    assert player.get(f"/m/{started}/log", headers=HTMX).status == 200


def test_a_stranger_is_refused(app: Flask, started: str) -> None:
    stranger = phone(app)
    page = stranger.get(f"/m/{started}/log")
    assert page.status == 403
    assert "You need this match's link" in page.text
    assert "R5" not in page.text and "Red 5" not in page.text
    refused = stranger.client.get(f"/m/{started}/log", headers=HTMX)
    assert refused.status_code == 403
    assert refused.headers.get("HX-Refresh") == "true"  # htmx reloads: the page says why


def test_the_links_renewed_lock_the_old_viewer_out(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    watcher = phone(app, f"/v/{share_tokens(app, started)[1]}")
    tabletop.press(started, page=tabletop.get(f"/m/{started}/share"), text="Make new links")
    assert watcher.get(f"/m/{started}/log").status == 403


def test_an_unknown_match_is_not_found(tabletop: Tabletop) -> None:
    for headers in ({}, HTMX):
        page = tabletop.get("/m/no-such-match/log", headers=headers)
        assert page.status == 404
        assert "Nothing here" in page.text


# ---------------------------------------------------------------- the fragment


def test_htmx_gets_the_pages_content_alone(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    whole = tabletop.get(f"/m/{started}/log")
    fragment = tabletop.get(f"/m/{started}/log", headers=HTMX)
    assert fragment.status == 200
    for tag in ("html", "head", "body", "main"):
        assert fragment.doc.find(tag) is None, tag
    assert "<html" not in fragment.html.lower()
    # The same content as the page's: its log section, word for word.
    assert fragment.doc.one("section", cls="match-log").text == (
        whole.doc.one("section", cls="match-log").text
    )
    assert fragment.response.headers["Vary"].count("HX-Request") == 1


def test_a_boosted_link_gets_the_whole_page(tabletop: Tabletop, started: str) -> None:
    """A boosted link swaps in a whole page: it must get one."""
    page = tabletop.get(f"/m/{started}/log", headers=HTMX | {"HX-Boosted": "true"})
    assert page.status == 200 and page.doc.find("html") is not None


# ---------------------------------------------------------------- hand by hand


def test_the_log_is_grouped_by_hand_oldest_first(tabletop: Tabletop) -> None:
    lines = TWO_HANDS
    match_id = a_played_match(tabletop, *lines)
    page = tabletop.get(f"/m/{match_id}/log")
    by_id = hands(page)
    assert list(by_id) == ["hand-1", "hand-2"]
    first, second = by_id.values()
    assert first.one("h2").text == "Hand 1 dealt by Cy"
    assert second.one("h2").text == "Hand 2 dealt by Ann"  # the deal passes to the left
    every = expected_sentences(list(lines))
    # Hand 1: the dealer, its play and its reveals, the last of which scores it.
    assert sentences(first) == every[:6]
    assert sentences(first)[0] == "Cy deals hand 1."
    assert "Hand scored" in sentences(first)[-1]
    # Hand 2 opens with its own header line.
    assert sentences(second) == every[6:]
    assert sentences(second)[0].startswith("Hand 2: Ann deals")
    # The scored hand says how its points were made, in the engine's words.
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    for text in lines[:5]:
        game.apply(text)
    assert first.one(cls="log-result").text == f"Scored. {score_breakdown(game.state)}"
    assert second.find(cls="log-result") is None  # still in play
    # One tap to the latest play: the last line of the last hand.
    jump = page.doc.one("a", href="#latest")
    assert jump.text == "Jump to the latest"
    (latest,) = page.doc.find_all(id_="latest")
    assert latest.ancestor("section") is second and latest.text == every[-1]
    # How the match stands now, in the engine's words.
    game = Game(["Ann", "Bob", "Cy"], dealer="Cy")
    for text in lines:
        game.apply(text)
    assert page.doc.one("p", cls="help").text == f"Ann, Bob, Cy. {whose_turn(game.state)}"


def test_a_quick_score_match_reads_hand_by_hand(app: Flask) -> None:
    owner = phone(app)
    match_id = owner.create(["Ann", "Bob"], mode="quick")
    owner.line(match_id, "Ann", "wins")
    owner.reveal(match_id, "Bob", points=60)
    owner.line(match_id, "", "hand: 2")
    owner.line(match_id, "Bob", "wins")
    page = owner.get(f"/m/{match_id}/log")
    first, second = hands(page).values()
    assert first.one(cls="log-result").text.startswith("Scored. Ann scores 60")
    assert sentences(second) == ["Hand 2: Ann deals, Bob plays first.", sentences(second)[1]]
    assert sentences(second)[1].startswith("Bob won hand 2")
    assert second.find(cls="log-result") is None  # won, not yet scored


def test_a_match_with_no_lines_yet(tabletop: Tabletop) -> None:
    match_id = tabletop.create(("Ann", "Bob", "Cy"), target="300")
    page = tabletop.get(f"/m/{match_id}/log")
    assert page.status == 200
    assert page.doc.one(cls="log-empty").text == "No plays recorded yet."
    # Only the match's own header: who deals, and its house rules.
    (hand,) = hands(page).values()
    assert sentences(hand)[0] == "Cy deals hand 1."
    assert sentences(hand)[1].startswith("House rules:")
    assert hand.find(cls="log-result") is None
    assert "Waiting for the start card" in page.text


# ---------------------------------------------------------------- the match as it is


def test_the_log_follows_the_match(app: Flask, tabletop: Tabletop, started: str) -> None:
    """Lines recorded by another server, and undone, are in the log at once: it is read
    through the process's game of the match, like the table."""
    assert tabletop.table(started).status == 200  # this process has the game now
    a_line_from_elsewhere(app, started, "Ann: R3")
    latest = tabletop.get(f"/m/{started}/log").doc.one(id_="latest")
    assert latest.text == expected_sentences(["start: R5", "Ann: R3"])[-1]
    tabletop.table(started)  # the undo button names the line it takes back
    assert tabletop.undo(started).status == 303
    latest = tabletop.get(f"/m/{started}/log").doc.one(id_="latest")
    assert latest.text == expected_sentences(["start: R5"])[-1]


def test_a_2000_line_match_reads_quickly(tabletop: Tabletop) -> None:
    """Each step is described once: the whole page in well under a second (about 10 ms
    measured, 50 ms with the game first rebuilt from the database)."""
    sim = Simulation(3, rules=HouseRules.parse("target=100000"), seed=1)
    while len(sim.game) < 2001:
        sim.play_hand()
    (form,) = tabletop.get("/import").forms("/import")
    imported = tabletop.follow(
        tabletop.client.post("/import", data=form.values() | {"text": sim.game.record()})
    )
    match_id = imported.response.request.path.split("/")[2]
    started = time.perf_counter()
    page = tabletop.get(f"/m/{match_id}/log")
    took = time.perf_counter() - started
    assert page.status == 200
    lines = sum(len(sentences(h)) for h in hands(page).values())
    assert lines == tabletop.match(match_id).version + 2  # and the dealer, the house rules
    assert lines > 2000 and len(hands(page)) == sim.game.state.hand
    assert took < 3, f"{took:.2f}s for {lines} lines"
