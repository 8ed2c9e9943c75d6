"""The end of a hand and of the match: the Mercy rule's knockouts, the winner, a hand
entered as its result only, the losers' reveals, the points and the match's winner."""

from __future__ import annotations

from .cards import DECK_SIZE, Card, Face
from .errors import CardCountError, IllegalActionError, RevealMismatch
from .i18n import N_, _, ngettext
from .legal import status_refusal
from .notation import ActionLine, Correct, Out, Reveal, Wins
from .piles import draw_cards, short_count
from .state import (
    KNOCKOUT_POINTS,
    Draft,
    FinalDraw,
    HandResult,
    HandScored,
    HandWon,
    KnockedOut,
    MatchWon,
)


def mercy(s: Draft, seat: int, by: int | None) -> bool:
    """Knock `seat` out if they hold the Mercy limit or more. True if they are out.

    `by` is the seat whose card made them take the cards (None: nobody's)."""
    limit = s.rules.mercy
    if limit is None or s.hands[seat] < limit:
        return False
    mercy_knock_out(s, seat, by)
    return True


def mercy_knock_out(s: Draft, seat: int, by: int | None) -> None:
    cards = s.hands[seat]
    s.set_aside += cards
    s.hands[seat] = 0
    s.out += (seat,)
    s.uno_open -= {seat}
    s.uno_called -= {seat}
    dealer = None if by is None or by == seat else s.players[by]
    s.events += (KnockedOut(s.players[seat], cards, dealer),)
    active = s.active
    if len(active) == 1 and s.status == "playing":
        declare_winner(s, active[0], by_knockout=True)
        score_if_revealed(s)


def pass_turn_after_knockout(s: Draft, seat: int) -> None:
    """A knocked-out player's turn, and whatever they faced, moves on to the next player."""
    if s.status == "playing" and s.turn == seat:
        s.turn = s.next_active(seat)


def win_with_last_card(s: Draft, seat: int, card: Card) -> None:
    declare_winner(s, seat, by_knockout=False)
    if card.draw and s.rules.final_draw:
        # House rule: the next player draws the penalty before scoring (Mercy applies).
        if card.face is Face.WILD_REVERSE_DRAW4:
            s.direction = -s.direction
        victim = s.next_active(seat)
        count = short_count(s, victim, s.stack_total + card.draw)
        s.events += (FinalDraw(s.players[victim], count),)
        draw_cards(s, victim, count)
        mercy(s, victim, seat)
    s.stack_total = s.stack_last = 0
    score_if_revealed(s)


def declare_winner(s: Draft, seat: int, *, by_knockout: bool) -> None:
    s.status = "scoring"
    s.hand_winner = seat
    s.facing = "play"
    s.pending_by = None
    s.uno_open = s.uno_called = frozenset()
    s.events += (HandWon(s.players[seat], by_knockout),)


# ---------------------------------------------------------------- quick score


def quick_result(s: Draft, seat: int, action: Wins | Out) -> None:
    """A hand entered as its result only: who won, who was knocked out. The winner may
    come first (the screen asks for it first): the knockouts of the hand follow it, in
    any order with the losers' reveals, until the hand is scored."""
    name = s.players[seat]
    if isinstance(action, Out) and s.quick and s.status == "scoring":
        _knocked_out_after_the_win(s, seat)
        return
    if s.status != "playing":
        refusal = status_refusal(s)
        assert refusal is not None
        raise refusal
    if s.started:
        if isinstance(action, Wins):
            template = N_(
                "Hand {hand} is recorded play by play: {name} can't just win. The hand is "
                "won with the last card, and the Mercy rule knocks players out by itself."
            )
        else:
            template = N_(
                "Hand {hand} is recorded play by play: {name} can't just be knocked out. The "
                "hand is won with the last card, and the Mercy rule knocks players out by "
                "itself."
            )
        raise IllegalActionError(_(template, hand=s.hand, name=name), "setup")
    if seat in s.out:
        raise IllegalActionError(
            _("{name} is already knocked out of this hand.", name=name), "mercy"
        )
    s.quick = True
    if isinstance(action, Wins):
        declare_winner(s, seat, by_knockout=False)
        score_if_revealed(s)
    else:
        # They held the Mercy limit at least: their count goes up to it as far as the
        # draw pile allows, so the 168 stay whole.
        draw_cards(s, seat, min(max((s.rules.mercy or 0) - s.hands[seat], 0), s.drawable))
        mercy_knock_out(s, seat, None)
        pass_turn_after_knockout(s, seat)
    # The line itself says who won or went out: keep only what followed from it.
    s.events = tuple(e for e in s.events[1:])


