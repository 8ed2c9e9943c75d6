"""Property tests: random walks through matches, legal lines mostly, nonsense sometimes.

Each example seats 2 to 6 players under random house rules, puts a start card
down and then, step after step, applies either one of the lines
`legal_actions().actions()` lists or a random line that is probably illegal
(random player, random card or action word, random numbers). Whatever the
line, the engine either accepts it or refuses it with an `EngineError`, and
the table stays consistent. When a hand is over the walk goes on with the next
hand.

The walk is the same for every test; each test switches on the checks it is
about, so one broken property does not hide the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import hypothesis.internal.conjecture.engine as conjecture
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from engine import ALL_CARDS, DECK_SIZE, EngineError, Game, HouseRules, State
from engine.core.notation import Line

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
STRANGER = "Zed"  # sits at no table
CODES = tuple(str(card) for card in ALL_CARDS)
NUMBER_CODES = tuple(str(card) for card in ALL_CARDS if card.number is not None)
COLOURS = ("R", "Y", "G", "B")
STEPS = 150
LEGAL_PER_20 = 17  # out of 20 steps pick a listed legal line, else a random line
LINES_AFTER_THE_MATCH = 5

SHRINK_SECONDS = 20  # Hypothesis shrinks a failure for up to 300 s; a walk shrinks slowly

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(autouse=True, scope="module")
def _shorter_shrinking() -> Iterator[None]:
    """Cap the time spent shrinking a failing walk, for the tests of this module only.

    Shrinking resumes from the saved example on the next run (.hypothesis/), so a
    failure still gets smaller run after run; the cap only keeps one run short.
    """
    saved = getattr(conjecture, "MAX_SHRINKING_SECONDS", None)
    if saved is None:  # a Hypothesis without the constant: nothing to do
        yield
        return
    conjecture.MAX_SHRINKING_SECONDS = SHRINK_SECONDS
    yield
    conjecture.MAX_SHRINKING_SECONDS = saved


# ---------------------------------------------------------------- strategies

rules_strategy = st.builds(
    HouseRules,
    stack=st.sampled_from(["last", "sum"]),
    draw=st.sampled_from(["until", "one"]),
    mercy=st.one_of(st.just(25), st.integers(8, 40), st.none()),
    final_draw=st.booleans(),
    seven=st.booleans(),
    zero=st.booleans(),
    target=st.integers(50, 1000),
    scoring=st.sampled_from(["high", "low"]),
)


@st.composite
def play_text(draw: st.DrawFn, names: tuple[str, ...]) -> str:
    """A card played, with or without the follow-ups it may need."""
    words = [draw(st.sampled_from(CODES))]
    follow_up = draw(st.integers(0, 5))
    if follow_up in (1, 4):
        words.append(draw(st.sampled_from(COLOURS)))
    if follow_up in (2, 4):
        words += ["swap", draw(st.sampled_from(names))]
    elif follow_up == 3:
        words += ["discard", str(draw(st.integers(0, 12)))]
    elif follow_up == 5:
        words.append(draw(st.sampled_from(["swap", "discard", "X", "swap Ann Bob", "discard -1"])))
    return " ".join(words)


@st.composite
def action_text(draw: st.DrawFn, names: tuple[str, ...]) -> str:
    """What follows `PLAYER:` on an action line, legal or not."""
    kind = draw(st.integers(0, 10))
    if kind == 0:
        return draw(play_text(names))
    if kind == 1:
        text = f"draw {draw(st.integers(0, 40))}"
        if draw(st.booleans()):
            text += f", {draw(play_text(names))}"
        return text
    if kind == 2:
        return "take"
    if kind == 3:
        return f"roulette {draw(st.sampled_from(COLOURS))} {draw(st.integers(0, 30))}"
    if kind == 4:
        return "uno"
    if kind == 5:
        return f"catch {draw(st.sampled_from(names))}"
    if kind == 6:
        return f"has {draw(st.integers(0, 200))}"
    if kind == 7:
        cards = draw(st.lists(st.sampled_from(CODES), max_size=6))
        return " ".join(["reveals", *cards])
    if kind == 8:
        return f"reveals {draw(st.integers(0, 400))}"
    if kind == 9:
        return draw(st.sampled_from(["", "take 2", "uno now", "draw", "draw x", "roulette R"]))
    return draw(st.sampled_from(["wins", "out"]))  # quick score, before a start card


@st.composite
def random_line(draw: st.DrawFn, names: tuple[str, ...]) -> str:
    """A line of a record built from random pieces: probably, not surely, illegal."""
    people = (*names, STRANGER)
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return f"hand: {draw(st.integers(0, 12))}"
    if kind == 1:
        return f"start: {draw(st.sampled_from(CODES))}"
    if kind == 2:
        return draw(
            st.sampled_from(
                [
                    f"dealer: {people[draw(st.integers(0, len(people) - 1))]}",
                    "rules: stack=sum, mercy=10",
                    "rules: official",
                    "players: Ann, Bob",
                    "no colon here",
                    "# only a comment",
                    "",
                ]
            )
        )
    return f"{draw(st.sampled_from(people))}: {draw(action_text(names))}"


# ---------------------------------------------------------------- checks


def snapshot(state: State) -> dict[str, Any]:
    """Every attribute of a state, its lists and dicts copied."""
    out: dict[str, Any] = {}
    for name in State.__slots__:
        value = getattr(state, name)
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        out[name] = value
    return out


def assert_invariants(game: Game) -> None:
    s = game.state
    doc = s.to_json()
    assert doc == game.to_json()
    n = len(s.players)
    cards = doc["draw_pile"] + doc["discard_pile"] + sum(doc["hands"].values()) + doc["set_aside"]
    assert cards == DECK_SIZE == s.total_cards(), f"{cards} cards on the table: {doc}"
    counts = [s.draw_pile, s.discard_pile, s.set_aside, *s.hands]
    assert min(counts) >= 0, f"a negative count: {doc}"
    assert s.stack_total >= 0 and s.stack_last >= 0 and min(s.scores) >= 0
    assert len(set(s.out)) == len(s.out)
    assert all(s.hands[seat] == 0 for seat in s.out), "a knocked-out player holds cards"
    assert s.uno_open <= set(s.active) and s.uno_called <= set(s.active)
    if s.status == "playing":
        assert s.turn not in s.out, f"{s.players[s.turn]} is out but has the turn: {doc}"
        assert doc["turn"] == s.players[s.turn] == game.turn
        assert s.hand_winner is None and doc["hand_winner"] is None
        assert len(s.out) <= n - 2, "a hand goes on with one player left"
    else:
        assert s.hand_winner is not None and doc["hand_winner"] == s.players[s.hand_winner]
        assert s.hand_winner not in s.out
        assert doc["turn"] is None and game.turn is None
    assert (s.status == "match_over") == (s.match_winner is not None)
    assert (doc["status"] == "match_over") == (doc["match_winner"] is not None)


def assert_listed_actions_are_legal(game: Game, actions: list[Line]) -> None:
    """Every line `legal_actions().actions()` lists is accepted, as a line and as text.

    The list is short (a few lines per kind of action), so all of it is checked.
    """
    before = game.to_json()
    for line in actions:
        text = str(line)
        assert game.parse(text) == line, f"'{text}' does not parse back to {line!r}"
        assert game.is_legal(line), f"listed as legal but refused: '{text}'\n{game.record()}"
        assert game.is_legal(text), f"listed as legal but refused: '{text}'"
    assert game.to_json() == before, "is_legal changed the game"


@dataclass(frozen=True)
class Checks:
    invariants: bool = False
    legal: bool = False
    refusal: bool = False
    undo: bool = False
    record: bool = False


# ---------------------------------------------------------------- the walk


def new_game(data: st.DataObject) -> Game:
    count = data.draw(st.integers(2, 6), label="players")
    names = NAMES[:count]
    rules = data.draw(rules_strategy, label="rules")
    dealer = data.draw(st.one_of(st.none(), st.sampled_from(names)), label="dealer")
    return Game(names, rules=rules, dealer=dealer)


def setup_line(data: st.DataObject, game: Game) -> str | None:
    """A line before the start card, or None to put it down.

    A correction, a dealer or rules header, a quick-score result (wins, out),
    a random line or a listed legal line.
    """
    names = game.players
    kind = data.draw(st.integers(0, 6), label="before start")
    if kind == 0:
        return None
    who = data.draw(st.sampled_from(names), label="who")
    if kind == 1:
        return f"{who}: has {data.draw(st.integers(0, 200), label='has')}"
    if kind == 6:
        return f"{who}: {data.draw(st.sampled_from(['wins', 'out']), label='quick score')}"
    if kind == 2:
        return f"dealer: {data.draw(st.sampled_from(names))}"
    if kind == 3:
        return f"rules: {data.draw(rules_strategy)}"
    if kind == 4:
        return data.draw(random_line(names), label="random")
    actions = game.legal_actions().actions()
    return str(data.draw(st.sampled_from(actions))) if actions else None


def next_line(data: st.DataObject, game: Game, checks: Checks, before_start: bool) -> str | Line:
    """The line of this step: forced between hands, else mostly a listed legal line."""
    s = game.state
    if s.status == "hand_over":
        return f"hand: {s.hand + 1}"
    if s.status == "playing" and not s.started:
        # Most walks put the start card down at once; some first try other lines.
        line = setup_line(data, game) if before_start else None
        if line is not None:
            return line
        return f"start: {data.draw(st.sampled_from(NUMBER_CODES), label='start')}"
    actions: list[Line] = list(game.legal_actions().actions())
    if checks.legal:
        assert_listed_actions_are_legal(game, actions)
    if actions and data.draw(st.integers(0, 19), label="legal?") < LEGAL_PER_20:
        return data.draw(st.sampled_from(actions), label="legal")
    return data.draw(random_line(game.players), label="random")


def step(game: Game, line: str | Line, checks: Checks) -> bool:
    """Apply one line with the checks asked for; True if the engine accepted it."""
    # What the line may not change: taken only for the checks that compare with it.
    if checks.refusal or checks.undo:
        before_json = game.to_json()
        before_state = snapshot(game.state)
        before_record = game.record()
    try:
        game.apply(line)
    except EngineError as refusal:
        assert isinstance(refusal, ValueError)
        if checks.refusal:
            assert game.to_json() == before_json, f"refused '{line}' but the state changed"
            assert snapshot(game.state) == before_state, f"refused '{line}' changed the state"
            assert game.record() == before_record
        return False
    except Exception as crash:
        raise AssertionError(
            f"'{line}' raised {type(crash).__name__}, not an EngineError: {crash}"
        ) from crash
    if checks.invariants:
        assert_invariants(game)
    if checks.undo:
        after_json, after_state = game.to_json(), snapshot(game.state)
        applied = game.lines[-1]
        assert game.undo() == applied
        assert game.to_json() == before_json, f"undo of '{line}' did not restore the state"
        assert snapshot(game.state) == before_state, f"undo of '{line}' left a changed state"
        assert game.record() == before_record
        game.apply(applied)
        assert game.to_json() == after_json, f"'{line}' applied again gave another state"
        assert snapshot(game.state) == after_state
    return True


def walk(
    data: st.DataObject, checks: Checks, *, before_start: bool = False, steps: int = STEPS
) -> Game:
    game = new_game(data)
    if not before_start:
        step(game, f"start: {data.draw(st.sampled_from(NUMBER_CODES), label='start')}", checks)
    match_winner: str | None = None
    line: str | Line = ""
    try:
        after_the_match = 0
        for _ in range(steps):
            line = next_line(data, game, checks, before_start)
            step(game, line, checks)
            winner = game.state.to_json()["match_winner"]
            if match_winner is not None:
                assert winner == match_winner, "the match was won twice"
                after_the_match += 1
                if after_the_match == LINES_AFTER_THE_MATCH:
                    break  # only refusals from here on
            match_winner = winner
        if checks.record:
            assert Game.from_record(game.record()).to_json() == game.to_json()
    except BaseException:
        note(f"record:\n{game.record()}last line tried: {line}")
        raise
    return game


# ---------------------------------------------------------------- properties


@settings(PROPERTY, max_examples=80)
@given(st.data())
def test_random_lines_never_crash(data: st.DataObject) -> None:
    walk(data, Checks())


@PROPERTY
@given(st.data())
def test_invariants_hold_after_every_line(data: st.DataObject) -> None:
    walk(data, Checks(invariants=True))


@PROPERTY
@given(st.data())
def test_every_listed_action_is_legal(data: st.DataObject) -> None:
    walk(data, Checks(legal=True))


@PROPERTY
@given(st.data())
def test_a_refused_line_changes_nothing(data: st.DataObject) -> None:
    walk(data, Checks(refusal=True))


@PROPERTY
@given(st.data())
def test_undo_restores_the_state_and_redo_repeats_it(data: st.DataObject) -> None:
    walk(data, Checks(undo=True))


@PROPERTY
@given(st.data())
def test_the_record_replays_to_the_same_game(data: st.DataObject) -> None:
    walk(data, Checks(record=True))


@settings(PROPERTY, max_examples=150)
@given(st.data())
def test_lines_before_the_start_card(data: st.DataObject) -> None:
    """Corrections, dealer and rules headers before a start card: every check at once.

    The walks are short: what matters is the few lines before each start card.
    """
    every = Checks(invariants=True, legal=True, refusal=True, undo=True, record=True)
    walk(data, every, before_start=True, steps=40)
