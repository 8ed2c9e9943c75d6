"""The engine's words in the table's language: gettext, standard library only.

Every sentence the engine writes (refusals, explanations, card and rule names) is
built from a translatable template, looked up in the catalogs under engine/locale
(the app's templates use the same catalogs). The language is the current context's:
English unless `language("fr")` (or `use_language`) says otherwise, so each request
of the app, each thread, speaks its own. The table record is a file format and stays
English: nothing in engine/core/notation.py goes through here.

Templates use named fields: `_("{name} to play.", name=who)`. Nothing translated is
ever stored: events and card names are rendered when they are shown, and a refusal
is worded in the language of the context that raised it.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
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
# Where the compiled catalogs are read from: the shipped ones, unless a context
# (a test with a catalog of its own) says otherwise with `catalogs_from`.
_directory: ContextVar[Path] = ContextVar("engine_catalogs", default=LOCALE_DIR)


def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the templates as they are)."""
    return _catalog(_directory.get(), language)


@cache
def _catalog(directory: Path, language: str) -> gettext.NullTranslations:
    # Read from the file itself, not through gettext.translation(): that one shares a
    # process-wide cache keyed by path and quietly answers English when it finds no
    # file, so a catalog a context names must be there (a shipped language without
    # one, before `make messages`, speaks English).
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    compiled = directory / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not compiled.is_file():
        if directory != LOCALE_DIR:
            raise FileNotFoundError(f"No catalog for {language!r} at {compiled}.")
        return gettext.NullTranslations()
    with compiled.open("rb") as handle:
        return gettext.GNUTranslations(handle)


@contextmanager
def catalogs_from(directory: Path) -> Iterator[None]:
    """Read the catalogs under `directory` (laid out as LOCALE_DIR: <language>/LC_MESSAGES/
    messages.mo) in this context only, e.g. a catalog a test made for itself."""
    token = _directory.set(Path(directory))
    try:
        yield
    finally:
        _directory.reset(token)


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


def pgettext(context: str, message: str, /) -> str:
    """`message` in the current language, as meant in `context` (a short text like "R"
    means something else elsewhere)."""
    return catalog(_current.get()).pgettext(context, message)


def NP_(context: str, message: str, /) -> tuple[str, str]:
    """Marks a message with its context where it is defined; `pgettext(*pair)` later."""
    return context, message


def N_(template: str, /) -> str:
    """Marks a template for the catalogs where it is defined; `_` translates it later."""
    return template


def N_plural(singular: str, plural: str, /) -> tuple[str, str]:
    """Marks a singular and plural pair where it is defined; `ngettext(*pair, n)` later."""
    return singular, plural
