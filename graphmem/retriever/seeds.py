"""Seeds: the direct matches a search starts from.

Ranked lists of candidates, merged (``evidence.fuse``):

1. vector: the group's memories nearest the query embedding (native vector index);
2. fulltext: BM25 over memory texts with the ``cjk`` analyzer (Chinese bigrams, English
   words), the Lucene query made of the query's content words (English stop words dropped,
   ``textsim.content_words``) and narrowed to the group (``store.fulltext.group_query``);
3. the conversation turns that match, and the turns around them (``turns.py``), only when the
   group has episodes.

Word matches are weighed by the group's own term statistics (``search_*fulltext_terms``: one
Lucene query per term, ``store.fulltext.term_probes``; a term counts by its IDF among the group's
texts): Lucene's are index-wide, so another tenant's texts would move this group's ranking. A
group over ``limits.exact_scan_limit`` uses one Lucene query and its index-wide statistics.
Each list says how its scores read as evidence (``rank.WordHits``); ``rank.py`` weighs them.
Equal scores are cut the same way every time (the newer first).

Held vectors. A process that searched the group before and holds a current copy of its
vectors (``vectors.py``) takes the nearest memories from it (exact for the group), reads them
with the filters applied, and computes the word hits' cosines from it too, so the word queries
go out before the query is embedded.

Small groups in a large database. Neo4j 5's vector index returns the global top-k before
any filter, so a group with 30 memories among 100,000 can get nothing back. A cheap probe
counts the group's memories up to ``limits.exact_scan_limit``: a group up to
``limits.vector_scan_limit`` is scanned exactly (cosine over its memories, filters applied:
the true top-k). A larger group
is searched through the index with an over-fetch sized by its share of the index
(k · total/size · 2), multiplied by 4 while the index keeps returning full pages with too
few hits that pass the group and the filters, and scanned exactly when that fails.
"""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import Future

from ..config import RankingProfile, RetrievalSettings
from ..store.driver import Store
from ..store.fulltext import escape_terms, group_query, term_probes
from ..textsim import content_words
from .evidence import Candidate, Filters, SeedReport, fuse, memory_candidate
from .rank import SubjectScope, WordHits
from .subjects import best_of_each_topic, name_candidates
from .turns import TurnFinder, episode_fulltext_index
from .turnvectors import TurnCopy
from .vectors import GroupVectors, fill_cosines, unit

MAX_FETCH = 4000  # the largest page asked of the vector index before scanning instead
HELD_FETCH, HELD_MARGIN = 2, 20  # nearest memories read from a held copy: 2k + 20, for those the filters drop
SIZE_TTL_S = 60.0  # how long the size of a large group is trusted
BIG_SHARE = 0.25  # a group holding this share of all memories is not narrowed in Lucene


def word_hits(rows: list[dict], terms: int, n: int, limit: int) -> WordHits:
    """How a fulltext list's scores read: a group up to ``limit`` texts is searched term by term
    (the group's own IDF, an absolute scale); a larger one by one Lucene query (its best hit)."""
    if n <= limit:
        return WordHits(terms=terms, n=n, exact=True)
    return WordHits(terms=terms, n=n, exact=False, best=max((r["bm25"] for r in rows), default=0.0))


