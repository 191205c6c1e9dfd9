"""What each of a search's queries costs Neo4j: server CPU a run, replayed one at a time.

Usage: ``python scripts/search_queries_cpu.py SIZE DEPTH [SEARCHES]`` on the group ``bench-search-n<SIZE>-s7`` that
``graphmem bench search --keep`` left, with bench search's queries. Captures the read queries SEARCHES searches
send (after ten to warm up and the group's vectors held), then runs each named query again with the captured
parameters, six rounds, one query at a time on one session, and prints per name: how many runs a search makes,
the server's CPU a run (median of the rounds, read from /proc as ``graphmem bench search``'s ``CpuMeter`` reads
it), this process's CPU a run (the driver: sending, receiving, decoding), and the same for ``RETURN 1``: what any
round trip costs. Run with ``GRAPHMEM_RETRIEVAL__RECORD_ACCESS=false`` so that the searches write nothing."""

from __future__ import annotations

import collections
import sys
import time
from typing import Any

import numpy as np

from graphmem.bench.cpu import CpuMeter, _process_cpu_s
from graphmem.bench.search import REFERENCE, Vocabulary, build_plan, make_queries
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph
from graphmem.store.cypher import q
from graphmem.store.driver import lean_params

ROUNDS = 6


def main() -> None:
    size, depth = int(sys.argv[1]), int(sys.argv[2])
    searches = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    graph = MemoryGraph(load_settings())
    store, run = graph.store, graph.store.run
    captured: list[tuple[str, dict[str, Any]]] = []

    def spy(name: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        if not write:
            captured.append((name, dict(params)))
        return run(name, write=write, **params)

    group = f"bench-search-n{size}-s7"
    vocab = Vocabulary(lambda texts: [[0.0] * 8 for _ in texts], np.random.default_rng(7))
    rng = np.random.default_rng([7, size])
    queries = make_queries(200, vocab, build_plan(size, vocab, rng), rng)
    try:
        for text in queries[:10]:
            graph.search_memories(group, text, mode="deep", expand_depth=depth, reference_time=REFERENCE)
        if graph._retriever is not None:
            graph._retriever.vectors.wait(group, 60)
        store.run = spy  # type: ignore[method-assign]
        for text in queries[:searches]:
            graph.search_memories(group, text, mode="deep", expand_depth=depth, reference_time=REFERENCE)
        store.run = run  # type: ignore[method-assign]
        pid = CpuMeter(graph).pid
        if pid is None:
            raise SystemExit("the server does not run on this machine: its CPU cannot be read")
        runs: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        for name, params in captured:
            runs[name].append(params)
        texts = {name: q(name) for name in runs}
        texts["RETURN 1"], runs["RETURN 1"] = "RETURN 1 AS one", [{}] * searches
        cost: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
        with store.driver.session(database=store.database) as session:
            for name, text in texts.items():  # planned and compiled before anything is timed
                for params in runs[name][:3]:
                    list(session.run(text, lean_params(params)))
            for _ in range(ROUNDS):
                for name, text in texts.items():
                    server, client = _process_cpu_s(pid) or 0.0, time.process_time()
                    for params in runs[name]:
                        [r.data() for r in session.run(text, lean_params(params))]
                    n = len(runs[name])
                    server_ms = ((_process_cpu_s(pid) or 0.0) - server) * 1000 / n
                    cost[name].append((server_ms, (time.process_time() - client) * 1000 / n))
        for name in texts:
            a = np.asarray(cost[name])
            print(
                f"{name:28s} {len(runs[name]) / searches:5.2f} a search   server {np.median(a[:, 0]):5.2f} ms a run"
                f"   client {np.median(a[:, 1]):5.2f} ms a run"
            )
    finally:
        graph.close()


if __name__ == "__main__":
    main()
