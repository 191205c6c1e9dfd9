"""The corpus in Neo4j: every read a named query of cypher/search_*.cypher, cosines computed there.

By meaning: a group up to ``limits.vector_scan_limit`` texts is scanned exactly (the true top-k
whatever other groups hold); a larger one through the vector indexes, over-fetched by its share
of them (``store.vector.overfetch``) and scanned when the index cannot reach it. Turns rank by
the better of their own cosine and their closest sentence's (both indexes asked at once).
By words: a group up to ``limits.exact_scan_limit`` texts term by term with its own statistics
(one Lucene query per term, each weighed by its IDF in the group: another tenant's texts never
move this group's ranking); a larger one by one Lucene query. Equal scores are cut the same way
every time (the newer first, then the order of the conversation or the text).
"""

from __future__ import annotations

import math
from concurrent.futures import Future
from typing import Any

from ..config import SearchLimits
from ..store.driver import Store
from ..store.fulltext import escape_terms, group_query, term_probes
from ..store.group_facts import GroupFacts
from ..store.vector import first_fetch, overfetch, to_cosine
from .context import Later, SearchContext
from .corpus import Memories, Neighbour, RelationScope, Source, TurnFinds, TurnWords
from .rank import RARE_DEGREE, SENTENCE_WEIGHT, WordHits, prerank, prerank_params

BIG_SHARE = 0.25  # a group holding this share of all memories is not narrowed in Lucene
LEVEL_MAX = 100000  # a walk level's cut when the caller makes it (every neighbour comes back)


Sent = tuple[str, dict[str, Any], Future]  # a statement of match_reads, its parameters and its answer


