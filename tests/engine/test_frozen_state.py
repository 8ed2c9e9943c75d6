"""A State cannot change: the referee writes a Draft for one line and seals it (state.py)."""

from __future__ import annotations

import pytest

from engine import Card, State
from engine.core.referee import apply
from engine.core.state import Draft
from tests.engine.conftest import game

LINES = ("start: R5", "Ann: R7 swap Bob", "Bob: R+2", "Cy: take", "Ann: RS", "Cy: R3")


def test_assigning_an_attribute_of_a_state_raises() -> None:
    state = game(*LINES).state
    for name in ("turn", "hands", "scores", "status", "discard_known", "top"):
        before = getattr(state, name)
        with pytest.raises(AttributeError, match="can't be changed"):
            setattr(state, name, before)
        assert getattr(state, name) is before
    with pytest.raises(AttributeError):
        del state.turn
    with pytest.raises(AttributeError):
        state.anything_new = 1  # type: ignore[attr-defined]


def test_a_states_hands_and_counts_cannot_be_changed() -> None:
    state = game(*LINES).state
    assert isinstance(state.hands, tuple)
    with pytest.raises(TypeError):
        state.hands[0] += 1  # type: ignore[index]
    for counts in (state.discard_known, state.revealed_cards):
        with pytest.raises(TypeError):
            counts[Card.parse("R5")] = 9  # type: ignore[index]
    assert state.discard_known[Card.parse("R5")] == 1


def test_every_state_of_a_game_is_sealed_and_the_line_before_untouched() -> None:
    g = game(*LINES)
    new = State.new(g.state.players, g.state.rules)
    assert type(new) is State and isinstance(new.hands, tuple)
    for line, before, after in g.steps():
        assert type(before) is State and type(after) is State
        kept = before.to_json()
        assert apply(before, line).to_json() == after.to_json()  # the same line, the same
        assert before.to_json() == kept


def test_a_draft_seals_into_the_state_in_place() -> None:
    state = game(*LINES).state
    draft = state.copy()
    assert type(draft) is Draft
    draft.hands[0] += 1  # a draft is the one place a state is written
    draft.turn = 2
    sealed = draft.seal()
    assert sealed is draft and type(sealed) is State
    assert sealed.hands == (state.hands[0] + 1, *state.hands[1:]) and sealed.turn == 2
    assert sealed.seal() is sealed
