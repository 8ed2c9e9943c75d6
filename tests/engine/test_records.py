"""The table-record scenarios in records/: the same checks as ../shared/tools/check-rulings.

Each record carries its expected result in `#!` lines:
    #! ok                    every line is legal
    #! error LINE RULE       line LINE is refused with rule RULE
    #! state KEY=VALUE ...   keys of the JSON state (dotted paths, JSON values or bare strings)
    #! conserve              draw pile + discard pile + hands + set aside == 168
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.tools.cli import check_text
from tests.engine.conftest import RECORDS, ROOT, total_cards

FILES = sorted(RECORDS.glob("*.rec"))


def parse_value(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def lookup(state: object, path: str) -> object:
    node = state
    for part in path.split("."):
        if not (isinstance(node, dict) and part in node):
            return "<missing>"
        node = node[part]
    return node


def expectations(text: str) -> list[list[str]]:
    return [line[2:].split() for line in text.splitlines() if line.startswith("#!")]


def test_the_shared_examples_are_all_here() -> None:
    names = {f.name for f in FILES}
    assert len([n for n in names if n.startswith("p")]) == 19
    assert {"p01-turns.rec", "p10-wr4-2p-take.rec", "p19-zero-pass.rec"} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_record(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    code, doc = check_text(text)
    wanted = expectations(text)
    assert wanted, f"{path.name} has no #! expectations"
    error = doc.get("error")
    state: dict[str, Any] | None = doc.get("state") if error else doc
    problems: list[str] = []
    for kind, *args in wanted:
        if kind == "ok":
            if code != 0:
                problems.append(f"expected legal, got exit {code}: {error}")
        elif kind == "error":
            line, rule = int(args[0]), args[1]
            if code != 1 or not error:
                problems.append(f"expected error {line} {rule}, got exit {code}")
            elif (error["line"], error["rule"]) != (line, rule):
                problems.append(
                    f"expected error {line} {rule}, got {error['line']} {error['rule']}: "
                    f"{error['message']}"
                )
        elif kind == "conserve":
            if state is None or total_cards(state) != 168:
                problems.append(f"cards add up to {state and total_cards(state)}, not 168")
        elif kind == "state":
            for item in args:
                key, _, raw = item.partition("=")
                want, got = parse_value(raw), lookup(state, key)
                if isinstance(want, list) and isinstance(got, list):
                    same = sorted(map(str, want)) == sorted(map(str, got))
                else:
                    same = want == got
                if not same:
                    problems.append(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")
        else:
            problems.append(f"unknown expectation #! {kind}")
    assert not problems, "; ".join(problems)


# ---------------------------------------------------------------- the command line


def run_check(*args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "check", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.count("\n") == 1, proc.stdout  # one JSON object, one line
    return proc.returncode, json.loads(proc.stdout)


def test_cli_ok_record() -> None:
    code, doc = run_check(str(RECORDS / "p01-turns.rec"))
    assert code == 0
    assert doc["turn"] == "Ann" and doc["top"] == "B9"
    assert doc == check_text((RECORDS / "p01-turns.rec").read_text())[1]


def test_cli_refused_record() -> None:
    code, doc = run_check(str(RECORDS / "p02-match.rec"))
    assert code == 1
    assert set(doc) == {"error", "state"}
    assert doc["error"]["line"] == 4 and doc["error"]["rule"] == "match"
    assert "Ann" in doc["error"]["message"]
    assert doc["state"]["turn"] == "Ann" and doc["state"]["top"] == "R5"  # before line 4


def test_cli_syntax_error_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rec"
    bad.write_text("players: Ann, Bob\nstart: R5\nAnn: R55\n")
    code, doc = run_check(str(bad))
    assert code == 2
    assert doc["error"]["line"] == 3 and doc["error"]["rule"] == "syntax"
    assert doc["state"]["top"] == "R5"


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    code, doc = run_check(str(tmp_path / "nowhere.rec"))
    assert code == 2
    assert doc["error"]["rule"] == "syntax"
    assert doc["state"] is None


def test_cli_reads_standard_input() -> None:
    text = (RECORDS / "p08-reverse-2p.rec").read_text()
    code, doc = run_check("-", stdin=text)
    assert code == 0
    assert doc["turn"] == "Ann" and doc["direction"] == "counterclockwise"
    code, doc = run_check("-", stdin="players: Ann, Bob\nstart: R5\nBob: R3\n")
    assert code == 1 and doc["error"]["rule"] == "turn"


SHARED = ROOT.parent / "shared" / "rulings"


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared next to this clone")
def test_copies_match_the_shared_examples() -> None:
    for shared in sorted(SHARED.glob("*.rec")):
        assert (RECORDS / shared.name).read_text() == shared.read_text(), shared.name
