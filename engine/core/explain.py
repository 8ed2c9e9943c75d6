"""Record lines told as plain sentences, for disputes and for the table screen.

`describe(line, before, after)` says what happened ("Cy stacked a Wild Draw 6
and chose Green: Ann faces +12.") and what the engine did by itself;
`how_scored` and `score_breakdown` tell the table how a hand's points are made.
Every sentence is one translatable template (engine.i18n), said in the current
language; the record's own text (`players: ...`) is never translated.
"""

from __future__ import annotations

from typing import Final

from .cards import Face
from .i18n import N_, N_plural, _, ngettext
from .notation import (
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
    RenameLine,
    Reveal,
    Roulette,
    RulesLine,
    StartLine,
    Take,
    Wins,
)
from .state import CATCH_PENALTY, KNOCKOUT_POINTS, KnockedOut, State


def describe(line: Line, before: State, after: State) -> str:
    """One or two sentences: the line, then what followed from it."""
    text = say(line, before, after)
    notes = " ".join(str(event) for event in after.events)
    return f"{text} {notes}".strip()


def summary(state: State) -> str:
    """A match in one line, for a list of matches: 'Hand 2: Bob to play. Ann leads with
    310 points.' (a hand between two hands, or a finished match, says its hand itself)."""
    if state.status == "match_over":
        assert state.match_winner is not None
        return ngettext(
            "{winner} won the match with {n} point.",
            "{winner} won the match with {n} points.",
            state.scores[state.match_winner],
            winner=state.players[state.match_winner],
        )
    said = whose_turn(state)
    if state.status != "hand_over":
        said = _("Hand {hand}: {turn}", hand=state.hand, turn=said)
    lead = standing(state)
    return f"{said} {lead}" if lead else said


def standing(state: State) -> str | None:
    """Who leads the match and with how many points, by its scoring rule; None before
    a hand is scored."""
    if not state.history:
        return None
    ranking = state.ranking()
    best = state.scores[ranking[0]]
    leaders = [state.players[seat] for seat in ranking if state.scores[seat] == best]
    if len(leaders) == 1:
        return ngettext(
            "{name} leads with {n} point.", "{name} leads with {n} points.", best, name=leaders[0]
        )
    return ngettext(
        "{names} share the lead with {n} point.",
        "{names} share the lead with {n} points.",
        best,
        names=", ".join(leaders),
    )


def whose_turn(state: State) -> str:
    """'Bob to play', 'Bob faces +6', ... or the hand's outcome."""
    names = state.players
    if state.status == "match_over":
        assert state.match_winner is not None
        return _("{winner} has won the match.", winner=names[state.match_winner])
    if state.status == "hand_over":
        return _(
            "Hand {hand} is scored: next is hand {next}.", hand=state.hand, next=state.hand + 1
        )
    if state.status == "scoring":
        assert state.hand_winner is not None
        return _(
            "{winner} won the hand: the others reveal their cards.",
            winner=names[state.hand_winner],
        )
    who = names[state.turn]
    if not state.started:
        return _("Waiting for the start card; {who} plays first.", who=who)
    if state.facing == "stack":
        return _("{who} faces +{total}: stack or take {total}.", who=who, total=state.stack_total)
    if state.facing == "roulette":
        return _("{who} names a colour for the Colour Roulette.", who=who)
    return _("{who} to play.", who=who)


def how_scored(state: State) -> str:
    """How this hand is scored, said while the losers reveal: its winner, the match's rules.

    Knockouts are mentioned when there were some this hand. Before a hand is won
    it says the rule for "the winner".
    """
    s, seat = state, state.hand_winner
    fields = {"winner": "" if seat is None else s.players[seat], "points": KNOCKOUT_POINTS}
    if s.rules.scoring == "low":
        if seat is None and s.out:
            template = N_(
                "The winner scores 0; the others score the cards left in their own hands, and "
                "a player knocked out scores {points}. The lowest total wins the match."
            )
        elif seat is None:
            template = N_(
                "The winner scores 0; the others score the cards left in their own hands. "
                "The lowest total wins the match."
            )
        elif s.out:
            template = N_(
                "{winner} won and scores 0; the others score the cards left in their own "
                "hands, and a player knocked out scores {points}. The lowest total wins the "
                "match."
            )
        else:
            template = N_(
                "{winner} won and scores 0; the others score the cards left in their own "
                "hands. The lowest total wins the match."
            )
        return _(template, **fields)
    if seat is not None and s.active == [seat]:  # won as the last player left
        return _("{winner} scores {points} for each player knocked out.", **fields)
    if seat is None and s.out:
        template = N_(
            "The winner scores the cards left in the other hands, plus {points} for each knockout."
        )
    elif seat is None:
        template = N_("The winner scores the cards left in the other hands.")
    elif s.out:
        template = N_(
            "{winner} scores the cards left in the other hands, plus {points} for each knockout."
        )
    else:
        template = N_("{winner} scores the cards left in the other hands.")
    return _(template, **fields)


