"""A search's query embedding alone, with the default model: wall time and CPU of one query.

Usage: ``python scripts/query_embed.py [en|zh] [--primary-threads N]``: 40 queries to warm up, then 200 one
at a time, each a new text (English: bench search's shape of question; Chinese: a question that describes
someone). Prints one JSON line: the language, the multilingual model's threads for a lone query, the wall p50
(ms) and the process CPU a query (ms). ``--primary-threads 2`` measures the multilingual model on two threads
beside the language model's one (before 2026-12-06); the default is what the pair sets (one each)."""

from __future__ import annotations

import json
import statistics
import sys
import time

from graphmem.embed import embed_query, get_embedder


def main(argv: list[str]) -> None:
    lang = argv[0] if argv and not argv[0].startswith("-") else "en"
    embedder = get_embedder()
    primary = getattr(embedder, "primary", None)
    if "--primary-threads" in argv and primary is not None:
        primary.small_run_threads = int(argv[argv.index("--primary-threads") + 1])
    if lang == "zh":
        queries = [f"那个家乡是杭州{i}的人，单位是什么？" for i in range(240)]
    else:
        queries = [f"what did Person{i} say about the small backpack number {i}?" for i in range(240)]
    for q in queries[:40]:
        embed_query(embedder, [q])
    walls, cpu = [], time.process_time()
    for q in queries[40:]:
        start = time.perf_counter()
        embed_query(embedder, [q])
        walls.append((time.perf_counter() - start) * 1000)
    row = {
        "lang": lang,
        "primary_threads": getattr(primary, "small_run_threads", None),
        "wall_p50_ms": round(statistics.median(walls), 1),
        "cpu_ms": round((time.process_time() - cpu) * 1000 / len(walls), 1),
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main(sys.argv[1:])
