"""The phone's page and its service worker (standalone/site/shell.js, sw.js) say their
few sentences in the app's languages from the app's own catalogs: `make messages` finds
each one given to _, and the build puts their translations in words.js."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from babel.support import Translations

from companion.views.phone import build_listing
from engine import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_s_sentences_come_from_the_catalogs_in_every_language(build: Path) -> None:
    text = (build / "words.js").read_text(encoding="utf-8")
    words = json.loads(text[text.index("{") : text.rindex(";")])
    site = ROOT / "standalone" / "site"
    shell, worker = ((site / name).read_text(encoding="utf-8") for name in ("shell.js", "sw.js"))
    said = set(re.findall(r'_\("((?:[^"\\]|\\.)*)"', shell + worker))
    assert len(said) >= 12 and {"Starting the app…", "Open the app"} <= said
    for code in LANGUAGES:
        if code == SOURCE_LANGUAGE:
            continue
        catalog = Translations.load(str(LOCALE_DIR), [code])
        in_the_page = words[code.split("_")[0]]
        assert set(in_the_page) == said, code
        assert all(in_the_page[s] == catalog.gettext(s) != s for s in said), code
    assert "Die App" not in shell + worker  # no sentence translated outside the catalogs


# The page's language.js with the build's words.js, run as a page runs them, for a
# browser that prefers `languages`: what it chose, and two sentences it then says.
SPOKEN = """
const vm = require("node:vm");
const fs = require("node:fs");
const [build, languages, kept] = process.argv.slice(1);
const page = { navigator: { languages: JSON.parse(languages) } };
const keptAt = "nomercy.standalone.language";
if (kept) { page.localStorage = { getItem: (key) => key === keptAt ? kept : null }; }
page.self = page;
vm.createContext(page);
for (const file of ["words.js", "language.js"]) {
  vm.runInContext(fs.readFileSync(`${build}/${file}`, "utf8"), page);
}
console.log(JSON.stringify([page.LANGUAGE_TAG, page._("Starting the app…"),
  page._("{done} of {total} MB", { done: "1.5", total: "11.9" })]));
"""


@pytest.mark.parametrize(
    ("languages", "tag", "starting", "figures"),
    [
        (["de-AT", "en"], "de", "Die App startet…", "1.5 von 11.9 MB"),
        (["pt-BR"], "pt-BR", "Iniciando o app…", "1.5 de 11.9 MB"),
        (["it", "fr-CA"], "fr", "Démarrage de l’app…", "1.5 sur 11.9 Mo"),
        (["en-US", "de"], "en", "Starting the app…", "1.5 of 11.9 MB"),
        ([], "en", "Starting the app…", "1.5 of 11.9 MB"),
    ],
)
def test_the_page_speaks_the_browser_s_first_language_the_app_speaks(
    build: Path, languages: list[str], tag: str, starting: str, figures: str
) -> None:
    assert spoken(build, languages) == [tag, starting, figures]


@pytest.mark.parametrize(
    ("kept", "languages", "tag", "starting"),
    [
        ("de", ["fr-FR", "en"], "de", "Die App startet…"),
        ("pt-BR", ["en-US"], "pt-BR", "Iniciando o app…"),
        ("en", ["de-DE"], "en", "Starting the app…"),
        ("it", ["fr-FR"], "fr", "Démarrage de l’app…"),  # not the app's: the browser's
    ],
)
def test_the_page_speaks_the_app_s_language_as_its_last_page_said_it(
    build: Path, kept: str, languages: list[str], tag: str, starting: str
) -> None:
    # shell.js keeps the lang of each page the app shows: the choice on its Language page.
    assert spoken(build, languages, kept)[:2] == [tag, starting]


def spoken(build: Path, languages: list[str], kept: str = "") -> list[str]:
    ran = subprocess.run(
        ["node", "-e", SPOKEN, str(build), json.dumps(languages), kept],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answer: list[str] = json.loads(ran.stdout)
    return answer


def test_the_page_s_words_are_kept_for_use_offline(build: Path) -> None:
    # In build.js's files: a first visit keeps them, the service worker imports them.
    kept = {file[0] for file in build_listing(build)["files"]}
    assert {"words.js", "language.js", "shell.js", "sw.js"} <= kept
    assert '<script src="words.js" defer></script>' in (build / "index.html").read_text()
