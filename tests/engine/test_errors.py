"""Every refusal: its exception class, its rule id, and a message that names the
player and says what to do instead (errors.py: "what was tried, why not, what instead")."""

from __future__ import annotations

import re

import pytest

from engine import (
    CardCountError,
    EngineError,
    Game,
    HouseRules,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    RecordError,
    RevealMismatch,
)
from engine.core.errors import RULE_IDS
from tests.engine.conftest import game

S = "start: R5"
WON = (S, "Ann: has 1", "Ann: R3")  # Ann has won hand 1; Bob and Cy reveal
ILL, TURN, CNT = IllegalActionError, OutOfTurnError, CardCountError

# (set-up lines, refused line, class, rule, words the message must contain, what to do instead)
CASES = [
    # turn
    ((S,), "Bob: R3", TURN, "turn", ["Bob"], r"Ann's turn"),
    ((S, "Ann: R+2"), "Cy: take", TURN, "turn", ["Cy"], r"Bob's turn"),
    ((S, "Ann: WCR"), "Cy: roulette G 1", TURN, "turn", ["Cy"], r"Bob's turn"),
    # match
    ((S,), "Ann: G7 swap Bob", ILL, "match", ["Ann", "Green 7", "Red 5"], r"Play a Red card"),
    # stack
    ((S, "Ann: R+2"), "Bob: R3", ILL, "stack", ["Bob"], r"take 2"),
    ((S, "Ann: R+4"), "Bob: R+2", ILL, "stack", ["Bob"], r"Stack \+4/\+6/\+10 or take 4"),
    ((S, "Ann: R+2"), "Bob: draw 1, R3", ILL, "stack", ["Bob"], r"take 2"),
    ((S,), "Ann: take", ILL, "stack", ["Ann"], r"Play a card or draw"),
    # wild-color
    ((S,), "Ann: W+6", ILL, "wild-color", ["Ann"], r"write W\+6 R, Y, G or B"),
    ((S,), "Ann: R3 G", ILL, "wild-color", ["Ann"], r"Write R3 alone"),
    ((S,), "Ann: WCR G", ILL, "wild-color", ["Ann"], r"Write WCR alone"),
    # discard-all
    ((S,), "Ann: RDA discard 7", ILL, "discard-all", ["Ann"], r"has N"),
    ((S,), "Ann: R5 discard 1", ILL, "discard-all", ["Ann"], r"(?i)write R5 alone"),
    # swap
    ((S,), "Ann: R7", ILL, "swap", ["Ann"], r"R7 swap NAME \(Bob, Cy\)"),
    ((S,), "Ann: R7 swap Ann", ILL, "swap", ["Ann"], r"choose one of Bob, Cy"),
    ((S, "Cy: has 25"), "Ann: R7 swap Cy", ILL, "swap", ["Cy"], r"choose one of Bob"),
    ((S,), "Ann: R3 swap Bob", ILL, "swap", ["Ann"], r"Write R3 alone"),
    ((S, "Ann: has 1"), "Ann: R7 swap Bob", ILL, "swap", ["Ann"], r"Write R7 alone"),
    # roulette
    ((S, "Ann: WCR"), "Bob: R3", ILL, "roulette", ["Bob"], r"roulette C N"),
    ((S, "Ann: WCR"), "Bob: draw 1, R3", ILL, "roulette", ["Bob"], r"roulette C N"),
    ((S, "Ann: WCR"), "Bob: take", ILL, "roulette", ["Bob"], r"roulette C N"),
    ((S, "Ann: WCR"), "Bob: roulette G 0", ILL, "roulette", ["Bob"], r"until one is Green"),
    ((S,), "Ann: roulette G 1", ILL, "roulette", ["Ann"], r"(?i)play a card|draw"),
    # draw
    ((S,), "Ann: draw 3", ILL, "draw", ["Ann"], r"draw 3, CARD"),
    ((S,), "Ann: draw 0, R3", ILL, "draw", [], r"write R3 alone"),
    # mercy
    ((S, "Ann: has 20"), "Ann: draw 5, R3", ILL, "mercy", ["Ann"], r"Write draw 5"),
    ((S, "Ann: has 20"), "Ann: draw 6", ILL, "mercy", ["Ann"], r"Write draw 5"),
    (
        (S, "Bob: has 20", "Ann: WCR"),
        "Bob: roulette G 6",
        ILL,
        "mercy",
        ["Bob"],
        r"write roulette G 5",
    ),
    ((S, "Ann: has 25"), "Ann: R3", ILL, "mercy", ["Ann"], r"knocked out"),
    ((S, "Ann: has 25"), "Ann: has 3", ILL, "mercy", ["Ann"], r"set aside"),
    # uno
    ((S,), "Ann: uno", ILL, "uno", ["Ann"], r"one card left"),
    ((S, "Ann: has 2", "Ann: R3", "Ann: uno"), "Ann: uno", ILL, "uno", ["Ann"], r"already"),
    ((S,), "Bob: catch Ann", ILL, "uno", ["Ann"], r"one card"),
    ((S, "Ann: has 2", "Ann: R3"), "Ann: catch Ann", ILL, "uno", ["Ann"], r"calls UNO instead"),
    (
        (S, "Ann: has 2", "Ann: R3", "Ann: uno"),
        "Bob: catch Ann",
        ILL,
        "uno",
        ["Ann"],
        r"nothing to catch",
    ),
    (
        (S, "Ann: has 2", "Ann: R3", "Bob: R8"),
        "Cy: catch Ann",
        ILL,
        "uno",
        ["Ann"],
        r"before the next player",
    ),
    # scoring
    ((S,), "Ann: reveals 10", ILL, "scoring", ["Ann"], r"after a player goes out"),
    (WON, "Ann: reveals 0", ILL, "scoring", ["Ann"], r"reveals nothing"),
    (
        (S, "Bob: has 25", "Ann: has 1", "Ann: R3"),
        "Bob: reveals 0",
        ILL,
        "scoring",
        ["Bob"],
        r"250",
    ),
    ((*WON, "Bob: reveals 10"), "Bob: reveals 10", ILL, "scoring", ["Bob"], r"already"),
    ((*WON, "Bob: reveals 10"), "Bob: has 3", ILL, "scoring", ["Bob"], r"before revealing"),
    (WON, "Ann: has 3", ILL, "scoring", ["Ann"], r"no count to correct"),
    # hand-over
    (WON, "Bob: R4", ILL, "hand-over", ["Ann"], r"reveal their cards"),
    (WON, "hand: 2", ILL, "hand-over", [], r"reveal their cards"),
    ((S, "Ann: R3"), "hand: 2", ILL, "hand-over", [], r"once this one is won"),
    ((*WON, "Bob: reveals 1", "Cy: reveals 1"), "Bob: R3", ILL, "hand-over", [], r"hand: 2"),
    # cards
    (WON, "Bob: reveals R1 R2", RevealMismatch, "cards", ["Bob"], r"correct it to 2"),
    (WON, "Bob: reveals 400", CNT, "cards", ["Bob"], r"at most 350"),
    (
        (*WON, "Bob: has 5"),
        "Bob: reveals W+10 W+10 W+10 W+10 W+10",
        CNT,
        "cards",
        ["Bob"],
        r"deck has 4",
    ),
    ((S,), "Ann: has 0", CNT, "cards", ["Ann"], r"record the play"),
    ((S,), "Ann: has 500", CNT, "cards", ["Ann"], r"(?i)write has \d+|correct"),
    ((S,), "Ann: draw 200, R3", CNT, "cards", ["Ann"], r"(?i)write draw \d+"),
    ((S, "Ann: WCR"), "Bob: roulette G 200", CNT, "cards", ["Bob"], r"(?i)write roulette G \d+"),
    ((S, "Ann: R9", "Bob: R9"), "Cy: R9", CNT, "cards", ["Cy"], r"(?i)play another|draw|correct"),
    # setup
    ((), "start: RS", ILL, "setup", [], r"Record the first number card"),
    ((S,), "start: R6", ILL, "setup", [], r"already"),
    ((S,), "rules: stack=sum", ILL, "setup", [], r"before the first start card"),
    ((S,), "dealer: Bob", ILL, "setup", [], r"passes to the left"),
    ((), "players: Ann, Bob", ILL, "setup", [], r"comes once"),
    ((), "Ann: R3", ILL, "setup", [], r"start: R5"),
    ((*WON, "Bob: reveals 1", "Cy: reveals 1"), "hand: 3", ILL, "setup", [], r"hand 2"),
]


