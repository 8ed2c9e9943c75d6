"""The rules for a player's name, for the record and for the new-match form.

A name is kept as typed, Unicode-normalised (NFC: an "é" typed as one character
or as "e" and an accent is stored the same way) with its runs of whitespace
tidied to single spaces. Characters a reader can't see are refused (control
characters, invisible formatting characters such as a zero-width space or a
right-to-left override, fillers that show as blank): two names that look the
same must be the same player. Two names are the same player when their
compatibility forms match ignoring case (NFKC and case folding: "ＡＮＮ", "ann"
and "Ann" are one player). `clean_name` refuses a name a record can't carry;
`name_problems` says, for a form's typed names, what is wrong with each in a
sentence a player reads. `short_names` shortens a table's names for its seats
while keeping them apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from .errors import NotationError
from .i18n import N_, _

# A record's header words: a line 'start: R5' must never be read as a player's action.
HEADER_KEYS: Final = ("players", "dealer", "rules", "start", "hand", "rename")
# The longest name a table record may carry (records made elsewhere may be long).
MAX_NAME_LENGTH: Final = 40
# The longest name typed for a new match: what fits a seat on a phone's screen.
TYPED_NAME_LENGTH: Final = 20
# The longest name a seat shows on a 360-pixel phone (three seats a row): a longer one
# is shortened by `short_names`, the full name said everywhere else.
SHORT_NAME_LENGTH: Final = 9
# What marks a name cut short.
_CUT: Final = "\u2026"

_FORBIDDEN: Final = re.compile(r"[:,#]")  # they separate a record line's parts

# Whitespace a name may be typed with: tidied into single spaces, never refused.
_SPACES: Final = frozenset(" \t\n\r\x0b\x0c")
# Invisible characters that are neither control nor format characters: they show
# as nothing (Unicode's default-ignorable code points, and the blank braille cell).
_INVISIBLE: Final = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
)
# Variation selectors pick a glyph for the character before them (an emoji's
# colour form): allowed, but two names that differ only by them are one player.
_VARIATION: Final = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# Control characters have no Unicode name; these are their usual names (aliases).
# fmt: off
_C0_NAMES: Final = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY",
    "ACKNOWLEDGE", "BELL", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION",
    "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE",
    "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR",
    "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL",
    "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "FILE SEPARATOR", "GROUP SEPARATOR",
    "RECORD SEPARATOR", "UNIT SEPARATOR",
)
# fmt: on


def tidy_name(text: str) -> str:
    """The name normalised (NFC), its runs of whitespace made single spaces, stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


@lru_cache(maxsize=4096)  # a group's statistics compare the same few names thousands of times
def name_key(name: str) -> str:
    """What two names of the same player have in common: the tidied name in its
    compatibility form (NFKC), case folded, variation selectors left out."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(_VARIATION.sub("", folded).split())


def same_player(a: str, b: str) -> bool:
    """Do the two names name the same player?"""
    return name_key(a) == name_key(b)


def character_name(char: str) -> str:
    """U+XXXX and the character's Unicode name (or its usual name, for a control)."""
    code = ord(char)
    name = unicodedata.name(char, "")
    if not name:
        if code < len(_C0_NAMES):
            name = _C0_NAMES[code]
        elif code == 0x7F:
            name = "DELETE"
        else:
            name = _("a control character") if unicodedata.category(char) == "Cc" else _("unnamed")
    return f"U+{code:04X} {name}"


# Why a reader can't see a character in a name.
CONTROL: Final = "control"
INVISIBLE: Final = "invisible"

# What is said of a hidden character, by why it is hidden and where it was typed: in a
# name that shows (`name`), in one that shows nothing, in a form's name (`character`
# is its code and Unicode name, "U+200B ZERO WIDTH SPACE").
_HIDDEN_IN_NAME: Final = {
    CONTROL: N_(
        "The name '{name}' can't contain {character}: it is a control character, not part "
        "of a name. Write the name without it."
    ),
    INVISIBLE: N_(
        "The name '{name}' can't contain {character}: it is invisible, so two players could "
        "have names that look the same. Write the name without it."
    ),
}
_HIDDEN_IN_BLANK_NAME: Final = {
    CONTROL: N_(
        "A player's name can't contain {character}: it is a control character, not part of "
        "a name. Write the name without it."
    ),
    INVISIBLE: N_(
        "A player's name can't contain {character}: it is invisible, so two players could "
        "have names that look the same. Write the name without it."
    ),
}
_HIDDEN_IN_TYPED_NAME: Final = {
    CONTROL: N_("A name can't contain {character}: it is a control character, not part of a name."),
    INVISIBLE: N_(
        "A name can't contain {character}: it is invisible, so two players could have names "
        "that look the same."
    ),
}


