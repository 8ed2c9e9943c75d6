"""The table-record notation: every line parses, and prints back the same."""

from __future__ import annotations

import pytest

from engine import (
    ActionLine,
    CallUno,
    Card,
    Catch,
    Color,
    Correct,
    DealerLine,
    Draw,
    HandLine,
    NotationError,
    Play,
    PlayersLine,
    Reveal,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    parse_action,
    parse_line,
)

PLAYERS = ("Ann", "Bob", "Cy", "Mary Ann")

CANONICAL = [
    "players: Ann, Bob, Cy",
    "players: Ann, Bob, Cy, Dee, Eve, Flo",
    "dealer: Cy",
    "rules: stack=sum, mercy=30",
    "rules: official",
    "start: R5",
    "hand: 2",
    "Ann: R5",
    "Ann: Y+4",
    "Ann: GSE",
    "Ann: WCR",
    "Ann: W+6 B",
    "Ann: WR+4 G",
    "Ann: W+10 R",
    "Ann: R7 swap Bob",
    "Ann: B7 swap Mary Ann",
    "Bob: YDA discard 2",
    "Bob: YDA",
    "Bob: draw 3, G7 swap Cy",
    "Bob: draw 1, W+6 Y",
    "Bob: draw 2, BDA discard 1",
    "Bob: draw 5",
    "Bob: take",
    "Ann: roulette Y 4",
    "Ann: uno",
    "Bob: catch Ann",
    "Cy: has 9",
    "Cy: reveals R5 B+2 W+6",
    "Bob: reveals 75",
    "Mary Ann: R0",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_lines_print_back_identically(text: str) -> None:
    line = parse_line(text, PLAYERS)
    assert line is not None
    assert str(line) == text
    assert parse_line(str(line), PLAYERS) == line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("players: Ann, Bob, Cy", PlayersLine(("Ann", "Bob", "Cy"))),
        ("dealer: Cy", DealerLine("Cy")),
        ("start: R5", StartLine(Card.parse("R5"))),
        ("hand: 2", HandLine(2)),
        ("Ann: W+6 B", ActionLine("Ann", Play(Card.parse("W+6"), Color.BLUE))),
        ("Ann: R7 swap Bob", ActionLine("Ann", Play(Card.parse("R7"), swap="Bob"))),
        ("Bob: YDA discard 2", ActionLine("Bob", Play(Card.parse("YDA"), discard=2))),
        ("Bob: draw 3, G7 swap Cy", ActionLine("Bob", Draw(3, Play(Card.parse("G7"), swap="Cy")))),
        ("Bob: draw 4", ActionLine("Bob", Draw(4))),
        ("Bob: take", ActionLine("Bob", Take())),
        ("Ann: roulette Y 4", ActionLine("Ann", Roulette(Color.YELLOW, 4))),
        ("Ann: uno", ActionLine("Ann", CallUno())),
        ("Bob: catch Ann", ActionLine("Bob", Catch("Ann"))),
        ("Cy: has 9", ActionLine("Cy", Correct(9))),
        (
            "Cy: reveals R5 W+6",
            ActionLine("Cy", Reveal(cards=(Card.parse("R5"), Card.parse("W+6")))),
        ),
        ("Bob: reveals 75", ActionLine("Bob", Reveal(points=75))),
    ],
)
def test_lines_parse_to_values(text: str, expected: object) -> None:
    assert parse_line(text, PLAYERS) == expected


def test_rules_line_holds_house_rules() -> None:
    line = parse_line("rules: stack=sum", PLAYERS)
    assert isinstance(line, RulesLine) and line.rules.stack == "sum"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ann: r5", "Ann: R5"),
        ("ANN: w+6 b", "Ann: W+6 B"),
        ("Ann: W+6 blue", "Ann: W+6 B"),
        ("  Ann :   R7   SWAP   bob  ", "Ann: R7 swap Bob"),
        ("bob: YDA Discard 2", "Bob: YDA discard 2"),
        ("Bob: DRAW 3,g7 swap cy", "Bob: draw 3, G7 swap Cy"),
        ("Bob: TAKE", "Bob: take"),
        ("Ann: Roulette g 3", "Ann: roulette G 3"),
        ("Ann: UNO", "Ann: uno"),
        ("Bob: Catch ann", "Bob: catch Ann"),
        ("Cy: reveal r5, b+2", "Cy: reveals R5 B+2"),
        ("mary   ann: r0", "Mary Ann: R0"),
        ("START: g3", "start: G3"),
        ("Players: Ann ,  Bob", "players: Ann, Bob"),
        ("RULES: Mercy=30, STACK=sum", "rules: stack=sum, mercy=30"),
        ("Ann: R5   # a comment", "Ann: R5"),
    ],
)
def test_words_are_case_insensitive(text: str, canonical: str) -> None:
    assert str(parse_line(text, PLAYERS)) == canonical


