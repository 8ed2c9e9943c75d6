"""The methods `dataclasses` writes, compiled when the phone's build was made and executed
from that code at a phone's start (companion/dataclass_code.py). Here in this Python, by
setting `dataclasses`' own `exec` as `use_dataclass_code` does in the phone (once per
Python there, so the tests set it themselves, and take it back); the build's own start
in Pyodide is in test_in_pyodide.py."""

from __future__ import annotations

import dataclasses
import marshal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType

import pytest

from companion.dataclass_code import DataclassCode


def make_seat() -> type:
    @dataclasses.dataclass(frozen=True, order=True)
    class Seat:
        name: str
        cards: int = 7
        said: tuple[str, ...] = dataclasses.field(default_factory=tuple)

    return Seat


def nested(code: CodeType) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield const
            yield from nested(const)


def test_a_class_made_from_the_kept_code_is_the_class_python_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    building = DataclassCode(tmp_path / "none")
    monkeypatch.setattr(dataclasses, "exec", building.exec, raising=False)
    make_seat()
    # One source for the class (Python 3.13 on), or one for each method (before).
    assert building.compiled and building.known == {}
    kept = tmp_path / "code.marshal"
    assert building.save(kept) == len(building.compiled)

    started = DataclassCode(kept)  # a later start of the same Python
    monkeypatch.setattr(dataclasses, "exec", started.exec)
    seat = make_seat()
    assert started.compiled == {}  # nothing compiled again
    kept_code = [code for whole in started.known.values() for code in nested(whole)]
    assert any(code is seat.__init__.__code__ for code in kept_code)  # type: ignore[misc]
    monkeypatch.undo()
    plain = make_seat()  # as Python makes it, dataclasses' own exec

    for method in ("__init__", "__repr__", "__eq__", "__lt__", "__setattr__", "__hash__"):
        ours, its = getattr(seat, method), getattr(plain, method)
        assert ours.__code__.co_code == its.__code__.co_code, method
        assert ours.__annotations__ == its.__annotations__, method
    # The field's own annotation, not the name the generated source gives it (`_type_name`).
    name = seat.__dataclass_fields__["name"].type  # type: ignore[attr-defined]
    assert seat.__init__.__annotations__["name"] == name  # type: ignore[misc]
    assert seat("Ann") == seat("Ann", 7, ()) < seat("Bob")
    assert repr(seat("Ann")).endswith("Seat(name='Ann', cards=7, said=())")
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat("Ann").cards = 3


def test_a_source_the_build_did_not_see_is_compiled_once(tmp_path: Path) -> None:
    code = DataclassCode(tmp_path / "absent")
    source = "def __create_fn__():\n def f(self):\n  return 1\n return (f,)"
    for _ in range(2):
        made: dict[str, object] = {}
        code.exec(source, {}, made)
    assert list(code.compiled) == [source] and code.known == {}


def test_the_kept_code_is_the_same_bytes_each_time(tmp_path: Path) -> None:
    # The build's version is a digest of its files: the same build, the same bytes.
    building = DataclassCode(tmp_path / "none")
    building.exec("def __create_fn__():\n return ()", {}, {})
    building.save(tmp_path / "one")
    DataclassCode(tmp_path / "one").save(tmp_path / "two")
    assert (tmp_path / "one").read_bytes() == (tmp_path / "two").read_bytes()


def test_a_file_that_can_t_be_read_is_not_used_and_the_start_goes_on(tmp_path: Path) -> None:
    kept = tmp_path / "code.marshal"
    version = marshal.dumps(sys.version)
    for broken in (
        b"",
        b"\x00not marshal",
        version,  # the version, then nothing
        version + marshal.dumps(["a list"]),
        version + marshal.dumps({"def f(): pass": "not code"}),
    ):
        kept.write_bytes(broken)
        assert DataclassCode(kept).known == {}
    assert DataclassCode(tmp_path).known == {}  # a folder


def test_code_kept_by_another_python_is_not_used(tmp_path: Path) -> None:
    # Bytecode is one Python's own: another's could run wrongly, or crash the start.
    source = "def __create_fn__():\n return ()"
    kept = tmp_path / "code.marshal"
    code = compile(source, "<string>", "exec")
    kept.write_bytes(marshal.dumps("3.0.0 (another)") + marshal.dumps({source: code}))
    assert DataclassCode(kept).known == {}