def _hidden(char: str) -> str | None:
    """Why a reader can't see this character in a name (CONTROL, INVISIBLE); None for a
    visible one."""
    if char in _SPACES:
        return None
    category = unicodedata.category(char)
    if category == "Cc":
        return CONTROL
    if category in ("Cf", "Cs") or char in _INVISIBLE:
        return INVISIBLE
    return None


def hidden_character(text: str) -> tuple[str, str] | None:
    """The first character of `text` that can't be in a name, as its code and Unicode
    name ("U+200B ZERO WIDTH SPACE"), and why (CONTROL, INVISIBLE); None when every
    one can."""
    for char in text:
        why = _hidden(char)
        if why is not None:
            return character_name(char), why
    return None


def _shown(text: str) -> str:
    """The text without the characters a name can't hold (safe to quote in a sentence:
    a right-to-left override would turn the rest of the sentence around)."""
    return "".join(char for char in text if _hidden(char) is None)


def _header_word(name: str) -> str:
    return _(
        "A player can't be called '{name}': it is a header word ({words}).",
        name=name,
        words=", ".join(HEADER_KEYS),
    )


def clean_name(text: str) -> str:
    """A player's name tidied (NFC, single spaces), or a NotationError saying what is wrong."""
    hidden = hidden_character(text)
    if hidden is not None:
        character, why = hidden
        shown = tidy_name(_shown(text))
        if shown:
            raise NotationError(_(_HIDDEN_IN_NAME[why], name=shown, character=character))
        raise NotationError(_(_HIDDEN_IN_BLANK_NAME[why], character=character))
    name = tidy_name(text)
    if not name:
        raise NotationError(
            _(
                "A player's name is empty: list the names separated by commas "
                "(players: Ann, Bob, Cy)."
            )
        )
    if len(name) > MAX_NAME_LENGTH:
        raise NotationError(
            _(
                "The name '{start}...' is longer than {limit} characters.",
                start=name[:20],
                limit=MAX_NAME_LENGTH,
            )
        )
    if name_key(name) in HEADER_KEYS:
        raise NotationError(_header_word(name))
    if _FORBIDDEN.search(name):
        raise NotationError(_("The name '{name}' can't contain ':', ',' or '#'.", name=name))
    return name


def name_problems(names: Sequence[str], max_length: int = TYPED_NAME_LENGTH) -> list[str | None]:
    """For a form's typed names, one entry each: None, or what is wrong in a sentence.

    An empty name is an empty seat and has no problem. Names are judged tidied;
    one problem each, the first of: a character a reader can't see (even in a
    name otherwise empty), too long
    (`max_length`, never more than a record carries), a forbidden character, a
    header word, the same player as another name on the list (said on every copy).
    """
    limit = min(max_length, MAX_NAME_LENGTH)
    tidied = [tidy_name(text) for text in names]
    keys = [name_key(name) for name in tidied if name]
    problems: list[str | None] = []
    for text, name in zip(names, tidied, strict=True):
        problem: str | None = None
        hidden = hidden_character(text)
        if hidden is not None:
            character, why = hidden
            problem = _(_HIDDEN_IN_TYPED_NAME[why], character=character)
        elif not name:
            pass
        elif len(name) > limit:
            problem = _("A name can't be longer than {limit} characters.", limit=limit)
        elif _FORBIDDEN.search(name):
            problem = _("A name can't contain : , or #.")
        elif name_key(name) in HEADER_KEYS:
            problem = _header_word(name)
        elif keys.count(name_key(name)) > 1:
            problem = _("Two players can't have the same name.")
        problems.append(problem)
    return problems


