"""The code's layout: small engine modules, and the engine's two floors kept apart.

The engine's rules core (engine/core) never imports its analysis tools (engine/tools),
and the app, the benchmarks and the scripts use the engine through its public API only:
`engine` and `engine.tools`. The sources are read with `ast`, nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_MOST_LINES = 500
ENGINE_API = {"engine", "engine.tools"}


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported(path: Path) -> Iterator[str]:
    """Each module `path` imports, as an absolute dotted name."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            start = ".".join(base) if node.level else ""
            module = ".".join(p for p in (start, node.module or "") if p)
            yield module
            # `from . import referee` imports a module by the name after `import`
            yield from (f"{module}.{alias.name}" for alias in node.names)


def test_no_engine_module_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in sources("engine")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > ENGINE_MOST_LINES
    }
    assert not long, f"engine modules over {ENGINE_MOST_LINES} lines: {long}"


def test_the_rules_core_imports_nothing_from_the_tools() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources("engine/core")
        for name in imported(path)
        if name == "engine.tools" or name.startswith("engine.tools.")
    ]
    assert not wrong, wrong


def test_the_import_reader_sees_relative_imports() -> None:
    names = set(imported(ROOT / "engine" / "core" / "referee.py"))
    assert {"engine.core.state", "engine.core.plays"} <= names
    assert "engine.core.i18n" in set(imported(ROOT / "engine" / "tools" / "lab.py"))


def engine_modules(path: Path) -> Iterator[str]:
    """The engine modules `path` imports by name (`from engine.x import y` gives engine.x)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        yield from (n for n in names if n == "engine" or n.startswith("engine."))


def test_the_app_uses_the_engine_through_its_public_api_only() -> None:
    users = [*sources("companion"), *sources("bench"), *sources("scripts"), ROOT / "wsgi.py"]
    wrong = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in users
        for name in engine_modules(path)
        if name not in ENGINE_API
    ]
    assert not wrong, wrong
