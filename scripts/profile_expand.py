"""The walk's database cost: PROFILE of ``search_expand`` on the groups ``graphmem bench search --keep`` left.

Usage: ``python scripts/profile_expand.py OLD.cypher 1000,10000 [queries]``. Runs depth-1 and depth-2
searches of bench search's queries in each group ``bench-search-n<size>-s7``, keeps the parameters each level of
the walk sent, and runs every level again under PROFILE with the query text of OLD.cypher (e.g. a file from
``git show <commit>:graphmem/cypher/search_expand.cypher``) and with this checkout's: the mean database hits a
level, and whether both answer the same (neighbours, steps and order). Database hits do not depend on the
machine's load, which makes this the comparison that holds on a shared machine."""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from graphmem.bench.search import REFERENCE, Vocabulary, build_plan, make_queries
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph
from graphmem.store.cypher import parse, q
from graphmem.store.driver import lean_params


def db_hits(plan: Any) -> int:
    return int(plan.get("dbHits", 0)) + sum(db_hits(c) for c in plan.get("children", []))


def main() -> None:
    old_text = parse(open(sys.argv[1]).read())["search_expand"]
    new_text = q("search_expand")
    sizes = [int(x) for x in sys.argv[2].split(",")]
    asked = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    graph = MemoryGraph(load_settings())
    store, captured = graph.store, []
    read = store.read

    def spy(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "search_expand":
            captured.append(dict(params))
        return read(name, **params)

    store.read = spy  # type: ignore[method-assign]
    try:
        for n in sizes:
            # the queries bench search asks of that group (the names only: no embedding needed)
            vocab = Vocabulary(lambda texts: [[0.0] * 8 for _ in texts], np.random.default_rng(7))
            rng = np.random.default_rng([7, n])
            queries = make_queries(200, vocab, build_plan(n, vocab, rng), rng)
            captured.clear()
            for text in queries[:asked]:
                for depth in (1, 2):
                    graph.search_memories(
                        f"bench-search-n{n}-s7", text, mode="deep", expand_depth=depth, reference_time=REFERENCE
                    )
            out: dict[str, Any] = {"levels": len(captured)}
            answers: dict[str, list[str]] = {}
            for label, query in (("before", old_text), ("after", new_text)):
                hits, answers[label] = [], []
                for params in captured:
                    with store.driver.session(database=store.database) as session:
                        result = session.run("PROFILE " + query, lean_params(params))
                        record = result.single()
                        hits.append(db_hits(result.consume().profile))
                    answers[label].append(json.dumps(record["neighbours"] if record else None, default=str))
                out[f"db_hits_{label}"] = round(float(np.mean(hits)))
            out["same_answers"] = sum(a == b for a, b in zip(answers["before"], answers["after"]))
            print(n, json.dumps(out), flush=True)
    finally:
        graph.close()


if __name__ == "__main__":
    main()
