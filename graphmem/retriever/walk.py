"""The walk: from the seeds through the graph, breadth-first, one level per round trip.

A hop goes from a memory to another memory (cypher ``search_expand``):
- along a CAUSALITY or REFERENCE edge, in either direction (the direction is kept in the path:
  for CAUSALITY the edge points from the cause to the effect);
- through a shared Subject, Topic or Object, or a shared Value (the same normalised date,
  place, ...). A concept linked to more than ``limits.hub_degree_cap`` memories tells nothing
  about relevance and is not walked through; through any other the most important HUB_FANOUT
  of the first ones Neo4j walks to are taken (``database.py``).

Three choices, each made in one place here:
- the frontier: level n+1 starts from the best ``frontier`` memories of level n, by score;
- the edges (``RelationScope``): none set, every edge and shared concept; relation filters set,
  only CAUSALITY/REFERENCE edges whose relation is listed (because, so and causes are one causal
  relation seen from its two ends, so any of them admits every CAUSALITY edge), no concept hops;
- how a reached memory is scored (``reach``): its own similarity, in a conversation group read
  with the turns it was extracted from as a seed is (``rank.reached_similarity``), weighed by the
  subjects the query names, at its distance; the step that reached it is an explicit edge
  before a shared concept, then the best-scored parent's.

Each level keeps its best EXPAND_KEEP (at least 3 × max_results) by α·cosine + β·importance with
the search's profile (``rank.prerank``: the cut happens where the neighbours are read, so the walk
stays bounded however dense the graph).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..types import EdgeType, PathStep, RelationType
from .context import SearchContext
from .corpus import Corpus, Neighbour, Source
from .evidence import Hit
from .rank import Scorer, Similarity, SubjectScope, reached_similarity

EXPAND_KEEP = 50  # memories kept per level of the walk (at least 3 × max_results)
EXPLICIT = ("CAUSALITY", "REFERENCE")  # memory-to-memory edges: a step along one beats a shared concept


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


@dataclass(frozen=True)
class Reading:
    """How the walk scores what it reaches: the search's similarity and scorer, the seeds'
    turns read in context (None: the group has no turns), the speakers and subjects the query names."""

    similarity: Similarity
    scorer: Scorer
    in_context: dict[str, float] | None
    speakers: list[str]
    about: SubjectScope | None


def walk(
    ctx: SearchContext,
    corpus: Corpus,
    hits: dict[str, Hit],
    depth: int,
    scope: RelationScope,
    reading: Reading,
    frontier: int,
) -> None:
    """Adds what the walk reaches from ``hits`` (the seeds), ``depth`` levels deep, to ``hits``."""
    keep = max(EXPAND_KEEP, 3 * ctx.max_results)
    level = list(hits.values())
    for distance in range(1, depth + 1):
        chosen = [h for h in sorted(level, key=lambda h: -h.score) if h.kind == "memory"][:frontier]
        if not chosen:
            return
        parents = {h.id: h for h in chosen}
        with_sources = corpus.turns.with_sources and reading.in_context is not None
        neighbours = corpus.memories.expand(ctx, list(parents), set(hits), scope, keep, with_sources)
        drawn = corpus.turns.reached(ctx, neighbours) if reading.in_context is not None else {}
        level = [reach(n, distance, parents, drawn.get(n.node["id"], []), reading) for n in neighbours]
        hits.update((h.id, h) for h in level)


def reach(n: Neighbour, distance: int, parents: dict[str, Hit], drawn: list[Source], reading: Reading) -> Hit:
    """A memory the walk reached, scored."""
    step = min(
        n.steps,
        key=lambda st: (
            0 if st["edge"] in EXPLICIT else 1,
            -parents[st["from_id"]].score if st["from_id"] in parents else 0,
        ),
    )
    parent = parents.get(step["from_id"])
    path = (parent.path if parent else []) + [PathStep(to_id=n.node["id"], **step)]
    similarity = reading.similarity(n.cosine, n.node.get("text"))
    if drawn and reading.in_context is not None:
        similarity = reached_similarity(similarity, drawn, reading.in_context, reading.speakers, reading.similarity)
    if reading.about is not None:
        similarity = reading.about.weigh(n.node["id"], similarity, from_turns=bool(drawn))
    return Hit(n.node["id"], "memory", n.node, similarity, distance, path).scored(reading.scorer)
