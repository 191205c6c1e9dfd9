"""How long a 5 MB value takes to be refused where a cap exists: create_memory, search_memories,
dispatch of a tool call (its arguments as JSON, and already parsed) and ingest.

    python -m graphmem_bench.oversize [--size 5242880] [--repeat 5]

Each call is refused by a length check before any other work (no database call is made: a
server need not run). Prints the best and the median of ``--repeat`` calls, in milliseconds.
A script of the package, not a `graphmem bench` runner (no entry point).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

import typer

from graphmem.bench.write import machine
from graphmem.errors import ValidationError


def main(
    size: int = typer.Option(5 * 1024 * 1024, "--size", help="Characters of the oversize value."),
    repeat: int = typer.Option(5, "--repeat", min=1),
) -> None:
    from graphmem.config import load_settings
    from graphmem.graph import MemoryGraph
    from graphmem.tools import dispatch

    graph = MemoryGraph(load_settings(None))
    big, chinese = "x" * size, "长" * size
    as_json = '{"query": "' + big + '"}'
    turns = [{"role": "user", "content": "a" * 1000} for _ in range(size // 1000)]

    def tool(name: str, arguments: object) -> Callable[[], None]:
        def call() -> None:
            out = dispatch(graph, {"id": "c", "function": {"name": name, "arguments": arguments}}, group_id="bench")
            if out.get("error") != "ValidationError":
                raise AssertionError(out)

        return call

    cases: dict[str, Callable[[], object]] = {
        "create_memory, subject": lambda: graph.create_memory("bench", big, "FACT", "likes", "tea"),
        "create_memory, object (Chinese)": lambda: graph.create_memory("bench", "我", "FACT", "喜欢", chinese),
        "create_memory, an attribute's value": lambda: graph.create_memory(
            "bench", "I", "FACT", "like", "tea", attributes={"place": big}
        ),
        "search_memories, query": lambda: graph.search_memories("bench", big),
        "search_memories, query (Chinese)": lambda: graph.search_memories("bench", chinese),
        "ingest, text": lambda: graph.ingest("bench", text=big),
        "ingest, one turn": lambda: graph.ingest("bench", [{"role": "user", "content": big}]),
        "ingest, 5,000 turns of 1,000": lambda: graph.ingest("bench", turns),
        "dispatch search_memories, arguments as JSON": tool("search_memories", as_json),
        "dispatch create_memory, arguments parsed": tool("create_memory", {"subject": big, "memory_type": "FACT"}),
    }
    typer.echo(f"a value of {size:,} characters, best / median of {repeat} (ms):")
    for name, call in cases.items():
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            try:
                call()
            except ValidationError:
                pass
            times.append((time.perf_counter() - t0) * 1000)
        typer.echo(f"  {name:<46} {min(times):8.2f} {statistics.median(times):8.2f}")
    typer.echo(f"machine: {json.dumps(machine())}")
    graph.close()


if __name__ == "__main__":
    typer.run(main)
