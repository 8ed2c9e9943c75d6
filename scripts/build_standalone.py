"""`make standalone`: the app with no server, built into build/standalone/ (issue 28).

What a phone's browser runs: Pyodide from the npm package (standalone/package.json,
pinned, copied into our own files, its standard library trimmed), the project and the
packages it runs on as two zips (standalone/bundle.mjs), the modules a start imports
compiled ahead by that Python (standalone/ahead.mjs), and companion/standalone.py's
bridge, which hands the page's requests to the same `create_app`. The packages are
those this checkout's .venv runs, at the same versions: each as its pure-Python wheel,
or built from its source without its C speedups where it publishes none (MarkupSafe);
what only a server needs (gunicorn, psycopg, Flask-Compress and its brotli, the rate
limits) is left out, and the app runs without it (companion/standalone.py's settings).

    .venv/bin/python scripts/build_standalone.py [--out build/standalone]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib.metadata import distribution, requires, version
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
STANDALONE = ROOT / "standalone"
# Pyodide 314.0.7's Python: the markers its packages are chosen by.
BROWSER = default_environment() | {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
}
# What only a server needs: the app runs without these where they are left out. The
# rate limits (`limits`, and what only it needs: packaging, deprecated, wrapt) are off
# in the phone and never imported there (companion/limits.py): a first visit is about
# 0.3 MB lighter without them.
SERVER_ONLY = {"gunicorn", "psycopg", "psycopg-binary", "flask-compress", "limits"}
# The project's files the app reads (companion/paths.py): its code, pages and migrations,
# the rules page's text in each language (companion/views/rules.py), and the one static
# file it serves itself (/favicon.ico): the service worker serves the rest (site()),
# which the app names by the digests project_zip lists.
PROJECT = ("engine", "companion", "templates", "migrations")
PROJECT_FILES = ("docs/RULES*.md", "static/favicon.ico")
# Pyodide's own files a page loads (the rest of the npm package is for Node or docs).
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
# Its standard library but what the app never runs in a phone: a REPL, a debugger, test
# and documentation tools, mail and file-transfer protocols, the pure-Python twins of
# modules Pyodide has in C (io, datetime), and the encodings but the Unicode ones,
# ASCII, Latin-1 and those Python itself needs (zip names: cp437).
STDLIB = "python_stdlib.zip"
STDLIB_LEFT_OUT = (
    "_pyrepl/", "pydoc.py", "pydoc_data/", "doctest.py", "unittest/", "pdb.py", "bdb.py",
    "xmlrpc/", "wsgiref/", "imaplib.py", "mailbox.py", "smtplib.py", "ftplib.py",
    "poplib.py", "nntplib.py", "telnetlib.py", "pickletools.py", "trace.py", "profile.py",
    "cProfile.py", "pstats.py", "tabnanny.py", "pyclbr.py", "modulefinder.py", "zipapp.py",
    "wave.py", "plistlib.py", "shelve.py", "netrc.py", "webbrowser.py", "turtle.py",
    "this.py", "antigravity.py", "__phello__/", "__hello__.py", "idlelib/", "tkinter/",
    "optparse.py", "_pyio.py", "_pydatetime.py",
)  # fmt: skip
ENCODINGS_KEPT = {
    "__init__", "aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_be",
    "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_7", "idna", "punycode", "cp437",
    "charmap", "unicode_escape", "raw_unicode_escape", "base64_codec", "hex_codec",
    "cp1252", "iso8859_15",
}  # fmt: skip


def stdlib(source: Path, out: Path) -> None:
    """Pyodide's standard library, stored, not deflated (compressed as one stream on the
    way: a tenth smaller), without what STDLIB_LEFT_OUT names."""
    with zipfile.ZipFile(source) as whole, zipfile.ZipFile(out, "w") as kept:
        for entry in whole.infolist():
            name = entry.filename
            if name.startswith(STDLIB_LEFT_OUT) or (
                name.startswith("encodings/")
                and name.endswith(".py")
                and name.removeprefix("encodings/").removesuffix(".py") not in ENCODINGS_KEPT
            ):
                continue
            kept.writestr(entry, whole.read(entry), compress_type=zipfile.ZIP_STORED)


def packages() -> dict[str, str]:
    """The packages the app runs on, as this .venv has them: {name: version}."""
    found: dict[str, str] = {}
    todo = [Requirement(r) for r in requires("no-mercy-companion") or ()]
    while todo:
        wanted = todo.pop()
        name = canonicalize_name(wanted.name)
        if name in SERVER_ONLY or name in found:
            continue
        if wanted.marker is not None and not wanted.marker.evaluate(BROWSER | {"extra": ""}):
            continue
        found[name] = version(name)
        todo += [Requirement(r) for r in distribution(name).requires or ()]
    return found


def wheels(wanted: dict[str, str], into: Path) -> list[Path]:
    """A pure-Python wheel of each package, downloaded once into `into` (a cache)."""
    into.mkdir(parents=True, exist_ok=True)
    missing = [f"{n}=={at}" for n, at in sorted(wanted.items()) if not _cached(into, n, at)]
    _download(missing, into)
    made = []
    for name, at in sorted(wanted.items()):
        found = _cached(into, name, at)
        if found is None:
            sys.exit(f"make standalone: no pure-Python wheel of {name} {at} could be made.")
        made.append(found)
    return made


def _cached(folder: Path, name: str, at: str) -> Path | None:
    stem = f"{name.replace('-', '_')}-{at}-"
    for wheel in folder.glob("*.whl"):
        if wheel.name.lower().startswith(stem) and wheel.name.endswith("-none-any.whl"):
            return wheel
    return None


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
PURE = ["--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none"]
PURE += ["--python-version", BROWSER["python_version"]]


def _download(specs: list[str], into: Path) -> None:
    """The pure wheels of `specs` in one go (a pip run each costs about a second); one
    that has none is built from its source instead, and the rest asked for again."""
    specs = list(specs)
    while specs:
        got = subprocess.run(
            [*PIP, "download", "--no-deps", *PURE, "-d", str(into), *specs],
            capture_output=True,
            text=True,
        )
        if got.returncode == 0:
            return
        found = re.search(r"No matching distribution found for (\S+)", got.stderr)
        if found is None or found.group(1) not in specs:
            sys.exit(f"make standalone: pip could not download the wheels:\n{got.stderr}")
        specs.remove(found.group(1))
        _build(found.group(1), into)


def _build(spec: str, into: Path) -> None:
    """No pure wheel: built from its source, with no C compiler, so without its speedups
    (MarkupSafe then builds its pure-Python fallback)."""
    print(f"make standalone: building {spec} without its C speedups", flush=True)
    with tempfile.TemporaryDirectory() as source:
        subprocess.run(
            [*PIP, "download", "--no-deps", "--no-binary=:all:", "-d", source, spec], check=True
        )
        (sdist,) = Path(source).iterdir()
        env = os.environ | {"CC": "false", "WRAPT_INSTALL_EXTENSIONS": "false"}
        subprocess.run([*PIP, "wheel", "--no-deps", "-w", str(into), str(sdist)], env=env)


def project_zip(path: Path) -> None:
    """The project's files the app reads, as they are in this checkout."""
    from companion import static_files

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        files = [file for folder in PROJECT for file in sorted((ROOT / folder).rglob("*"))]
        files += [file for pattern in PROJECT_FILES for file in sorted(ROOT.glob(pattern))]
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                archive.write(file, file.relative_to(ROOT))
        # The static files the service worker serves (copied whole into app/static by
        # `site`), named by their digests in the app's pages as on the server.
        listed = json.dumps(static_files.digests(ROOT / "static"), sort_keys=True)
        entry = zipfile.ZipInfo(f"static/{static_files.DIGESTS_FILE}", (1980, 1, 1, 0, 0, 0))
        archive.writestr(entry, listed, zipfile.ZIP_DEFLATED)


