"""The standalone build (`make standalone`: build/standalone/) runs the app in Pyodide:
booted in Node from the build's own files, it referees the same hand through the same
bridge as this Python does, and shows the same table (tests/standalone/scenario.py);
and the pages a hand seldom opens open there too.
The build is made here if it is missing (`make test` makes it first)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from companion import static_files
from companion.standalone import Standalone
from tests.standalone import scenario

ROOT = Path(__file__).resolve().parents[2]


def in_pyodide(build: Path, folder: Path, python: str) -> dict[str, Any]:
    ran = subprocess.run(
        ["node", "standalone/play.mjs", str(build), str(folder), json.dumps(scenario.SETTLE)],
        cwd=ROOT,
        input=python,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    said: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return said


# Pages a hand seldom opens, asked for in the same Pyodide (a start costs seconds).
PAGES = ("/rules", "/rules?lang=de", "/lab")
SEEN = """
for page in PAGES:
    shown = phone.answer("GET", page, [("Accept-Language", "en")])
    said.setdefault("pages", {})[page] = shown.status
"""


# Each file of the two zips, as the start unpacked it (standalone/site/unpack.mjs), against
# Python's own reading of the zip (copied into the phone's folder, which Node can reach).
UNPACKED = """
import site, zipfile
for name, into in (("app.zip", Path("/app")), ("site.zip", Path(site.getsitepackages()[0]))):
    with zipfile.ZipFile(Path(FOLDER) / name) as whole:
        files = [entry for entry in whole.infolist() if not entry.is_dir()]
        same = [(into / entry.filename).read_bytes() == whole.read(entry) for entry in files]
        said.setdefault("unpacked", {})[name] = [len(files), sum(same)]
cached = phone.app.jinja_env.cache.values()
said["templates from"] = sorted({t.root_render_func.__code__.co_filename[:5] for t in cached})
said["dataclass code"] = {"known": len(phone.dataclass_code.known),
                          "compiled": len(phone.dataclass_code.compiled)}
"""


@pytest.fixture(scope="module")
def played(build: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("phone")
    for name in ("app.zip", "site.zip"):
        (folder / name).write_bytes((build / "python" / name).read_bytes())
    source = Path(scenario.__file__).read_text() + "\nsaid.update(play(phone))\n"
    source += f"PAGES = {PAGES!r}\n" + SEEN + UNPACKED
    return in_pyodide(build, folder, source)


def test_the_app_referees_a_hand_in_pyodide_as_it_does_here(
    played: dict[str, Any], tmp_path: Path
) -> None:
    assert played["home"] == {"status": 200, "title": "No Mercy Companion"}
    here = scenario.play(Standalone(tmp_path / "here", scenario.SETTLE))
    said = played["said"]
    assert said["statuses"] == here["statuses"] == [303] * (len(scenario.LINES) + 1)
    # The same record, but for its key (`record:`): each match in a phone has its own.
    assert said["record"].split("\n", 1)[1] == here["record"].split("\n", 1)[1]
    assert said["record"].startswith("record: ") and said["record"] != here["record"]
    assert said["text"] == here["text"]


def test_the_start_unpacks_every_file_of_the_zips_as_python_reads_them(
    played: dict[str, Any], build: Path
) -> None:
    for name, (files, same) in played["said"]["unpacked"].items():
        with zipfile.ZipFile(build / "python" / name) as whole:
            assert files == len([entry for entry in whole.infolist() if not entry.is_dir()])
        assert same == files > 100, name


def test_the_phone_renders_the_templates_the_build_compiled(played: dict[str, Any]) -> None:
    assert played["said"]["templates from"] == ["tmpl_"]  # the modules compile_templates made


def test_the_phone_compiles_no_dataclass_methods_the_build_compiled(
    played: dict[str, Any],
) -> None:
    # Compiling them was about two fifths of making the app in a phone's Python: the
    # build's start made every class a hand and its pages make (companion/dataclass_code.py).
    code = played["said"]["dataclass code"]
    assert code["known"] > 50 and code["compiled"] == 0


def test_the_rules_page_opens_in_the_phone(played: dict[str, Any]) -> None:
    # It was a 500: the build left out the rules' text (docs/RULES*.md).
    assert played["said"]["pages"] == dict.fromkeys(PAGES, 200)


def test_the_build_s_database_is_empty_and_migrated_like_a_server_s(
    build: Path, tmp_path: Path
) -> None:
    with zipfile.ZipFile(build / "python" / "app.zip") as project:
        (tmp_path / "built.sqlite3").write_bytes(project.read("built.sqlite3"))
    Standalone(tmp_path / "here", scenario.SETTLE)  # migrated by this Python's alembic

    def schema_and_rows(path: Path) -> tuple[list[tuple[str, ...]], dict[str, int]]:
        with sqlite3.connect(path) as database:
            schema = database.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
            tables = [name for kind, name, _ in schema if kind == "table"]
            count = 'SELECT count(*) FROM "{}"'
            rows = {t: database.execute(count.format(t)).fetchone()[0] for t in tables}
        return sorted(schema), rows

    built, rows = schema_and_rows(tmp_path / "built.sqlite3")
    here, _ = schema_and_rows(tmp_path / "here" / "companion.sqlite3")
    assert built == here
    assert {table: count for table, count in rows.items() if count} == {"alembic_version": 1}


def test_a_build_of_the_same_files_is_the_same_build(build: Path) -> None:
    # Its version is a digest of its files: when they held the moment they were made (the
    # zips' dates, the bytecode's source times), each build was a new version that every
    # phone downloaded again.
    for name in ("python/site.zip", "python/app.zip"):
        with zipfile.ZipFile(build / name) as zipped:
            assert {entry.date_time for entry in zipped.infolist()} == {(1980, 1, 1, 0, 0, 0)}
            for entry in zipped.infolist():
                if entry.filename.endswith(".pyc"):  # flags: checked by a source hash
                    assert int.from_bytes(zipped.read(entry)[4:8], "little") & 1, entry


def test_the_phone_names_each_static_file_by_the_digest_of_the_file_its_worker_serves(
    build: Path,
) -> None:
    # Its service worker keeps an address with a digest for a year (standalone/site/sw.js):
    # a digest of another file would keep an old one past an update.
    with zipfile.ZipFile(build / "python" / "app.zip") as whole:
        listed = json.loads(whole.read(f"static/{static_files.DIGESTS_FILE}"))
    assert listed == static_files.digests(build / "app" / "static")
    assert {"app.css", "app.js", "icons.svg", "vendor/htmx.min.js"} <= set(listed)
