"""The catalogs (engine/locale) are complete and current in every shipped language.

A sentence added to the engine, the app, a template or the phone's page (shell.js,
sw.js) without a translation in each catalog fails here: `make messages`, then fill in
the .po files.
"""

from __future__ import annotations

import gettext
import re
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from engine.core.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]
# {name} in the engine's templates, %(name)s in the app's.
FIELD = re.compile(r"\{(\w*)\}|%\((\w+)\)[sdfr]")


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def messages(catalog: Catalog) -> dict[str, Message]:
    return {str(m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}


def fields(text: str) -> set[str]:
    return {a or b for a, b in FIELD.findall(text)}


def test_the_template_holds_every_sentence_of_the_sources(tmp_path: Path) -> None:
    fresh = tmp_path / "messages.pot"
    catalogs.extract(fresh)
    assert sorted(messages(read(fresh))) == sorted(messages(read(catalogs.TEMPLATE))), (
        "engine/locale/messages.pot is out of date: run `make messages`"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_sentence_is_translated(language: str) -> None:
    template = messages(read(catalogs.TEMPLATE))
    translated = messages(read(catalogs.catalog(language)))
    missing = [
        key
        for key in template
        if key not in translated
        or translated[key].fuzzy
        or not all(
            translated[key].string
            if isinstance(translated[key].string, tuple)
            else [translated[key].string]
        )
    ]
    assert not missing, f"{len(missing)} sentences not translated into {language}: {missing[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_fields(language: str) -> None:
    wrong = []
    for message in read(catalogs.catalog(language)):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = set().union(*(fields(i) for i in ids))
        for string in strings:
            found = fields(string)
            # A plural form may leave out the count ("une carte"), never add a field.
            if found - expected or (not isinstance(message.id, tuple) and found != expected):
                wrong.append((ids[0], string))
    assert not wrong, f"{language}: fields changed in {wrong[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_current(language: str) -> None:
    compiled = LOCALE_DIR / language / "LC_MESSAGES" / "messages.mo"
    with compiled.open("rb") as handle:
        reader = gettext.GNUTranslations(handle)
    stale = [
        message.id
        for message in read(catalogs.catalog(language))
        if message.id
        and isinstance(message.id, str)
        and message.string
        and not message.fuzzy
        and (
            reader.pgettext(message.context, message.id)
            if message.context
            else reader.gettext(message.id)
        )
        != message.string
    ]
    assert not stale, f"{compiled} is older than its .po: run `make messages` ({stale[:3]})"


RULE_ID = re.compile(r"^#+ .*\[([a-z-]+)\]\s*$", re.MULTILINE)
HEADING = re.compile(r"^#+ ", re.MULTILINE)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rules_page_is_written_in_every_language(language: str) -> None:
    english = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    path = ROOT / "docs" / f"RULES.{language}.md"
    assert path.exists(), f"no rules page in {language}: {path.name}"
    text = path.read_text(encoding="utf-8")
    # The same sections, with the rule ids that refusals link to.
    assert RULE_ID.findall(text) == RULE_ID.findall(english)
    assert len(HEADING.findall(text)) == len(HEADING.findall(english))
    same = set(english.splitlines()) & set(text.splitlines()) - {""}
    prose = [line for line in same if len(line.split()) > 6 and not line.startswith("|")]
    assert not prose, f"lines left in English in {path.name}: {prose[:3]}"
