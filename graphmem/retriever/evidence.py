"""What the seeds and the walk hand to ranking: evidence (``Candidate``, ``Turn``), not scores;
and the ``Hit`` a result is made from."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.vector import to_cosine
from ..types import PathStep, ScoreParts
from .rank import Scorer, SubjectScope, WordHits, rrf


@dataclass
class Candidate:
    """A memory (or an episode nothing was extracted from) that matched the query directly."""

    id: str
    kind: str  # memory | episode
    node: dict  # the memory's (or episode's) properties
    cosine: float
    bm25: float | None = None  # raw fulltext score; None: not a word hit
    word_hits: WordHits | None = None  # how the list that found it by words weighs bm25
    ranks: dict[str, int] = field(default_factory=dict)  # source -> 1-based rank
    episodes: list[dict] = field(default_factory=list)  # matched episodes that led here
    support: list[str] = field(default_factory=list)  # ids of the matched turns it was extracted from

    @property
    def text(self) -> str:
        return self.node.get("text") or self.node.get("content") or ""


def memory_candidate(row: dict, bm25: float | None = None, word_hits: WordHits | None = None) -> Candidate:
    """A memory row of a seed query ({memory, score}) as a candidate."""
    m = row["memory"]
    return Candidate(m["id"], "memory", m, to_cosine(row["score"] or 0.5), bm25, word_hits)


@dataclass
class Turn:
    """A matched conversation turn, or a neighbour of one: what its similarity in context needs."""

    id: str
    text: str
    cosine: float  # the turn's own (or, from an index, already sentence-lifted)
    bm25: float | None = None
    word_hits: WordHits | None = None
    sentence: float | None = None  # its closest sentence's cosine, when read apart
    neighbours: list[str] = field(default_factory=list)  # the turns right before and after it
    previous: str | None = None  # the turn right before it
    speaker: str | None = None
    role: str | None = None
    sentences_read: bool = False  # its cosine already counts its sentences
    said_at: str | None = None  # its timestamp

    def joined(self, other: Turn) -> Turn:
        """The same turn as two searches read it (inside a time range and everywhere): what
        either learnt of it. A turn one search reached only as a memory's source, read alone,
        is read with its neighbours, its words and its sentences where the other matched it."""
        words = self if self.bm25 is not None and (other.bm25 is None or self.bm25 >= other.bm25) else other
        sentences = [s for s in (self.sentence, other.sentence) if s is not None]
        return Turn(
            self.id,
            self.text or other.text,
            max(self.cosine, other.cosine),
            words.bm25,
            words.word_hits,
            max(sentences) if sentences else None,
            self.neighbours + [n for n in other.neighbours if n not in self.neighbours],
            self.previous or other.previous,
            self.speaker or other.speaker,
            self.role or other.role,
            self.sentences_read or other.sentences_read,
            self.said_at or other.said_at,
        )


@dataclass
class SeedReport:
    candidates: list[Candidate]
    strategy: list[str]
    turns: dict[str, Turn] = field(default_factory=dict)
    speakers: list[str] = field(default_factory=list)  # query words that name a speaker of the group
    about: SubjectScope | None = None  # the subjects the query names, their memories


def widen(inside: SeedReport, everywhere: SeedReport) -> tuple[SeedReport, set[str]]:
    """The seeds found inside a time range read from the query, with the ones found only outside
    it after them: (the merged report, the ids found only outside)."""
    have = {c.id for c in inside.candidates}
    extra = [c for c in everywhere.candidates if c.id not in have]
    turns = {**everywhere.turns, **inside.turns}
    for tid in everywhere.turns.keys() & inside.turns.keys():
        turns[tid] = inside.turns[tid].joined(everywhere.turns[tid])
    merged = SeedReport(inside.candidates + extra, inside.strategy, turns, inside.speakers, inside.about)
    return merged, {c.id for c in extra}


def fuse(lists: dict[str, list[Candidate]]) -> list[Candidate]:
    """One candidate per node found by any list: its cosine (the same node's, whichever list), its word hit, the
    matched turns and episodes of every list, its rank in each; ordered by reciprocal-rank fusion."""
    merged: dict[str, Candidate] = {}
    for source, items in lists.items():
        for rank, item in enumerate(items, 1):
            c = merged.get(item.id)
            if c is None:
                c = merged[item.id] = item
            else:
                c.cosine = max(c.cosine, item.cosine)
                if item.bm25 is not None and (c.bm25 is None or item.bm25 > c.bm25):
                    c.bm25, c.word_hits = item.bm25, item.word_hits
                for e in item.episodes:
                    if all(x["id"] != e["id"] for x in c.episodes):
                        c.episodes.append(e)
                c.support.extend(t for t in item.support if t not in c.support)
            if source not in c.ranks:
                c.ranks[source] = rank
    return sorted(merged.values(), key=lambda c: -rrf(c.ranks))


@dataclass
class Hit:
    """A result under construction: a seed (distance 0) or a memory the walk reached."""

    id: str
    kind: str
    node: dict
    similarity: float
    distance: int
    path: list[PathStep] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    episodes: list[dict] = field(default_factory=list)
    score: float = 0.0
    parts: ScoreParts | None = None
    hops: int | None = None  # the hops its distance part counts (a strong step is not one: rank.Paths)
    own: float | None = None  # its own similarity, before a path lifted it (None: not lifted)

    def scored(self, scorer: Scorer) -> Hit:
        """The hit with its score and the parts of it (a turn scores as an event said then)."""
        node, when = self.node, self.node.get("timestamp")
        if self.kind == "episode":
            node = {
                "importance": node.get("importance"),
                "memory_type": "EPISODE",
                "occurred_at": when,
                "created_at": when,
            }
        self.parts = scorer.parts(self.similarity, node, self.distance if self.hops is None else self.hops)
        self.score = scorer.total(self.parts)
        return self

    def at_least(self, floor: tuple[ScoreParts, float] | None) -> Hit:
        """The hit scored by ``floor`` (parts, score) where that is higher."""
        if floor is not None and floor[1] > self.score:
            self.parts, self.score, self.similarity = *floor, max(self.similarity, floor[0].similarity)
        return self