def _knocked_out_after_the_win(s: Draft, seat: int) -> None:
    """A quick hand's knockout entered once its winner is known."""
    name = s.players[seat]
    if seat == s.hand_winner:
        raise IllegalActionError(
            _("{name} won the hand: they can't also be knocked out of it.", name=name), "mercy"
        )
    if seat in s.out:
        raise IllegalActionError(
            _("{name} is already knocked out of this hand.", name=name), "mercy"
        )
    if s.revealed[seat] is not None:
        raise IllegalActionError(
            _(
                "{name} already revealed their points: undo that reveal first if they were "
                "knocked out.",
                name=name,
            ),
            "scoring",
        )
    draw_cards(s, seat, min(max((s.rules.mercy or 0) - s.hands[seat], 0), s.drawable))
    mercy_knock_out(s, seat, None)
    s.events = tuple(e for e in s.events[1:])  # the line itself says who went out
    score_if_revealed(s)


# ---------------------------------------------------------------- scoring


def reveal_hand(s: Draft, seat: int, reveal: Reveal) -> None:
    name = s.players[seat]
    if s.status == "playing":
        raise IllegalActionError(
            _(
                "{name} can't reveal yet: the hand isn't won. Cards are revealed after a "
                "player goes out.",
                name=name,
            ),
            "scoring",
        )
    refusal = status_refusal(s)
    if s.status != "scoring" and refusal is not None:
        raise refusal
    if seat == s.hand_winner:
        raise IllegalActionError(
            _("{name} won the hand: the winner reveals nothing.", name=name), "scoring"
        )
    if seat in s.out:
        raise IllegalActionError(
            _(
                "{name} was knocked out: their cards don't count (the winner scores "
                "{points} for the knockout).",
                name=name,
                points=KNOCKOUT_POINTS,
            ),
            "scoring",
        )
    already = s.revealed[seat]
    if already is not None:
        raise IllegalActionError(
            ngettext(
                "{name} already revealed ({n} point).",
                "{name} already revealed ({n} points).",
                already,
                name=name,
            ),
            "scoring",
        )
    held = s.hands[seat]
    if reveal.cards is not None:
        cards = reveal.cards
        if s.quick:
            held = len(cards)  # nobody counted the cards of a hand entered as a result
        if len(cards) != held:
            raise RevealMismatch(
                ngettext(
                    "{name} showed {revealed} cards, but the table counted {n} card: if the "
                    "table's count is wrong, correct it to {revealed}, then record the cards "
                    "again.",
                    "{name} showed {revealed} cards, but the table counted {n} cards: if the "
                    "table's count is wrong, correct it to {revealed}, then record the cards "
                    "again.",
                    held,
                    name=name,
                    revealed=len(cards),
                ),
                ActionLine(name, Correct(len(cards))),
            )
        seen = s.revealed_cards.copy()
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
            if seen[card] + s.discard_known.get(card, 0) > card.copies:
                raise CardCountError(
                    _(
                        "{name} can't hold another {card}: the deck has {copies} and the "
                        "others are already accounted for (discard pile or revealed).",
                        name=name,
                        card=card.name,
                        copies=card.copies,
                    )
                )
        s.revealed_cards = seen
        points = sum(card.points for card in cards)
    else:
        assert reveal.points is not None
        points = reveal.points
        if s.quick:
            held = (s.rules.mercy or DECK_SIZE) - 1  # the most a hand can hold
        if points > 50 * held:
            raise CardCountError(
                ngettext(
                    "{name} holds {n} card: at most {most} points (50 a card), not {points}.",
                    "{name} holds {n} cards: at most {most} points (50 a card), not {points}.",
                    held,
                    name=name,
                    most=50 * held,
                    points=points,
                )
            )
    revealed = list(s.revealed)
    revealed[seat] = points
    s.revealed = tuple(revealed)
    score_if_revealed(s)


def score_if_revealed(s: Draft) -> None:
    """Score the hand once every loser still in it has revealed."""
    winner = s.hand_winner
    if s.status != "scoring" or winner is None:
        return
    if any(s.revealed[i] is None for i in s.active if i != winner):
        return
    n = len(s.players)
    points = [0] * n
    if s.rules.scoring == "high":
        left = sum(s.revealed[i] or 0 for i in s.active if i != winner)
        points[winner] = left + KNOCKOUT_POINTS * len(s.out)
    else:
        for i in range(n):
            points[i] = KNOCKOUT_POINTS if i in s.out else s.revealed[i] or 0
        points[winner] = 0
    s.scores = tuple(total + p for total, p in zip(s.scores, points, strict=True))
    s.history += (HandResult(s.hand, winner, tuple(points), s.out),)
    s.status = "hand_over"
    s.events += (HandScored(tuple(zip(s.players, points, strict=True))),)
    _end_match_if_won(s)


def _end_match_if_won(s: Draft) -> None:
    target, scores = s.rules.target, s.scores
    if max(scores) < target:
        return
    if s.rules.scoring == "high":
        best = max(scores)
    else:
        best = min(scores)
        if scores.count(best) > 1:
            return  # a tie for the lowest total: play another hand to break it
    s.match_winner = scores.index(best)
    s.status = "match_over"
    s.events += (MatchWon(s.players[s.match_winner], best),)
