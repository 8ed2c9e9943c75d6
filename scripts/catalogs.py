"""The catalogs in engine/locale: extract, merge, compile (`make messages` runs this).

Every translatable sentence of the engine, the app, the templates and the phone's page
(standalone/site/shell.js, sw.js: babel.cfg) is gathered into messages.pot (no source
locations, sorted: it changes only when a sentence does), merged into each shipped
language's messages.po (translators fill those in), and compiled into the .mo files the
app and the engine read (committed, so a checkout speaks every language at once).
tests/test_catalogs.py checks all three are current.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE  # noqa: E402

TEMPLATE = LOCALE_DIR / "messages.pot"
TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract(output: Path = TEMPLATE) -> None:
    pybabel(
        "extract",
        "--no-location",
        "--sort-output",
        "--project",
        "No Mercy Companion",
        "--copyright-holder",
        "the No Mercy Companion authors",
        "-F",
        str(ROOT / "babel.cfg"),
        "-k",
        "N_",
        "-k",
        "N_plural:1,2",
        "-k",
        "NP_:1c,2",
        "-k",
        "lazy_gettext",
        "-k",
        "lazy_ngettext:1,2",
        "-o",
        str(output),
        str(ROOT),
    )


def catalog(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"


def merge() -> None:
    for language in TRANSLATED:
        if catalog(language).exists():
            pybabel(
                "update",
                "--no-fuzzy-matching",
                "--ignore-obsolete",
                "-i",
                str(TEMPLATE),
                "-d",
                str(LOCALE_DIR),
                "-l",
                language,
            )
        else:
            pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-l", language)


def compile_catalogs() -> None:
    pybabel("compile", "-d", str(LOCALE_DIR))


if __name__ == "__main__":
    extract()
    merge()
    compile_catalogs()
