"""Where a write spends its time and CPU: a single ``create_memory`` step by step, and batches.

Usage: ``python scripts/write_cpu.py [SINGLES] [BATCHES]`` (default 100 and 2 of 1,000) into a throw-away group
of ``graphmem bench write``'s memories, deleted afterwards. Prints one JSON line: for single creates, the p50,
CPU a create in this process by kind of thread and in the server (``graphmem bench write``'s ``CpuMeter``), and
for each step the median time and the server's CPU a create (the embedding; ``resolve_concepts``;
``create_memories``; the transaction as a whole, whose rest is the commit: Neo4j applying the memory to its
indexes); for batches, memories/s and CPU a memory. Run two checkouts alternately (``PYTHONPATH``) to compare."""

from __future__ import annotations

import collections
import json
import os
import sys
import time
import uuid
from typing import Any

import numpy as np
from search_cpu import kind, thread_cpu

from graphmem.bench.cpu import CpuMeter, _process_cpu_s
from graphmem.bench.write import REFERENCE_TIME, synthetic_memories
from graphmem.builder import create, resolve
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph
from graphmem.store import driver
from graphmem.store.admin import delete_group
from graphmem.types import MemoryInput

WARM = 40


def main() -> None:
    singles = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    batches = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    graph = MemoryGraph(load_settings())
    meter = CpuMeter(graph)
    pid = meter.pid
    steps: dict[str, list[float]] = collections.defaultdict(list)
    server: dict[str, float] = collections.defaultdict(float)

    def step(name: str, fn: Any) -> Any:
        """``fn`` timed as step ``name``, with the server's CPU meanwhile."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), _process_cpu_s(pid) if pid else None
            try:
                return fn(*args, **kwargs)
            finally:
                steps[name].append((time.perf_counter() - start) * 1000)
                if cpu is not None:
                    server[name] += (_process_cpu_s(pid) or cpu) - cpu

        return timed

    tx_run = driver.tx_run

    def named(tx: Any, name: str, /, **params: Any) -> Any:
        return step(name, tx_run)(tx, name, **params)

    create.tx_run = resolve.tx_run = named
    graph.store.transaction = step("transaction", graph.store.transaction)  # type: ignore[method-assign]
    graph.writer._embed = step("embedding", graph.writer._embed)  # type: ignore[method-assign]
    group = f"write-cpu-{uuid.uuid4().hex[:8]}"
    out: dict[str, Any] = {"load": round(os.getloadavg()[0], 1)}
    try:
        memories = synthetic_memories(singles + WARM, seed=1)
        for m in memories[:WARM]:
            graph.create_memory(group, **m, reference_time=REFERENCE_TIME)
        steps.clear()
        server.clear()
        before, mark, times = thread_cpu(), meter.mark(), []
        for m in memories[WARM:]:
            start = time.perf_counter()
            graph.create_memory(group, **m, reference_time=REFERENCE_TIME)
            times.append((time.perf_counter() - start) * 1000)
        cpu, after = meter.per_call(mark, singles), thread_cpu()
        threads: dict[str, float] = collections.defaultdict(float)
        for tid, (name, seconds) in after.items():
            threads[kind(name)] += (seconds - before.get(tid, (name, 0.0))[1]) * 1000 / singles
        out["single"] = {
            "p50_ms": round(float(np.median(times)), 1),
            **cpu,
            "thread_cpu_ms": {k: round(v, 2) for k, v in sorted(threads.items()) if v >= 0.01},
            "steps": {
                name: {
                    "p50_ms": round(float(np.median(ms)), 2),
                    "server_cpu_ms": round(server[name] * 1000 / singles, 2),
                }
                for name, ms in steps.items()
            },
        }
        rates, mark = [], meter.mark()
        for b in range(batches):
            batch = [MemoryInput(**m) for m in synthetic_memories(1000, seed=100 + b)]
            start = time.perf_counter()
            graph.create_memories(group, batch, reference_time=REFERENCE_TIME)
            rates.append(round(len(batch) / (time.perf_counter() - start), 1))
        if batches:
            out["batch"] = {"memories_per_s": rates, **meter.per_call(mark, 1000 * batches)}
        print(json.dumps(out), flush=True)
    finally:
        delete_group(graph.store, group)
        graph.close()


if __name__ == "__main__":
    main()
