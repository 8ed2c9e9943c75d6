"""The load benchmark's own arithmetic (bench/load/report.py, bench/load/__main__.py):
a table count or several, the CPU a line recorded costs, the most tables a core served
within the record's p99 target, and the server's shape by default."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from bench.load.__main__ import table_counts
from bench.load.report import cpu_a_line_ms, server_shape, tables_per_core
from bench.load.servers import threads_for
from companion.settings import PROXIED_THREADS


def run(db: str, tables: int, p99: float, **cpu: float) -> dict[str, Any]:
    return {
        "db": db,
        "tables": tables,
        "latency_ms": {"record": {"p50": 5.0, "p95": 20.0, "p99": p99}},
        "seconds": 20.0,
        "lines_recorded": 1000,
        "server_cpu_pct": cpu.get("server", 100.0),
        "proxy_cpu_pct": cpu.get("proxy"),
        "db_cpu_pct": cpu.get("database"),
    }


def test_one_table_count_or_several() -> None:
    assert table_counts("200") == [200]
    assert table_counts("100,130,160") == [100, 130, 160]
    for wrong in ("", "ten", "100,,130", "0", "-5"):
        with pytest.raises(argparse.ArgumentTypeError):
            table_counts(wrong)


def test_the_cpu_a_line_counts_the_proxy_and_the_database_too() -> None:
    # A core for 20 s over 1,000 lines: 20 ms a line; with a proxy and PostgreSQL at a
    # tenth of a core each, 24.
    assert cpu_a_line_ms(run("SQLite", 100, 30)) == pytest.approx(20.0)
    both = run("PostgreSQL", 100, 30, proxy=10.0, database=10.0)
    assert cpu_a_line_ms(both) == pytest.approx(24.0)


def test_the_most_tables_that_met_the_target_for_each_database() -> None:
    results = [
        run("SQLite", 100, 30.0),
        run("SQLite", 130, 49.9),
        run("SQLite", 160, 50.0),  # not under 50 ms
        run("PostgreSQL", 100, 80.0),
    ]
    assert tables_per_core(results) == {"SQLite": (130, 3), "PostgreSQL": None}
    # A smaller count that missed does not hide a larger one that met it (noise).
    assert tables_per_core([run("SQLite", 100, 60.0), run("SQLite", 130, 40.0)]) == {
        "SQLite": (130, 2)
    }


def test_the_load_runs_the_shape_given_for_many_tables_unless_told() -> None:
    """docs/OPERATIONS.md: a buffering proxy in front, few threads a worker (make serve's
    32 only when asked for)."""
    assert threads_for(None, "none") == 1  # the app's own cost, as behind a proxy
    assert threads_for(None, "nginx") == 1
    assert threads_for(None, "caddy") == PROXIED_THREADS == 2  # make serve-https
    assert threads_for(32, "none") == 32


def test_the_report_names_the_server_the_load_ran_against() -> None:
    gunicorn = {"workers": 2, "threads": 1, "class": "gthread"}
    assert server_shape({"server": gunicorn}) == "gunicorn 2 workers x 1 threads (gthread)"
    granian = {"name": "granian", "workers": 2, "threads": 1, "class": "blocking threads"}
    assert server_shape({"server": granian | {"proxy": "nginx"}}) == (
        "granian 2 workers x 1 threads (blocking threads) behind nginx (no TLS)"
    )
