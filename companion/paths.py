"""Where the app's files are: the checkout's root and what the app reads from it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
