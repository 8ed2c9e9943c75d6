"""The engine's words in the table's language: gettext, standard library only.

Every sentence the engine writes (refusals, explanations, card and rule names) is
built from a translatable template, looked up in the catalogs under engine/locale
(the app's templates use the same catalogs). The language is the current context's:
English unless `language("fr")` (or `use_language`) says otherwise, so each request
of the app, each thread, speaks its own. The table record is a file format and stays
English: nothing in engine/notation.py goes through here.

Templates use named fields: `_("{name} to play.", name=who)`.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
# The shipped languages, each with its own name for the language picker.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "fr": "Français",
    "de": "Deutsch",
}

_current: ContextVar[str] = ContextVar("engine_language", default=SOURCE_LANGUAGE)


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the templates as they are)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def current_language() -> str:
    return _current.get()


def use_language(code: str) -> Token[str]:
    """Speak `code` in this context from now on; give the token to `reset_language`."""
    if code not in LANGUAGES:
        raise ValueError(
            f"No catalog for the language {code!r}: the engine speaks {', '.join(LANGUAGES)}."
        )
    return _current.set(code)


def reset_language(token: Token[str]) -> None:
    _current.reset(token)


@contextmanager
def language(code: str) -> Iterator[None]:
    token = use_language(code)
    try:
        yield
    finally:
        reset_language(token)


def _(template: str, /, **fields: object) -> str:
    """The template in the current language, its {fields} filled in."""
    text = catalog(_current.get()).gettext(template)
    return text.format(**fields) if fields else text


def ngettext(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The singular or plural template as the current language counts `n` ({n} is set)."""
    text = catalog(_current.get()).ngettext(singular, plural, n)
    return text.format(n=n, **fields)


def N_(template: str, /) -> str:
    """Marks a template for the catalogs where it is defined; `_` translates it later."""
    return template
