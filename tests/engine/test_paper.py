"""The paper table (engine/tools/paper.py): the uniform policy's mean hand length within 1% of
the research simulator's at every player count. Slow (minutes): `make test-slow`."""

from __future__ import annotations

import os

import pytest

from engine.tools.paper import HANDS, TOLERANCE, reproduce


@pytest.mark.slow
def test_the_uniform_policy_reproduces_the_paper_table() -> None:
    rows = reproduce(HANDS, jobs=min(os.cpu_count() or 1, 4))
    for row in rows:
        assert row.standard_error * 3 < TOLERANCE * row.paper, row  # 1% is several errors
    assert [row for row in rows if not row.passed] == []