class DatabaseMemories:
    """A group's memories in Neo4j. ``vector`` and ``fill_cosines`` are where an implementation
    that holds the cosines itself differs (``held.HeldMemories``)."""

    def __init__(self, store: Store, facts: GroupFacts, limits: SearchLimits):
        self.store, self.facts, self.limits = store, facts, limits

    def vector(self, ctx: SearchContext) -> list[float] | None:
        """The vector the queries that read memories take (None: their cosines are computed here,
        and they go out before the query is embedded)."""
        return ctx.vector()

    def fill_cosines(self, ctx: SearchContext, rows: list[dict]) -> None:
        """The ``score`` of rows read without the query's vector."""
        if rows:
            ids = list({r["memory"]["id"] for r in rows})
            got = self.store.read("search_cosines", group_id=ctx.group_id, ids=ids, embedding=ctx.vector())[0]
            scores = {x["id"]: x["score"] for x in got["rows"]}
            for r in rows:
                r["score"] = scores.get(r["memory"]["id"])

    def match_reads(self, ctx: SearchContext, words: str, names: list[str]) -> tuple[str, dict[str, Any]] | None:
        """The statement that asks for the top k by ``words`` and the memories of the group's subjects
        named ``names`` in one round trip (store/cypher.py together), and its parameters (None: neither)."""
        reads, params = [], {**ctx.params(self.vector(ctx)), "k": ctx.k, "probes": []}
        if ctx.memories <= self.limits.exact_scan_limit:  # term by term, with the group's own statistics
            params.update(probes=term_probes(words, ctx.group_id), n=ctx.memories)
            reads += ["search_fulltext_terms"] if params["probes"] else []
        else:
            lucene, fetch = group_query(words, ctx.group_id), ctx.k * 3
            # A group that is most of the index gains nothing from narrowing in Lucene (a phrase
            # query on group_id costs more than the text query itself): filter in Cypher instead.
            size, total = self.facts.size(ctx.group_id)
            share, terms = size / max(total, 1), escape_terms(words)
            if share >= BIG_SHARE and terms:
                lucene, fetch = f"text:({' '.join(terms)})", math.ceil(ctx.k * 3 / share)
            params.update(lucene=lucene, fetch=fetch)
            reads += ["search_fulltext"] if lucene else []
        if names:
            reads.append("search_subject_memories")
            params.update(names=names, per_subject=self.limits.subject_cap)
        return ("+".join(reads), params) if reads else None

    def matches(
        self, ctx: SearchContext, words: str, names: list[str], sent: Sent | None = None
    ) -> tuple[Later[tuple[list[dict], WordHits]] | None, Later[list[dict]] | None]:
        """The top k by words (None: no word to match) and the memories of the group's subjects named
        ``names`` (None: none named), in one round trip; ``sent``: that statement, sent with the probe."""
        reads = sent[:2] if sent is not None else self.match_reads(ctx, words, names)
        if reads is None:
            return None, None
        (name, params), here = reads, reads[1]["embedding"] is None  # here: the cosines filled in here
        answer = sent[2] if sent is not None else self.store.submit(name, **params)

        def by_words() -> tuple[list[dict], WordHits]:
            rows = answer.result()[0]["hits"]
            if here:
                self.fill_cosines(ctx, rows)
            return rows, WordHits.of(rows, len(params["probes"]), ctx.memories, self.limits.exact_scan_limit)

        def subjects() -> list[dict]:
            rows = answer.result()[0]["subjects"]
            if here:
                self.fill_cosines(ctx, [r for row in rows for r in row["rows"]])
            return rows

        return (None if name == "search_subject_memories" else by_words), (subjects if names else None)

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
        self,
        ctx: SearchContext,
        frontier: list[str],
        seen: set[str],
        scope: RelationScope,
        keep: int,
        sources: bool,
        related: set[str] | frozenset[str] = frozenset(),
    ) -> list[Neighbour]:
        embedding = self.vector(ctx)
        cut = LEVEL_MAX if embedding is None else keep
        level = {"frontier": frontier, "seen": sorted(seen), "with_sources": sources, "keep": cut}
        level.update(related=sorted(related), rare=RARE_DEGREE)
        hubs = {"fanout": self.limits.hub_fanout, "hub_cap": self.limits.hub_degree_cap}
        params = {**level, **scope.params(**hubs), **prerank_params(ctx.profile), **ctx.params(embedding)}
        rows = self.store.read("search_expand", **params)[0]["neighbours"]
        rows = [r for r in rows if r["memory"]["group_id"] == ctx.group_id]  # defence in depth: the query checks it too
        if embedding is None:  # the cosines computed here, and the level's cut made here
            self.fill_cosines(ctx, rows)
            rows = prerank(rows, keep, ctx.profile)
        return [Neighbour(r["memory"], to_cosine(r["score"] or 0.5), r["steps"], r.get("sources")) for r in rows]


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
        return words  # asked with the turns found by meaning, whose word evidence it also reads

    def find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> Later[TurnFinds]:
        return lambda: self._find(ctx, words, strategy)

    def _find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> TurnFinds:
        # the database ranks turns by the better of their own cosine and their closest sentence's:
        # the cut to the top k happens there
        params = {**ctx.params(ctx.vector()), "sentence_weight": SENTENCE_WEIGHT}
        found = TurnFinds(self._nearest(ctx, params, strategy))
        if words is not None:
            # the turns found by meaning learn their word evidence too, top k by words or not
            also = [h["episode"]["id"] for h in found.nearest]
            terms = {"probes": words.probes, "n": ctx.episodes, "also": also}
            name, asked = ("search_episode_fulltext_terms", terms) if words.probes else ("search_episode_fulltext", {})
            asked = asked or {"lucene": words.lucene, "fetch": ctx.k * 3}
            found.words = self.store.read(name, index=words.index, k=ctx.k, **asked, **params)
            found.word_hits = WordHits.of(found.words, len(words.probes), ctx.episodes, self.limits.exact_scan_limit)
        ids = list(dict.fromkeys(h["episode"]["id"] for h in found.nearest + (found.words or [])))
        if ids:  # the turns around them: each turn is read in context, or as a reply
            found.context = self.store.read("search_episode_neighbours", ids=ids, **params)[0]["rows"]
        return found

    def _nearest(self, ctx: SearchContext, params: dict[str, Any], strategy: list[str]) -> list[dict]:
        k, fetch = ctx.k, first_fetch(ctx.k)
        if ctx.episodes <= self.limits.scan_limit():
            strategy.append(f"episodes: exact scan ({ctx.episodes})")
            return self.store.read("search_episode_scan", k=k, **params)
        names = ("search_episode_index", "search_sentence_index")
        pages = {name: self.store.submit(name, fetch=fetch, k=k, **params) for name in names}  # both at once
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
        for r in self.sources(ctx, [n.node["id"] for n in neighbours])() if neighbours else []:
            e = r["episode"]
            out.setdefault(r["of"], []).append((e["id"], to_cosine(r["score"]), e.get("speaker"), e.get("content")))
        return out