@pytest.mark.parametrize("text", ["", "   ", "# only a comment", "   # indented comment"])
def test_blank_and_comment_lines(text: str) -> None:
    assert parse_line(text, PLAYERS) is None


def test_names_keep_their_case() -> None:
    line = parse_line("players: aNN, BoB", ())
    assert line == PlayersLine(("aNN", "BoB"))
    assert str(parse_line("ann: R5", ("aNN", "BoB"))) == "aNN: R5"


@pytest.mark.parametrize(
    "text",
    [
        "Ann R5",  # no colon
        "Ann:",  # no action
        "Ann: X9",  # not a card or action
        "Ann: R55",
        "Zed: R5",  # unknown player
        "dealer: Zed",
        "Ann: W+6 P",  # not a colour
        "Ann: R5 G G",
        "Ann: R7 swap",
        "Ann: R7 swap Zed",
        "Ann: RDA discard",
        "Ann: RDA discard x",
        "Ann: RDA discard 2 3",
        "Ann: draw",
        "Ann: draw x",
        "Ann: draw -1",
        "Ann: draw 3,",
        "Ann: draw 3 R5",
        "Ann: draw 1, X9",
        "Ann: take 2",
        "Ann: uno now",
        "Ann: roulette G",
        "Ann: roulette P 3",
        "Ann: roulette G x",
        "Ann: roulette G 3 4",
        "Ann: catch",
        "Ann: catch Zed",
        "Ann: has",
        "Ann: has x",
        "Ann: has 1.5",
        "Ann: has 1234567",
        "Ann: reveals R5 X9",
        "start: X1",
        "start:",
        "hand: two",
        "hand: -1",
        "rules: stack=max",
        "players: Ann, , Bob",
        "players: Ann, Start",
        "players: Ann, Rules",
        "players: " + "A" * 41,
        "players: Ann, B:b",
        "Ann: has ３",  # digits only in ASCII
    ],
)
def test_malformed_lines_are_syntax_errors(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_line(text, PLAYERS)
    assert info.value.rule == "syntax"
    assert info.value.message


def test_actions_need_seated_players() -> None:
    with pytest.raises(NotationError, match="players: Ann"):
        parse_line("Ann: R5", ())


def test_parse_action_alone() -> None:
    assert parse_action("take") == Take()
    assert parse_action("draw 2, W+10 R") == Draw(2, Play(Card.parse("W+10"), Color.RED))
    assert parse_action("R7 swap bob", ("Ann", "Bob")) == Play(Card.parse("R7"), swap="Bob")
    with pytest.raises(NotationError):
        parse_action("")


def test_reveal_needs_cards_or_points() -> None:
    with pytest.raises(ValueError):
        Reveal()
    with pytest.raises(ValueError):
        Reveal(cards=(), points=3)
    assert str(Reveal(cards=())) == "reveals"


def test_syntax_errors_in_a_record_exit_2() -> None:
    from engine.tools.cli import check_text

    code, doc = check_text("players: Ann, Bob\nstart: R5\n\n# comment\nAnn: R5 please\n")
    assert code == 2
    assert (doc["error"]["line"], doc["error"]["rule"]) == (5, "syntax")
    assert doc["state"]["top"] == "R5"


@pytest.mark.parametrize("text", ["", "\n\n# nothing\n", "start: R5\n", "Ann: R5\n"])
def test_a_record_starts_with_players(text: str) -> None:
    from engine.tools.cli import check_text

    code, doc = check_text(text)
    assert code == 2 and doc["error"]["rule"] == "syntax"
    assert doc["state"] is None
