"""The audit trail: one log line per change made to a match (a line recorded, an undo,
a new or imported match, renewed links), with the match id and the role that made it.

It goes to the logger `companion.audit`; in production gunicorn.conf.py sends the
app's loggers to gunicorn's error log (standard error by default). Never a token or a
link in it: whoever reads the logs must not be able to join a match from them.
"""

from __future__ import annotations

import json
import logging
import re

from flask import has_request_context, request

from companion.access import Role

LOGGER = logging.getLogger("companion.audit")

_PLAIN = re.compile(r"[\w.:/+-]+")  # printed as it is; anything else is quoted


def audit(action: str, match_id: str, role: Role, **details: str | int) -> None:
    """Log `action` on the match by a phone of `role`, with `details` (never a token),
    and the client's address when there is a request (behind a proxy: the address it
    names, when COMPANION_BEHIND_PROXY trusts it)."""
    if not LOGGER.isEnabledFor(logging.INFO):
        return
    fields: dict[str, str | int] = {"match": match_id, "role": role, **details}
    if has_request_context() and request.remote_addr:
        fields["client"] = request.remote_addr
    LOGGER.info("audit: %s %s", action, " ".join(f"{k}={_value(v)}" for k, v in fields.items()))


def _value(value: str | int) -> str:
    """A value on one line that reads back: names and record lines are quoted (JSON),
    so a quote, a space or a line break in them can't forge another field or line."""
    text = str(value)
    return text if _PLAIN.fullmatch(text) else json.dumps(text, ensure_ascii=False)
