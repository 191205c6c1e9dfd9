"""The corpus in Neo4j: every read a named query of cypher/search_*.cypher, cosines computed there.

Memories by meaning: a group up to ``limits.vector_scan_limit`` is scanned exactly (cosine over
its memories, filters applied: the true top-k); a larger one through the vector index with an
over-fetch sized by its share of the index (k · total/size · 2, ``store.vector.overfetch``),
scanned exactly when the index cannot reach it. Turns likewise, by the better of their own
cosine and their closest sentence's, from the turns' and the sentences' indexes at once.

By words: a group up to ``limits.exact_scan_limit`` texts is searched term by term with its own
statistics (``search_*fulltext_terms``: one Lucene query per term, ``store.fulltext.term_probes``;
a term counts by its IDF among the group's texts): Lucene's are index-wide, so another tenant's
texts would move this group's ranking. A larger group uses one Lucene query and its index-wide
statistics (``rank.WordHits`` says which). Equal scores are cut the same way every time.
"""

from __future__ import annotations

import math
import threading
import time
from typing import TYPE_CHECKING, Any

from ..config import SearchLimits
from ..store.driver import Store
from ..store.fulltext import escape_terms, group_query, term_probes
from ..store.vector import first_fetch, overfetch, to_cosine
from .context import Later, SearchContext
from .corpus import Memories, Neighbour, Source, TurnFinds, TurnWords
from .rank import SENTENCE_WEIGHT, WordHits, prerank, prerank_params

if TYPE_CHECKING:
    from .walk import RelationScope

TTL_S = 60.0  # how long the size of a large group, and its speakers, are trusted
BIG_SHARE = 0.25  # a group holding this share of all memories is not narrowed in Lucene
EDGE_FANOUT = 50  # memory-to-memory edges followed per memory and level
SAMPLE_MIN = 50  # memories looked at per concept: the first max(50, 2 × hub_fanout) Neo4j walks to
LEVEL_MAX = 100000  # a level's cut when the caller makes it (every neighbour comes back)
_EDGE_PRIORITY = {"CAUSALITY": 0, "REFERENCE": 1}


def word_hits(rows: list[dict], terms: int, n: int, limit: int) -> WordHits:
    """How a fulltext list's scores read: a group up to ``limit`` texts is searched term by term
    (the group's own IDF, an absolute scale); a larger one by one Lucene query (its best hit)."""
    if n <= limit:
        return WordHits(terms=terms, n=n, exact=True)
    return WordHits(terms=terms, n=n, exact=False, best=max((r["bm25"] for r in rows), default=0.0))


