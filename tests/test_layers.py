"""The floors of the house: graphmem's imports, read from its source (ast), go down or sideways only,
and no module imports itself back through others.

The floors, lowest first (docs/architecture.md, "Floors"), are declared once, here. A module may
import from its own floor or a lower one; the three readers of the middle floor (ingest, retriever,
lifecycle) do not import one another: what two of them share lives below them (the word lists in
``lexicon``, the time parsing in ``timeparse``, the write path in ``builder``). Imports inside
functions count as much as those at the top of a file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

PACKAGE = Path(__file__).resolve().parents[1] / "graphmem"

FLOORS: list[set[str]] = [
    # words and data with no behaviour of graphmem's
    {"errors", "types", "lexicon", "lazy", "holders", "paths", "stopwatch", "py"},
    {"config", "lang", "textsim", "cues", "format", "timeparse"},  # pure functions over text, time, settings
    {"server", "embed", "store", "access", "settle", "stats", "tools", "cypher"},  # the database, the models
    {"builder", "rerank", "working"},  # the write path; reranking; the working memory
    {"ingest", "retriever", "lifecycle"},  # the three readers: extraction, search, consolidation
    {"graph"},  # the MemoryGraph that joins them
    {"analyst", "bench", "demo", "viz", "integrations", "http", "cli", "__init__"},  # the faces
]
SIBLINGS = {"ingest", "retriever", "lifecycle"}  # a floor whose rooms do not import one another


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each graphmem module → the graphmem modules it imports (anywhere in the file)."""
    out: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
            else:
                continue
            found |= {t for t in targets if t in modules and t != name}
        out[name] = found
    return out


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _floor(room: str) -> int:
    return next(i for i, rooms in enumerate(FLOORS) if room in rooms)


def test_every_room_of_the_package_has_a_floor() -> None:
    rooms = {_room(m) for m in _modules()}
    unplaced = sorted(r for r in rooms if not any(r in f for f in FLOORS))
    assert not unplaced, f"declare the floor of {unplaced} in FLOORS"


def test_no_import_climbs_a_floor_or_crosses_between_the_readers() -> None:
    wrong = []
    for module, targets in _imports(_modules()).items():
        for target in targets:
            a, b = _room(module), _room(target)
            if a == b:
                continue
            if _floor(b) > _floor(a):
                wrong.append(f"{module} → {target} (floor {_floor(a)} imports floor {_floor(b)})")
            elif a in SIBLINGS and b in SIBLINGS:
                wrong.append(f"{module} → {target} (one reader imports another)")
    assert not wrong, "imports against the floors:\n" + "\n".join(sorted(wrong))


def test_no_import_circle() -> None:
    graph = _imports(_modules())
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                circles.append(path[path.index(target) :] + [target])
            elif target not in state:
                walk(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    assert not circles, "import circles:\n" + "\n".join(" → ".join(c) for c in circles)
