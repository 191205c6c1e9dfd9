"""The corpus a search reads, a group's memories and conversation turns, behind one interface.

The search (``seeds.py``, ``turns.py``, ``walk.py``) is written once against ``Memories`` and
``Turns``; ``database.py`` implements them with the named queries of cypher/search_*.cypher,
``held.py`` with the process's copies of the group's vectors and Neo4j for the rest. Each
overlaps its own round trips: a method that returns a ``Later`` has sent its query, and calling
it waits for the answer. Rows are the queries' (``score``: a cosine in Neo4j's form).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..types import EdgeType, RelationType
from .context import Later, SearchContext
from .rank import Source, WordHits

EDGE_FANOUT = 50  # memory-to-memory edges followed per memory and level
SAMPLE_MIN = 50  # memories looked at per concept: the first max(50, 2 × hub_fanout) Neo4j walks to


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


@dataclass
class Neighbour:
    """A memory one hop from the walk's frontier."""

    node: dict
    cosine: float
    steps: list[dict]  # the ways it was reached: from_id, edge, relation, direction, via, via_label
    sources: list[str] | None = None  # the turns it was extracted from (when asked)


@dataclass(frozen=True)
class TurnWords:
    """The words a search matches against turns."""

    index: str
    fields: tuple[str, ...]
    probes: list[dict[str, str]]  # one Lucene query per term (a group up to ``exact_scan_limit`` turns)
    lucene: str | None  # or one for all
    speakers: list[str]  # the query words that name a speaker (matched against who spoke)
    asked: Any = None  # what an implementation sent ahead


@dataclass
class TurnFinds:
    """The turns that match, each row with the memories extracted from it."""

    nearest: list[dict]  # by meaning (their sentences read)
    words: list[dict] | None = None  # by words (None: no word query)
    word_hits: WordHits | None = None  # how the words' scores read
    context: list[dict] = field(default_factory=list)  # the turns right before and after: of, new, before
    single: set[str] = field(default_factory=set)  # memories read with their only source turn


class Memories(Protocol):
    """A group's memories. Rows: {memory, score} (+ bm25 for word hits, topic for a subject's)."""

    # the top k by words (None: no word to match) and the memories of the group's subjects named
    # ``names`` ([{subject, rows}]; None: no name), sent together (``sent``: already, with the probe)
    def matches(
        self, ctx: SearchContext, words: str, names: list[str], sent: Any = None
    ) -> tuple[Later[tuple[list[dict], WordHits]] | None, Later[list[dict]] | None]: ...
    # the top k by meaning, and the ids asked about before the answer
    def nearest(self, ctx: SearchContext, strategy: list[str]) -> tuple[list[str], Later[list[dict]]]: ...
    # the ``score`` of rows read without the query's vector
    def fill_cosines(self, ctx: SearchContext, rows: list[dict]) -> None: ...
    # the best ``keep`` memories one hop from ``frontier`` along ``scope``, not in ``seen``; a hub
    # crossed only to ``related``
    def expand(
        self,
        ctx: SearchContext,
        frontier: list[str],
        seen: set[str],
        scope: RelationScope,
        keep: int,
        sources: bool,
        related: set[str] | frozenset[str] = ...,
    ) -> list[Neighbour]: ...


class Turns(Protocol):
    """A group's conversation turns. Rows: {episode, score, extracted, memories} (+ bm25)."""

    with_sources: bool  # the walk asks which turns each memory it reaches was extracted from

    # which query terms name a speaker of the group
    def speaker_terms(self, ctx: SearchContext, probes: list[dict[str, str]], index: str) -> Later[list[str]]: ...
    # everyone who speaks in the group
    def group_speakers(self, ctx: SearchContext) -> list[str]: ...
    # ``words``, sent ahead when the implementation can (before the query is embedded)
    def ask_words(self, ctx: SearchContext, words: TurnWords) -> TurnWords: ...
    # the turns nearest the query, those the words match, the turns around them
    def find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> Later[TurnFinds]: ...
    # the turns each memory in ``ids`` was extracted from: [{of, episode, score}]
    def sources(self, ctx: SearchContext, ids: list[str]) -> Later[list[dict]]: ...
    # the closest sentence's cosine of each turn in ``ids`` that has sentences
    def sentences(self, ctx: SearchContext, ids: list[str]) -> dict[str, float]: ...
    # the turns each memory the walk reached was extracted from
    def reached(self, ctx: SearchContext, neighbours: list[Neighbour]) -> dict[str, list[Source]]: ...


@dataclass(frozen=True)
class Corpus:
    memories: Memories
    turns: Turns
