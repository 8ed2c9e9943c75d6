"""Names that look alike: the app's rule on top of the engine's name rule.

The engine already makes one player of names that read the same (engine.names:
"é" written two ways, "ＡＮＮ" and "Ann"). Letters of different scripts can still
look the same on a phone: a Cyrillic "А" and a Latin "A", a Greek "ο" and a Latin
"o". The rule: two names on one table are refused when they look alike letter for
letter, that is, they have as many characters (in their compatibility form, NFKC)
and at each place the two characters are the same ignoring case, or one is listed
as a look-alike of the other in Unicode's confusables table (the
confusable_homoglyphs library). "Аnn" (Cyrillic А) beside "Ann" is refused; so are
"0scar" beside "Oscar" and "AI" beside "Al". A name alone is never refused for its
script or for mixing scripts: "Анна", "Ελένη", "田中さん", "José", "Zoë", "O'Neil".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from flask_babel import gettext as _

from engine import IllegalActionError, character_name, same_player, tidy_name


class LookAlikeNames(IllegalActionError):
    """Two names a reader can't tell apart (a refusal of the seating)."""

    rule = "setup"


@lru_cache(maxsize=4096)
def _homoglyphs(char: str) -> frozenset[str]:
    """The single characters Unicode lists as look-alikes of `char`."""
    # Here, not at the top: its table takes tens of milliseconds to load in a phone's
    # start, and only a seating or an import asks for it (a server loads it before it
    # forks: companion.ON_FIRST_USE).
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return frozenset()
    return frozenset(g["c"] for entry in found for g in entry["homoglyphs"] if len(g["c"]) == 1)


def _alike(a: str, b: str) -> bool:
    if a.casefold() == b.casefold():
        return True
    for x, y in ((a, b), (a.casefold(), b.casefold())):
        if y in _homoglyphs(x) or x in _homoglyphs(y):
            return True
    return False


def _shape(name: str) -> str:
    return unicodedata.normalize("NFKC", tidy_name(name))


def look_alike(name: str, other: str) -> str | None:
    """How `name` looks like `other`, in a sentence; None when a reader tells them apart
    (or when they are one player: the engine's rule says so)."""
    a, b = _shape(name), _shape(other)
    if not a or not b or same_player(a, b) or len(a) != len(b):
        return None
    if not all(_alike(x, y) for x, y in zip(a, b, strict=True)):
        return None
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    x, y = next(((x, y) for x, y in pairs if x.casefold() != y.casefold()), pairs[0])
    return str(
        _(
            "'%(name)s' looks like '%(other)s': its %(letter)s is %(letter_name)s, where "
            "'%(other)s' has %(other_letter_name)s. Give each player a name that looks different.",
            name=name,
            other=other,
            letter=x,
            letter_name=character_name(x),
            other_letter_name=character_name(y),
        )
    )


def look_alike_problems(names: Sequence[str]) -> list[str | None]:
    """For a list of names, one entry each: None, or which other name it looks like."""
    problems: list[str | None] = []
    for i, name in enumerate(names):
        said = (look_alike(name, other) for j, other in enumerate(names) if j != i)
        problems.append(next((sentence for sentence in said if sentence), None))
    return problems


def check_look_alikes(names: Sequence[str]) -> None:
    """Raise LookAlikeNames for the first name that looks like another on the list."""
    problem = next((p for p in look_alike_problems(names) if p), None)
    if problem is not None:
        raise LookAlikeNames(problem)


__all__ = ["LookAlikeNames", "check_look_alikes", "look_alike", "look_alike_problems"]
