"""The phone's page and its service worker (standalone/site/shell.js, sw.js) say their
few sentences in the app's languages from the app's own catalogs: `make messages` finds
each one given to _, and the build puts their translations in words.js."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.support import Translations

from engine import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "standalone"


@pytest.fixture(scope="module")
def build() -> Path:
    if not (BUILD / "build.js").exists():
        subprocess.run([sys.executable, "scripts/build_standalone.py"], cwd=ROOT, check=True)
    return BUILD


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
