"""Every shipped language at the table: a stack and a refusal, and not one English sentence.

The match is set up in English (imported from a record), then the phone picks the
language on the Language page; the table is driven by the keys' values (card codes, a
file format that stays English), never by their translated labels.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page, expect

from engine.core.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

from .conftest import SMALL_PHONE, axe_violations, shot
from .table import Table

TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]
RECORD = "players: Ana, Beto, Cris\nstart: R5\n"
FIELD = re.compile(r"\\\{\w*\\\}|%\\\(\w+\\\)[sd]")
# Short English words no shipped language uses as a word of its own.
ENGLISH_WORDS = {
    "the", "and", "with", "of", "to", "is", "are", "this", "your", "plays", "draws",
    "cards", "which", "what", "who", "from", "after", "takes", "faces", "turn", "undo",
}  # fmt: skip


# The page's text as the person reads it, code (record notation) left out.
VISIBLE_PROSE = """() => {
  const hide = document.createElement("style");
  hide.textContent = "code { display: none !important; }";
  document.head.append(hide);
  const text = document.body.innerText;
  hide.remove();
  return text;
}"""


@cache
def english_sentences() -> list[re.Pattern[str]]:
    """The catalog's sentences of three words or more (fields aside), as patterns (fields match any
    text), for the ones each language writes otherwise."""
    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    found = []
    for message in template:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            words = re.sub(r"\{\w*\}|%\(\w+\)[sd]", " ", text).split()
            if len(words) >= 3 and "<" not in text:
                found.append(re.compile(FIELD.sub(".+?", re.escape(text))))
    return found


def english_on_screen(page: Page) -> list[str]:
    """English sentences and words on the screen, leaving out what stays English on
    purpose: record notation (`code`) and rule ids ("[stack]")."""
    text = page.evaluate(VISIBLE_PROSE)
    text = re.sub(r"\[[a-z-]+\]", " ", text)
    sentences = [p.pattern for p in english_sentences() if p.search(text)]
    words = [
        f"{found.group()!r} in {text[max(0, found.start() - 30) : found.end() + 30]!r}"
        for found in re.finditer(r"[^\W\d_]+", text)  # accented letters too
        if found.group().lower() in ENGLISH_WORDS
    ]
    return sentences + words


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_stack_and_a_refusal_in_every_language(
    browser: Browser, server: str, language: str
) -> None:
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    table_url = Table(page, server).import_record(RECORD)
    page.goto(f"{server}/language?next=" + table_url.removeprefix(server))
    page.locator(f'button[name="language"][value="{language}"]').click()
    page.wait_for_url(table_url)
    expect(page.locator("html")).to_have_attribute("lang", language.replace("_", "-"))

    # Ana stacks a Draw 2: Beto faces +2.
    version = page.locator("#table").get_attribute("data-version")
    page.locator('.keyboard button[name="action"][value="R+2"]').click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", version or "")
    expect(page.locator(".take button")).to_be_visible()
    problems = [f"stack: {e}" for e in english_on_screen(page)]
    problems += [f"stack: {v}" for v in axe_violations(page)]
    shot(page, f"language-{language}-stack", "phone")

    # Beto taps a card that does not answer the stack (the Red tab shows every red
    # card, those that can't be played dimmed): refused, in the language.
    page.locator("nav.tabs a.tab.r").click()
    page.locator('.keyboard button.dim[value="R5"]').click()
    expect(page.locator(".alert.refused")).to_be_visible()
    problems += [f"refusal: {e}" for e in english_on_screen(page)]
    problems += [f"refusal: {v}" for v in axe_violations(page)]
    shot(page, f"language-{language}-refused", "phone")

    # The rules page, in the language too.
    page.goto(f"{server}/rules")
    problems += [f"rules: {e}" for e in english_on_screen(page)]
    context.close()
    assert problems == [], "\n".join(problems)