# The page's own files (standalone/site/), and the app's icons it is installed with.
SITE = STANDALONE / "site"
# Pyodide's runtime and the two zips: downloaded gzipped.
GZIPPED = ("pyodide/", "python/")


# The page's files that say something (babel.cfg lists them for `make messages` too).
PAGE_SPEAKS = ("shell.js", "sw.js")


def page_words() -> dict[str, dict[str, str]]:
    """Each sentence the page and its service worker say (each given to _, the only
    name they translate with, in PAGE_SPEAKS, as `make messages` finds them) in each of
    the app's other languages, by the code the page matches the browser's languages
    with (pt for pt_BR)."""
    from babel.messages.extract import extract_javascript
    from babel.support import Translations

    from engine import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

    found = []
    for page in PAGE_SPEAKS:
        with (SITE / page).open("rb") as source:
            found += [said for _, _, said, _ in extract_javascript(source, ["_"], [], {})]
    # A call with fields may be found as (sentence, None); only literal sentences count
    # (the pages give _ nothing else).
    firsts = [said[0] if isinstance(said, tuple) else said for said in found]
    sentences = sorted({said for said in firsts if isinstance(said, str)})
    words = {}
    for code in LANGUAGES:
        if code != SOURCE_LANGUAGE:
            catalog = Translations.load(str(LOCALE_DIR), [code])
            words[code.split("_")[0]] = {text: catalog.gettext(text) for text in sentences}
    return words


