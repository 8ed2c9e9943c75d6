"""`python -m engine explain`: the game told line by line, then the verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import describe, whose_turn
from engine.tools.cli import explain
from tests.engine.conftest import RECORDS, ROOT, game


def told(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    path = tmp_path / "game.rec"
    path.write_text(text)
    code, out = explain(str(path))
    assert out.endswith("\n")
    return code, out.splitlines()


def test_one_sentence_per_line(tmp_path: Path) -> None:
    code, out = told(
        tmp_path, "players: Ann, Bob, Cy\nstart: R5\nAnn: R+2\n\nBob: W+6 G\nCy: take\n"
    )
    assert code == 0
    assert out == [
        "   1  players: Ann, Bob, Cy",
        "   2  Hand 1 starts with Red 5 face up: Ann plays first.",
        "   3  Ann played Red Draw 2: Bob faces +2.",
        "   5  Bob stacked Wild Draw 6 and chose Green: Cy faces +8.",
        "   6  Cy took the stack: 8 cards, and loses the turn.",
        "      Now: Ann to play.",
    ]


def test_the_refusal_comes_last(tmp_path: Path) -> None:
    code, out = told(tmp_path, (RECORDS / "p05-stack-too-small.rec").read_text())
    assert code == 1
    assert out[-1].startswith("Line 5 is refused [stack]: Bob can't stack a Draw 2")
    assert out[-2] == "      Now: Bob faces +4: stack or take 4."
    assert out[-3] == "   4  Ann played Red Draw 4: Bob faces +4."


def test_a_syntax_error_exits_2(tmp_path: Path) -> None:
    code, out = told(tmp_path, "players: Ann, Bob\nstart: R5\nAnn: R55\n")
    assert code == 2
    assert out[-1].startswith("Line 3 is refused [syntax]:")
    code, out = explain(str(tmp_path / "missing.rec"))
    assert code == 2 and "Cannot read" in out


def test_events_are_told(tmp_path: Path) -> None:
    _, out = told(tmp_path, (RECORDS / "p13-mercy-take.rec").read_text())
    assert out[-2].endswith(
        "Bob took the stack: 5 cards, and loses the turn. "
        "Bob reached 25 cards and is knocked out (Mercy)."
    )


def test_a_take_across_a_reshuffle_counts_the_cards_taken(tmp_path: Path) -> None:
    _, out = told(tmp_path, (RECORDS / "r36-reshuffle-set-aside.rec").read_text())
    take = out[-2]
    assert "Bob took the stack: 10 cards, and loses the turn." in take
    assert "100 set-aside cards among them" in take


def test_the_sentences_of_every_kind_of_line(tmp_path: Path) -> None:
    _, out = told(tmp_path, (RECORDS / "p15-scoring.rec").read_text())
    body = [line[6:] for line in out]
    assert "Cy's count was corrected from 7 to 3 cards." in body
    assert any(line.startswith("Ann played Blue 7. Ann wins the hand") for line in body)
    assert body[-2] == "Cy revealed Red 5, Wild Draw 6: 55 points. Hand scored: Ann +305."
    assert body[-1] == "Now: Hand 1 is scored: next is hand 2."


def test_describe_and_whose_turn() -> None:
    g = game("start: R5", "Ann: RS")
    line, before, after = list(g.steps())[-1]
    assert describe(line, before, after) == "Ann played Red Skip: Bob is skipped, Cy to play."
    assert whose_turn(g.state) == "Cy to play."
    g.apply("Cy: WCR")
    assert whose_turn(g.state) == "Ann names a colour for the Colour Roulette."
    assert whose_turn(game().state) == "Waiting for the start card; Ann plays first."


def test_check_explain_on_the_command_line() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "check",
            "--explain",
            str(RECORDS / "p09-skip-everyone.rec"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "everyone is skipped, Ann plays again." in proc.stdout
    assert proc.stdout.splitlines()[-1] == "      Now: Bob to play."
