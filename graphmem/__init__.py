"""graphmem: a knowledge-graph memory engine for LLM agents, on Neo4j.

>>> from graphmem import MemoryGraph, TOOLS, dispatch
>>> graph = MemoryGraph()          # graphmem.toml, NEO4J_* and GRAPHMEM_* decide where and how
>>> graph.create_memory("alice", subject="我", memory_type="事件", topic="吃饭", object="白米饭",
...                     attributes={"时间": "今天"})
>>> dispatch(graph, {"name": "search_memories", "arguments": '{"query": "我吃了什么？"}'}, group_id="alice")

Importing the package is cheap: the driver, the time parser and the embedding model load
when first used.
"""

from __future__ import annotations

import logging
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import (
    AmbiguousMatchError,
    ConfigError,
    ExtractionError,
    GraphmemError,
    Neo4jUnavailableError,
    NoMatchError,
    NotFoundError,
    SchemaMismatchError,
    ServerError,
    ValidationError,
    WriteOutcomeUnknownError,
)

# A library logs, the application decides where logs go: without a handler of its own a warning from
# a background thread (access statistics while the server is down) would reach the terminal.
logging.getLogger("graphmem").addHandler(logging.NullHandler())

_LAZY = {
    "MemoryGraph": "graph",
    "AsyncMemoryGraph": "graph",
    "TOOLS": "tools",
    "dispatch": "tools",
    "adispatch": "tools",
    "load_settings": "config",
    "Settings": "config",
    "MemoryType": "types",
    "RelationType": "types",
}

__all__ = [
    "MemoryGraph",
    "AsyncMemoryGraph",
    "TOOLS",
    "dispatch",
    "adispatch",
    "load_settings",
    "Settings",
    "MemoryType",
    "RelationType",
    "GraphmemError",
    "ConfigError",
    "ValidationError",
    "NotFoundError",
    "AmbiguousMatchError",
    "NoMatchError",
    "Neo4jUnavailableError",
    "SchemaMismatchError",
    "ServerError",
    "ExtractionError",
    "WriteOutcomeUnknownError",
]

if TYPE_CHECKING:  # pragma: no cover
    from .config import Settings, load_settings
    from .graph import AsyncMemoryGraph, MemoryGraph
    from .tools import TOOLS, adispatch, dispatch
    from .types import MemoryType, RelationType


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