def site(out: Path) -> None:
    """The page that downloads, keeps and runs the app (standalone/site/), the app's
    static files, its manifest
    (the server app's name, colours and icons: companion/views/pwa.py), and build.js:
    this build's version (a digest of every file) and the files a first visit downloads,
    with their sizes, read by the page and by its service worker. The large ones (under
    GZIPPED) are downloaded as a .gz beside them (standalone/site/files.js): whatever
    the host, a first visit's bytes are those of gzip."""
    from companion.views import pwa

    for file in SITE.iterdir():
        shutil.copy2(file, out)
    words = json.dumps(page_words(), ensure_ascii=False, indent=1, sort_keys=True)
    (out / "words.js").write_text(
        "// Made by make standalone: the page's sentences (shell.js, sw.js) in the app's other\n"
        f"// languages, from their catalogs (engine/locale).\nself.WORDS = {words};\n",
        encoding="utf-8",
    )
    for name, _size, _purpose in pwa.ICONS:
        shutil.copy2(ROOT / "static" / name, out)
    shutil.copy2(ROOT / "static" / "icon.svg", out)
    # The app's static files where its pages ask for them: the service worker answers
    # them from its cache, without a trip through the app.
    shutil.copytree(ROOT / "static", out / "app" / "static")
    manifest = {
        "id": "./",
        "name": pwa.NAME,
        "short_name": pwa.SHORT_NAME,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": pwa.BACKGROUND,
        "theme_color": pwa.THEME_LIGHT,
        "icons": [
            {"src": name, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for name, size, purpose in pwa.ICONS
        ],
    }
    (out / "manifest.webmanifest").write_text(json.dumps(manifest, indent=2) + "\n")
    files = sorted(f for f in out.rglob("*") if f.is_file())
    digest = hashlib.sha256()
    for file in files:
        digest.update(str(file.relative_to(out)).encode() + b"\0" + file.read_bytes())
    listed: list[list[object]] = []
    for file in files:
        entry: list[object] = [file.relative_to(out).as_posix(), file.stat().st_size]
        if str(entry[0]).startswith(GZIPPED):
            packed = file.with_name(file.name + ".gz")
            packed.write_bytes(gzip.compress(file.read_bytes(), 9, mtime=0))
            entry.append(packed.stat().st_size)
        listed.append(entry)
    build = {"version": digest.hexdigest()[:16], "files": listed}
    # The version in the service worker's own text too: a browser that checks only the
    # worker's file for changes (not the build.js it imports) still sees a new build.
    worker = out / "sw.js"
    worker.write_text(worker.read_text() + f"// This build: {build['version']}\n")
    for entry in listed:
        if entry[0] == "sw.js":
            entry[1] = worker.stat().st_size
    # build.js is one of the files too: listed with its own size, once that is settled.
    listed.append(["build.js", 0])
    while True:
        text = (
            "// Made by make standalone: this build's version and the files of a first visit.\n"
            f"self.BUILD = {json.dumps(build)};\n"
        )
        if listed[-1][1] == len(text.encode()):
            break
        listed[-1][1] = len(text.encode())
    (out / "build.js").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "standalone")
    parser.add_argument("--wheels", type=Path, default=ROOT / "build" / "standalone-wheels")
    args = parser.parse_args()
    args.out, args.wheels = args.out.resolve(), args.wheels.resolve()
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=STANDALONE, check=True)
    from engine import LANGUAGES

    made = wheels(packages(), args.wheels)
    shutil.rmtree(args.out, ignore_errors=True)
    (args.out / "pyodide").mkdir(parents=True)
    for name in RUNTIME:
        shutil.copy2(STANDALONE / "node_modules" / "pyodide" / name, args.out / "pyodide")
    stdlib(STANDALONE / "node_modules" / "pyodide" / STDLIB, args.out / "pyodide" / STDLIB)
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "project.zip"
        project_zip(project)
        shelf = Path(scratch) / "wheels"
        shelf.mkdir()
        for wheel in made:
            shutil.copy2(wheel, shelf)
        languages = ",".join(LANGUAGES)
        bundle = [str(shelf), str(project), str(args.out / "python"), languages]
        subprocess.run(["node", "bundle.mjs", *bundle], cwd=STANDALONE, check=True)
    subprocess.run(["node", "ahead.mjs", str(args.out)], cwd=STANDALONE, check=True)
    site(args.out)
    sizes = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file())
    print(f"make standalone: {args.out} ({sizes / 1e6:.1f} MB, {len(made)} wheels)")


if __name__ == "__main__":
    main()
