"""The corpus from the process's copies of a group's vectors (``vectors.py``, ``turnvectors.py``),
Neo4j asked only for the rest: the nearest memories and turns, the cosines of word hits and of
what the walk reaches, the ranking of the turns the words match and the turns around them are
computed here as the database computes them (the same cut, the same ties). The word queries go
out before the query is embedded; one round trip reads the memories of the turns kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, replace

import numpy as np

from ..config import SearchLimits
from ..store.driver import Store
from ..store.group_facts import GroupFacts
from ..store.vector import neo4j_score
from ..store.vector_copy import GroupVectors, HeldVectors, unit
from .context import Later, SearchContext
from .corpus import Memories, Neighbour, Source, TurnFinds, TurnWords
from .database import DatabaseMemories, DatabaseTurns
from .rank import WordHits, group_idf
from .turnvectors import TurnCopy

HELD_FETCH, HELD_MARGIN = 2, 20  # nearest memories read from a held copy: 2k + 20, for those the filters drop


def scores(cosines: Iterable[float | None]) -> list[float | None]:
    """Plain cosines in Neo4j's form (None stays None: no vector)."""
    return [None if c is None else neo4j_score(c) for c in cosines]


def score_rows(copy: HeldVectors, query: np.ndarray, rows: list[dict], key: str = "episode") -> list[dict]:
    """Each row's ``score`` from the copy (None: a memory it does not hold)."""
    for r, s in zip(rows, scores(copy.cosine_of(query, [r[key]["id"] for r in rows]))):
        r["score"] = s
    return rows


class HeldMemories(DatabaseMemories):
    """A group's memories with the process's copy of their vectors."""

    def __init__(self, store: Store, facts: GroupFacts, limits: SearchLimits, copy: GroupVectors):
        super().__init__(store, facts, limits)
        self.copy = copy

    def vector(self, ctx: SearchContext) -> None:
        return None

    def fill_cosines(self, ctx: SearchContext, rows: list[dict]) -> None:
        """From the copy, and from the database for the memories written since it was read."""
        if rows:
            score_rows(self.copy, unit(ctx.vector()), rows, "memory")
            super().fill_cosines(ctx, [r for r in rows if r["score"] is None])

    def nearest(self, ctx: SearchContext, strategy: list[str]) -> tuple[list[str], Later[list[dict]]]:
        """The copy's nearest, read with the filters applied. A large group's copy, a time range or
        a subject (few of the nearest pass) leave it to the database, as does a filter that drops
        too many of them to be sure of the top k."""
        copy, k = self.copy, ctx.k
        if copy.lookup_only or ctx.filters.narrow:
            return super().nearest(ctx, strategy)
        n = min(len(copy.ids), HELD_FETCH * k + HELD_MARGIN)
        ids, cosines = copy.nearest(unit(ctx.vector()), n)
        params = {"ids": ids, "scores": scores(cosines), "k": k, **ctx.params(None)}
        job = self.store.submit("search_memories_by_ids", **params) if ids else None

        def answer() -> list[dict]:
            rows = job.result()[0]["hits"] if job is not None else []
            if len(rows) < k and n < len(copy.ids):
                return self.scan_or_index(ctx, strategy)
            strategy.append(f"vector: the group's {len(copy.ids)} vectors held in memory")
            return rows

        return ids, answer


class WordScores:
    """The word scores of a held group's turns, one per row of the copy (``matched`` says which
    count), and those of turns the copy does not hold: from the word query sent ahead (``job``,
    without the speakers' names) and each name's hits (rows of the copy, their shares)."""

    def __init__(self, copy: TurnCopy, asked: _Asked, start: str | None, said_end: str | None):
        self.copy = copy
        self.total = np.zeros(len(copy.ids), np.float64)
        self.matched = np.zeros(len(copy.ids), bool)
        self.extra: dict[str, float] = {}
        if asked.job is not None:
            row = asked.job.result()[0]
            for i, b in zip(row["ids"], row["bm25"]):
                r = copy.row.get(i)
                if r is None:
                    self.extra[i] = b
                else:
                    self.total[r], self.matched[r] = b, True
        if asked.names:
            window = copy.window(start, said_end)
            for rows, shares in asked.names:
                self.total[rows] += shares  # a row appears once per name
                self.matched[rows] |= window[rows]

    def get(self, turn: str) -> float | None:
        r = self.copy.row.get(turn)
        if r is None:
            return self.extra.get(turn)
        return float(self.total[r]) if self.matched[r] else None

    def ranked(self, k: int, also: list[str]) -> list[tuple[str, float]]:
        """The ``k`` best (ties: the newer turn, then the order of the conversation), then the turns
        of ``also`` the words match (as ``search_episode_fulltext_terms`` returns them)."""
        copy, rows = self.copy, np.flatnonzero(self.matched)
        items = [(copy.ids[r], v, copy.key(r, v)) for r, v in copy.contenders(rows, self.total[rows], k)]
        items += [(i, b, copy.key(None, b)) for i, b in self.extra.items()]
        top = [(i, v) for i, v, _ in sorted(items, key=lambda x: x[2])[:k]]
        listed = {i for i, _ in top}
        more = [(i, b) for i in also if i not in listed and (b := self.get(i)) is not None]
        return top + sorted(more, key=lambda ib: copy.key(copy.row.get(ib[0]), ib[1]))


