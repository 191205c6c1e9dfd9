"""The walk: from the seeds through the graph, breadth-first, one level per round trip.

A hop goes from a memory to another (cypher ``search_expand``) along a CAUSALITY or REFERENCE
edge either way, or through a shared Subject, Topic, Object or Value (a concept linked to more
than ``limits.hub_degree_cap`` memories is not walked through; through another, the most
important ``limits.hub_fanout``). Three choices, each made in one place here: the frontier (the
best memories of the level before); the edges (``RelationScope``: with relation filters, only
the listed CAUSALITY/REFERENCE relations and no concept); how a reached memory is scored
(``reach``: as a seed is, read with the turns it was extracted from, by the step along an
explicit edge before a concept, then from the best parent). Each level keeps its best
``limits.expand_keep`` (at least 3 × max_results) by α·cosine + β·importance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import SearchLimits
from ..types import EdgeType, PathStep, RelationType
from .context import SearchContext
from .corpus import Corpus, Neighbour, Source
from .evidence import Hit
from .rank import Ranking

EDGE_FANOUT = 50  # memory-to-memory edges followed per memory and level
SAMPLE_MIN = 50  # memories looked at per concept: the first max(50, 2 × hub_fanout) Neo4j walks to
EXPLICIT = {"CAUSALITY": 0, "REFERENCE": 1}  # memory-to-memory edges: a step along one beats a shared concept


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

    def params(self, fanout: int, hub_cap: int) -> dict[str, Any]:
        """What ``search_expand`` takes: the edges, and how much of a shared concept is walked."""
        edges = {"causal": self.causal, "ref_relations": self.ref_relations, "concepts": self.concepts}
        sample = max(SAMPLE_MIN, 2 * fanout)
        return {**edges, "edge_fanout": EDGE_FANOUT, "fanout": fanout, "sample": sample, "hub_cap": hub_cap}


def walk(
    ctx: SearchContext,
    corpus: Corpus,
    hits: dict[str, Hit],
    depth: int,
    scope: RelationScope,
    ranking: Ranking,
    limits: SearchLimits,
) -> None:
    """Adds what the walk reaches from ``hits`` (the seeds), ``depth`` levels deep, to ``hits``."""
    frontier = min(limits.seed_k, max(10, ctx.max_results))
    keep = max(limits.expand_keep, 3 * ctx.max_results)
    level = list(hits.values())
    for distance in range(1, depth + 1):
        chosen = [h for h in sorted(level, key=lambda h: -h.score) if h.kind == "memory"][:frontier]
        if not chosen:
            return
        parents = {h.id: h for h in chosen}
        with_sources = corpus.turns.with_sources and ctx.episodes > 0
        neighbours = corpus.memories.expand(ctx, list(parents), set(hits), scope, keep, with_sources)
        drawn = corpus.turns.reached(ctx, neighbours) if ctx.episodes else {}
        level = [reach(n, distance, parents, drawn.get(n.node["id"], []), ranking) for n in neighbours]
        hits.update((h.id, h) for h in level)


def reach(n: Neighbour, distance: int, parents: dict[str, Hit], drawn: list[Source], ranking: Ranking) -> Hit:
    """A memory the walk reached, scored."""
    steps = sorted(n.steps, key=lambda st: EXPLICIT.get(st["edge"], 2))  # causes first among equals
    best = {st["from_id"]: parents[st["from_id"]].score for st in steps if st["from_id"] in parents}
    step = min(steps, key=lambda st: (0 if st["edge"] in EXPLICIT else 1, -best.get(st["from_id"], 0)))
    parent = parents.get(step["from_id"])
    path = (parent.path if parent else []) + [PathStep(to_id=n.node["id"], **step)]
    similarity = ranking.similarity(n.cosine, n.node.get("text"))
    if drawn:
        similarity = ranking.reached(similarity, drawn)
    if ranking.about is not None:
        similarity = ranking.about.weigh(n.node["id"], similarity, from_turns=bool(drawn))
    return Hit(n.node["id"], "memory", n.node, similarity, distance, path).scored(ranking.scorer)
