"""The standalone build (`make standalone`: build/standalone/), made here if it is missing
(`make test` makes it first)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "standalone"


@pytest.fixture(scope="session")
def build() -> Path:
    if not (BUILD / "build.js").exists():
        subprocess.run([sys.executable, "scripts/build_standalone.py"], cwd=ROOT, check=True)
    return BUILD