@dataclass
class _Asked:
    """The word query a held turn search sent ahead (``names``: each name's hits from the copy;
    ``ranked`` False: a large group's, read whole)."""

    job: Future | None
    names: list[tuple[np.ndarray, np.ndarray]]
    ranked: bool = True


class HeldTurns(DatabaseTurns):
    """A group's conversation turns with the process's copy of their vectors."""

    with_sources = True

    def __init__(self, store: Store, facts: GroupFacts, limits: SearchLimits, memories: Memories, copy: TurnCopy):
        super().__init__(store, facts, limits, memories)
        self.copy = copy

    def speaker_terms(self, ctx: SearchContext, probes: list[dict[str, str]], index: str) -> Later[list[str]]:
        """Each term's answer is kept with the copy: only the terms not asked before are asked. A
        term whose first letter begins no word of any speaker's name cannot match one (the analyzer
        lowercases, strips a possessive and stems, and none of that touches a first letter)."""
        known: dict[str, bool] = self.copy.memo.setdefault(("names", index), {})
        initials = self.copy.speaker_initials
        for probe in probes:
            if probe["term"][:1].lower() not in initials:
                known.setdefault(probe["term"], False)
        unknown = [probe for probe in probes if probe["term"] not in known]
        job = super().speaker_terms(ctx, unknown, index) if unknown else None

        def answer() -> list[str]:
            named = set(job()) if job is not None else set()
            for probe in unknown:
                known.setdefault(probe["term"], probe["term"] in named)
            return [probe["term"] for probe in probes if known.get(probe["term"])]

        return answer

    def group_speakers(self, ctx: SearchContext) -> list[str]:
        return self.copy.speakers

    def ask_words(self, ctx: SearchContext, words: TurnWords) -> TurnWords:
        """The turns the words match, asked now; the copy ranks them. A term that names a speaker
        matches everything they said: its hits are read once per copy and held with it."""
        params = ctx.params(None)
        if words.lucene is not None:
            asked = {"index": words.index, "lucene": words.lucene, "fetch": ctx.k * 3, "k": ctx.k}
            return replace(
                words, asked=_Asked(self.store.submit("search_episode_fulltext", **asked, **params), [], False)
            )
        named = {n.casefold() for n in words.speakers} if "speaker" in words.fields else set()
        rest = [p for p in words.probes if p["term"].casefold() not in named]
        terms = {"index": words.index, "probes": rest, "n": ctx.episodes}
        job = self.store.submit("search_episode_fulltext_terms_held", **terms, **params) if rest else None
        names = [self._term_hits(ctx, words.index, p["lucene"]) for p in words.probes if p["term"].casefold() in named]
        return replace(words, asked=_Asked(job, names))

    def _term_hits(self, ctx: SearchContext, index: str, lucene: str) -> tuple[np.ndarray, np.ndarray]:
        """The turns one term probe matches, each with its share of the score (IDF among the
        group's ``n`` turns × its score / the best), as ``search_episode_fulltext_terms`` weighs it."""
        n, copy = ctx.episodes, self.copy
        key = ("term", index, lucene, n)
        if key not in copy.memo:
            row = self.store.read("search_episode_term_hits", index=index, lucene=lucene, n=n, group_id=ctx.group_id)[0]
            df, top = len(row["ids"]), max(row["scores"], default=0.0)
            idf = group_idf(df, n)
            # (a turn the copy does not hold has no vector: nothing by meaning, nor, here, by name)
            held = [
                (copy.row[i], idf * s / top) for i, s in zip(row["ids"], row["scores"]) if top > 0 and i in copy.row
            ]
            copy.memo[key] = (np.asarray([r for r, _ in held], np.int64), np.asarray([v for _, v in held], np.float64))
        return copy.memo[key]

    def find(self, ctx: SearchContext, words: TurnWords | None, strategy: list[str]) -> Later[TurnFinds]:
        """The nearest turns from the copy (scored as the exact scan scores them), the turns the words match ranked
        with it, their neighbours from it; one round trip reads the memories extracted from all of them."""
        copy, query, f = self.copy, unit(ctx.vector()), ctx.filters
        start, said_end = f.start, f.params()["said_end"]
        near = copy.nearest(query, ctx.k, start, said_end)
        strategy.append(f"episodes: the group's {len(copy.ids)} turn vectors held in memory")
        asked: _Asked | None = words.asked if words is not None else None
        by_words: list[tuple[str, float]] = []
        rows: list[dict] = []
        if asked is not None and not asked.ranked and asked.job is not None:
            rows = score_rows(copy, query, asked.job.result())
            self.memories.fill_cosines(ctx, [m for r in rows for m in r["memories"]])
        elif asked is not None:
            by_words = WordScores(copy, asked, start, said_end).ranked(ctx.k, [i for i, _ in near])
        ids = list(dict.fromkeys([i for i, _ in near] + [i for i, _ in by_words]))
        around = list(dict.fromkeys(ids + [r["episode"]["id"] for r in rows]))  # read in context, or as replies
        pairs = copy.neighbours(around, start, said_end)
        # what the turns say and their neighbours come from the copy: the database reads the
        # memories extracted from them (their cosines from the memories' corpus)
        job = self.store.submit(
            "search_turns_read", ids=list(dict.fromkeys(ids + [n for _, n, _ in pairs])), **ctx.params(None)
        )

        def answer() -> TurnFinds:
            read = {t["id"]: t for t in job.result()[0]["turns"]}
            self.memories.fill_cosines(ctx, [m for t in read.values() for m in t["memories"]])
            found = {
                i: {"episode": copy.episodes[i], "extracted": t["extracted"], "memories": t["memories"]}
                for i, t in read.items()
            }
            known = set(around)
            kept = [(of, n, before) for of, n, before in pairs if n in found]
            context = [{**found[n], "of": of, "new": n not in known, "before": before} for of, n, before in kept]
            out = TurnFinds([{**found[i], "score": neo4j_score(c)} for i, c in near if i in found])
            out.context = score_rows(copy, query, context)
            hits = rows
            if by_words:
                own = scores(copy.cosine_of(query, [i for i, _ in by_words]))
                hits = [{**found[i], "bm25": b, "score": s} for (i, b), s in zip(by_words, own) if i in found]
            if words is not None:
                out.words = hits
                out.word_hits = WordHits.of(hits, len(words.probes), ctx.episodes, self.limits.exact_scan_limit)
            # the memories read here whose only source is the turn they were read with need no more reading
            out.single = {m["memory"]["id"] for t in read.values() for m in t["memories"] if m.get("sources") == 1}
            return out

        return answer

    def sources(self, ctx: SearchContext, ids: list[str]) -> Later[list[dict]]:
        """Asked without the query: the turns' cosines come from the copy."""
        job = self.store.submit("search_memory_sources", ids=ids, **ctx.params(None))

        return lambda: score_rows(self.copy, unit(ctx.vector()), job.result()[0]["rows"])

    def sentences(self, ctx: SearchContext, ids: list[str]) -> dict[str, float]:
        if all(i in self.copy.row for i in ids):
            return self.copy.sentence_of(unit(ctx.vector()), ids)
        return super().sentences(ctx, ids)

    def reached(self, ctx: SearchContext, neighbours: list[Neighbour]) -> dict[str, list[Source]]:
        """From the turns the walk returned with each memory (``Memories.expand``) that have a vector."""
        copy = self.copy
        pairs = [(n.node["id"], t) for n in neighbours for t in (n.sources or ()) if t in copy.row]
        out: dict[str, list[Source]] = {}
        for (mid, t), c in zip(pairs, copy.cosine_of(unit(ctx.vector()), [t for _, t in pairs])):
            e = copy.episodes[t]
            out.setdefault(mid, []).append((t, c, e.get("speaker"), e.get("content")))
        return out
