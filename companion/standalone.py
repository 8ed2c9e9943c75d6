"""The app with no server: the same `create_app`, run by a Python inside the phone's browser
(Pyodide, the standalone build: `make standalone`, issue 28), its requests handed to it
one at a time as WSGI calls.

`Standalone` is the app as that build runs it: its database and its session in a folder
of the browser's storage, and none of what such a Python can't have or doesn't need
(compression over a network there is none of, rate limits against one phone, brotli,
psycopg, threads: companion/extensions.py, companion/limits.py). `answer` is the bridge:
a request as the page sent it (method, URL, headers, body) in, the app's answer out.
The page never sees a Set-Cookie (a service worker's answer can't set one), so the
bridge keeps the app's cookies itself, in the same folder: the phone's roles outlast a
reload and a restart, as a browser's cookie would.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import MutableMapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from flask import Flask
from itsdangerous import BadSignature
from jinja2 import ChoiceLoader, Environment, ModuleLoader, Template
from werkzeug.test import EnvironBuilder, run_wsgi_app

from companion.dataclass_code import DataclassCode, use_dataclass_code
from companion.paths import BUILT_DATABASE, COMPILED_TEMPLATES, DATACLASS_CODE

# What the app is told it is served as. Plain http: the requests never leave the phone,
# and over https Flask-WTF would ask each form post for a Referer of the same origin,
# which a request handed over by a service worker need not carry. The pages link by path;
# only the share page's links name this host, which no other phone can reach (sharing a
# table goes through a server: issue 28's "Send to server").
ORIGIN = "http://localhost"
# Shown in a frame of the page that runs it (standalone/site/), whose service worker is
# the only one; no lab, which would start processes.
STANDALONE = {
    "COMPRESS_RESPONSES": False,
    "RATELIMIT_ENABLED": False,
    "AUTO_MIGRATE": True,
    "SERVICE_WORKER": False,
    "FRAMED_BY_ITS_PAGE": True,
    "LAB_ENABLED": False,
    "STANDALONE_BUILD": "",  # the phone hands out no app: a server does
    # Its matches are sent to a server later ("Send to a server"): each has its record's
    # key from the start, so sending one twice makes one match there.
    "RECORD_KEYS": True,
    "SEND_TO_SERVER": True,
    "SHARE_LINKS": False,  # its links would name this phone: shared through a server
    "DB_COMMANDS": False,  # no command line: no `flask db`
    "STATIC_KEPT": False,  # its service worker serves the build's files, of one version
    # One page runs the app and only its own taps change a table (another tab is told
    # the app runs elsewhere: standalone/site/shell.js): no poll every 1.5 s, which cost
    # the phone's CPU (its battery) even with nothing to show. (On a server the poll
    # also brings a table whose own tap's answer was lost; here an answer later than
    # 15 s leaves the table as it was, with "Send again": static/unsent.js.)
    "LIVE_REFRESH": False,
    # Its browser storage keeps whole files, written after each change: SQLite's log kept
    # under 64 pages (256 KB), so a tap writes about 150 KB there, not a log of up to
    # 4 MB (companion/database.py).
    "SQLITE_LOG_PAGES": 64,
}
# The session, signed again on every request, is written to the jar when it says
# something new, or once a day (its age is checked against PERMANENT_SESSION_LIFETIME,
# a month: the jar never keeps one near that).
RENEWED_WITHIN = 24 * 3600


@dataclass(frozen=True)
class Answer:
    """The app's answer to one request: what a service worker turns into a Response."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes
    wrote: bool  # the folder changed (the page then writes it to the browser's storage)


