"""The home page: matches in progress and finished ones, newest first."""

from __future__ import annotations

from tests.app.helpers import Node, Page, Tabletop


def section(page: Page, title: str) -> Node:
    for node in page.doc.find_all("section"):
        heading = node.find("h2")
        if heading is not None and heading.text == title:
            return node
    raise AssertionError(f"no section {title!r}")


def links(node: Node) -> list[str]:
    return [a["href"] for a in node.find_all("a")]


def test_an_empty_home(tabletop: Tabletop) -> None:
    page = tabletop.get("/")
    assert page.status == 200
    assert "No match in progress." in section(page, "In progress").text
    assert "No finished match yet." in section(page, "Finished").text
    assert "/new" in links(page.doc) and "/import" in links(page.doc)
    assert "/rules" in links(page.doc)


def test_matches_in_progress_and_finished(tabletop: Tabletop) -> None:
    playing = tabletop.create(["Ann", "Bob", "Cy"])
    tabletop.play_lines(playing, "start: R5", "Ann: R3")
    done = tabletop.create(["Dee", "Eve"], mode="quick", target="50")
    tabletop.line(done, "Dee", "wins")
    tabletop.reveal(done, "Eve", points=60)
    fresh = tabletop.create(["Fay", "Gus"])

    page = tabletop.get("/")

    in_progress = section(page, "In progress")
    assert links(in_progress) == [f"/m/{fresh}", f"/m/{playing}"]  # newest first
    assert "Ann, Bob, Cy" in in_progress.text
    assert "Hand 1" in in_progress.text and "Bob" in in_progress.text  # whose turn
    finished = section(page, "Finished")
    assert links(finished) == [f"/m/{done}/scores"]
    assert "Dee, Eve" in finished.text


def test_the_summary_follows_undo(tabletop: Tabletop, started: str) -> None:
    tabletop.play_lines(started, "Ann: R3")
    assert "Bob" in section(tabletop.get("/"), "In progress").text
    tabletop.undo(started)
    summary = section(tabletop.get("/"), "In progress").one("li").text
    assert "Ann" in summary.split("Ann, Bob, Cy", 1)[1]


def test_each_match_says_its_hand_leader_and_last_play(tabletop: Tabletop) -> None:
    quick = tabletop.create(["Dee", "Eve"], mode="quick", target="500")
    tabletop.line(quick, "Dee", "wins")
    tabletop.reveal(quick, "Eve", points=60)
    item = section(tabletop.get("/"), "In progress").one("li")
    assert "Hand 1 is scored: next is hand 2. Dee leads with 60 points." in item.text
    assert "Hand 1:" not in item.text  # said once, not "Hand 1: Hand 1 is scored"
    assert "Last play" in item.one("small", cls="when").text
    assert "ago" in item.one("small", cls="when").text