class GroupFacts:
    """What a process remembers of large groups between searches: their size and the index's
    (a count over 100,000 memories), their speakers (a DISTINCT over 100,000 turns: ~80 ms)."""

    def __init__(self, store: Store):
        self.store = store
        self._kept: dict[tuple[str, str], tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def _get(self, name: str, group_id: str) -> Any:
        now = time.monotonic()
        with self._lock:
            kept = self._kept.get((name, group_id))
        if kept is None or now - kept[0] >= TTL_S:
            kept = (now, self.store.read(name, group_id=group_id)[0])
            with self._lock:
                self._kept[(name, group_id)] = kept
        return kept[1]

    def size(self, group_id: str) -> tuple[int, int]:
        """(the group's memories, every memory in the index)."""
        row = self._get("search_group_size", group_id)
        return row["group_size"], row["total"]

    def speakers(self, group_id: str) -> list[str]:
        return self._get("search_group_speakers", group_id)["speakers"]


class DatabaseMemories:
    """A group's memories in Neo4j."""

    def __init__(self, store: Store, facts: GroupFacts, limits: SearchLimits):
        self.store, self.facts, self.limits = store, facts, limits

    def vector(self, ctx: SearchContext) -> list[float] | None:
        """The vector the queries that read memories take (None: the cosines are computed here,
        and those queries go out before the query is embedded)."""
        return ctx.vector()

    def fill_cosines(self, ctx: SearchContext, rows: list[dict]) -> None:
        """The ``score`` of rows read without the query's vector."""
        if rows:
            ids = list({r["memory"]["id"] for r in rows})
            got = self.store.read("search_cosines", group_id=ctx.group_id, ids=ids, embedding=ctx.vector())[0]
            scores = {x["id"]: x["score"] for x in got["rows"]}
            for r in rows:
                r["score"] = scores.get(r["memory"]["id"])

    def word_hits(self, ctx: SearchContext, words: str) -> Later[tuple[list[dict], WordHits]] | None:
        embedding, probes = self.vector(ctx), []
        if ctx.memories <= self.limits.exact_scan_limit:
            probes = term_probes(words, ctx.group_id)
            if not probes:
                return None
            job = self.store.submit(
                "search_fulltext_terms", probes=probes, n=ctx.memories, k=ctx.k, **ctx.params(embedding)
            )
        else:
            lucene, fetch = group_query(words, ctx.group_id), ctx.k * 3
            # A group that is most of the index gains nothing from narrowing in Lucene (a phrase
            # query on group_id costs more than the text query itself): filter in Cypher instead.
            size, total = self.facts.size(ctx.group_id)
            share, terms = size / max(total, 1), escape_terms(words)
            if share >= BIG_SHARE and terms:
                lucene, fetch = f"text:({' '.join(terms)})", math.ceil(ctx.k * 3 / share)
            if not lucene:
                return None
            job = self.store.submit("search_fulltext", lucene=lucene, fetch=fetch, k=ctx.k, **ctx.params(embedding))

        def answer() -> tuple[list[dict], WordHits]:
            rows = job.result()[0]["hits"]
            if embedding is None:
                self.fill_cosines(ctx, rows)
            return rows, word_hits(rows, len(probes), ctx.memories, self.limits.exact_scan_limit)

        return answer

    def subject(self, ctx: SearchContext, names: list[str]) -> Later[list[dict]]:
        embedding = self.vector(ctx)
        cap = self.limits.subject_cap
        job = self.store.submit("search_subject_memories", names=names, cap=cap, **ctx.params(embedding))

        def answer() -> list[dict]:
            rows = job.result()
            if embedding is None:
                self.fill_cosines(ctx, [r for row in rows for r in row["rows"]])
            return rows

        return answer

    def nearest(self, ctx: SearchContext, strategy: list[str]) -> tuple[list[str], Later[list[dict]]]:
        return [], lambda: self.scan_or_index(ctx, strategy)

    def scan_or_index(self, ctx: SearchContext, strategy: list[str]) -> list[dict]:
        params, k = ctx.params(ctx.vector()), ctx.k
        if ctx.memories <= self.limits.scan_limit():
            strategy.append(f"vector: exact scan of the group ({ctx.memories} memories)")
            return self.store.read("search_vector_scan", k=k, **params)
        size, total = self.facts.size(ctx.group_id)
        fetch = max(first_fetch(k), math.ceil(2 * k * total / max(size, 1)))
        hits, fetch, complete = overfetch(
            lambda f: self.store.read("search_vector_index", fetch=f, k=k, **params)[0], k, fetch
        )
        if complete:
            strategy.append(f"vector: index top-{fetch} of {total}, {len(hits)} in the group after filters")
            return hits
        strategy.append(f"vector: exact scan of the group ({size} memories): the index could not reach it")
        return self.store.read("search_vector_scan", k=k, **params)

    def expand(
        self, ctx: SearchContext, frontier: list[str], seen: set[str], scope: RelationScope, keep: int, sources: bool
    ) -> list[Neighbour]:
        embedding, fanout = self.vector(ctx), self.limits.hub_fanout
        rows = self.store.read(
            "search_expand",
            frontier=frontier,
            seen=sorted(seen),
            causal=scope.causal,
            ref_relations=scope.ref_relations,
            concepts=scope.concepts,
            edge_fanout=EDGE_FANOUT,
            fanout=fanout,
            sample=max(SAMPLE_MIN, 2 * fanout),
            hub_cap=self.limits.hub_degree_cap,
            keep=keep if embedding is not None else LEVEL_MAX,
            with_sources=sources,
            **prerank_params(ctx.profile),
            **ctx.params(embedding),
        )[0]["neighbours"]
        rows = [r for r in rows if r["memory"]["group_id"] == ctx.group_id]  # defence in depth: the query checks it too
        if embedding is None:  # the cosines computed here, and the level's cut made here
            self.fill_cosines(ctx, rows)
            rows = prerank(rows, keep, ctx.profile)
        return [
            Neighbour(
                node=row["memory"],
                cosine=to_cosine(row["score"] or 0.5),
                steps=sorted(row["steps"], key=lambda s: _EDGE_PRIORITY.get(s["edge"], 2)),
                sources=row.get("sources"),
            )
            for row in rows
        ]


class DatabaseTurns:
    """A group's conversation turns in Neo4j."""

    with_sources = False

    def __init__(self, store: Store, facts: GroupFacts, limits: SearchLimits, memories: Memories):
        self.store, self.facts, self.limits, self.memories = store, facts, limits, memories

    def speaker_terms(self, ctx: SearchContext, probes: list[dict[str, str]], index: str) -> Later[list[str]]:
        job = self.store.submit("search_name_terms", index=index, probes=probes, group_id=ctx.group_id)
        return lambda: job.result()[0]["terms"]

    def group_speakers(self, ctx: SearchContext) -> list[str]:
        if ctx.episodes > self.limits.exact_scan_limit:
            return self.facts.speakers(ctx.group_id)
        return self.store.read("search_group_speakers", group_id=ctx.group_id)[0]["speakers"]

    def ask_words(self, ctx: SearchContext, words: TurnWords) -> TurnWords:
        return words  # the database asks for the turns' words with the turns found by meaning

    def find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> Later[TurnFinds]:
        return lambda: self._find(ctx, words, strategy)

    def _find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> TurnFinds:
        # the database ranks turns by the better of their own cosine and their closest sentence's
        # (rank.sentence_lift): the cut to the top k happens there
        params = {**ctx.params(ctx.vector()), "sentence_weight": SENTENCE_WEIGHT}
        found = TurnFinds(self._nearest(ctx, params, strategy))
        if words is not None and words.probes:
            # the turns found by meaning learn their word evidence too, top k by words or not
            also = [h["episode"]["id"] for h in found.nearest]
            found.words = self.store.read(
                "search_episode_fulltext_terms",
                index=words.index,
                probes=words.probes,
                n=ctx.episodes,
                also=also,
                k=ctx.k,
                **params,
            )
        elif words is not None:
            found.words = self.store.read(
                "search_episode_fulltext", index=words.index, lucene=words.lucene, fetch=ctx.k * 3, k=ctx.k, **params
            )
        if words is not None:
            found.word_hits = word_hits(
                found.words or [], len(words.probes), ctx.episodes, self.limits.exact_scan_limit
            )
        ids = list(dict.fromkeys(h["episode"]["id"] for h in found.nearest + (found.words or [])))
        if ids:  # the turns around them: each turn is read in context, or as a reply
            found.context = self.store.read("search_episode_neighbours", ids=ids, **params)[0]["rows"]
        return found

    def _nearest(self, ctx: SearchContext, params: dict[str, Any], strategy: list[str]) -> list[dict]:
        k = ctx.k
        if ctx.episodes <= self.limits.scan_limit():
            strategy.append(f"episodes: exact scan ({ctx.episodes})")
            return self.store.read("search_episode_scan", k=k, **params)
        # the turns' and the sentences' indexes are asked at once
        fetch = first_fetch(k)
        pages = {
            name: self.store.submit(name, fetch=fetch, k=k, **params)
            for name in ("search_episode_index", "search_sentence_index")
        }
        best: dict[str, dict] = {}
        for name, first in pages.items():

            def page(f: int, name: str = name, first: Any = first) -> dict:
                return first.result()[0] if f == fetch else self.store.read(name, fetch=f, k=k, **params)[0]

            for hit in overfetch(page, k, fetch)[0]:  # a turn found by itself and by a sentence: its better score
                seen = best.get(hit["episode"]["id"])
                if seen is None or (hit["score"] or 0) > (seen["score"] or 0):
                    best[hit["episode"]["id"]] = hit
        hits = sorted(best.values(), key=lambda h: -(h["score"] or 0))[:k]
        strategy.append(f"episodes: vector indexes of turns and sentences ({len(hits)} in the group)")
        return hits

    def sources(self, ctx: SearchContext, ids: list[str]) -> Later[list[dict]]:
        job = self.store.submit("search_memory_sources", ids=ids, **ctx.params(ctx.vector()))
        return lambda: job.result()[0]["rows"]

    def sentences(self, ctx: SearchContext, ids: list[str]) -> dict[str, float]:
        rows = self.store.read("search_sentence_scores", ids=ids, **ctx.params(ctx.vector()))[0]["rows"]
        return {r["id"]: to_cosine(r["score"]) for r in rows}

    def reached(self, ctx: SearchContext, neighbours: list[Neighbour]) -> dict[str, list[Source]]:
        out: dict[str, list[Source]] = {}
        if neighbours:
            for r in self.sources(ctx, [n.node["id"] for n in neighbours])():
                e = r["episode"]
                out.setdefault(r["of"], []).append((e["id"], to_cosine(r["score"]), e.get("speaker"), e.get("content")))
        return out
