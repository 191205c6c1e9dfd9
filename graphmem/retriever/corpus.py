"""The corpus a search reads: a group's memories and conversation turns, behind one interface.

The search (``seeds.py``, ``turns.py``, ``walk.py``) is written once against ``Memories`` and
``Turns``. Two implementations: ``database.py`` asks Neo4j (the named queries of
cypher/search_*.cypher); ``held.py`` computes what it can from the process's copies of the
group's vectors (``vectors.py``, ``turnvectors.py``) and asks Neo4j the rest. Each overlaps its
own round trips: a method that returns a ``Later`` has sent its query, and calling it waits for
the answer. Rows are what the queries return (``memory``/``episode`` maps; ``score`` a cosine in
Neo4j's form, ``store.vector.neo4j_score``), whichever implementation made them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .context import Later, SearchContext
from .rank import WordHits

Source = tuple[str, float, str | None, str]  # a turn a memory was extracted from: id, cosine, speaker, text


@dataclass
class Neighbour:
    """A memory one hop from the walk's frontier: its cosine, the ways it was reached (from_id,
    edge, relation, direction, via, via_label) and, when asked, the turns it was extracted from."""

    node: dict
    cosine: float
    steps: list[dict]
    sources: list[str] | None = None


@dataclass(frozen=True)
class TurnWords:
    """The words a search matches against turns: one Lucene query per term (``probes``, a group
    up to ``exact_scan_limit`` turns) or one for all (``lucene``); ``speakers`` the query words
    that name a speaker (matched against who spoke); ``asked``: what an implementation sent ahead."""

    index: str
    fields: tuple[str, ...]
    probes: list[dict[str, str]]
    lucene: str | None
    speakers: list[str]
    asked: Any = None


@dataclass
class TurnFinds:
    """The turns that match: ``nearest`` by meaning (their sentences read), ``words`` by words
    (None: no word query) weighed by ``word_hits``, ``context`` the turns right before and after
    those (rows with ``of``, ``new``, ``before``), each row with the memories extracted from it;
    ``single`` the memories read with their only source turn."""

    nearest: list[dict]
    words: list[dict] | None = None
    word_hits: WordHits | None = None
    context: list[dict] = field(default_factory=list)
    single: set[str] = field(default_factory=set)


class Memories(Protocol):
    """A group's memories."""

    def word_hits(self, ctx: SearchContext, words: str) -> Later[tuple[list[dict], WordHits]] | None:
        """The top k by words ({memory, bm25, score}); None: the query has no word to match."""
        ...

    def subject(self, ctx: SearchContext, names: list[str]) -> Later[list[dict]]:
        """The memories of the group's subjects named ``names`` ({subject, rows: {memory, topic, score}})."""
        ...

    def nearest(self, ctx: SearchContext, strategy: list[str]) -> tuple[list[str], Later[list[dict]]]:
        """The top k by meaning ({memory, score}), and the ids asked about before the answer."""
        ...

    def expand(
        self, ctx: SearchContext, frontier: list[str], seen: set[str], scope: Any, keep: int, sources: bool
    ) -> list[Neighbour]:
        """The best ``keep`` memories one hop from ``frontier`` not in ``seen``, along ``scope``."""
        ...


class Turns(Protocol):
    """A group's conversation turns."""

    with_sources: bool  # the walk asks which turns each memory it reaches was extracted from

    def speaker_terms(self, ctx: SearchContext, probes: list[dict[str, str]], index: str) -> Later[list[str]]:
        """Which query terms name a speaker of the group."""
        ...

    def group_speakers(self, ctx: SearchContext) -> list[str]:
        """Everyone who speaks in the group."""
        ...

    def ask_words(self, ctx: SearchContext, words: TurnWords) -> TurnWords:
        """``words``, sent ahead when the implementation can (before the query is embedded)."""
        ...

    def find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> Later[TurnFinds]:
        """The turns nearest the query, those the words match, the turns around them."""
        ...

    def sources(self, ctx: SearchContext, ids: list[str]) -> Later[list[dict]]:
        """The turns each memory in ``ids`` was extracted from ({of, episode, score})."""
        ...

    def sentences(self, ctx: SearchContext, ids: list[str]) -> dict[str, float]:
        """The closest sentence's cosine of each turn in ``ids`` that has sentences."""
        ...

    def reached(self, ctx: SearchContext, neighbours: list[Neighbour]) -> dict[str, list[Source]]:
        """The turns each memory the walk reached was extracted from."""
        ...


@dataclass(frozen=True)
class Corpus:
    memories: Memories
    turns: Turns