def _advice(message: str) -> str:
    """The part of a message after its first colon: why not, and what instead."""
    return message.split(":", 1)[1] if ":" in message else message


@pytest.mark.parametrize(
    ("before", "line", "cls", "rule", "names", "instead"),
    CASES,
    ids=[f"{c[3]}:{c[1]}" for c in CASES],
)
def test_refusal(
    before: tuple[str, ...], line: str, cls: type, rule: str, names: list[str], instead: str
) -> None:
    g = game(*before)
    snapshot = g.to_json()
    with pytest.raises(EngineError) as info:
        g.apply(line)
    error = info.value
    assert type(error) is cls
    assert isinstance(error, ValueError)
    assert error.rule == rule
    for name in names:
        assert name in error.message
    assert re.search(instead, _advice(error.message)), error.message
    assert g.to_json() == snapshot  # a refused line changes nothing
    assert len(g) == len(before) + 1


def test_every_rule_id_is_reachable() -> None:
    assert {c[3] for c in CASES} | {"syntax"} == set(RULE_IDS)


def test_the_exception_family() -> None:
    for cls in (NotationError, IllegalActionError, OutOfTurnError, CardCountError, RecordError):
        assert issubclass(cls, EngineError) and issubclass(cls, ValueError)
    assert issubclass(OutOfTurnError, IllegalActionError)
    assert issubclass(CardCountError, IllegalActionError)
    assert (NotationError.rule, IllegalActionError.rule) == ("syntax", "match")
    assert (OutOfTurnError.rule, CardCountError.rule) == ("turn", "cards")
    with pytest.raises(ValueError):
        IllegalActionError("no such rule", "nonsense")