def _short_forms(name: str, limit: int) -> list[str]:
    """The ways a seat may show `name` within `limit` characters, most readable first:
    the whole name, its first word, the first word and the last word's initial
    ("Ana B."), the first word cut short ("Bartholo\u2026"), that and the last word's
    initial ("Chris\u2026 S."), the first word cut short keeping its end
    ("Alexand\u2026e"), the whole name cut short keeping its end ("Alexan\u2026nd")."""
    words = name.split(" ")
    first, last = words[0], words[-1]
    forms = [name, first]
    if len(words) > 1:
        forms.append(f"{first} {last[0]}.")
    forms.append(f"{first[: limit - 1]}{_CUT}")
    if len(words) > 1:
        forms += [f"{first[: limit - 4]}{_CUT} {last[0]}."]
    forms += [f"{first[: limit - 1 - t]}{_CUT}{first[len(first) - t :]}" for t in range(1, 4)]
    if len(words) > 1:
        forms += [f"{name[: limit - 1 - t]}{_CUT}{name[len(name) - t :]}" for t in range(1, 5)]
    return [f for f in forms if len(f) <= limit and (f == name or len(f) < len(name))] or [name]


@lru_cache(maxsize=256)  # one seating per match, asked on every screen of its table
def _short_names(names: tuple[str, ...], limit: int) -> tuple[str, ...]:
    forms = [_short_forms(name, limit) for name in names]
    keys = [
        {name_key(form) for form in own} | {name_key(name)}
        for name, own in zip(names, forms, strict=True)
    ]
    shorts: list[str] = []
    for i, (name, own) in enumerate(zip(names, forms, strict=True)):
        others: set[str] = set().union(*(k for j, k in enumerate(keys) if j != i))
        # A form another player could also be shown by is never used: the seats stay
        # apart, and none reads as a different player's name.
        shorts.append(next((form for form in own if name_key(form) not in others), name))
    return tuple(shorts)


def short_names(names: Sequence[str], limit: int = SHORT_NAME_LENGTH) -> tuple[str, ...]:
    """A table's names as its seats show them, in seat order: each within `limit`
    characters where a rule allows, told apart from every other (Alexandra and Alexander
    stay "Alexandra" and "Alexander"; Jean-Baptiste Dupont is "Jean-Bap\u2026"), the full
    name where no shorter form is its own."""
    return _short_names(tuple(names), limit)


def repaired_names(
    names: Sequence[str], alike: Callable[[str, str], bool] = same_player
) -> tuple[str, ...]:
    """Names an earlier version stored, each as this version's rules take it. A name they
    take, apart from every such name before it, is kept as it is; each other one is
    repaired: the characters a reader can't see left out, a record's separators (: , #)
    made spaces, cut to MAX_NAME_LENGTH (an empty one: "Player N", its seat), and a
    header word, or a name `alike` any other (the same player by default: "ANN" beside
    "Ann"), told apart by a number: "Players 2", "ANN 2"."""
    kept: dict[int, str] = {}
    for seat, name in enumerate(names):
        if _takes(name) and not any(alike(name, other) for other in kept.values()):
            kept[seat] = name
    repaired = dict(kept)
    for seat, stored in enumerate(names):
        if seat in kept:
            continue
        stem = tidy_name(_FORBIDDEN.sub(" ", _shown(stored)))[:MAX_NAME_LENGTH].strip()
        stem = stem or f"Player {seat + 1}"
        name, number = stem, 2
        while name_key(name) in HEADER_KEYS or any(alike(name, o) for o in repaired.values()):
            suffix = f" {number}"
            name, number = f"{stem[: MAX_NAME_LENGTH - len(suffix)].rstrip()}{suffix}", number + 1
        repaired[seat] = name
    return tuple(repaired[seat] for seat in range(len(names)))


def _takes(name: str) -> bool:
    """Do this version's rules take the name as it is written?"""
    try:
        return clean_name(name) == name
    except NotationError:
        return False


def visible_name(text: str) -> str:
    """A stored name with all of it shown: each character a name can't hold written as
    its code and name in brackets ("B[U+0007 BELL]ob"), where a reader would see nothing
    (or the sentence around it turned around)."""
    return "".join(f"[{character_name(char)}]" if _hidden(char) else char for char in text)
