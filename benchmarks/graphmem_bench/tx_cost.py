"""What one write transaction costs Neo4j, by what the node it creates is indexed by: the server's
CPU per transaction (from /proc, so graphmem's local server: ``graphmem neo4j start``), for a
transaction that creates one node with no index, one in a vector index (under several index
settings), and one in a fulltext index (read-your-writes or eventually consistent).

    python -m graphmem_bench.tx_cost [--n 300] [--json]

Each case runs on its own scratch label and index, with 2,000 nodes written before it in one
transaction, then ``--n`` transactions of one node each in a row (as single ``create_memory``
calls are); the labels, indexes and nodes are dropped afterwards. Nothing of graphmem's own data
is read or written. A script of the package, not a `graphmem bench` runner (no entry point).
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from typing import Any

import typer

from graphmem.bench.cpu import CpuMeter
from graphmem.bench.write import machine

DIMENSION = 768  # the default pair's vectors: e5-small (384) beside bge-small-en (384)
PRELOAD = 2000  # nodes in the index before the timed transactions

VECTOR_CASES: dict[str, dict[str, Any]] = {
    "vector index (Neo4j's defaults: quantised, m 16, ef_construction 100)": {},
    "vector index, quantisation off": {"vector.quantization.enabled": False},
    "vector index, m 8, ef_construction 32": {"vector.hnsw.m": 8, "vector.hnsw.ef_construction": 32},
}
# as a create's concept lookup meets the write before it: the index read in the next transaction
READ_AFTER = "vector index, read after each write (the next transaction asks it for 50 neighbours)"
FULLTEXT_CASES: dict[str, dict[str, Any]] = {
    "fulltext index (read-your-writes, graphmem's setting)": {},
    "fulltext index, eventually consistent": {"fulltext.eventually_consistent": True},
}


def _unit_vectors(n: int, seed: int = 0) -> list[list[float]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        v = [rnd.gauss(0.0, 1.0) for _ in range(DIMENSION)]
        norm = sum(x * x for x in v) ** 0.5
        out.append([x / norm for x in v])
    return out


def _timed(graph: Any, meter: CpuMeter, n: int, write: Any, read: Any = None) -> dict[str, Any]:
    with graph.store.driver.session(database=graph.store.database) as session:
        mark, t0 = meter.mark(), time.perf_counter()
        for i in range(n):
            session.execute_write(lambda tx, i=i: write(tx, i))
            if read is not None:
                session.execute_read(lambda tx, i=i: read(tx, i))
        wall = (time.perf_counter() - t0) / n * 1000
    return {"wall_ms_per_tx": round(wall, 2), **meter.per_call(mark, n)}


def _case(
    graph: Any, meter: CpuMeter, n: int, kind: str, config: dict[str, Any], read_after: bool = False
) -> dict[str, Any]:
    """One scratch label (and index): preload, time ``n`` one-node transactions, drop it all."""
    label = "TxCost" + uuid.uuid4().hex[:8]
    index = label.lower()
    vectors = _unit_vectors(400)
    session = graph.store.driver.session(database=graph.store.database)

    def run(query: str, **params: Any) -> None:  # auto-commit: schema changes, IN TRANSACTIONS
        session.run(query, params).consume()

    # the label and index name are made here, never taken from input: formatting them in is safe
    if kind == "vector":
        settings = {"vector.dimensions": DIMENSION, "vector.similarity_function": "cosine", **config}
        run(f"CREATE VECTOR INDEX {index} FOR (n:{label}) ON n.embedding OPTIONS {{indexConfig: $c}}", c=settings)
    elif kind == "fulltext":
        settings = {"fulltext.analyzer": "cjk", **config}
        run(f"CREATE FULLTEXT INDEX {index} FOR (n:{label}) ON EACH [n.text] OPTIONS {{indexConfig: $c}}", c=settings)
    try:
        run("CALL db.awaitIndexes(120)")
        run(
            f"UNWIND range(1, $n) AS i CREATE (:{label} {{embedding: $v[i % 400], text: 'note ' + i}})",
            n=PRELOAD,
            v=vectors,
        )
        create = f"CREATE (:{label} {{embedding: $v, text: $t}})"
        if kind == "plain":
            create = f"CREATE (:{label} {{vector: $v, words: $t}})"  # the same data, in no index
        ask = f"CALL db.index.vector.queryNodes('{index}', 50, $v) YIELD node RETURN count(node)"
        read = (lambda tx, i: tx.run(ask, v=vectors[(i + 7) % 400]).consume()) if read_after else None
        return _timed(
            graph, meter, n, lambda tx, i: tx.run(create, v=vectors[i % 400], t=f"我 吃饭 note {i}").consume(), read
        )
    finally:
        if kind != "plain":
            run(f"DROP INDEX {index} IF EXISTS")
        run(f"MATCH (n:{label}) CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF 1000 ROWS")
        session.close()


def main(
    n: int = typer.Option(300, "--n", min=20, help="Transactions timed per case."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Server CPU per one-node write transaction, by the index the node is in."""
    from graphmem.config import load_settings
    from graphmem.graph import MemoryGraph

    graph = MemoryGraph(load_settings())
    meter = CpuMeter(graph)
    if meter.pid is None:
        raise typer.BadParameter("the server's CPU cannot be read: run against graphmem's local server")
    cases: dict[str, dict[str, Any]] = {}
    try:
        cases["RETURN 1 (an empty transaction)"] = _timed(graph, meter, n, lambda tx, i: tx.run("RETURN 1").consume())
        cases["one node, in no index"] = _case(graph, meter, n, "plain", {})
        for name, config in VECTOR_CASES.items():
            cases[name] = _case(graph, meter, n, "vector", config)
        cases[READ_AFTER] = _case(graph, meter, n, "vector", {}, read_after=True)
        for name, config in FULLTEXT_CASES.items():
            cases[name] = _case(graph, meter, n, "fulltext", config)
    finally:
        graph.close()
    report = {"transactions_per_case": n, "preloaded": PRELOAD, "machine": machine(), "cases": cases}
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(f"{n} one-node write transactions per case, {PRELOAD} nodes in the index first ({os.cpu_count()} cores)")
    for name, row in cases.items():
        print(
            f"  {name}: server {row.get('server_cpu_ms')} ms CPU, client {row['client_cpu_ms']} ms, {row['wall_ms_per_tx']} ms wall"
        )


if __name__ == "__main__":
    typer.run(main)