def reveal_tally(state: State) -> list[str]:
    """While losers reveal: each loser done so far in a sentence, in seat order: their
    points, or their knockout and who scores it under the match's scoring."""
    s = state
    winner = None if s.hand_winner is None else s.players[s.hand_winner]
    tally = []
    for i, name in enumerate(s.players):
        if i == s.hand_winner:
            continue
        fields = {"name": name, "points": KNOCKOUT_POINTS, "winner": winner}
        if i in s.out and s.rules.scoring == "low":
            tally.append(_("{name}: knocked out, scores {points}", **fields))
        elif i in s.out and winner is not None:
            tally.append(_("{name}: knocked out, {points} to {winner}", **fields))
        elif i in s.out:
            tally.append(_("{name}: knocked out, {points} to the winner", **fields))
        elif s.revealed[i] is not None:
            tally.append(_("{name}: {points}", name=name, points=s.revealed[i]))
    return tally


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
        return _(
            "{winner} won and scores 0; the others score their own cards: {scores}.",
            winner=winner,
            scores=", ".join(scored),
        )
    # The terms of the sum, each a phrase of its own: "55 from Cy", "250 for Bob, knocked out".
    parts = [
        _("{points} from {name}", points=s.revealed[i], name=name)
        for i, name in enumerate(s.players)
        if i != result.winner and i not in result.knocked_out and s.revealed[i] is not None
    ] + [
        _("{points} for {name}, knocked out", points=KNOCKOUT_POINTS, name=s.players[i])
        for i in result.knocked_out
    ]
    total = result.points[result.winner]
    if not parts:
        return _("{winner} scores {total}.", winner=winner, total=total)
    return _("{winner} scores {total} = {sum}.", winner=winner, total=total, sum=" + ".join(parts))


def say(line: Line, before: State, after: State) -> str:
    """The line alone as a sentence ("Cy stacked Wild Draw 6 and chose Green: ...")."""
    if isinstance(line, PlayersLine):
        return _("Players, clockwise: {names}.", names=", ".join(line.names))
    if isinstance(line, DealerLine):
        return _("{name} deals hand {hand}.", name=line.name, hand=after.hand)
    if isinstance(line, RulesLine):
        changes = line.rules.changes()
        if not changes:
            return _("House rules: the official rules.")
        return _("House rules: {changes}", changes=" ".join(changes))
    if isinstance(line, StartLine):
        return _(
            "Hand {hand} starts with {card} face up: {first} plays first.",
            hand=after.hand,
            card=line.card.name,
            first=after.players[after.turn],
        )
    if isinstance(line, RenameLine):
        return _("{old} is called {new} from now on.", old=line.old, new=line.new)
    if isinstance(line, HandLine):
        return _(
            "Hand {hand}: {dealer} deals, {first} plays first.",
            hand=line.number,
            dealer=after.players[after.dealer],
            first=after.players[after.turn],
        )
    who, action = line.player, line.action
    if isinstance(action, Play):
        return _play(who, action, before, after)
    if isinstance(action, Draw):
        if action.play is not None:
            return _play(who, action.play, before, after, drawn=action.count)
        if who in _out(after):
            return ngettext("{who} drew {n} card.", "{who} drew {n} cards.", action.count, who=who)
        return ngettext(
            "{who} drew {n} card and played none.",
            "{who} drew {n} cards and played none.",
            action.count,
            who=who,
        )
    if isinstance(action, Take):
        return ngettext(
            "{who} took the stack: {n} card, and loses the turn.",
            "{who} took the stack: {n} cards, and loses the turn.",
            _drawn(who, before, after),
            who=who,
        )
    if isinstance(action, Roulette):
        return ngettext(
            "{who} named {color} and revealed {n} card, keeping them all.",
            "{who} named {color} and revealed {n} cards, keeping them all.",
            action.count,
            who=who,
            color=action.color.title,
        )
    if isinstance(action, CallUno):
        return _("{who} called UNO.", who=who)
    if isinstance(action, Catch):
        return _(
            "{who} caught {caught} without an UNO call: {caught} draws {penalty}.",
            who=who,
            caught=action.target,
            penalty=CATCH_PENALTY,
        )
    if isinstance(action, Correct):
        seat = before.players.index(who)
        return ngettext(
            "{who}'s count was corrected from {before} to {n} card.",
            "{who}'s count was corrected from {before} to {n} cards.",
            action.count,
            who=who,
            before=before.hands[seat],
        )
    if isinstance(action, Wins):
        return _("{who} won hand {hand} (entered as a result).", who=who, hand=after.hand)
    if isinstance(action, Out):
        return _(
            "{who} was knocked out of hand {hand} (entered as a result).",
            who=who,
            hand=after.hand,
        )
    assert isinstance(action, Reveal)
    seat = after.players.index(who)
    points = after.revealed[seat] or 0
    if action.cards is not None:
        return ngettext(
            "{who} revealed {cards}: {n} point.",
            "{who} revealed {cards}: {n} points.",
            points,
            who=who,
            cards=", ".join(card.name for card in action.cards),
        )
    return ngettext("{who} revealed {n} point.", "{who} revealed {n} points.", points, who=who)


