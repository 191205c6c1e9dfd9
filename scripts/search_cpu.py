"""Where one process's searches spend their CPU, thread by thread, and the server's.

Usage: ``python scripts/search_cpu.py SIZE DEPTH [SEARCHES]`` on the group ``bench-search-n<SIZE>-s7`` that
``graphmem bench search --keep`` left, with bench search's own queries (40 searches first to warm up). Prints one
JSON line: latency p50, CPU a search in this process and in the server (``graphmem bench search``'s
``CpuMeter``), each step's own time (p50), the CPU a search of each kind of thread (read from /proc:
``MainThread`` the search itself, ``graphmem-query-embed`` the multilingual model, ``graphmem-embed-language``
the language model beside it, ``?`` onnxruntime's own threads, ``graphmem-read`` the reads sent ahead,
``graphmem-access`` the access statistics), each named query's calls and median time a search, and a digest of
every result list (ids, scores to 5 decimals, distances): two checkouts run on the same groups, with
``GRAPHMEM_RETRIEVAL__RECORD_ACCESS=false`` so that the access counts do not move between them, return the same
results when the digests are equal. Run two checkouts alternately (``PYTHONPATH``) to compare them: CPU times hold
better than latencies on a shared machine."""

from __future__ import annotations

import collections
import hashlib
import json
import os
import sys
import threading
import time
from typing import Any

import numpy as np

from graphmem.bench.cpu import CpuMeter
from graphmem.bench.search import REFERENCE, Vocabulary, build_plan, make_queries, own_stages
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph

WARM = 40


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Each thread of this process: its name (as ``threading`` knows it, else "?") and CPU seconds."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        out[int(tid)] = (names.get(int(tid), "?"), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return out


def kind(name: str) -> str:
    """A thread's kind: its name without the pool's numbering (graphmem-read_3 -> graphmem-read)."""
    return name.rsplit("_", 1)[0].rstrip("0123456789-") if name != "?" else name


def main() -> None:
    size, depth = int(sys.argv[1]), int(sys.argv[2])
    searches = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    group = f"bench-search-n{size}-s7"
    graph = MemoryGraph(load_settings())
    store, read = graph.store, graph.store.run
    queries_ms: dict[str, list[float]] = collections.defaultdict(list)

    def timed(name: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        start = time.perf_counter()
        try:
            return read(name, write=write, **params)
        finally:
            queries_ms[name].append((time.perf_counter() - start) * 1000)

    store.run = timed  # type: ignore[method-assign]
    vocab = Vocabulary(lambda texts: [[0.0] * 8 for _ in texts], np.random.default_rng(7))
    rng = np.random.default_rng([7, size])
    queries = make_queries(200, vocab, build_plan(size, vocab, rng), rng)

    def search(text: str) -> Any:
        mode = "fast" if depth == 0 else "deep"
        return graph.search_memories(group, text, mode=mode, expand_depth=depth, reference_time=REFERENCE)

    try:
        for text in queries[:10]:
            search(text)
        if graph._retriever is not None:
            graph._retriever.vectors.wait(group, 60)
        for text in queries[:WARM]:
            search(text)
        queries_ms.clear()
        meter, before = CpuMeter(graph), thread_cpu()
        mark, times, laps, digests = meter.mark(), [], collections.defaultdict(list), []
        for text in (queries * (searches // len(queries) + 1))[:searches]:
            start = time.perf_counter()
            response = search(text)
            times.append((time.perf_counter() - start) * 1000)
            for step, ms in response.timings_ms.items():
                laps[step].append(ms)
            shown = [(r.memory_id, round(r.score, 5), r.distance) for r in response.results]
            digests.append(hashlib.sha1(json.dumps(shown).encode()).hexdigest()[:10])
        cpu, after = meter.per_call(mark, searches), thread_cpu()
        threads: dict[str, float] = collections.defaultdict(float)
        for tid, (name, seconds) in after.items():
            threads[kind(name)] += (seconds - before.get(tid, (name, 0.0))[1]) * 1000 / searches
        print(
            json.dumps(
                {
                    "size": size,
                    "depth": depth,
                    "searches": searches,
                    "load": round(os.getloadavg()[0], 1),
                    "p50_ms": round(float(np.median(times)), 1),
                    **cpu,
                    "own_p50_ms": own_stages(laps),
                    "thread_cpu_ms": {k: round(v, 2) for k, v in sorted(threads.items()) if v >= 0.01},
                    "queries": {
                        name: {"a_search": round(len(ms) / searches, 2), "p50_ms": round(float(np.median(ms)), 2)}
                        for name, ms in sorted(queries_ms.items())
                    },
                    "digest": hashlib.sha1("".join(digests).encode()).hexdigest()[:12],
                }
            ),
            flush=True,
        )
    finally:
        graph.close()


if __name__ == "__main__":
    main()
