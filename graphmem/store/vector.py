"""Vector scores, and the top-k of one group from a vector index that holds every group.

Neo4j reports cosine similarity as (1 + cos) / 2 (``neo4j_score``); graphmem reasons in plain
cosine (``to_cosine``). Neo4j 5's vector index returns the global top-k before any filter, so a
small group in a large database can get nothing back: ``overfetch`` asks for more (x4 each
round) while the index keeps returning full pages with too few hits of the group, up to
MAX_FETCH; the caller scans the group exactly when that fails. A group that got >= k hits
within the global top-fetch has its true top-k among them (up to the index's approximation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .driver import Store

MAX_FETCH = 4096  # the largest page asked of a vector index
GROWTH = 4  # each page this many times the one before


def neo4j_score(cosine: float) -> float:
    """A plain cosine in the form Neo4j reports it: (1 + cos) / 2."""
    return (1.0 + cosine) / 2.0


def to_cosine(score: float) -> float:
    """Neo4j's (1 + cos) / 2 as a plain cosine."""
    return 2.0 * float(score) - 1.0


def first_fetch(k: int) -> int:
    """The first page asked of an index for a group's top ``k``."""
    return max(k * 5, 50)


def overfetch(page: Callable[[int], dict[str, Any]], k: int, fetch: int) -> tuple[list[dict], int, bool]:
    """``page(fetch)`` answers {hits (the group's, filtered), returned (the index's page size)};
    pages grow until one holds ``k`` hits or the index is exhausted: (the last page's hits, its
    size, whether they are the group's top k). A first ``fetch`` above MAX_FETCH asks nothing."""
    hits: list[dict] = []
    while fetch <= MAX_FETCH:
        row = page(fetch)
        hits = row["hits"]
        if len(hits) >= k or row["returned"] < fetch:
            return hits, fetch, True
        fetch *= GROWTH
    return hits, fetch // GROWTH, False


def group_topk(store: Store, index: str, exact_query: str, group_id: str, embedding: list[float], k: int) -> list[dict]:
    """Hits as dicts (id, name, normalized_name?, score as plain cosine), best first."""

    def page(fetch: int) -> dict[str, Any]:
        return store.read("vector_index_topk", index=index, fetch=fetch, embedding=embedding, group_id=group_id, k=k)[0]

    hits, _, complete = overfetch(page, k, first_fetch(k))
    if not complete:
        rows = store.read(exact_query, group_id=group_id, embedding=embedding, k=k)
        hits = rows[0]["hits"] if rows else []
    return [{**h, "score": to_cosine(h["score"])} for h in hits]
