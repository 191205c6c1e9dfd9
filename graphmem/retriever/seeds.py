"""Seeds: the direct matches a search starts from.

Ranked lists, fused by reciprocal-rank fusion (RRF, k=60):

1. vector: the group's memories nearest the query embedding (native vector index);
2. fulltext: BM25 over memory texts with the ``cjk`` analyzer (Chinese bigrams, English
   words), the Lucene query narrowed to the group (``store.fulltext.group_query``);
3. episode_vector, episode_fulltext (only when the group has episodes): conversation turns
   (``:Episode``) matched the same two ways; a turn stands for the memories extracted from
   it, or for itself when nothing was extracted from it.

Why RRF and not a blend of scores: cosine and BM25 live on different scales (BM25 is
unbounded and depends on each group's term statistics), so any normalised blend needs
tuning per corpus; RRF uses ranks only. The fused rank decides which candidates become
seeds; the score a result is ranked by (``score.py``) uses its real similarity.

Small groups in a large database. Neo4j 5's vector index returns the global top-k before
any filter, so a group with 30 memories among 100,000 can get nothing back. A cheap probe
counts the group's memories up to ``retrieval.exact_scan_limit``: a group that small is
scanned exactly (cosine over its memories, filters applied: the true top-k). A larger group
is searched through the index with an over-fetch sized by its share of the index
(k · total/size · 2), multiplied by 4 while the index keeps returning full pages with too
few hits that pass the group and the filters, and scanned exactly when that fails.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

from ..config import RetrievalSettings
from ..store.driver import Store
from ..store.fulltext import escape_terms, group_query
from ..store.vector import to_cosine

RRF_K = 60
MAX_FETCH = 4000            # the largest page asked of the vector index before scanning instead
SIZE_TTL_S = 60.0           # how long the size of a large group is trusted
BIG_SHARE = 0.25            # a group holding this share of all memories is not narrowed in Lucene


@dataclass(frozen=True)
class Filters:
    """Seed filters (see cypher/search.cypher). Times are ISO strings, end exclusive."""
    include_archived: bool = False
    types: list[str] | None = None
    start: str | None = None
    end: str | None = None
    subject: str | None = None

    def params(self) -> dict:
        return {"include_archived": self.include_archived, "types": self.types, "start": self.start,
                "end": self.end, "subject": self.subject}


@dataclass
class Candidate:
    """A memory (or an episode nothing was extracted from) that matched the query directly."""
    id: str
    kind: str                              # memory | episode
    node: dict                             # the memory's (or episode's) properties
    cosine: float
    ranks: dict[str, int] = field(default_factory=dict)     # source -> 1-based rank
    episodes: list[dict] = field(default_factory=list)      # matched episodes that led here
    rrf: float = 0.0

    @property
    def text(self) -> str:
        return self.node.get("text") or self.node.get("content") or ""


@dataclass
class SeedReport:
    candidates: list[Candidate]
    strategy: list[str]


class SeedFinder:
    def __init__(self, store: Store, settings: RetrievalSettings):
        self.store = store
        self.settings = settings
        self._sizes: dict[str, tuple[float, int, int]] = {}
        self._lock = threading.Lock()

    # --- public -------------------------------------------------------------------------
    def find(self, group_id: str, query: str, embedding: list[float], filters: Filters, k: int,
             memories: int, episodes: int, with_episode_results: bool) -> SeedReport:
        """``memories``/``episodes``: the probe's counts (capped at exact_scan_limit + 1)."""
        strategy: list[str] = []
        lists: dict[str, list[Candidate]] = {}
        p = {"group_id": group_id, "embedding": embedding, **filters.params()}
        if memories:
            lists["vector"] = self._vector(p, k, memories, strategy)
            lucene, fetch = group_query(query, group_id), k * 3
            if memories > self.settings.exact_scan_limit:
                # A group that is most of the index gains nothing from narrowing in Lucene (a phrase
                # query on group_id costs more than the text query itself): filter in Cypher instead.
                size, total = self._size(group_id)
                share = size / max(total, 1)
                terms = escape_terms(query)
                if share >= BIG_SHARE and terms:
                    lucene, fetch = f"text:({' '.join(terms)})", math.ceil(k * 3 / share)
            if lucene:
                rows = self.store.read("search_fulltext", lucene=lucene, fetch=fetch, k=k, **p)
                lists["fulltext"] = [self._memory(r) for r in rows]
        if episodes:
            lists.update(self._episodes(p, query, k, episodes, strategy, with_episode_results))
        return SeedReport(fuse(lists), strategy)

    # --- memories -----------------------------------------------------------------------
    def _vector(self, p: dict, k: int, probed: int, strategy: list[str]) -> list[Candidate]:
        limit = self.settings.exact_scan_limit
        if probed <= limit:
            strategy.append(f"vector: exact scan of the group ({probed} memories)")
            return [self._memory(r) for r in self.store.read("search_vector_scan", k=k, **p)]
        size, total = self._size(p["group_id"])
        fetch = max(k * 5, 50, math.ceil(2 * k * total / max(size, 1)))
        while fetch <= MAX_FETCH:
            row = self.store.read("search_vector_index", fetch=fetch, k=k, **p)[0]
            if len(row["hits"]) >= k or row["returned"] < fetch:
                strategy.append(f"vector: index top-{fetch} of {total}, {len(row['hits'])} in the group after filters")
                return [self._memory(h) for h in row["hits"]]
            fetch *= 4
        strategy.append(f"vector: exact scan of the group ({size} memories): the index could not reach it")
        return [self._memory(r) for r in self.store.read("search_vector_scan", k=k, **p)]

    def _size(self, group_id: str) -> tuple[int, int]:
        now = time.monotonic()
        with self._lock:
            cached = self._sizes.get(group_id)
        if cached and now - cached[0] < SIZE_TTL_S:
            return cached[1], cached[2]
        row = self.store.read("search_group_size", group_id=group_id)[0]
        with self._lock:
            self._sizes[group_id] = (now, row["group_size"], row["total"])
        return row["group_size"], row["total"]

    @staticmethod
    def _memory(row: dict) -> Candidate:
        m = row["memory"]
        return Candidate(id=m["id"], kind="memory", node=m, cosine=to_cosine(row["score"] or 0.5))

    # --- episodes -----------------------------------------------------------------------
    def _episodes(self, p: dict, query: str, k: int, probed: int, strategy: list[str],
                  with_episode_results: bool) -> dict[str, list[Candidate]]:
        """Two ranked lists (vector, fulltext) in which each matched turn stands for the
        memories extracted from it, or for itself when nothing was extracted from it."""
        if probed <= self.settings.exact_scan_limit:
            strategy.append(f"episodes: exact scan ({probed})")
            hits = self.store.read("search_episode_scan", k=k, **p)
        else:
            fetch, hits = max(k * 5, 50), []
            while fetch <= MAX_FETCH:
                row = self.store.read("search_episode_index", fetch=fetch, k=k, **p)[0]
                hits = row["hits"]
                if len(hits) >= k or row["returned"] < fetch:
                    break
                fetch *= 4
            strategy.append(f"episodes: index top-{min(fetch, MAX_FETCH)}")
        lists = {"episode_vector": self._episode_list(hits, with_episode_results)}
        lucene = group_query(query, p["group_id"], field="content")
        if lucene:
            rows = self.store.read("search_episode_fulltext", lucene=lucene, fetch=k * 3, k=k, **p)
            lists["episode_fulltext"] = self._episode_list(rows, with_episode_results)
        return lists

    def _episode_list(self, hits: list[dict], with_episode_results: bool) -> list[Candidate]:
        out: dict[str, Candidate] = {}
        for hit in hits:
            episode = hit["episode"]
            evidence = {key: episode.get(key) for key in ("id", "content", "timestamp", "session_id", "speaker",
                                                          "role")}
            if hit["memories"]:
                for item in hit["memories"]:
                    c = out.get(item["memory"]["id"])
                    if c is None:
                        c = out[item["memory"]["id"]] = self._memory(item)
                    if all(e["id"] != episode["id"] for e in c.episodes):
                        c.episodes.append(evidence)
            elif hit["extracted"] == 0 and with_episode_results and episode["id"] not in out:
                out[episode["id"]] = Candidate(id=episode["id"], kind="episode", node=episode,
                                               cosine=to_cosine(hit["score"] or 0.5), episodes=[evidence])
        return list(out.values())


def fuse(lists: dict[str, list[Candidate]]) -> list[Candidate]:
    """Reciprocal-rank fusion: Σ 1/(60 + rank) over the lists a candidate appears in."""
    merged: dict[str, Candidate] = {}
    for source, items in lists.items():
        for rank, item in enumerate(items, 1):
            c = merged.get(item.id)
            if c is None:
                c = merged[item.id] = item
            else:
                c.cosine = max(c.cosine, item.cosine)      # the same node's cosine, whichever list
                for e in item.episodes:
                    if all(x["id"] != e["id"] for x in c.episodes):
                        c.episodes.append(e)
            if source not in c.ranks:
                c.ranks[source] = rank
                c.rrf += 1.0 / (RRF_K + rank)
    return sorted(merged.values(), key=lambda c: -c.rrf)
