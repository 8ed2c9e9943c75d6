"""Every rule lives in the engine, numbers included: no template or app module writes one.

The screens ask the engine (Legal, explain, progress, the rules' constants, and
engine.fields for each key's action and the line a form posts); a template or module
of companion/ that writes a rule's number or reasoning, or the record's syntax, fails
here.
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
    ("companion/extensions.py", '"COMPRESS_MIN_SIZE", 1000'): "gzip's threshold in bytes",
    ("companion/quiet_polls.py", "MOST_ANSWERS = 1000"): "answers a process keeps",
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
    r"next_active|\.turn\s*[+-]|players\)\s*-\s*1|players\|length\s*-": "the turn order",
    r"number\s+is\s+not\s+[Nn]one": "which cards may start a hand",
    r"hands\[[^]]*\]\s*[+-]": "a hand's size after a draw",
    r"knocked out, %|knockout_points|KNOCKOUT_POINTS": "what a knockout scores",
    r">=\s*target|target\s*-\s*\w": "when the target is reached",
}
# Record syntax written in the app: the engine hands each key its action as a value
# (engine.fields), and maps a screen's fields to a line and back.
RECORD = {
    r'name="action"': "the action field's name (engine.fields.ACTION_FIELD)",
    r"\b(start|hand):\s*\{": "a header line",
    r"\b(catch|roulette|draw) \{": "an action's syntax",
    r"\} (swap|discard)\b|\}: reveals\b": "an action's syntax",
    r"player[\w.\[\]]*\s*\}+:\s*\{": "a line's speaker",
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


@pytest.mark.parametrize("path", SOURCES, ids=named)
def test_no_record_syntax_outside_the_engine(path: Path) -> None:
    found = [
        f"{named(path)}:{number}: {what}: {line.strip()}"
        for number, line in lines_of(path)
        for pattern, what in RECORD.items()
        if re.search(pattern, line)
    ]
    assert not found, "ask engine.fields instead:\n" + "\n".join(found)


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


# What the app wrote before the engine took the line, its keys and these rules (712d08d).
OLD_LEAKS = [
    '<input type="hidden" name="action" value="hand: {{ legal.next_hand }}">',
    '<button type="submit" formnovalidate name="action" value="out">',
    '<input type="hidden" name="action" value="wins">',
    '<button type="submit" name="action" value="start: {{ card }}">',
    '<input type="hidden" name="action" value="catch {{ view.catch }}">',
    '<input type="radio" name="action" value="roulette {{ c.value }}" required>',
    '<button type="submit" name="action" value="{{ card }} {{ c.value }}">',
    '<button type="submit" name="action" value="{{ card }} swap {{ name }}">',
    '<button type="submit" name="action" value="{{ card }} discard" data-primary>',
    '<button type="submit" name="action" value="{{ key.code }}">',
    'action = f"draw {self.drawn.data or 0}"',
    'action = f"draw {self.drawn.data}, {action}"',
    'return f"{self.player.data}: {action}"',
    'return f"{self.player.data}: reveals {self.points.data}"',
    '"action": f"{action.card} discard",',
    'return "line", fields | {"action": f"roulette {action.color}", "count": "2"}',
    "<li>{{ s.players[i] }}: {{ s.revealed[i] }}</li>",
    '<li>{{ _("%(name)s: knocked out, %(points)s", name=n, points=knockout_points) }}</li>',
    "knockout_points=KNOCKOUT_POINTS,",
    'if s.status != "playing" or len(s.out) >= len(s.players) - 1:',
    "return s.players[s.next_active(s.turn)]",
    "return [c for c in ALL_CARDS if c.number is not None]",
    "held = s.hands[s.turn] + self.drawn",
    "return self.legal.follow_up(self.picked, self.state.hands[self.state.turn] + self.drawn)",
    '{% if s.scores[i] >= target %}{{ _("reached") }}{% else %}{{ target - s.scores[i] }}',
]


@pytest.mark.parametrize("line", OLD_LEAKS)
def test_the_check_finds_each_old_leak(line: str) -> None:
    patterns = [*REASONING, *RECORD]
    assert any(re.search(pattern, line) for pattern in patterns), line


def test_the_check_lets_the_engines_values_through() -> None:
    """What the screens write now passes: the field's name and each action asked."""
    now = [
        '<button name="{{ actions.field }}" value="{{ actions.play(card, swap=name) }}">',
        '<input name="{{ actions.field }}" value="{{ actions.next_hand(legal.next_hand) }}">',
        "{% for said in view.reveal_tally %}<li>{{ said }}</li>{% endfor %}",
        'return "; ".join(f"{k}: {", ".join(map(str, v))}" for k, v in errors.items())',
    ]
    for line in now:
        assert not any(re.search(p, line) for p in [*REASONING, *RECORD]), line
