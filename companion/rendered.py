"""Parts of the table's screen rendered once and shown many times.

The status, the seats, the last plays, the dock and the card keys of a tab (up to 34
buttons, each with a card's face, its name and what it posts) are the same for every
phone that shows the same match in the same language and asks the same of what each
shows (the table's version and last line, the phone's role, what is open:
companion/views/respond.py, KEPT_BY): four phones polling a table render them once,
not once per phone and poll. `RenderedParts` keeps them, a bounded number, per
process (app.extensions["rendered_parts"]). Nothing in a kept part is a phone's own: a
form's token, key and stamp stay outside it (templates/partials/turn_actions.html).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import current_app
from markupsafe import Markup

from companion.bounded import Bounded

# 1-10 kB a part (3 on average; a watcher's whole fragment about 6), four or five parts
# and a watcher's fragment a table version: the current screens of a few hundred live
# tables, about 8 MB. (Counted, not weighed: a weighed bound adds up every part on each
# one kept.)
MOST_PARTS = 2000


class RenderedParts:
    def __init__(self, most: int = MOST_PARTS) -> None:
        self._kept: Bounded[Hashable, Markup] = Bounded(most)

    def get(self, key: Hashable, render: Callable[[], str]) -> Markup:
        """The part kept under `key`, or `render()` kept there (rendered outside the
        cache's lock: two phones at once may both render it, the same)."""
        found = self._kept.get(key)
        if found is None:
            found = Markup(render())
            self._kept.put(key, found)
        return found

    def __len__(self) -> int:
        return len(self._kept)


def current_parts() -> RenderedParts:
    parts: RenderedParts = current_app.extensions["rendered_parts"]
    return parts
