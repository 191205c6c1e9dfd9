"""Top-k by vector similarity within one group, without starving small groups.

Neo4j 5's vector index returns the global top-k before any filter, so a small group in a
large database can get nothing back. We over-fetch adaptively (x8 each round) while the
index keeps returning full pages with too few hits of the group, and fall back to an
exact cosine scan of the group when that fails. A group that got >= k hits within the
global top-fetch has its true top-k among them (up to the index's approximation).
"""

from __future__ import annotations

from .driver import Store

MAX_FETCH = 4096


def to_cosine(score: float) -> float:
    """Neo4j reports cosine similarity as (1 + cos) / 2; graphmem reasons in plain cosine."""
    return 2.0 * float(score) - 1.0


def group_topk(store: Store, index: str, exact_query: str, group_id: str, embedding: list[float], k: int) -> list[dict]:
    """Hits as dicts (id, name, normalized_name?, score as plain cosine), best first."""
    fetch = max(k * 5, 50)
    while fetch <= MAX_FETCH:
        row = store.read("vector_index_topk", index=index, fetch=fetch, embedding=embedding, group_id=group_id, k=k)[0]
        hits = row["hits"]
        if len(hits) >= k or row["returned"] < fetch:
            return [{**h, "score": to_cosine(h["score"])} for h in hits]
        fetch *= 8
    rows = store.read(exact_query, group_id=group_id, embedding=embedding, k=k)
    return [{**h, "score": to_cosine(h["score"])} for h in rows[0]["hits"]] if rows else []
