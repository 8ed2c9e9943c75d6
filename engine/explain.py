"""Record lines told as plain sentences, for disputes and for the table screen.

`describe(line, before, after)` says what happened ("Cy stacked a Wild Draw 6
and chose Green: Ann faces +12.") and what the engine did by itself;
`how_scored` and `score_breakdown` tell the table how a hand's points are made.
"""

from __future__ import annotations

from engine.cards import Face
from engine.notation import (
    CallUno,
    Catch,
    Correct,
    DealerLine,
    Draw,
    HandLine,
    Line,
    Out,
    Play,
    PlayersLine,
    Reveal,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    Wins,
)
from engine.state import CATCH_PENALTY, KNOCKOUT_POINTS, KnockedOut, State


def describe(line: Line, before: State, after: State) -> str:
    """One or two sentences: the line, then what followed from it."""
    text = say(line, before, after)
    notes = " ".join(str(event) for event in after.events)
    return f"{text} {notes}".strip()


def whose_turn(state: State) -> str:
    """'Bob to play', 'Bob faces +6', ... or the hand's outcome."""
    names = state.players
    if state.status == "match_over":
        assert state.match_winner is not None
        return f"{names[state.match_winner]} has won the match."
    if state.status == "hand_over":
        return f"Hand {state.hand} is scored: next is hand {state.hand + 1}."
    if state.status == "scoring":
        assert state.hand_winner is not None
        return f"{names[state.hand_winner]} won the hand: the others reveal their cards."
    who = names[state.turn]
    if not state.started:
        return f"Waiting for the start card; {who} plays first."
    if state.facing == "stack":
        return f"{who} faces +{state.stack_total}: stack or take {state.stack_total}."
    if state.facing == "roulette":
        return f"{who} names a colour for the Colour Roulette."
    return f"{who} to play."


def how_scored(state: State) -> str:
    """How this hand is scored, said while the losers reveal: its winner, the match's rules.

    Knockouts are mentioned when there were some this hand. Before a hand is won
    it says the rule for "the winner".
    """
    s, seat = state, state.hand_winner
    winner = "The winner" if seat is None else s.players[seat]
    if s.rules.scoring == "low":
        zero = "The winner scores 0" if seat is None else f"{winner} won and scores 0"
        knockouts = f", and a player knocked out scores {KNOCKOUT_POINTS}" if s.out else ""
        return (
            f"{zero}; the others score the cards left in their own hands{knockouts}. "
            "The lowest total wins the match."
        )
    if seat is not None and s.active == [seat]:  # won as the last player left
        return f"{winner} scores {KNOCKOUT_POINTS} for each player knocked out."
    knockouts = f", plus {KNOCKOUT_POINTS} for each knockout" if s.out else ""
    return f"{winner} scores the cards left in the other hands{knockouts}."


def score_breakdown(state: State) -> str | None:
    """How the last scored hand's points were made ("Ann scores 305 = 55 from Cy + 250
    for Bob, knocked out."), for the end-of-hand screen; None until a hand is scored."""
    s = state
    if not s.history or s.status not in ("hand_over", "match_over"):
        return None
    result = s.history[-1]
    winner = s.players[result.winner]
    if s.rules.scoring == "low":
        scored = [f"{s.players[i]} {p}" for i, p in enumerate(result.points) if i != result.winner]
        return f"{winner} won and scores 0; the others score their own cards: {', '.join(scored)}."
    parts = [
        f"{s.revealed[i]} from {name}"
        for i, name in enumerate(s.players)
        if i != result.winner and i not in result.knocked_out and s.revealed[i] is not None
    ] + [f"{KNOCKOUT_POINTS} for {s.players[i]}, knocked out" for i in result.knocked_out]
    total = result.points[result.winner]
    return f"{winner} scores {total}" + (f" = {' + '.join(parts)}" if parts else "") + "."


