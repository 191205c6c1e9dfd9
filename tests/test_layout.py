"""The read path stays small enough to read: graphmem/retriever/ under 2,800 lines (as ruff formats
them), no function in it over 60 lines or 8 parameters; no file of the offline reader (its rules,
language implementations and lexicon) over 800 lines. A change that grows past these should split
the code it grows, not the check."""

from __future__ import annotations

import ast
from pathlib import Path

import graphmem

RETRIEVER = Path(graphmem.__file__).parent / "retriever"
MAX_LINES, MAX_FUNCTION_LINES, MAX_PARAMETERS = 2800, 60, 8
# the offline reader: what holds its readings, patterns, language implementations and lexicon
READER = [
    *(f"ingest/{name}.py" for name in ("rules", "rules_en", "rules_zh", "people", "phrases", "fragments", "language")),
    *(
        f"ingest/{name}.py"
        for name in ("reader_en", "reader_zh", "en_builds", "en_subjects", "zh_subjects", "zh_things")
    ),
    *(f"lexicon/{p.name}" for p in sorted((RETRIEVER.parent / "lexicon").glob("*.py"))),
]
MAX_READER_FILE = 800


def functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    for path in sorted(RETRIEVER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((f"{path.name}:{node.lineno} {node.name}", node))
    return found


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = node.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)


def test_the_read_path_is_shorter_than_its_limit():
    lines = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in RETRIEVER.glob("*.py")}
    assert len(lines) > 10 and "search.py" in lines
    assert sum(lines.values()) < MAX_LINES, sorted(lines.items(), key=lambda kv: -kv[1])


def test_no_function_of_the_read_path_is_too_long_or_takes_too_many_parameters():
    found = functions()
    assert any(name.endswith(" search") for name, _ in found)
    long = [
        (name, n.end_lineno - n.lineno + 1) for name, n in found if n.end_lineno - n.lineno + 1 > MAX_FUNCTION_LINES
    ]
    wide = [(name, parameters(n)) for name, n in found if parameters(n) > MAX_PARAMETERS]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
    assert not wide, f"functions over {MAX_PARAMETERS} parameters (self included): {wide}"


def test_no_file_of_the_reader_is_over_its_limit():
    lines = {name: len((RETRIEVER.parent / name).read_text(encoding="utf-8").splitlines()) for name in READER}
    assert lines["ingest/rules.py"] > 100 and "lexicon/readings.py" in lines
    assert all(n <= MAX_READER_FILE for n in lines.values()), sorted(lines.items(), key=lambda kv: -kv[1])
