"""The app's static files at addresses that carry their content's digest.

Each file's digest is computed once, at start, and every address the app writes for it
carries it (`?v=`): a deploy that changes a file changes its address, so no page pairs
new HTML with an old stylesheet or script from a cache, and an address with the current
digest is cached for a year. The files of the deploy before are kept in the instance
folder (`static/<digest>/<file>`), so a page of that version, loaded just before the
deploy, still gets its own files; older ones are let go. An address with no digest, or
one nobody keeps, gets the current file, checked with the server each time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from flask import Flask, current_app, request, send_from_directory, url_for
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

VERSION = "v"  # the query parameter that carries a file's digest
YEAR = 365 * 24 * 3600
DEPLOYS = "deploys.json"  # the kept folder's list of deploys, newest first
# In the app in the phone, whose static folder lacks the files its service worker
# serves: their digests, listed by its build (scripts/build_standalone.py), so its pages
# name them by digest too, and the page keeps them rather than ask for each one again.
DIGESTS_FILE = "digests.json"
KEPT_DEPLOYS = 2  # this one and the one before


def digests(folder: Path) -> dict[str, str]:
    """Each file of `folder` (its path inside, with /) and the start of its SHA-256; or,
    in the app in the phone, those its build listed (DIGESTS_FILE)."""
    listed = folder / DIGESTS_FILE
    if listed.is_file():
        found: dict[str, str] = json.loads(listed.read_text())
        return found
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.name.startswith(".")
    }


class StaticFiles:
    """The app's static folder, its files' digests, and the deploy before's files kept
    in `kept` (none kept when it is None: the app in the phone, whose service worker
    serves the build's files)."""

    def __init__(self, folder: Path, kept: Path | None) -> None:
        self.folder, self.kept = folder, kept
        self.digests = digests(folder)
        if kept is not None:
            self._keep(kept)

    def url(self, filename: str) -> str:
        """The file's address, with its digest (a file the folder lacks: without)."""
        digest = self.digests.get(filename)
        if digest is None:
            return url_for("static", filename=filename)
        return url_for("static", filename=filename, v=digest)  # v: VERSION

    def serve(self, filename: str) -> Response:
        """The static route: the file as its address's digest names it, when kept."""
        asked = request.args.get(VERSION)
        if asked is not None and asked == self.digests.get(filename):
            return _for_a_year(current_app.send_static_file(filename))
        if asked and self.kept is not None and asked.isalnum():
            older = safe_join(str(self.kept / asked), filename)
            if older is not None and Path(older).is_file():
                return _for_a_year(send_from_directory(self.kept / asked, filename))
        return current_app.send_static_file(filename)

    def _keep(self, kept: Path) -> None:
        """Copy this deploy's files in (each under its digest), and let go of the files
        of deploys before the one before."""
        for name, digest in self.digests.items():
            copy = kept / digest / name
            if not copy.exists():  # whole or not at all: another process may start too
                copy.parent.mkdir(parents=True, exist_ok=True)
                part = copy.with_name(f".{copy.name}.{os.getpid()}")
                shutil.copyfile(self.folder / name, part)
                os.replace(part, copy)
        listed = kept / DEPLOYS
        deploys: list[dict[str, str]] = json.loads(listed.read_text()) if listed.exists() else []
        if not deploys or deploys[0] != self.digests:  # a restart is not a deploy
            deploys.insert(0, self.digests)
        deploys = deploys[:KEPT_DEPLOYS]
        wanted = {digest for deploy in deploys for digest in deploy.values()}
        for folder in kept.iterdir():
            if folder.is_dir() and folder.name not in wanted:
                shutil.rmtree(folder, ignore_errors=True)  # or another process did
        part = listed.with_name(f".{DEPLOYS}.{os.getpid()}")
        part.write_text(json.dumps(deploys))
        os.replace(part, listed)


def _for_a_year(response: Response) -> Response:
    # Its address changes with its content: never asked again (not even checked).
    response.cache_control.no_cache = None
    response.cache_control.public = True
    response.cache_control.max_age = YEAR
    response.cache_control.immutable = True
    return response


def init_static_files(app: Flask, instance: Path) -> None:
    """Versioned static addresses: `static_url(name)` in templates, and the static route
    serving the deploy before's files too (kept in the instance folder, or in the folder
    STATIC_KEPT names; none when it is False)."""
    assert app.static_folder is not None
    setting = app.config.get("STATIC_KEPT", True)  # off, on (in the instance), or a folder
    kept: Path | None = None
    if setting is True:
        kept = instance / "static"
    elif setting:
        kept = Path(setting)
    files = StaticFiles(Path(app.static_folder), kept)
    app.extensions["static_files"] = files
    app.view_functions["static"] = files.serve
    app.jinja_env.globals["static_url"] = files.url


def static_url(filename: str) -> str:
    """The address of one of the app's static files, with its digest."""
    files: StaticFiles = current_app.extensions["static_files"]
    return files.url(filename)
