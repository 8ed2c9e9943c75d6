"""The methods `dataclasses` writes for each class (its __init__, __repr__, __eq__ and
the rest), compiled ahead by the phone's build (make standalone) instead of at each start.

For each class, `dataclasses` writes those methods as Python source and compiles it: in
the phone's Python (Pyodide) that compiling was about two fifths of making the app (the
engine's and the app's value objects, about a hundred classes). The build starts the app
once, keeps the code each source compiled to (`save`: marshal, this Python's own
bytecode, like the build's compiled modules), and a phone's start executes that code in
place of compiling the same source again. A source the build did not see is compiled as
before, and so is every source when the file is another Python's or can't be read.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any


class DataclassCode:
    """Code for the sources `dataclasses` executes: the build's, and those compiled here."""

    def __init__(self, kept: Path) -> None:
        self.known: dict[str, CodeType] = read_kept_code(kept)
        self.compiled: dict[str, CodeType] = {}  # the sources the build did not see

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /, **more: Any) -> None:
        """`exec`, as `dataclasses` calls it, with a source's code found or compiled once."""
        if isinstance(source, str):
            code = self.known.get(source) or self.compiled.get(source)
            if code is None:
                # As `exec` compiles it there (`dataclasses` has no `from __future__`):
                # this module's `annotations` would make the methods' annotations strings.
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled[source] = code
            source = code
        builtins.exec(source, globals, locals, **more)

    def save(self, path: Path) -> int:
        """Every source's code, for a later start of this same Python: how many."""
        code = {**self.known, **self.compiled}
        # Written as read back: marshal's output depends on the objects' reference
        # counts, and the build's version is a digest of its files' bytes.
        settled = marshal.dumps(marshal.loads(marshal.dumps(code)))
        path.write_bytes(marshal.dumps(sys.version) + settled)
        return len(code)


def read_kept_code(kept: Path) -> dict[str, CodeType]:
    """The code `save` kept, if this same Python kept it (its version is read first:
    another Python's bytecode is not even loaded); else nothing, and the start compiles,
    a little slower, but starts."""
    try:
        with kept.open("rb") as file:
            if marshal.load(file) != sys.version:
                return {}
            code = marshal.load(file)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(code, dict):
        return {}
    return {s: c for s, c in code.items() if isinstance(s, str) and isinstance(c, CodeType)}


def use_dataclass_code(kept: Path) -> DataclassCode:
    """`dataclasses` from now on executes through a `DataclassCode` of `kept`'s code (the
    one already in use, if any: one per Python, as there is one `dataclasses`)."""
    current = getattr(dataclasses, "exec", None)
    owner = getattr(current, "__self__", None)
    if isinstance(owner, DataclassCode):
        return owner
    using = DataclassCode(kept)
    # The module's own name `exec` comes before the builtin's in its lookups.
    dataclasses.exec = using.exec  # type: ignore[attr-defined]
    return using
