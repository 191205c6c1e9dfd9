"""The Cypher the engine runs, shipped inside the package (``graphmem/cypher/*.cypher``).

Each ``graphmem/cypher/*.cypher`` file holds named queries::

    // name: get_memory
    // What it does, in a line or two.
    MATCH (m:Memory {group_id: $group_id, id: $id}) RETURN m

One source for both the engine and the people who read the queries in Neo4j Browser (the
top-level ``cypher/`` folder of the repository points here). The files are package data, read
through ``importlib.resources``, so a wheel installed anywhere runs the same queries.
Everything a user or an LLM supplies is a ``$parameter``; nothing is formatted into a query.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

CYPHER_PACKAGE = "graphmem.cypher"
CYPHER_DIR = resources.files(CYPHER_PACKAGE)
_NAME = re.compile(r"^//\s*name:\s*([A-Za-z0-9_]+)\s*$")


def parse(text: str, source: str = "<string>") -> dict[str, str]:
    queries: dict[str, str] = {}
    name: str | None = None
    lines: list[str] = []

    def flush() -> None:
        if name is None:
            return
        body = "\n".join(lines).strip().rstrip(";").strip()
        if not body:
            raise ValueError(f"{source}: query {name!r} is empty")
        queries[name] = body

    for line in text.splitlines():
        match = _NAME.match(line.strip())
        if match:
            flush()
            name, lines = match.group(1), []
            if name in queries:
                raise ValueError(f"{source}: query {name!r} defined twice")
        elif name is not None and not line.strip().startswith("//"):
            lines.append(line)
    flush()
    return queries


def cypher_files(folder: Traversable = CYPHER_DIR) -> list[Traversable]:
    """The ``.cypher`` files directly in ``folder`` (not its subfolders), by name."""
    return sorted((f for f in folder.iterdir() if f.name.endswith(".cypher") and f.is_file()), key=lambda f: f.name)


@cache
def load_queries(package: str = CYPHER_PACKAGE) -> dict[str, str]:
    """Every named query of the ``.cypher`` files in ``package`` (package data): the engine's, or
    those of a package beside it (the benchmark runners keep theirs in their own package)."""
    folder = resources.files(package)
    book: dict[str, str] = {}
    for path in cypher_files(folder):
        for name, body in parse(path.read_text(encoding="utf-8"), path.name).items():
            if name in book:
                raise ValueError(f"query {name!r} is defined in two files of {folder}")
            book[name] = body
    return book


def queries() -> dict[str, str]:
    """The engine's named queries (``graphmem/cypher/*.cypher``)."""
    return load_queries(CYPHER_PACKAGE)


def q(name: str) -> str:
    """The query called ``name``; a KeyError names the folder to look in. ``"a+b"``: the queries ``a`` and
    ``b`` as one statement (``together``)."""
    if "+" in name:
        return together(tuple(name.split("+")))
    try:
        return queries()[name]
    except KeyError:
        raise KeyError(f"no query named {name!r} in {CYPHER_DIR}") from None


@cache
def together(names: tuple[str, ...]) -> str:
    """The named queries ``names`` as one statement, each in a subquery of its own, their columns
    returned side by side: queries sent at the same moment share one round trip (each a few tenths
    of a millisecond of the client's CPU and the server's). Each must return exactly one row (an
    aggregation) and name its columns apart from the others'; they share their parameters."""
    return "\n".join(f"CALL () {{\n{q(n)}\n}}" for n in names) + "\nRETURN *"
