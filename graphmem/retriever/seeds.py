"""Seeds: the direct matches a search starts from.

Ranked lists of candidates, merged:

1. vector: the group's memories nearest the query embedding (native vector index);
2. fulltext: BM25 over memory texts with the ``cjk`` analyzer (Chinese bigrams, English
   words), the Lucene query made of the query's content words (English stop words dropped,
   ``textsim.content_words``) and narrowed to the group (``store.fulltext.group_query``);
3. episode_vector, episode_fulltext, episode_context (only when the group has episodes):
   conversation turns (``:Episode``) matched the same two ways (the fulltext through the
   ``english`` analyzer, stems and speaker included, for a query without CJK; ``cjk`` for the
   rest: ``episode_fulltext_index``), and the turns right before and
   after those; a turn stands for the memories extracted from it, or for itself when nothing
   was extracted from it. A query word that names a speaker of the group (``search_name_terms``)
   is matched against who said a turn, not against what was said (a query with CJK characters
   names a speaker by holding their whole name: ``search_group_speakers``); turns by anyone else
   then count at ``retrieval.speaker_weight`` × their similarity. A long turn is also matched
   by its sentences (``:Sentence``, each embedded alone): a turn is as close as the better of
   itself and ``retrieval.sentence_weight`` (0.9) × its closest sentence.

Word matches are weighed by the group's own term statistics (``search_*fulltext_terms``: one
Lucene query per term, ``store.fulltext.term_probes``; a term counts by its IDF among the group's
texts): Lucene's are index-wide, so another tenant's texts would move this group's ranking. A
text's word evidence is then absolute (``lexical_scale``): what its matched words carry against
half of the most the query's words could carry in the group, so words the whole group uses lift
no text far (LoCoMo dev turn recall@10 79.6 → 80.9, multi-hop 52.4 → 54.5; LongMemEval dev
recall_all@5 0.915 → 0.936, against the best hit's share of before). A group over
``retrieval.exact_scan_limit`` uses one Lucene query, its index-wide statistics, and the best
hit's share: its summed BM25 has no bound to measure against. In a group up to that size the
turns found by meaning learn their word evidence too, in the top k by words or not; beyond the
top k a text found by one list only counts no word match. Equal scores are cut the same way
every time (the newer first: ``graphmem/cypher/search.cypher``).

How they are merged: a candidate found by several lists is one candidate, with its cosine and
its word evidence (the better of its lists'). Which candidates
seed the search is decided by the blended similarity of ``score.Similarity``, the same number
the result is ranked by; the reciprocal-rank fusion value (Σ 1/(60 + rank)) only breaks ties.
A blend beat RRF on the LoCoMo dev conversations (turn recall@10 69 against 57 for the same
two lists): RRF throws away how far ahead the best match is.

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
import re
import threading
import time
from dataclasses import dataclass, field

from ..config import RetrievalSettings
from ..store.driver import Store
from ..store.fulltext import CJK_CHARS, escape_terms, group_query, name_probes, term_probes
from ..store.vector import to_cosine
from ..textsim import content_words

_CJK = re.compile(f"[{CJK_CHARS}]")

RRF_K = 60
MAX_FETCH = 4000            # the largest page asked of the vector index before scanning instead
SIZE_TTL_S = 60.0           # how long the size of a large group is trusted
BIG_SHARE = 0.25            # a group holding this share of all memories is not narrowed in Lucene
# A text's words are full lexical evidence when they carry this share of the most the query's
# words could carry: every one of them said in just one text of the group (``lexical_scale``).
LEXICAL_FULL = 0.5


@dataclass(frozen=True)
class Filters:
    """Seed filters (see cypher/search.cypher). Times are ISO strings, end exclusive.

    A memory is in the range when it happened in it; a conversation turn when it was said in it,
    or up to ``said_end`` (later than ``end`` for a range read from the query: what happened last
    weekend is told on Monday)."""
    include_archived: bool = False
    types: list[str] | None = None
    start: str | None = None
    end: str | None = None
    subject: str | None = None
    said_end: str | None = None

    def params(self) -> dict:
        return {"include_archived": self.include_archived, "types": self.types, "start": self.start,
                "end": self.end, "subject": self.subject,
                "said_end": self.end if self.said_end is None else self.said_end}


@dataclass
class Candidate:
    """A memory (or an episode nothing was extracted from) that matched the query directly."""
    id: str
    kind: str                              # memory | episode
    node: dict                             # the memory's (or episode's) properties
    cosine: float
    bm25: float | None = None              # word evidence in [0, 1] (lexical_scale); None: not a fulltext hit
    ranks: dict[str, int] = field(default_factory=dict)     # source -> 1-based rank
    episodes: list[dict] = field(default_factory=list)      # matched episodes that led here
    support: list[str] = field(default_factory=list)        # ids of the matched turns it was extracted from
    rrf: float = 0.0

    @property
    def text(self) -> str:
        return self.node.get("text") or self.node.get("content") or ""


@dataclass
class Turn:
    """A matched conversation turn, or a neighbour of one: what its similarity in context needs."""
    id: str
    text: str
    cosine: float
    bm25: float | None
    neighbours: list[str] = field(default_factory=list)     # the turns right before and after it
    previous: str | None = None                             # the turn right before it
    speaker: str | None = None
    role: str | None = None
    sentences_read: bool = False                            # its cosine already counts its sentences


@dataclass
class SeedReport:
    candidates: list[Candidate]
    strategy: list[str]
    turns: dict[str, Turn] = field(default_factory=dict)
    speakers: list[str] = field(default_factory=list)       # query words that name a speaker of the group


def widen(inside: SeedReport, everywhere: SeedReport) -> tuple[SeedReport, set[str]]:
    """The seeds found inside a time range read from the query, with the ones found only outside
    it after them: (the merged report, the ids found only outside)."""
    have = {c.id for c in inside.candidates}
    extra = [c for c in everywhere.candidates if c.id not in have]
    turns = {**everywhere.turns, **inside.turns}
    return SeedReport(inside.candidates + extra, inside.strategy, turns, inside.speakers), {c.id for c in extra}


def lexical_scale(terms: int, n: int) -> float:
    """What a text's summed term scores (``search_*fulltext_terms``: Σ IDF × Lucene's score over
    the term's best) are divided by to give its lexical evidence in [0, 1]: ``LEXICAL_FULL`` ×
    ``terms`` × the IDF of a term said in one of the group's ``n`` texts. Absolute, not the best
    hit's share: when the query's words are common in the group (a topic its user keeps coming
    back to), no text gets full marks for them, and the meaning decides."""
    return LEXICAL_FULL * max(terms, 1) * math.log(1.0 + (max(n, 1) - 0.5) / 1.5)


def episode_fulltext_index(words: str) -> tuple[str, tuple[str, ...]]:
    """The fulltext index (and its fields) for a query's words: the ``english`` one, stemmed and
    with the speaker beside the content, when the query has no CJK character; else ``cjk``.
    On the LoCoMo dev conversations the English index lifted turn recall@10 from 70.7 to 74.1
    (multi-hop from 32.0 to 38.0)."""
    if _CJK.search(words):
        return "episode_content", ("content",)
    return "episode_content_english", ("content", "speaker")


class SeedFinder:
    def __init__(self, store: Store, settings: RetrievalSettings):
        self.store = store
        self.settings = settings
        self._sizes: dict[str, tuple[float, int, int]] = {}
        self._speakers: dict[str, tuple[float, list[str]]] = {}
        self._lock = threading.Lock()

    # --- public -------------------------------------------------------------------------
    def find(self, group_id: str, query: str, embedding: list[float], filters: Filters, k: int,
             memories: int, episodes: int, with_episode_results: bool) -> SeedReport:
        """``memories``/``episodes``: the probe's counts (capped at exact_scan_limit + 1)."""
        strategy: list[str] = []
        lists: dict[str, list[Candidate]] = {}
        p = {"group_id": group_id, "embedding": embedding, "sentence_weight": self.settings.sentence_weight,
             **filters.params()}
        words = content_words(query)
        names, (index, fields) = None, episode_fulltext_index(words)
        if episodes and "speaker" in fields and escape_terms(words):
            # which query words name a speaker of the group: asked while the vector index answers
            names = self.store.submit("search_name_terms", index=index,
                                      probes=name_probes(words, group_id), group_id=group_id)
        if memories:
            # the fulltext round trip runs while the vector index answers
            fulltext, probes = None, []
            if memories <= self.settings.exact_scan_limit:
                probes = term_probes(words, group_id)
                if probes:
                    fulltext = self.store.submit("search_fulltext_terms", probes=probes, n=memories, k=k, **p)
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
                    fulltext = self.store.submit("search_fulltext", lucene=lucene, fetch=fetch, k=k, **p)
            lists["vector"] = self._vector(p, k, memories, strategy)
            if fulltext is not None:
                rows = fulltext.result()
                scale = self._word_scale(rows, len(probes), memories)
                lists["fulltext"] = [self._memory(r, min(1.0, r["bm25"] / scale)) for r in rows]
        turns: dict[str, Turn] = {}
        speakers: list[str] = []
        if episodes:
            if names is not None:
                speakers = names.result()[0]["terms"]
            elif "speaker" not in fields:        # a CJK query has no words to probe: whole names it holds
                speakers = self._speakers_named(group_id, query, episodes)
            if speakers:
                others = self.settings.speaker_weight
                strategy.append(f"episodes: {', '.join(speakers)} matched as speaker"
                                + (", not in what was said" if "speaker" in fields else "")
                                + (f"; turns by anyone else at {others:g} x their similarity" if others < 1 else ""))
            lists.update(self._episodes(p, words, k, episodes, strategy, with_episode_results, turns,
                                        (index, fields), speakers))
        candidates = fuse(lists)
        if episodes:
            self._sources(p, candidates, turns)
            self._sentences(p, turns)
        return SeedReport(candidates, strategy, turns, speakers)

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

    def _speakers_named(self, group_id: str, query: str, episodes: int) -> list[str]:
        """The group's speakers whose whole name (two characters or more) the query holds. A large
        group's speakers are read at most every SIZE_TTL_S (a DISTINCT over 100,000 turns: ~80 ms)."""
        large, now = episodes > self.settings.exact_scan_limit, time.monotonic()
        with self._lock:
            cached = self._speakers.get(group_id) if large else None
        if cached is None or now - cached[0] >= SIZE_TTL_S:
            cached = (now, self.store.read("search_group_speakers", group_id=group_id)[0]["speakers"])
            if large:
                with self._lock:
                    self._speakers[group_id] = cached
        text = query.casefold()
        return [n for n in cached[1] if len(n) >= 2 and n.casefold() in text]

    def _word_scale(self, rows: list[dict], terms: int, n: int) -> float:
        """What a fulltext list's scores are divided by to give word evidence in [0, 1]: for a
        group searched term by term (up to exact_scan_limit texts) ``lexical_scale``, for a larger
        one the best hit's score (one Lucene query's summed BM25 has no bound to measure against)."""
        if n <= self.settings.exact_scan_limit:
            return lexical_scale(terms, n)
        return max((r["bm25"] for r in rows), default=0.0) or 1.0

    @staticmethod
    def _memory(row: dict, bm25: float | None = None) -> Candidate:
        m = row["memory"]
        return Candidate(id=m["id"], kind="memory", node=m, cosine=to_cosine(row["score"] or 0.5), bm25=bm25)

    # --- episodes -----------------------------------------------------------------------
    def _episodes(self, p: dict, words: str, k: int, probed: int, strategy: list[str],
                  with_episode_results: bool, turns: dict[str, Turn], fulltext: tuple[str, tuple[str, ...]],
                  speakers: list[str] = ()) -> dict[str, list[Candidate]]:
        """Ranked lists of matched conversation turns (vector, fulltext, and the turns right
        before and after those: "context"); a turn stands for the memories extracted from it, or
        for itself when nothing was extracted from it. ``turns`` collects every turn seen, with
        its neighbours, for its similarity in context (``score.Similarity.in_context``).
        ``fulltext``: the episode fulltext index and its fields for these words.
        ``speakers``: query words that name a speaker of the group, matched against who said a
        turn and not what was said (on the LoCoMo dev conversations: turn recall@10 73.8 → 75.2,
        multi-hop 38.3 → 45.8; a name in a turn is mostly the other speaker addressing them)."""
        if probed <= self.settings.exact_scan_limit:
            strategy.append(f"episodes: exact scan ({probed})")
            hits = self.store.read("search_episode_scan", k=k, **p)
        else:
            hits = self._episode_index("search_episode_index", p, k) + self._episode_index("search_sentence_index", p, k)
            best: dict[str, dict] = {}
            for hit in hits:                 # a turn found by itself and by a sentence: its better score
                seen = best.get(hit["episode"]["id"])
                if seen is None or (hit["score"] or 0) > (seen["score"] or 0):
                    best[hit["episode"]["id"]] = hit
            hits = sorted(best.values(), key=lambda h: -(h["score"] or 0))[:k]
            strategy.append(f"episodes: vector indexes of turns and sentences ({len(hits)} in the group)")
        for hit in hits:
            self._turn(turns, hit).sentences_read = True     # scored with its sentences already
        lists = {"episode_vector": self._episode_list(hits, with_episode_results)}
        index, fields = fulltext
        rows, probes = None, []
        if probed <= self.settings.exact_scan_limit:
            probes = term_probes(words, p["group_id"], field=fields, names=speakers)
            if probes:
                # the turns found by meaning learn their word evidence too, top k by words or not
                rows = self.store.read("search_episode_fulltext_terms", index=index, probes=probes, n=probed,
                                       k=k, also=[h["episode"]["id"] for h in hits], **p)
        else:
            lucene = group_query(words, p["group_id"], field=fields, names=speakers)
            if lucene:
                rows = self.store.read("search_episode_fulltext", index=index, lucene=lucene, fetch=k * 3, k=k, **p)
        if rows is not None:
            scale = self._word_scale(rows, len(probes), probed)
            for r in rows:
                self._turn(turns, r).bm25 = min(1.0, r["bm25"] / scale)
            lists["episode_fulltext"] = self._episode_list(rows, with_episode_results)
        if turns and (self.settings.context_weight > 0 or self.settings.reply_weight > 0):
            matched = list(turns)
            context = []
            for r in self.store.read("search_episode_neighbours", ids=matched, **p):
                n = self._turn(turns, r)
                if r["of"] not in n.neighbours:
                    n.neighbours.append(r["of"])
                if n.id not in turns[r["of"]].neighbours:
                    turns[r["of"]].neighbours.append(n.id)
                if r["before"]:
                    turns[r["of"]].previous = n.id
                else:
                    n.previous = r["of"]
                if r["new"] and all(c["episode"]["id"] != n.id for c in context):
                    context.append(r)
            if context:
                strategy.append(f"episodes: {len(context)} neighbouring turns read as context")
                lists["episode_context"] = self._episode_list(context, with_episode_results)
        return lists

    def _episode_index(self, name: str, p: dict, k: int) -> list[dict]:
        """The group's top-k turns from a global vector index (turns or sentences), over-fetched
        ×4 while full pages come back with too few in the group."""
        fetch, hits = max(k * 5, 50), []
        while fetch <= MAX_FETCH:
            row = self.store.read(name, fetch=fetch, k=k, **p)[0]
            hits = row["hits"]
            if len(hits) >= k or row["returned"] < fetch:
                break
            fetch *= 4
        return hits

    def _sentences(self, p: dict, turns: dict[str, Turn]) -> None:
        """A turn is as close to the query as its closest sentence, at ``sentence_weight`` (the
        vector searches already rank turns so; turns found by words or as neighbours learn it here)."""
        w = self.settings.sentence_weight
        unread = [tid for tid, t in turns.items() if not t.sentences_read]
        if not unread or w <= 0:
            return
        for r in self.store.read("search_sentence_scores", ids=unread, **p):
            t = turns[r["id"]]
            t.cosine = max(t.cosine, w * to_cosine(r["score"]))

    def _sources(self, p: dict, candidates: list[Candidate], turns: dict[str, Turn]) -> None:
        """The turns the memory candidates were extracted from, where the episode lists did not
        already bring them: each memory's ``support``, each turn's cosine."""
        by_id = {c.id: c for c in candidates if c.kind == "memory"}
        if not by_id:
            return
        for r in self.store.read("search_memory_sources", ids=list(by_id), **p):
            c, e = by_id[r["of"]], r["episode"]
            self._turn(turns, r)
            if e["id"] not in c.support:
                c.support.append(e["id"])

    @staticmethod
    def _turn(turns: dict[str, Turn], hit: dict) -> Turn:
        e = hit["episode"]
        t = turns.get(e["id"])
        if t is None:
            t = turns[e["id"]] = Turn(id=e["id"], text=e.get("content") or "",
                                      cosine=to_cosine(hit["score"] or 0.5), bm25=None, speaker=e.get("speaker"),
                                      role=e.get("role"))
        return t

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
                    if episode["id"] not in c.support:
                        c.support.append(episode["id"])
            elif hit["extracted"] == 0 and with_episode_results and episode["id"] not in out:
                out[episode["id"]] = Candidate(id=episode["id"], kind="episode", node=episode,
                                               cosine=to_cosine(hit["score"] or 0.5), episodes=[evidence],
                                               support=[episode["id"]])
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
                if item.bm25 is not None:
                    c.bm25 = max(c.bm25 or 0.0, item.bm25)
                for e in item.episodes:
                    if all(x["id"] != e["id"] for x in c.episodes):
                        c.episodes.append(e)
                c.support.extend(t for t in item.support if t not in c.support)
            if source not in c.ranks:
                c.ranks[source] = rank
                c.rrf += 1.0 / (RRF_K + rank)
    return sorted(merged.values(), key=lambda c: -c.rrf)
