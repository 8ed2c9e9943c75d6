"""Where the app's files are: the checkout's root and what the app reads from it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
# The standalone build's empty database, made by its own migrations when it was built
# (standalone/ahead.mjs): absent from a checkout.
BUILT_DATABASE = ROOT / "built.sqlite3"
# Its templates compiled to Python's bytecode by its Python (standalone/ahead.mjs): a
# phone's first render of each page then compiles nothing. Absent from a checkout.
COMPILED_TEMPLATES = ROOT / "compiled_templates"
# The code of the methods `dataclasses` writes for the app's classes, compiled by its
# Python when it was built (companion/dataclass_code.py). Absent from a checkout.
DATACLASS_CODE = ROOT / "dataclass_code.marshal"