def _drawn(who: str, before: State, after: State) -> int:
    """Cards `who` drew during the line, counting those set aside by a knockout."""
    seat = before.players.index(who)
    knocked = [e.cards for e in after.events if isinstance(e, KnockedOut) and e.player == who]
    return (knocked[0] if knocked else after.hands[seat]) - before.hands[seat]


def _out(state: State) -> list[str]:
    return [state.players[i] for i in state.out]


# A coloured card's play, by what it did: alone, and after drawing ("{who} drew 3
# cards, then played ...", its plural following the cards drawn).
_PLAYED: Final = {
    "end": N_("{who} played {card}."),
    "faces": N_("{who} played {card}: {next} faces +{total}."),
    "roulette": N_(
        "{who} played {card}: {next} names a colour and reveals cards until it turns up."
    ),
    "skip": N_("{who} played {card}: {skipped} is skipped, {next} to play."),
    "reverse": N_("{who} played {card}: play goes clockwise, {next} to play."),
    "reverse-back": N_("{who} played {card}: play goes counterclockwise, {next} to play."),
    "everyone": N_("{who} played {card}: everyone is skipped, {who} plays again."),
    "swap": N_(
        "{who} played {card} and swapped hands with {other} ({who} now holds {mine}, "
        "{other} {theirs})."
    ),
    "zero": N_("{who} played {card}: every hand passes one seat clockwise."),
    "zero-back": N_("{who} played {card}: every hand passes one seat counterclockwise."),
}
_DREW_THEN_PLAYED: Final[dict[str, tuple[str, str]]] = {
    "end": N_plural(
        "{who} drew {n} card, then played {card}.",
        "{who} drew {n} cards, then played {card}.",
    ),
    "faces": N_plural(
        "{who} drew {n} card, then played {card}: {next} faces +{total}.",
        "{who} drew {n} cards, then played {card}: {next} faces +{total}.",
    ),
    "roulette": N_plural(
        "{who} drew {n} card, then played {card}: {next} names a colour and reveals cards "
        "until it turns up.",
        "{who} drew {n} cards, then played {card}: {next} names a colour and reveals cards "
        "until it turns up.",
    ),
    "skip": N_plural(
        "{who} drew {n} card, then played {card}: {skipped} is skipped, {next} to play.",
        "{who} drew {n} cards, then played {card}: {skipped} is skipped, {next} to play.",
    ),
    "reverse": N_plural(
        "{who} drew {n} card, then played {card}: play goes clockwise, {next} to play.",
        "{who} drew {n} cards, then played {card}: play goes clockwise, {next} to play.",
    ),
    "reverse-back": N_plural(
        "{who} drew {n} card, then played {card}: play goes counterclockwise, {next} to play.",
        "{who} drew {n} cards, then played {card}: play goes counterclockwise, {next} to play.",
    ),
    "everyone": N_plural(
        "{who} drew {n} card, then played {card}: everyone is skipped, {who} plays again.",
        "{who} drew {n} cards, then played {card}: everyone is skipped, {who} plays again.",
    ),
    "swap": N_plural(
        "{who} drew {n} card, then played {card} and swapped hands with {other} ({who} now "
        "holds {mine}, {other} {theirs}).",
        "{who} drew {n} cards, then played {card} and swapped hands with {other} ({who} now "
        "holds {mine}, {other} {theirs}).",
    ),
    "zero": N_plural(
        "{who} drew {n} card, then played {card}: every hand passes one seat clockwise.",
        "{who} drew {n} cards, then played {card}: every hand passes one seat clockwise.",
    ),
    "zero-back": N_plural(
        "{who} drew {n} card, then played {card}: every hand passes one seat counterclockwise.",
        "{who} drew {n} cards, then played {card}: every hand passes one seat counterclockwise.",
    ),
}


