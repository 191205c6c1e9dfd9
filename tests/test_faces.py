"""MemoryGraph and AsyncMemoryGraph: one API, two faces. The async face is written out from the
sync one (scripts/async_face.py) with the same methods and parameters, each awaited; its methods
run the sync ones in a worker thread against a real Neo4j."""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import re
from pathlib import Path

from graphmem.graph import AsyncMemoryGraph, MemoryGraph

ROOT = Path(__file__).resolve().parents[1]
PLAIN = {"on"}  # registering a callback waits for nothing: a plain call on both faces


def _generator():
    spec = importlib.util.spec_from_file_location("async_face", ROOT / "scripts" / "async_face.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def public_methods(cls: type) -> dict:
    return {name: fn for name, fn in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")}


def _unawaited(annotation: object) -> object:
    """An annotation with an Awaitable[...] / Coroutine[..., ..., ...] around it taken off."""
    if isinstance(annotation, str):
        m = re.fullmatch(r"(?:Awaitable\[(.*)\]|Coroutine\[[^,]+,\s*[^,]+,\s*(.*)\])", annotation)
        return (m.group(1) or m.group(2)) if m else annotation
    return annotation


def parameters(fn) -> list[tuple]:
    return [(p.name, p.kind, p.default, p.annotation) for p in inspect.signature(fn).parameters.values()]


def test_both_faces_offer_the_same_methods_with_the_same_parameters():
    sync, aio = public_methods(MemoryGraph), public_methods(AsyncMemoryGraph)
    assert sorted(aio) == sorted(sync)
    assert {"search_memories", "consolidate", "ingest", "memory_groups", "context"} <= set(sync)
    for name, fn in sync.items():
        assert parameters(aio[name]) == parameters(fn), name
        returns = inspect.signature(fn).return_annotation
        assert _unawaited(inspect.signature(aio[name]).return_annotation) == returns, name
        assert inspect.iscoroutinefunction(aio[name]) is (name not in PLAIN), name
    assert parameters(AsyncMemoryGraph.__init__) == parameters(MemoryGraph.__init__)


def test_the_main_methods_say_what_they_return():
    returns = {name: inspect.signature(fn).return_annotation for name, fn in public_methods(MemoryGraph).items()}
    assert returns["search_memories"] == "SearchResponse"
    assert returns["ingest"] == "IngestReport" and returns["retry_extractions"] == "RetryReport"
    assert returns["consolidate"] == "ConsolidationReport"
    assert returns["create_memory"] == "CreateResult" and returns["link_memories"] == "LinkResult"
    assert [name for name, r in returns.items() if r in ("Any", inspect.Signature.empty)] == []


def test_the_written_out_async_face_is_the_one_the_sync_face_gives():
    source = (ROOT / "graphmem" / "graph.py").read_text(encoding="utf-8")
    assert "setattr(" not in source
    assert _generator().rewritten(source) == source, "run: python scripts/async_face.py"


def test_the_generator_follows_a_new_method_of_the_sync_face():
    source = (ROOT / "graphmem" / "graph.py").read_text(encoding="utf-8")
    added = source.replace(
        "    def memory_groups(self) -> list[str]:",
        '    def count_groups(self, *, status: str | None = "staged") -> int:\n'
        '        """How many groups."""\n'
        "        return len(self.memory_groups())\n\n"
        "    def memory_groups(self) -> list[str]:",
    )
    fresh = _generator().rewritten(added)
    assert (
        '    async def count_groups(self, *, status: str | None = "staged") -> int:\n'
        '        """How many groups."""\n'
        "        return await asyncio.to_thread(self.sync.count_groups, status=status)\n"
    ) in fresh


def test_the_async_face_works_on_a_real_graph(async_graph, group_id):
    async def go():
        written = await async_graph.create_memory(group_id, "小明", "事实", "喜欢", "篮球")
        groups = await async_graph.memory_groups()
        found = await async_graph.search_memories(group_id, "小明喜欢什么运动？", max_results=3)
        record = await async_graph.get_memory(group_id, written.memory_id)
        return written, groups, found, record

    written, groups, found, record = asyncio.run(go())
    assert group_id in groups
    assert found.results[0].memory_id == written.memory_id and record.object == "篮球"