def test_notation_errors() -> None:
    g = game(S)
    for line in ("Ann: R55", "Zed: R3", "Ann R3", "Ann: draw x, R3", "Ann: W+6 P"):
        with pytest.raises(NotationError) as info:
            g.apply(line)
        assert info.value.rule == "syntax"
    with pytest.raises(NotationError):
        g.apply("   # nothing")
    with pytest.raises(NotationError):
        g.act("Zed", __import__("engine").Take())


def test_record_error_carries_the_line() -> None:
    with pytest.raises(RecordError) as info:
        Game.from_record("players: Ann, Bob\n\nstart: R5\nBob: R3\n")
    error = info.value
    assert (error.line, error.rule) == (4, "turn")
    assert isinstance(error.error, OutOfTurnError)
    assert error.message.startswith("line 4: ")


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(IllegalActionError) as info:
        Game(["Ann", "Bob"]).undo()
    assert info.value.rule == "setup"


def test_draw_one_refusal_names_the_rule() -> None:
    with pytest.raises(IllegalActionError, match=r"draw=one.*write draw 1") as info:
        game(S, rules=HouseRules(draw="one")).apply("Ann: draw 2, R3")
    assert info.value.rule == "draw"


def test_a_seven_swap_off_refusal() -> None:
    with pytest.raises(IllegalActionError, match=r"seven=off.*Write R7 alone") as info:
        game(S, rules=HouseRules(seven=False)).apply("Ann: R7 swap Bob")
    assert info.value.rule == "swap"
