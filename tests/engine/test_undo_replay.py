"""Undo restores the exact previous state; records print and replay to the same game."""

from __future__ import annotations

import json

import pytest

from engine import Game, HouseRules, RecordError, replay
from engine.core.state import Draft, State
from tests.engine.conftest import RECORDS, game

MATCH = """
players: Ann, Bob, Cy
rules: final_draw=on, target=400
start: R5
Bob: has 20
Ann: R+2
Bob: B+4
Cy: W+6 G
Ann: take
Bob: GS
Ann: G7 swap Bob
Bob: draw 2, WCR
Cy: roulette Y 3
Ann: has 3
Ann: YDA discard 1
Ann: uno
Bob: Y0
Cy: Y9
Ann: has 20
Ann: draw 5
Bob: W+6 R
Cy: reveals 30
hand: 2
start: B2
Bob: B3
"""


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_the_match_replays() -> None:
    g = Game.from_record(MATCH)
    state = g.to_json()
    assert state["hand"] == 2 and state["turn"] == "Cy"
    assert state["hands_scored"][0] == {
        "hand": 1,
        "winner": "Bob",
        "points": {"Ann": 0, "Bob": 280, "Cy": 0},
    }


def test_undo_restores_the_exact_previous_state() -> None:
    lines = lines_of(MATCH)
    g = Game(["Ann", "Bob", "Cy"])
    for text in lines[1:]:
        before = json.dumps(g.to_json(), sort_keys=True)
        line = g.apply(text) and g.lines[-1]
        after = g.to_json()
        assert g.undo() == line
        assert json.dumps(g.to_json(), sort_keys=True) == before, text
        g.apply(line)
        assert g.to_json() == after


def test_undo_all_the_way_back() -> None:
    g = Game.from_record(MATCH)
    first = Game(["Ann", "Bob", "Cy"]).to_json()
    while len(g) > 1:
        g.undo()
    assert g.to_json() == first
    with pytest.raises(ValueError):
        g.undo()


def test_a_refused_line_is_not_recorded() -> None:
    g = game("start: R5")
    before = (g.record(), g.to_json())
    with pytest.raises(ValueError):
        g.apply("Bob: R3")
    assert (g.record(), g.to_json()) == before


def test_record_parses_back_to_the_same_game() -> None:
    g = Game.from_record(MATCH)
    again = Game.from_record(g.record())
    assert again.to_json() == g.to_json()
    assert again.record() == g.record()
    assert [str(line) for line in g.lines] == lines_of(MATCH)


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.rec")), ids=lambda p: p.stem)
def test_every_legal_record_round_trips(path) -> None:  # type: ignore[no-untyped-def]
    result = replay(path.read_text())
    game_ = result.game
    if game_ is None:
        return
    again = Game.from_record(game_.record())
    assert again.to_json() == game_.to_json()


def test_record_is_canonical() -> None:
    g = Game.from_record("""
        PLAYERS: Ann, Bob   # the table
        start: r5

        ann: w+6 blue       # Ann goes wild
        BOB: TAKE
    """)
    assert g.record() == "players: Ann, Bob\nstart: R5\nAnn: W+6 B\nBob: take\n"


def test_game_options_are_recorded() -> None:
    g = Game(["Ann", "Bob", "Cy"], dealer="ann", rules=HouseRules(stack="sum"))
    assert g.record() == "players: Ann, Bob, Cy\ndealer: Ann\nrules: stack=sum\n"
    assert Game.from_record(g.record()).to_json() == g.to_json()


def test_replay_errors_carry_line_numbers() -> None:
    text = "players: Ann, Bob\n# comment\n\nstart: R5\nAnn: R3\nAnn: R4\nBob: R6\n"
    result = replay(text)
    assert result.error is not None and result.game is not None
    assert (result.error.line, result.error.rule) == (6, "turn")
    assert result.game.to_json()["turn"] == "Bob"  # the game up to line 5
    with pytest.raises(RecordError) as info:
        Game.from_record(text)
    assert info.value.line == 6


def test_replay_syntax_error_line() -> None:
    result = replay("players: Ann, Bob\nstart: R5\n\nAnn: R3 R4\n")
    assert result.error is not None
    assert (result.error.line, result.error.rule) == (4, "syntax")


def test_steps_give_each_line_with_its_states() -> None:
    g = game("start: R5", "Ann: R3")
    steps = list(g.steps())
    assert [str(line) for line, _, _ in steps] == ["start: R5", "Ann: R3"]
    _, before, after = steps[-1]
    assert (before.turn, after.turn) == (0, 1)
    assert g.state is after


def test_act_is_apply() -> None:
    from engine import Card, Play

    g = game("start: R5")
    g.act("ann", Play(Card.parse("R3")))
    assert g.record().endswith("Ann: R3\n")


def test_a_state_copy_carries_every_slot() -> None:
    """State.copy writes each slot out by hand (for speed): a slot added later and
    forgotten there would be lost from the next snapshot."""
    state = game("start: R5", "Ann: R7 swap Bob", "Bob: R+2").state
    copy = state.copy()
    assert isinstance(copy, Draft) and not isinstance(copy, State)
    for name in Draft.__slots__:
        if name == "events":
            assert copy.events == ()  # what the next line causes by itself
        elif name == "hands":
            assert copy.hands == list(state.hands) and isinstance(copy.hands, list)
        else:
            assert getattr(copy, name) is getattr(state, name), name