def say(line: Line, before: State, after: State) -> str:
    """The line alone as a sentence ("Cy stacked Wild Draw 6 and chose Green: ...")."""
    if isinstance(line, PlayersLine):
        return f"Players, clockwise: {', '.join(line.names)}."
    if isinstance(line, DealerLine):
        return f"{line.name} deals hand {after.hand}."
    if isinstance(line, RulesLine):
        changes = line.rules.changes()
        return "House rules: " + (" ".join(changes) if changes else "the official rules.")
    if isinstance(line, StartLine):
        first = after.players[after.turn]
        return f"Hand {after.hand} starts with {line.card.name} face up: {first} plays first."
    if isinstance(line, HandLine):
        return (
            f"Hand {line.number}: {after.players[after.dealer]} deals, "
            f"{after.players[after.turn]} plays first."
        )
    who, action = line.player, line.action
    if isinstance(action, Play):
        return _play(who, action, before, after)
    if isinstance(action, Draw):
        drawn = f"{who} drew {action.count} card{'s' * (action.count != 1)}"
        if action.play is None:
            return drawn + (" and played none." if who not in _out(after) else ".")
        rest = _play(who, action.play, before, after)
        return f"{drawn}, then {rest[len(who) + 1 :]}"
    if isinstance(action, Take):
        taken = _drawn(who, before, after)
        return f"{who} took the stack: {taken} card{'s' * (taken != 1)}, and loses the turn."
    if isinstance(action, Roulette):
        return (
            f"{who} named {action.color.title} and revealed {action.count} "
            f"card{'s' * (action.count != 1)}, keeping them all."
        )
    if isinstance(action, CallUno):
        return f"{who} called UNO."
    if isinstance(action, Catch):
        return (
            f"{who} caught {action.target} without an UNO call: "
            f"{action.target} draws {CATCH_PENALTY}."
        )
    if isinstance(action, Correct):
        seat = before.players.index(who)
        return f"{who}'s count was corrected from {before.hands[seat]} to {action.count} cards."
    if isinstance(action, Wins):
        return f"{who} won hand {after.hand} (entered as a result)."
    if isinstance(action, Out):
        return f"{who} was knocked out of hand {after.hand} (entered as a result)."
    assert isinstance(action, Reveal)
    seat = after.players.index(who)
    points = after.revealed[seat]
    if action.cards is not None:
        names = ", ".join(card.name for card in action.cards)
        return f"{who} revealed {names}: {points} points."
    return f"{who} revealed {points} points."


def _drawn(who: str, before: State, after: State) -> int:
    """Cards `who` drew during the line, counting those set aside by a knockout."""
    seat = before.players.index(who)
    knocked = [e.cards for e in after.events if isinstance(e, KnockedOut) and e.player == who]
    return (knocked[0] if knocked else after.hands[seat]) - before.hands[seat]


def _out(state: State) -> list[str]:
    return [state.players[i] for i in state.out]


def _play(who: str, play: Play, before: State, after: State) -> str:
    card = play.card
    stacked = before.facing == "stack" and card.draw
    verb = "stacked" if stacked else "played"
    text = f"{who} {verb} {card.name}"
    if play.color is not None:
        text += f" and chose {play.color.title}"
    if play.discard:
        color = card.color.title.lower() if card.color else ""
        text += f" with {play.discard} more {color} card{'s' * (play.discard != 1)}"
    if after.hand_winner is not None and before.hand_winner is None:
        return text + "."
    nxt = after.players[after.turn]
    face = card.face
    if card.draw:
        return text + f": {nxt} faces +{after.stack_total}."
    if face is Face.WILD_ROULETTE:
        return text + f": {nxt} names a colour and reveals cards until it turns up."
    if face is Face.SKIP:
        skipped = before.players[before.next_active(before.turn)]
        return text + f": {skipped} is skipped, {nxt} to play."
    if face is Face.REVERSE:
        way = "clockwise" if after.direction > 0 else "counterclockwise"
        return text + f": play goes {way}, {nxt} to play."
    if face is Face.SKIP_EVERYONE:
        return text + f": everyone is skipped, {who} plays again."
    if play.swap is not None:
        seat, other = before.players.index(who), before.players.index(play.swap)
        return (
            text + f" and swapped hands with {play.swap} ({who} now holds "
            f"{after.hands[seat]}, {play.swap} {after.hands[other]})."
        )
    if card.number == 0 and before.rules.zero:
        way = "clockwise" if after.direction > 0 else "counterclockwise"
        return text + f": every hand passes one seat {way}."
    return text + "."
