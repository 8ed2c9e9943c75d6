"""Every rule lives in the engine, numbers included: no template or app module writes one.

The screens ask the engine (Legal, explain, the rules' constants); a template or
module of companion/ that writes a rule's number or reasoning itself fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import CATCH_PENALTY, DECK_SIZE, KNOCKOUT_POINTS, OFFICIAL
from engine.core.names import MAX_NAME_LENGTH, TYPED_NAME_LENGTH

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    [*ROOT.joinpath("templates").rglob("*.html"), *ROOT.joinpath("companion").rglob("*.py")]
)

# A rule's number written as a number.
NUMBERS = {
    KNOCKOUT_POINTS: "points per knockout",
    OFFICIAL.mercy: "the Mercy limit",
    OFFICIAL.target: "the target score",
    DECK_SIZE: "the cards in the deck",
    TYPED_NAME_LENGTH: "the longest name typed for a new match",
}
# Where such a number means something else, and why.
NOT_RULES = {
    ("companion/__init__.py", '"COMPRESS_MIN_SIZE", 1000'): "gzip's threshold in bytes",
    ("companion/models.py", "String(20)"): "a column's width",
    ("templates/_icons.html", 'pathLength="20"'): "a legend key's dash pattern, in a chart's units",
}
# A rule's reasoning written in the app.
REASONING = {
    r"[Cc]aught.{0,40}\+\d|\+\d.{0,40}[Cc]atch": "the catch penalty",
    r"dealer\s*\+\s*1": "who deals next",
    r"stack_last|stack_total\s+if": "the card needed to answer a stack",
    r"hands\[[^]]*\]\s*-\s*1": "the most cards a Discard All takes",
    r"scores the cards left|for each knockout": "how a hand is scored",
    r"rules\.\w+\s*==": "a house rule's effect",
    r":,#|\[:,#\]": "the characters a name can't hold",
    r"number\s*==\s*7": "what a 7 needs",
}


def lines_of(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))


def named(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", SOURCES, ids=named)
def test_no_rule_number_outside_the_engine(path: Path) -> None:
    found = []
    for number, line in lines_of(path):
        for value, rule in NUMBERS.items():
            if value is None or not re.search(rf"(?<![\w.]){value}(?![\w.])", line):
                continue
            if any(named(path) == where and text in line for where, text in NOT_RULES):
                continue
            found.append(f"{named(path)}:{number}: {value} ({rule}): {line.strip()}")
    assert not found, "ask the engine instead:\n" + "\n".join(found)


@pytest.mark.parametrize("path", SOURCES, ids=named)
def test_no_rule_reasoning_outside_the_engine(path: Path) -> None:
    found = [
        f"{named(path)}:{number}: {rule}: {line.strip()}"
        for number, line in lines_of(path)
        for pattern, rule in REASONING.items()
        if re.search(pattern, line)
    ]
    assert not found, "ask the engine instead:\n" + "\n".join(found)


def test_the_check_finds_a_rule_written_in_a_template(tmp_path: Path) -> None:
    """The patterns catch what the app used to write (af086d5's templates)."""
    old = [
        "Caught by {{ catcher }}: +2</button>",
        "stacks +{{ s.stack_total if s.rules.stack == 'sum' else s.stack_last }} or more",
        "Next hand: {{ s.players[(s.dealer + 1) % s.players|length] }} deals",
        "{{ winner }} scores the cards left in the other hands",
        "return max(s.hands[s.turn] - 1, 0)",
        'if any(ch in name for ch in ":,#"):',
    ]
    for line in old:
        assert any(re.search(pattern, line) for pattern in REASONING), line
    assert re.search(rf"(?<![\w.]){KNOCKOUT_POINTS}(?![\w.])", "plus 250 for each knockout")
    assert CATCH_PENALTY == 2 and MAX_NAME_LENGTH > TYPED_NAME_LENGTH
