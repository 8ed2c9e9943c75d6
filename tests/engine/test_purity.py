"""The engine is pure Python with no web framework: importing it pulls in no Flask."""

from __future__ import annotations

import subprocess
import sys

from tests.engine.conftest import ROOT


def imported_after(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_importing_the_engine_does_not_import_flask() -> None:
    assert imported_after("import engine, sys; print('flask' in sys.modules)") == "False"


def test_the_engine_uses_the_standard_library_only() -> None:
    code = (
        "import sys, engine, engine.tools.cli, engine.core.explain\n"
        "std = sys.stdlib_module_names\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules} - set(std) - {'engine'}"
        " - {m for m in sys.builtin_module_names})\n"
        "print(','.join(b for b in bad if not b.startswith('_')))"
    )
    assert imported_after(code) == ""
