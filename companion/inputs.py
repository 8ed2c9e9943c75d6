"""The guard on every request, before any view runs: the host it names, and no control
character anywhere a view or the database would read it.

Werkzeug checks a Host header's characters, its labels (IDNA: 63 characters at most)
and, with TRUSTED_HOSTS, the name itself; but it refuses while the request's URL adapter
is built, so nothing can build a URL for the error page (see views/errors.py). Here the
refusal becomes a 400 with a sentence. Control characters: PostgreSQL refuses a NUL in
text, and no name, token, key or record line has any use for one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Flask, Request, request
from flask_babel import gettext as _
from werkzeug.exceptions import BadHost, BadRequest, SecurityError

# Loopback names: requests made on the server itself (a health check, an operator's
# curl). A web page can't make a browser send them to another address.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1")
MAX_HOST_NAME = 253  # DNS: the longest name, without the final dot

# C0 controls but tab, newline and carriage return (a pasted record has those), and DEL.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same as bytes: a C0 byte is never part of a multi-byte UTF-8 character, so a file
# is checked before it is decoded.
CONTROL_BYTE = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
ASCII_NAMES = [
    *("NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT"),
    *("FF", "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB"),
    *("CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"),
]


class RefusedInput(BadRequest):
    """A request the app will not read, with the sentence that says why."""

    def __init__(self, title: str, description: str) -> None:
        super().__init__(description)
        self.title = title


def trusted_hosts(setting: object, public_url: str | None) -> list[str] | None:
    """TRUSTED_HOSTS from COMPANION_TRUSTED_HOSTS ("a.example.org, .example.net": a
    leading dot takes every subdomain) and the host of COMPANION_PUBLIC_URL, plus the
    loopback names; None (any host) when neither is set."""
    if isinstance(setting, str):
        hosts = [host.strip() for host in setting.split(",") if host.strip()]
    elif isinstance(setting, list | tuple):
        hosts = [str(host) for host in setting]
    elif setting is None:
        hosts = []
    else:
        raise ValueError(
            "COMPANION_TRUSTED_HOSTS must be the names the app is opened at, separated by "
            f"commas, such as nomercy.example.org,192.168.1.7. It is {setting!r}."
        )
    if public_url:
        hosts.append(urlsplit(public_url).hostname or "")
    if not hosts:
        return None
    return list(dict.fromkeys([*hosts, *LOOPBACK_HOSTS]))


def install(app: Flask) -> None:
    """The guard runs first, before the other extensions' checks (CSRF, limits)."""
    app.before_request_funcs.setdefault(None, []).insert(0, guard)


def guard() -> None:
    # The request itself, not its proxy: this runs on every request, the live polls too.
    this: Request = request._get_current_object()  # type: ignore[attr-defined]
    check_host(this)
    check_control_characters(this)


def check_host(request: Request) -> None:
    failure = request.routing_exception
    if isinstance(failure, SecurityError):
        raise RefusedInput(
            _("This app is not at that address"),
            _(
                "The request names a host (its Host header) this server is not set up to "
                "answer for. Open the app at the address you were given."
            ),
        )
    host = request.host
    if isinstance(failure, BadHost) or not host:
        raise RefusedInput(
            _("This address can't be opened"),
            _(
                "The request's Host header is not a valid address: a name is letters, digits, "
                "hyphens and dots, each part at most 63 characters."
            ),
        )
    name = host.rpartition("]")[0] if host.startswith("[") else host
    if len(name.partition(":")[0]) > MAX_HOST_NAME:
        raise RefusedInput(
            _("This address can't be opened"),
            _(
                "The request's Host header is longer than any address (%(most)s "
                "characters at most).",
                most=MAX_HOST_NAME,
            ),
        )


def check_control_characters(request: Request) -> None:
    """The path, the query, the form's fields (names and values) and uploaded files."""
    places: list[tuple[str, str, str]] = [("path", "", request.path)]
    for key, value in request.args.items(multi=True):
        places += [("query", "", key), ("query", "", value)]
    # Without a Content-Type werkzeug reads no form (most GETs, the polls among them):
    # asking for one would still build its empty parts and the input stream.
    if request.want_form_data_parsed:
        for key, value in request.form.items(multi=True):
            places += [("field name", "", key), ("field", shown(key), value)]
        for key, upload in request.files.items(multi=True):
            places += [("field name", "", key), ("file name", "", upload.filename or "")]
            data = upload.stream.read()
            upload.stream.seek(0)
            # A file that is not UTF-8 text is the view's to refuse, with its own sentence.
            if (byte := CONTROL_BYTE.search(data)) and is_utf8(data):
                refuse(chr(byte.group()[0]), "file")
    for where, field, text in places:
        if found := CONTROL.search(text):
            refuse(found.group(), where, field)


def refuse(character: str, where: str, field: str = "") -> None:
    """Refuse the request: one whole sentence for each place a character can be."""
    code = ord(character)
    fields = {
        "character": ASCII_NAMES[code] if code < len(ASCII_NAMES) else "DEL",
        "code": f"U+{code:04X}",
        "field": field,
    }
    if where == "path":
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in the address: "
            "nothing was recorded. Remove it (a name, a record and a link are plain text) and "
            "try again.",
            **fields,
        )
    elif where == "query":
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in the "
            "address's query: nothing was recorded. Remove it (a name, a record and a link "
            "are plain text) and try again.",
            **fields,
        )
    elif where == "field name":
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in a form "
            "field's name: nothing was recorded. Remove it (a name, a record and a link are "
            "plain text) and try again.",
            **fields,
        )
    elif where == "field":
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in the form "
            "field %(field)s: nothing was recorded. Remove it (a name, a record and a link "
            "are plain text) and try again.",
            **fields,
        )
    elif where == "file name":
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in the file's "
            "name: nothing was recorded. Remove it (a name, a record and a link are plain "
            "text) and try again.",
            **fields,
        )
    else:
        said = _(
            "The request holds a control character (%(character)s, %(code)s) in the file "
            "sent: nothing was recorded. Remove it (a name, a record and a link are plain "
            "text) and try again.",
            **fields,
        )
    raise RefusedInput(_("This request can't be read"), said)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def shown(key: str) -> str:
    """A field's name as a sentence can quote it (the name is the client's to choose)."""
    return f"“{key[:40]}…”" if len(key) > 40 else f"“{key}”"