def _play(who: str, play: Play, before: State, after: State, drawn: int | None = None) -> str:
    """A card played (after `drawn` cards were drawn, if so) and what it did, as one
    sentence: one template for each way a play can go."""
    card = play.card
    fields: dict[str, object] = {"who": who, "card": card.name}
    won = after.hand_winner is not None and before.hand_winner is None
    if play.discard:
        assert card.color is not None
        fields |= {"color": card.color.adjective, "more": play.discard}
        if drawn is None:
            return ngettext(
                "{who} played {card} with {n} more {color} card.",
                "{who} played {card} with {n} more {color} cards.",
                play.discard,
                **fields,
            )
        # Two counts in one sentence: its plural follows the cards drawn.
        return ngettext(
            "{who} drew {n} card, then played {card} with {more} more {color} cards.",
            "{who} drew {n} cards, then played {card} with {more} more {color} cards.",
            drawn,
            **fields,
        )
    fields |= {"next": after.players[after.turn], "total": after.stack_total}
    if play.color is not None:
        return _chose(play, before, drawn, won, fields)
    if before.facing == "stack" and card.draw:
        if won:
            return _("{who} stacked {card}.", **fields)
        return _("{who} stacked {card}: {next} faces +{total}.", **fields)
    face, clockwise = card.face, after.direction > 0
    if won:
        kind = "end"
    elif card.draw:
        kind = "faces"
    elif face is Face.WILD_ROULETTE:
        kind = "roulette"
    elif face is Face.SKIP:
        kind = "skip"
        fields["skipped"] = before.players[before.next_active(before.turn)]
    elif face is Face.REVERSE:
        kind = "reverse" if clockwise else "reverse-back"
    elif face is Face.SKIP_EVERYONE:
        kind = "everyone"
    elif play.swap is not None:
        kind = "swap"
        seat, other = before.players.index(who), before.players.index(play.swap)
        fields |= {"other": play.swap, "mine": after.hands[seat], "theirs": after.hands[other]}
    elif card.number == 0 and before.rules.zero:
        kind = "zero" if clockwise else "zero-back"
    else:
        kind = "end"
    if drawn is None:
        return _(_PLAYED[kind], **fields)
    return ngettext(*_DREW_THEN_PLAYED[kind], drawn, **fields)


def _chose(
    play: Play, before: State, drawn: int | None, won: bool, fields: dict[str, object]
) -> str:
    """A wild played with the colour its player chose."""
    assert play.color is not None
    fields["color"] = play.color.title
    if before.facing == "stack" and play.card.draw:
        if won:
            return _("{who} stacked {card} and chose {color}.", **fields)
        return _("{who} stacked {card} and chose {color}: {next} faces +{total}.", **fields)
    if won or not play.card.draw:
        if drawn is None:
            return _("{who} played {card} and chose {color}.", **fields)
        return ngettext(
            "{who} drew {n} card, then played {card} and chose {color}.",
            "{who} drew {n} cards, then played {card} and chose {color}.",
            drawn,
            **fields,
        )
    if drawn is None:
        return _("{who} played {card} and chose {color}: {next} faces +{total}.", **fields)
    return ngettext(
        "{who} drew {n} card, then played {card} and chose {color}: {next} faces +{total}.",
        "{who} drew {n} cards, then played {card} and chose {color}: {next} faces +{total}.",
        drawn,
        **fields,
    )