class Standalone:
    """The app and its cookies, kept in `folder` (the browser's persistent storage),
    served at the path `root` (its pages' links start with it; "" at the top)."""

    def __init__(
        self,
        folder: Path,
        config: dict[str, Any] | None = None,
        root: str = "",
        built: Path = BUILT_DATABASE,
        templates: Path = COMPILED_TEMPLATES,
        dataclass_code: Path = DATACLASS_CODE,
    ) -> None:
        # Before the app's modules are imported (create_app imports most of them): their
        # value objects' methods, compiled when the build was made. In the phone's Python
        # only (and the build's, which keeps them): here, dataclasses compiles them.
        self.dataclass_code: DataclassCode | None = None
        if sys.platform == "emscripten":
            self.dataclass_code = use_dataclass_code(dataclass_code)
        from companion import create_app

        self.root = root.rstrip("/")
        # Migrated only at the first start of a build whose migrations changed: their
        # digest is kept beside the database (alembic costs a start about a second).
        stamp, migrations = folder / "migrated", migrations_digest()
        folder.mkdir(parents=True, exist_ok=True)
        database = folder / "companion.sqlite3"
        if not database.exists() and built.exists():
            # The very first start: the build's own empty database, migrated by the same
            # migrations when the build was made, in place of migrating one here.
            shutil.copyfile(built, database)
            stamp.write_text(migrations)
        current = stamp.exists() and stamp.read_text() == migrations
        settings = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
        # The instance folder (its secret key) is the same folder: read from the
        # environment by create_app, and put back as it was.
        before = os.environ.get("COMPANION_INSTANCE")
        os.environ["COMPANION_INSTANCE"] = str(folder)
        try:
            given = {**STANDALONE, **settings, **(config or {})}
            if current and database.exists():
                given["AUTO_MIGRATE"] = False
            self.app: Flask = create_app(given)
        finally:
            if before is None:
                del os.environ["COMPANION_INSTANCE"]
            else:
                os.environ["COMPANION_INSTANCE"] = before
        if not current and self.app.config["AUTO_MIGRATE"]:
            stamp.write_text(migrations)
        own = self.app.jinja_env.loader
        if templates.is_dir() and own is not None:
            # The build's compiled templates first (Jinja compiles a template in Python:
            # a tenth of a second for a page, in a phone, at its first render each start).
            self.app.jinja_env.loader = ChoiceLoader([CompiledTemplates(templates), own])
        self.jar = folder / "cookies.json"
        self.cookies: dict[str, str] = json.loads(self.jar.read_text()) if self.jar.exists() else {}
        self.saved = dict(self.cookies)  # what the jar holds (`cookies` may be newer)
        # The folder as the last answer left it: only answers change it (the page's
        # writes to the browser's storage read it), so it is scanned once an answer, not
        # before and after (a scan: 0.1-0.2 ms in Pyodide on this machine, more on a phone).
        self.folder = str(folder)
        self.seen = self._folder()

    def answer(
        self, method: str, url: str, headers: list[tuple[str, str]], body: bytes = b""
    ) -> Answer:
        """The app's answer to a request for `url` (a path under the root and its query,
        as the page asked it), with the cookies it set before; the cookies it sets now
        are kept."""
        body = bytes(body)  # from the page: a buffer of any kind
        path, _, query = url.partition("?")
        if self.root and (path == self.root or path.startswith(self.root + "/")):
            path = path[len(self.root) :] or "/"
        sent = [(k, v) for k, v in headers if k.lower() not in ("cookie", "host")]
        if self.cookies:
            sent.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        environ = EnvironBuilder(
            path=path,
            query_string=query,
            method=method,
            base_url=ORIGIN + self.root,
            headers=sent,
            data=body,
        ).get_environ()
        # Werkzeug's own WSGI call, as its test client makes one: the answer read whole
        # and the app's iterable closed (the app's teardown). (An answer that raises
        # leaves `seen` as it was: the next answer then says it wrote, to be safe.)
        chunks, status, given = run_wsgi_app(self.app, environ, buffered=True)
        self._keep(given.getlist("Set-Cookie"))
        kept = [(k, v) for k, v in given.items() if k.lower() != "set-cookie"]
        before, self.seen = self.seen, self._folder()
        wrote = self.seen != before
        return Answer(int(status.split(" ", 1)[0]), kept, b"".join(chunks), wrote)

    def _folder(self) -> list[tuple[str, int, int]]:
        """What tells whether the folder's files changed: each one's name, size and time.
        Not SQLite's shared-memory index (-shm), which a read changes too and a restart
        makes again from the database and its log."""
        found = []
        for entry in os.scandir(self.folder):
            if entry.is_file() and not entry.name.endswith("-shm"):
                stat = entry.stat()
                found.append((entry.name, stat.st_size, stat.st_mtime_ns))
        return sorted(found)

    def _keep(self, set_cookies: list[str]) -> None:
        """The cookies an answer set, kept; written to the jar (the folder) when they say
        something new, or when the session the jar holds was signed more than a day ago.
        The app signs the session again on every request once a match is remembered
        (a permanent session): its time alone changing must not make every answer a
        write of the folder to the browser's storage."""
        self.cookies = kept_cookies(self.cookies, set_cookies)
        if self.cookies != self.saved and not self._renewed_only():
            self.jar.write_text(json.dumps(self.cookies))
            self.saved = dict(self.cookies)

    def _renewed_only(self) -> bool:
        """Do the cookies differ from the jar's only by the session's signing time, the
        jar's signed within RENEWED_WITHIN seconds?"""
        name = self.app.config["SESSION_COOKIE_NAME"]
        others = {k: v for k, v in self.cookies.items() if k != name}
        if others != {k: v for k, v in self.saved.items() if k != name}:
            return False
        serializer = self.app.session_interface.get_signing_serializer(self.app)  # type: ignore[attr-defined]
        try:
            now, _ = serializer.loads(self.cookies[name], return_timestamp=True)
            then, signed = serializer.loads(self.saved[name], return_timestamp=True)
        except (BadSignature, KeyError, TypeError):
            return False
        return bool(now == then and time.time() - signed.timestamp() < RENEWED_WITHIN)


class CompiledTemplates(ModuleLoader):
    """The templates `compile_templates` made, each named by its own name (an error's
    traceback then names the template, not its module's digest)."""

    def load(
        self,
        environment: Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> Template:
        template = super().load(environment, name, globals)
        template.filename = name
        return template


def compile_templates(app: Flask, folder: Path) -> int:
    """Each of the app's templates, compiled by its own Jinja environment into a module
    of `folder`, as bytecode of this Python (for `Standalone`'s `templates`): how many."""
    import py_compile

    app.jinja_env.compile_templates(str(folder), zip=None, ignore_errors=False)
    sources = sorted(folder.glob("tmpl_*.py"))
    for source in sources:
        py_compile.compile(
            str(source),
            cfile=str(source.with_suffix(".pyc")),
            dfile=source.name,
            doraise=True,
            optimize=2,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        source.unlink()
    return len(sources)


def migrations_digest() -> str:
    """A digest of the migrations this build holds (a new build may hold more)."""
    from companion.paths import MIGRATIONS

    digest = hashlib.sha256()
    for path in sorted(MIGRATIONS.rglob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def kept_cookies(cookies: dict[str, str], set_cookies: list[str]) -> dict[str, str]:
    """`cookies` after an answer's Set-Cookie headers: each set, or let go of when the app
    deletes it (Max-Age=0, as Flask deletes one)."""
    kept = dict(cookies)
    for header in set_cookies:
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        for name, morsel in cookie.items():
            if morsel["max-age"] == "0":
                kept.pop(name, None)
            else:
                kept[name] = morsel.value
    return kept
