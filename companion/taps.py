"""The tap guard: a line is only taken from a screen the person could have read.

A double tap's second tap lands on the screen the first one brought, and a live refresh
can redraw the keys under a thumb already on its way: either way the tap is a play
nobody made. So every table screen carries a stamp (the hidden `shown` field of each of
its forms): when the server made it, and whether it was a live refresh that brought
another phone's line (or undo). The stamp is signed with the app's secret key, so a
script can't make a screen look older than it is. A form posted sooner than a person
can read the screen it came from (`settle_ms`), or from a refresh that brought another
phone's change less than `refresh_ms` before, is refused with a sentence, and the table
is shown again as it is: one more tap records it. The screen dims its keys for the same
settle time (static/app.js), so a tap the server would refuse is rarely made.

How long a double tap is: Android takes two taps within 300 ms as a double tap
(ViewConfiguration's DOUBLE_TAP_TIMEOUT), desktop systems default to 500 ms for a double
click; a person reading a changed screen before tapping again takes longer than either
(a choice reaction is some 400 ms before the finger moves). 600 ms covers the slow double
taps and stays under a deliberate next tap.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Literal

from flask_babel import gettext as _

from companion.matches import Table
from engine import N_, say

SETTLE_MS = 600  # a screen is read before its first tap: no tap sooner than this
REFRESH_MS = 2000  # after a refresh that brought another phone's change
UNDONE_ELSEWHERE = -1  # `brought` when the refresh showed another phone's undo
SIGNATURE_HEX = 24  # hex digits of the stamp's signature kept (96 bits)

Why = Literal["settle", "another-line", "another-undo", "unchecked"]

# What a phone is told when its tap was not taken, by why (and for an undo).
REFUSALS: dict[tuple[Why, bool], str] = {
    ("settle", False): N_(
        "Not recorded: that tap came right after the screen changed, before it could be "
        "read (a double tap?). Look at the table: tap again if you meant it."
    ),
    ("settle", True): N_(
        "Not undone: that tap came right after the screen changed, before it could be read "
        "(a double tap?). Look at the table: tap Undo again if you meant it."
    ),
    ("another-line", False): N_(
        "Not recorded: another phone has just recorded “%(play)s”. Tap again if this is a new play."
    ),
    ("another-line", True): N_(
        "Not undone: another phone has just recorded “%(play)s”. Tap Undo again if that is "
        "the line to take back."
    ),
    ("another-undo", False): N_(
        "Not recorded: another phone has just undone a line. Look at the table: tap again "
        "if your play still stands."
    ),
    ("another-undo", True): N_(
        "Not undone: another phone has just undone a line. Look at the table: tap Undo "
        "again if there is more to take back."
    ),
    ("unchecked", False): N_(
        "Not recorded: this screen could not be checked (it may be from before the server "
        "restarted). Here is the table as it is now: tap again."
    ),
    ("unchecked", True): N_(
        "Not undone: this screen could not be checked (it may be from before the server "
        "restarted). Here is the table as it is now: tap Undo again."
    ),
}


@dataclass(frozen=True, slots=True)
class Shown:
    """How the screen a form was on came to be shown: when the server made it (ms since
    the epoch), and the line another phone recorded that its refresh brought (its row
    id; UNDONE_ELSEWHERE for another phone's undo; 0 for none)."""

    at_ms: int
    brought: int = 0


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def milliseconds(setting: str, value: object) -> int:
    """COMPANION_TAP_SETTLE_MS and COMPANION_TAP_REFRESH_MS, checked when the app starts."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10_000:
        raise ValueError(
            f"COMPANION_{setting} must be a time in milliseconds, a whole number from 0 to "
            f"10000 (the defaults: TAP_SETTLE_MS {SETTLE_MS}, TAP_REFRESH_MS {REFRESH_MS}). "
            f"It is {value!r}."
        )
    return value


class TapGuard:
    """Stamps the screens and judges the taps made on them (app.extensions["taps"])."""

    def __init__(self, secret: str, settle_ms: int = SETTLE_MS, refresh_ms: int = REFRESH_MS):
        self.settle_ms = settle_ms
        self.refresh_ms = refresh_ms
        self._key = hashlib.sha256(b"companion tap guard\x00" + secret.encode()).digest()

    def _signature(self, match_id: str, version: int, last: int, shown: Shown) -> str:
        message = f"{match_id}:{version}:{last}:{shown.at_ms}:{shown.brought}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:SIGNATURE_HEX]

    def stamp(self, table: Table, brought: int = 0, at_ms: int | None = None) -> str:
        """The `shown` field of a screen of `table` made now (`brought`: see Shown)."""
        shown = Shown(now_ms() if at_ms is None else at_ms, brought)
        signature = self._signature(table.match.id, table.version, table.last_line_id, shown)
        return f"{shown.at_ms:x}.{shown.brought}.{signature}"

    def read(self, text: str, match_id: str, version: int, last: int | None) -> Shown | None:
        """The stamp of a form made on the table at `version` and `last`; None if it
        isn't one this app made for that table."""
        at, _sep, rest = text.partition(".")
        brought, _sep, signature = rest.partition(".")
        try:
            shown = Shown(int(at, 16), int(brought))
        except ValueError:
            return None
        expected = self._signature(match_id, version, last or 0, shown)
        return shown if hmac.compare_digest(expected, signature) else None

    def judge(self, text: str | None, match_id: str, version: int, last: int | None) -> Why | None:
        """Why a tap from a form with stamp `text` is not taken; None when it is. A form
        without one (a script, a page from before stamps) is "unchecked"."""
        if text is None:
            return "unchecked"
        shown = self.read(text, match_id, version, last)
        if shown is None:
            return "unchecked"
        waited = now_ms() - shown.at_ms
        if waited < self.settle_ms:
            return "settle"
        if shown.brought and waited < self.refresh_ms:
            return "another-undo" if shown.brought == UNDONE_ELSEWHERE else "another-line"
        return None


def refusal(why: Why, table: Table, undo: bool = False) -> str:
    """What the phone is told when its tap (an undo's, with `undo`) was not taken, in its
    language."""
    if why == "another-line" and table.last_step is None:
        why = "another-undo"  # no line left to name: it was taken back since
    sentence = REFUSALS[why, undo]
    if why == "another-line":
        assert table.last_step is not None
        return str(_(sentence, play=say(*table.last_step).rstrip(".")))
    return str(_(sentence))
