"""The methods `dataclasses` writes, compiled when the phone's build was made and executed
from that code at a phone's start (companion/dataclass_code.py); here in this Python, the
build's own start in Pyodide in test_in_pyodide.py."""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field
from pathlib import Path

from companion.dataclass_code import DataclassCode, use_dataclass_code


def test_a_class_s_methods_come_from_the_kept_code_and_behave_the_same(tmp_path: Path) -> None:
    using = use_dataclass_code(tmp_path / "none")  # this Python's, made here if first
    before = set(using.compiled) | set(using.known)

    @dataclass(frozen=True, order=True)
    class Seat:
        name: str
        cards: int = 7
        said: tuple[str, ...] = field(default_factory=tuple)

    # One source for the class (Python 3.13 on), or one for each method (before).
    sources = [source for source in using.compiled if source not in before]
    assert sources and all(source.startswith("def __create_fn__(") for source in sources)
    kept = tmp_path / "code.marshal"
    assert using.save(kept) >= 1

    started = DataclassCode(kept)  # a later start of the same Python
    made: dict[str, object] = {}
    started.exec(sources[0], {"__builtins__": __builtins__}, made)
    created = made["__create_fn__"].__code__  # type: ignore[attr-defined]
    assert any(const is created for const in started.known[sources[0]].co_consts)
    assert started.compiled == {}  # nothing compiled again
    # The class itself, as dataclasses made it through the same `exec`.
    assert Seat("Ann") == Seat("Ann", 7, ()) < Seat("Bob")
    assert repr(Seat("Ann")).endswith("Seat(name='Ann', cards=7, said=())")


def test_a_source_the_build_did_not_see_is_compiled_once(tmp_path: Path) -> None:
    code = DataclassCode(tmp_path / "absent")
    source = "def __create_fn__():\n def f(self):\n  return 1\n return (f,)"
    for _ in range(2):
        made: dict[str, object] = {}
        code.exec(source, {}, made)
    assert list(code.compiled) == [source] and code.known == {}


def test_a_file_that_can_t_be_read_is_not_used_and_the_start_goes_on(tmp_path: Path) -> None:
    kept = tmp_path / "code.marshal"
    for broken in (b"", b"\x00not marshal", marshal.dumps(["a list"])):
        kept.write_bytes(broken)
        assert DataclassCode(kept).known == {}


def test_code_kept_by_another_python_is_not_used(tmp_path: Path) -> None:
    # Bytecode is one Python's own: another's could run wrongly, or crash the start.
    source = "def __create_fn__():\n return ()"
    kept = tmp_path / "code.marshal"
    code = compile(source, "<string>", "exec")
    kept.write_bytes(marshal.dumps({"python": "3.0.0 (another)", "code": {source: code}}))
    assert DataclassCode(kept).known == {}
