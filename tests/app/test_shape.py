"""The companion's shape: small modules, and one writer for each kind of table.

Scans the sources: a module over MAX_LINES lines, or a statement that writes a table
from a module other than its persistence module, fails here with where it is.
"""

from __future__ import annotations

import ast
import re
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask

from companion import models
from companion.access import Kind, Phone
from companion.group_pages import Group
from companion.paths import ROOT
from companion.views.share import Sharing

COMPANION = ROOT / "companion"
MAX_LINES = 400

# Each persistence module and the tables only it writes.
WRITERS = {
    "statements.py": (models.MATCHES, models.LINES, models.USED_KEYS),
    "group_statements.py": (models.GROUPS, models.ROSTER, models.GROUP_MATCHES, models.SEATS),
    "lab_statements.py": (models.LAB_RUNS,),
}
# SQLAlchemy's statement builders: only the persistence modules call them.
BUILDERS = {"select", "insert", "update", "delete", "text", "union_all", "exists"}


def sources() -> list[Path]:
    return sorted(COMPANION.rglob("*.py"))


def relative(path: Path) -> str:
    return str(path.relative_to(COMPANION))


def table_variables() -> dict[str, str]:
    """The models' variable of each table (MATCHES) -> its SQL name (match)."""
    return {
        name: value.name
        for name, value in vars(models).items()
        if isinstance(value, type(models.MATCHES))
    }


def writes(path: Path) -> set[str]:
    """The tables a module writes: SQLAlchemy's insert/update/delete(TABLE),
    TABLE.insert()/update()/delete(), or SQL text (INSERT INTO / UPDATE / DELETE FROM)."""
    variables = table_variables()
    tables = set(variables.values())
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # a table imported under another name (USED_KEYS as KEYS)
        if isinstance(node, ast.ImportFrom) and node.module == "companion.models":
            for alias in node.names:
                if alias.asname and alias.name in variables:
                    variables[alias.asname] = variables[alias.name]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id in ("insert", "update", "delete")
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in variables
            ):
                found.add(variables[node.args[0].id])
            if (
                isinstance(func, ast.Attribute)
                and func.attr in ("insert", "update", "delete")
                and isinstance(func.value, ast.Name)
                and func.value.id in variables
            ):
                found.add(variables[func.value.id])
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in re.finditer(
                r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(\w+)", node.value, re.IGNORECASE
            ):
                if match.group(1).lower() in tables:
                    found.add(match.group(1).lower())
    return found


def builders(path: Path) -> set[str]:
    """SQL statement builders a module imports from SQLAlchemy."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy")
        for alias in node.names
        if alias.name in BUILDERS
    }


@pytest.mark.parametrize("path", sources(), ids=relative)
def test_no_module_is_over_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"companion/{relative(path)} has {lines} lines"


def test_each_table_is_written_by_its_persistence_module_only() -> None:
    owner = {table.name: module for module, tables in WRITERS.items() for table in tables}
    strays = {
        f"companion/{relative(path)} writes {table} (only {owner[table]} may)"
        for path in sources()
        for table in writes(path)
        if owner.get(table, relative(path)) != relative(path)
    }
    assert not strays


def test_the_match_tables_are_written_in_one_module() -> None:
    written = {
        relative(path) for path in sources() if writes(path) & {"match", "match_line", "used_key"}
    }
    assert written == {"statements.py"}


def test_every_table_has_its_writer() -> None:
    """The scan sees each persistence module's writes (else the tests above prove
    nothing), and every table of the models has a persistence module."""
    for module, tables in WRITERS.items():
        assert {t.name for t in tables} <= writes(COMPANION / module), module
    owned = {table.name for tables in WRITERS.values() for table in tables}
    assert owned == set(table_variables().values())


def test_statements_are_built_in_the_persistence_modules_only() -> None:
    """No inline SQL in the services, the page models or the views."""
    strays = {
        f"companion/{relative(path)} imports {', '.join(sorted(found))}"
        for path in sources()
        if (found := builders(path)) and relative(path) not in WRITERS
    }
    assert not strays


def test_the_scan_finds_a_stray_writer(tmp_path: Path) -> None:
    stray = tmp_path / "stray.py"
    stray.write_text(
        "from sqlalchemy import update, text\n"
        "from companion.models import MATCHES, ROSTER\n"
        "update(MATCHES)\n"
        "ROSTER.delete()\n"
        "text('DELETE FROM match_line WHERE id = 1')\n"
    )
    assert writes(stray) == {"match", "roster_player", "match_line"}
    assert builders(stray) == {"update", "text"}


def test_matches_and_groups_are_shared_through_one_path(app: Flask) -> None:
    """One Sharing class serves both kinds' panels and links, and one Phone.role reads
    both kinds' roles, each from its own list in the session."""
    endpoints = {
        "share.panel": "/m/<match_id>/share",
        "share.renew": "/m/<match_id>/share/renew",
        "share.join": "/j/<token>",
        "share.watch": "/v/<token>",
        "groups.share": "/g/<group_id>/share",
        "groups.renew": "/g/<group_id>/share/renew",
        "groups.join": "/gj/<token>",
        "groups.watch": "/gv/<token>",
    }
    rules = {rule.endpoint: rule.rule for rule in app.url_map.iter_rules()}
    assert {name: rules.get(name) for name in endpoints} == endpoints
    owners = {
        getattr(app.view_functions[name], "__wrapped__", app.view_functions[name])
        for name in endpoints
    }
    assert {type(getattr(view, "__self__", None)) for view in owners} == {Sharing}

    when = datetime(2026, 1, 1)
    group = Group("g1", "Friday", when, "ge", "gv")
    phone = Phone({"g1": ["viewer", "me"]}, {"g1": ["editor", "ge"]})
    assert phone.role(group) == "editor" and phone.require(group, "editor") == "editor"
    assert phone.ids(Kind.GROUP) == ["g1"] and phone.ids(Kind.MATCH) == ["g1"]
