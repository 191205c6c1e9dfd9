"""Graph expansion: a breadth-first walk in Cypher from the seeds, one query per level.

A hop goes from a memory to another memory:
- along a CAUSALITY or REFERENCE edge, in either direction (the direction is kept in the
  path: for CAUSALITY the edge points from the cause to the effect);
- through a shared Subject, Topic or Object — (m)-[:HAS_TOPIC]->(t)<-[:HAS_TOPIC]-(m2);
- through a shared Value — (m)-[:ATTRIBUTE]->()-[:VALUE]->(v)<-[:VALUE]-()<-[:ATTRIBUTE]-(m2)
  (the same normalised date, place, ...).

Hubs. The user subject "@user" may have thousands of memories, and one date may be shared
by hundreds: a concept or value linked to more than ``retrieval.hub_degree_cap`` memories
tells nothing about relevance and is not walked through; through any other at most
``retrieval.hub_fanout`` memories are taken: the most important (then most recent) of the
first max(50, 2 × hub_fanout) linked to it that Neo4j walks to, so a well-used concept costs
a bounded walk, not its degree.
Memory-to-memory edges are explicit links and always walked (up to EDGE_FANOUT per memory).

Relation filters. None: every edge and shared concept. Set: only CAUSALITY/REFERENCE edges
whose relation is listed — because, so and causes are one causal relation seen from its two
ends, so any of them admits every CAUSALITY edge — and no concept hops.

Level n+1 starts from the best ``frontier`` memories of level n (by score), and each level
returns only its best ``keep`` memories by α·cosine + β·importance with the α and β of the
search's ranking profile (``rank.prerank_params``: the cut happens in the database, so the walk
and what comes back stay bounded however dense the graph). What comes back is evidence: each
memory with its own cosine to the query and the ways it was reached; ``rank.py`` scores it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import RankingProfile, SearchLimits
from ..store.driver import Store
from ..store.vector import to_cosine
from ..types import EdgeType, RelationType
from .evidence import Filters
from .rank import prerank, prerank_params
from .vectors import GroupVectors, fill_cosines

EDGE_FANOUT = 50  # memory-to-memory edges followed per memory and level
SAMPLE_MIN = 50  # memories looked at per concept: the first max(50, 2 × hub_fanout) Neo4j walks to
_EDGE_PRIORITY = {"CAUSALITY": 0, "REFERENCE": 1}
LEVEL_MAX = 100000  # the cut of a level when the caller makes it (every neighbour comes back)


@dataclass(frozen=True)
class RelationScope:
    causal: bool = True
    ref_relations: list[str] | None = None  # None: every reference relation
    concepts: bool = True

    @classmethod
    def from_filters(cls, relation_filters: list[RelationType] | None) -> RelationScope:
        if not relation_filters:
            return cls()
        causal = any(r.edge_type is EdgeType.CAUSALITY for r in relation_filters)
        refs = sorted({r.value for r in relation_filters if r.edge_type is EdgeType.REFERENCE})
        return cls(causal=causal, ref_relations=refs, concepts=False)


@dataclass
class Neighbour:
    node: dict
    cosine: float
    steps: list[dict]  # ways it was reached: from_id, edge, relation, direction, via, via_label
    sources: list[str] | None = None  # the turns it was extracted from (asked with ``with_sources``)


class Expander:
    def __init__(self, store: Store, limits: SearchLimits):
        self.store = store
        self.limits = limits

    def level(
        self,
        group_id: str,
        embedding: list[float],
        frontier: list[str],
        seen: set[str],
        scope: RelationScope,
        filters: Filters,
        keep: int,
        profile: RankingProfile,
        vectors: GroupVectors | None = None,
        with_sources: bool = False,
    ) -> list[Neighbour]:
        """The best ``keep`` memories one hop from ``frontier`` that are not in ``seen``, cut by
        ``profile``'s α·cosine + β·importance. With ``vectors`` (the process's copy of the group's
        vectors) the cosines are computed here (those it lacks asked of the database) and the cut
        made here. ``with_sources``: each memory also says which turns it was extracted from."""
        if not frontier:
            return []
        s = self.limits
        rows = self.store.read(
            "search_expand",
            group_id=group_id,
            embedding=None if vectors is not None else embedding,
            frontier=frontier,
            seen=sorted(seen),
            causal=scope.causal,
            ref_relations=scope.ref_relations,
            concepts=scope.concepts,
            edge_fanout=EDGE_FANOUT,
            fanout=s.hub_fanout,
            sample=max(SAMPLE_MIN, 2 * s.hub_fanout),
            hub_cap=s.hub_degree_cap,
            keep=keep if vectors is None else LEVEL_MAX,
            with_sources=with_sources,
            **prerank_params(profile),
            **filters.params(),
        )[0]["neighbours"]
        rows = [r for r in rows if r["memory"]["group_id"] == group_id]  # defence in depth: the query checks it too
        if vectors is not None:
            fill_cosines(self.store, group_id, vectors, embedding, rows, lambda r: r["memory"]["id"])
            rows = prerank(rows, keep, profile)
        out = []
        for row in rows:
            steps = sorted(row["steps"], key=lambda s: _EDGE_PRIORITY.get(s["edge"], 2))
            out.append(
                Neighbour(
                    node=row["memory"], cosine=to_cosine(row["score"] or 0.5), steps=steps, sources=row.get("sources")
                )
            )
        return out