class SeedFinder:
    def __init__(self, store: Store, settings: RetrievalSettings):
        self.store = store
        self.limits = settings.limits
        self.turns = TurnFinder(store, settings.limits)
        self._sizes: dict[str, tuple[float, int, int]] = {}
        self._lock = threading.Lock()

    # --- public -------------------------------------------------------------------------
    def find(
        self,
        group_id: str,
        query: str,
        embedding: list[float] | Future,
        filters: Filters,
        k: int,
        memories: int,
        episodes: int,
        with_episode_results: bool,
        profile: RankingProfile,
        vectors: GroupVectors | None = None,
        lookup: GroupVectors | None = None,
        turn_vectors: TurnCopy | None = None,
    ) -> SeedReport:
        """``memories``/``episodes``: the probe's counts (capped); ``vectors``: the process's
        current copy of the group's vectors, if it holds one; ``lookup``: a large group's copy
        (cosines only); ``turn_vectors``: its current copy of the group's turn vectors.
        ``embedding`` may still be on its way (a Future): with a copy, the word queries, which
        then need no embedding, are sent before it is waited for."""
        strategy: list[str] = []
        lists: dict[str, list[Candidate]] = {}
        p = {"group_id": group_id, **filters.params()}
        copy = vectors if vectors is not None else lookup
        held = copy is not None
        if not held:
            p["embedding"] = embedding.result() if isinstance(embedding, Future) else embedding
        words_p = {**p, "embedding": None} if held else p
        words = content_words(query)
        fields = episode_fulltext_index(words)
        # which query words name a speaker of the group: asked while the vector index answers
        names = self.turns.submit_names(p, words, fields, turn_vectors) if episodes else None
        if memories:
            # the fulltext round trip runs while the vector index answers
            fulltext, probes = None, []
            if memories <= self.limits.exact_scan_limit:
                probes = term_probes(words, group_id)
                if probes:
                    fulltext = self.store.submit("search_fulltext_terms", probes=probes, n=memories, k=k, **words_p)
            else:
                lucene, fetch = group_query(words, group_id), k * 3
                # A group that is most of the index gains nothing from narrowing in Lucene (a phrase
                # query on group_id costs more than the text query itself): filter in Cypher instead.
                size, total = self._size(group_id)
                share = size / max(total, 1)
                terms = escape_terms(words)
                if share >= BIG_SHARE and terms:
                    lucene, fetch = f"text:({' '.join(terms)})", math.ceil(k * 3 / share)
                if lucene:
                    fulltext = self.store.submit("search_fulltext", lucene=lucene, fetch=fetch, k=k, **words_p)
        # a question about someone named in the group: their memories, the best of each topic
        named = name_candidates(query) if memories and self.limits.subject_cap else []
        cap = self.limits.subject_cap
        subject = (
            self.store.submit("search_subject_memories", names=named, cap=cap, **words_p) if named and held else None
        )
        turns, speakers, turn_words = {}, [], None
        if episodes and turn_vectors is not None:
            # who the query names, then the turns its words match, while the query is embedded
            speakers = self.turns.speakers(p, query, episodes, names, fields, strategy, profile, turn_vectors)
            turn_words = self.turns.submit_words(p, words, k, episodes, fields, speakers, turn_vectors)
        p["embedding"] = embedding.result() if isinstance(embedding, Future) else embedding
        if named and subject is None:
            subject = self.store.submit("search_subject_memories", names=named, cap=cap, **p)
        fulltext_rows = None
        if memories and fulltext is not None:
            fulltext_rows = fulltext.result()[0]["hits"]
            if held:
                fill_cosines(self.store, group_id, copy, p["embedding"], fulltext_rows, lambda r: r["memory"]["id"])
        about = None
        if subject is not None:
            found, about = self._subject(group_id, subject.result(), k, copy, p["embedding"], strategy, profile)
            if found:
                lists["subject"] = found
        started, early, nearest = None, None, None
        if episodes and turn_vectors is not None:
            # the turns' round trip goes out now; while it runs the memories are read, and the source
            # turns of the memories already known (the nearest, the word and subject hits) asked
            started = self.turns.start_held(p, k, episodes, strategy, profile, turn_vectors, turn_words, copy)
            nearest = self._nearest(p, k, vectors)
            known = list(
                dict.fromkeys(
                    (nearest[0] if nearest else [])
                    + [r["memory"]["id"] for r in fulltext_rows or []]
                    + [c.id for c in lists.get("subject", [])]
                )
            )
            early = (set(known), self.store.submit("search_memory_sources", ids=known, **{**p, "embedding": None}))
        if memories:
            lists["vector"] = self._vector(p, k, memories, strategy, vectors, nearest)
            if fulltext_rows is not None:
                hits = word_hits(fulltext_rows, len(probes), memories, self.limits.exact_scan_limit)
                lists["fulltext"] = [memory_candidate(r, r["bm25"], hits) for r in fulltext_rows]
        if "subject" in lists:  # (the list's place among the others: as before)
            lists["subject"] = lists.pop("subject")
        if episodes:
            if turn_vectors is None:
                speakers = self.turns.speakers(p, query, episodes, names, fields, strategy, profile)
            lists.update(
                self.turns.find(
                    p, words, k, episodes, strategy, with_episode_results, turns, fields, speakers, profile, started
                )
            )
        candidates = fuse(lists)
        if episodes:
            self.turns.sources(
                p, candidates, turns, early, started.single if started is not None else set(), turn_vectors
            )
            self.turns.sentences(p, turns, profile, turn_vectors)
        return SeedReport(candidates, strategy, turns, speakers, about)

    # --- memories -----------------------------------------------------------------------
    def _vector(
        self,
        p: dict,
        k: int,
        probed: int,
        strategy: list[str],
        vectors: GroupVectors | None = None,
        nearest: tuple[list[str], list[float]] | None = None,
    ) -> list[Candidate]:
        # a time range or a subject passes few of the nearest memories: the database filters first
        if vectors is not None and p.get("start") is None and p.get("end") is None and p.get("subject") is None:
            found = self._held(p, k, vectors, nearest)
            if found is not None:
                strategy.append(f"vector: the group's {len(vectors.ids)} vectors held in memory")
                return found
        if probed <= self.limits.scan_limit():
            strategy.append(f"vector: exact scan of the group ({probed} memories)")
            return [memory_candidate(r) for r in self.store.read("search_vector_scan", k=k, **p)]
        size, total = self._size(p["group_id"])
        fetch = max(k * 5, 50, math.ceil(2 * k * total / max(size, 1)))
        while fetch <= MAX_FETCH:
            row = self.store.read("search_vector_index", fetch=fetch, k=k, **p)[0]
            if len(row["hits"]) >= k or row["returned"] < fetch:
                strategy.append(f"vector: index top-{fetch} of {total}, {len(row['hits'])} in the group after filters")
                return [memory_candidate(h) for h in row["hits"]]
            fetch *= 4
        strategy.append(f"vector: exact scan of the group ({size} memories): the index could not reach it")
        return [memory_candidate(r) for r in self.store.read("search_vector_scan", k=k, **p)]

    def _subject(
        self,
        group_id: str,
        rows: list[dict],
        k: int,
        copy: GroupVectors | None,
        embedding: list[float],
        strategy: list[str],
        profile: RankingProfile,
    ) -> tuple[list[Candidate], SubjectScope | None]:
        """The memories of the subjects the query names (``search_subject_memories``): the best of
        each of their topics as a seed list (``subjects.best_of_each_topic``), and all of them as
        the scope that weighs every memory (``rank.SubjectScope``)."""
        named, gathered = [], []
        for row in rows:
            mine = [r for r in row["rows"] if r["memory"]["group_id"] == group_id]  # defence in depth
            if not mine:
                continue
            if copy is not None:
                fill_cosines(self.store, group_id, copy, embedding, mine, lambda r: r["memory"]["id"])
            named.append(f"{row['subject']} ({len(mine)})")
            gathered.extend(mine)
        if not gathered:
            return [], None
        best = best_of_each_topic(gathered, k)
        weight = profile.conversation.speaker_weight
        strategy.append(
            f"subject: the query names {', '.join(named)}: the best of each of their topics "
            f"({len(best)})" + (f"; memories about anyone else at {weight:g} x their similarity" if weight < 1 else "")
        )
        scope = SubjectScope(tuple(r["subject"] for r in rows), frozenset(r["memory"]["id"] for r in gathered), weight)
        return [memory_candidate(r) for r in best], scope

    @staticmethod
    def _nearest(p: dict, k: int, vectors: GroupVectors | None) -> tuple[list[str], list[float]] | None:
        """The memories ``_held`` reads (the nearest in the copy: ids, cosines), or None when the
        copy is not what the vector list comes from (none held; a time range or subject filter)."""
        if vectors is None or p.get("start") is not None or p.get("end") is not None or p.get("subject") is not None:
            return None
        return vectors.nearest(unit(p["embedding"]), min(len(vectors.ids), HELD_FETCH * k + HELD_MARGIN))

    def _held(
        self, p: dict, k: int, vectors: GroupVectors, nearest: tuple[list[str], list[float]] | None = None
    ) -> list[Candidate] | None:
        """The top-k from the copy of the group's vectors: its nearest memories read with the
        filters applied; None when too few of them pass (a narrow filter) to be sure of the top-k."""
        n = min(len(vectors.ids), HELD_FETCH * k + HELD_MARGIN)
        ids, cosines = nearest or self._nearest(p, k, vectors)
        if not ids:
            return []
        rows = self.store.read("search_memories_by_ids", ids=ids, scores=[(1.0 + c) / 2.0 for c in cosines], k=k, **p)[
            0
        ]["hits"]
        if len(rows) < k and n < len(vectors.ids):
            return None
        return [memory_candidate(r) for r in rows]

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
