"""`graphmem bench http`: a search over HTTP (`graphmem serve`) beside the same search in-process.

The synthetic group of ``graphmem bench search`` (``n`` memories, deterministic) is searched at
depth 1 by the same queries in turn: once with ``MemoryGraph.search_memories`` and once through
the HTTP API with the client the CLI uses (graphmem/http/client.py), the server being uvicorn on
a loopback port in a thread of this process over the same MemoryGraph. The difference of the
medians is what HTTP costs a search (request, JSON both ways, the server's thread hand-off).
Then ``clients`` threads, each with a token of its own group, search over HTTP at once: every
answer must come without an error and hold only that group's memories.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..graph import MemoryGraph
from .search import REFERENCE, Vocabulary, build_graph, build_plan, delete_synthetic, make_queries, percentiles
from .write import machine

TARGET_OVERHEAD_MS = 10.0  # HTTP p50 within this of the in-process p50
TENANT_MEMORIES = 20  # memories of each concurrent client's own group


@contextmanager
def serving(graph: MemoryGraph, tokens: dict[str, str]) -> Iterator[str]:
    """``graphmem serve``'s app over ``graph`` on a free loopback port (a thread); its URL."""
    import uvicorn

    from ..http.app import create_app
    from ..http.auth import Gate
    from ..server import free_port

    port = free_port()
    gate = Gate(host="127.0.0.1", group=next(iter(tokens.values())), tokens=tokens)
    config = uvicorn.Config(create_app(graph, gate), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="graphmem-bench-http", daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the HTTP server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def remote(url: str, token: str) -> Any:
    from ..http.client import RemoteGraph, connect
    from ..http.runtime import FoundServer

    server = FoundServer(url, token, configured=True)
    connection = connect(server)
    assert connection is not None  # a configured server that does not answer raises instead
    return RemoteGraph(server, connection)


def run_http_bench(
    graph: MemoryGraph,
    n: int = 1000,
    *,
    n_queries: int = 200,
    clients: int = 10,
    seed: int = 7,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    say = progress or (lambda msg: None)
    graph.ensure_schema()
    rng = np.random.default_rng(seed)
    vocab = Vocabulary(graph.embedder.embed, rng)
    group_id = f"bench-http-n{n}-s{seed}"
    size_rng = np.random.default_rng([seed, n])
    plan = build_plan(n, vocab, size_rng)
    queries = make_queries(n_queries, vocab, plan, size_rng)
    tenants = {f"bench-{secrets.token_hex(16)}": f"bench-http-tenant-{i}-s{seed}" for i in range(clients)}
    report: dict[str, Any] = {"machine": machine(), "memories": n, "queries": len(queries), "group_id": group_id}
    delete_synthetic(graph, group_id)
    delete_synthetic(graph, "bench-http-tenant-")
    try:
        say(f"[{n} memories] group {group_id}")
        report["build_s"] = round(build_graph(graph, group_id, n, vocab, plan, say), 1)
        token = f"bench-{secrets.token_hex(16)}"
        with serving(graph, {token: group_id, **tenants}) as url, remote(url, token) as client:
            report["depth1"] = _paired(graph, client, group_id, queries, say)
            report["concurrent"] = _concurrent(graph, url, tenants, vocab, seed, say)
    finally:
        delete_synthetic(graph, group_id)
        for tenant in tenants.values():
            delete_synthetic(graph, tenant)
        say("  deleted")
    report["machine"]["load_average_after"] = machine()["load_average"]
    return report


def _paired(graph: MemoryGraph, client: Any, group_id: str, queries: list[str], say: Callable[[str], None]) -> dict:
    """The same depth-1 searches in-process and over HTTP, one after the other, query by query."""

    def local(q: str) -> Any:
        return graph.search_memories(group_id, q, mode="deep", expand_depth=1, reference_time=REFERENCE)

    def over_http(q: str) -> Any:
        return client.search_memories(group_id, q, mode="deep", expand_depth=1, reference_time=REFERENCE.isoformat())

    for q in queries[:20]:  # warm caches, query plans and the connection
        local(q)
        over_http(q)
    in_process, http, same = [], [], 0
    for q in queries:
        t = time.perf_counter()
        a = local(q)
        in_process.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        b = over_http(q)
        http.append((time.perf_counter() - t) * 1000)
        same += [r.memory_id for r in a.results] == [r["memory_id"] for r in b["results"]]
    out: dict[str, Any] = {
        "in_process": percentiles(in_process),
        "http": percentiles(http),
        "same_results": same,
        "overhead_p50_ms": round(float(np.median(http)) - float(np.median(in_process)), 1),
    }
    out["target_met"] = out["overhead_p50_ms"] <= TARGET_OVERHEAD_MS
    say(
        f"  depth 1: in-process p50 {out['in_process']['p50_ms']} ms, HTTP p50 {out['http']['p50_ms']} ms "
        f"(+{out['overhead_p50_ms']} ms); same results for {same} of {len(queries)} queries"
    )
    return out


def _concurrent(
    graph: MemoryGraph, url: str, tenants: dict[str, str], vocab: Vocabulary, seed: int, say: Callable[[str], None]
) -> dict:
    """Each client writes a small group of its own, then all search at once over HTTP."""
    own: dict[str, set[str]] = {}
    for i, group in enumerate(tenants.values()):
        rng = np.random.default_rng([seed, i])
        memories = [
            {
                "subject": "I",
                "memory_type": "fact",
                "topic": vocab.topics[int(rng.integers(len(vocab.topics)))],
                "object": vocab.objects[int(rng.integers(len(vocab.objects)))],
            }
            for _ in range(TENANT_MEMORIES)
        ]
        own[group] = {r.memory_id for r in graph.create_memories(group, memories)}
    questions = [f"what do I {t}?" for t in vocab.topics[:20]]
    errors: list[str] = []
    crossed: list[str] = []
    latencies: list[float] = []
    lock = threading.Lock()

    def client(token: str, group: str) -> None:
        with remote(url, token) as c:
            for q in questions:
                t = time.perf_counter()
                try:
                    r = c.search_memories(None, q, mode="deep", expand_depth=1, max_results=20)
                except Exception as exc:  # noqa: BLE001 - counted and reported
                    with lock:
                        errors.append(f"{group}: {type(exc).__name__}: {exc}")
                    continue
                ms = (time.perf_counter() - t) * 1000
                foreign = {x["memory_id"] for x in r["results"]} - own[group]
                with lock:
                    latencies.append(ms)
                    if r["group_id"] != group or foreign:
                        crossed.append(group)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(tenants)) as pool:
        list(pool.map(lambda kv: client(*kv), tenants.items()))
    wall = time.perf_counter() - t0
    out = {
        "clients": len(tenants),
        "searches": len(latencies) + len(errors),
        "errors": len(errors),
        "cross_group_answers": len(crossed),
        "queries_per_s": round(len(latencies) / wall, 1),
        **percentiles(latencies or [0.0]),
        "error_examples": errors[:3],
    }
    say(
        f"  {out['clients']} HTTP clients: {out['searches']} searches, {out['errors']} errors, "
        f"{out['cross_group_answers']} answers with another group's memories, {out['queries_per_s']} searches/s, "
        f"p50 {out['p50_ms']} ms"
    )
    return out
