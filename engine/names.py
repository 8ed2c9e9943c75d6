"""The rules for a player's name, for the record and for the new-match form.

A name keeps its case for display; its runs of whitespace are tidied to single
spaces, and two names are the same player when they match ignoring case.
`clean_name` refuses a name a record can't carry; `name_problems` says, for a
form's typed names, what is wrong with each in a sentence a player reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.errors import NotationError

# A record's header words: a line 'start: R5' must never be read as a player's action.
HEADER_KEYS: Final = ("players", "dealer", "rules", "start", "hand")
# The longest name a table record may carry (records made elsewhere may be long).
MAX_NAME_LENGTH: Final = 40
# The longest name typed for a new match: what fits a seat on a phone's screen.
TYPED_NAME_LENGTH: Final = 20

_FORBIDDEN: Final = re.compile(r"[:,#]")  # they separate a record line's parts


def tidy_name(text: str) -> str:
    """The name with its runs of whitespace made single spaces, and stripped."""
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What two names of the same player have in common: tidied, case ignored."""
    return tidy_name(name).lower()


def _header_word(name: str) -> str:
    return f"A player can't be called '{name}': it is a header word ({', '.join(HEADER_KEYS)})."


def clean_name(text: str) -> str:
    """A player's name with its spaces tidied, or a NotationError saying what is wrong."""
    name = tidy_name(text)
    if not name:
        raise NotationError(
            "A player's name is empty: list the names separated by commas (players: Ann, Bob, Cy)."
        )
    if len(name) > MAX_NAME_LENGTH:
        raise NotationError(
            f"The name '{name[:20]}...' is longer than {MAX_NAME_LENGTH} characters."
        )
    if name.lower() in HEADER_KEYS:
        raise NotationError(_header_word(name))
    if _FORBIDDEN.search(name):
        raise NotationError(f"The name '{name}' can't contain ':', ',' or '#'.")
    return name


def name_problems(names: Sequence[str], max_length: int = TYPED_NAME_LENGTH) -> list[str | None]:
    """For a form's typed names, one entry each: None, or what is wrong in a sentence.

    An empty name is an empty seat and has no problem. Names are judged tidied;
    one problem each, the first of: too long (`max_length`, never more than a
    record carries), a forbidden character, a header word, the same as another
    name on the list (said on every copy).
    """
    limit = min(max_length, MAX_NAME_LENGTH)
    tidied = [tidy_name(text) for text in names]
    keys = [name_key(name) for name in tidied if name]
    problems: list[str | None] = []
    for name in tidied:
        problem: str | None = None
        if not name:
            pass
        elif len(name) > limit:
            problem = f"A name can't be longer than {limit} characters."
        elif _FORBIDDEN.search(name):
            problem = "A name can't contain : , or #."
        elif name.lower() in HEADER_KEYS:
            problem = _header_word(name)
        elif keys.count(name_key(name)) > 1:
            problem = "Two players can't have the same name."
        problems.append(problem)
    return problems
