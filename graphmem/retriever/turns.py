"""Turn seeds: the conversation turns (``:Episode``) that match a query, and the turns around them.

Only for a group with episodes. Turns are matched by meaning (the ``episode_embedding`` and
``sentence_embedding`` vector indexes, or an exact scan of a small group: a long turn is also
matched by its sentences, each embedded alone) and by words (the ``english`` fulltext index,
stems and speaker included, for a query without CJK; ``cjk`` for the rest:
``episode_fulltext_index``), then the turns right before and after those are read as their
context. A turn stands for the memories extracted from it, or for itself when nothing was
extracted from it. A query word that names a speaker of the group (``search_name_terms``) is
matched against who said a turn, not against what was said (a query with CJK characters names
a speaker by holding their whole name: ``search_group_speakers``).

What comes back is evidence (``evidence.Turn``: cosine, raw word score, neighbours, the turn
before it, speaker); ``rank.py`` reads a turn in context, as a reply, and by who said it.
"""

from __future__ import annotations

import math
import re
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from ..config import RankingProfile, SearchLimits
from ..store.driver import Store
from ..store.fulltext import CJK_CHARS, escape_terms, group_query, name_probes, term_probes
from ..store.vector import to_cosine
from .evidence import Candidate, Turn, memory_candidate
from .rank import WordHits
from .turnvectors import TurnCopy
from .vectors import GroupVectors, fill_cosines, unit

_CJK = re.compile(f"[{CJK_CHARS}]")
MAX_FETCH = 4000  # the largest page asked of a vector index before giving up on more
SIZE_TTL_S = 60.0  # how long the speakers of a large group are trusted


@dataclass
class HeldWords:
    """The word query of a search that holds the group's turn vectors (``TurnFinder.submit_words``)."""

    job: Future | None  # the word query in flight (without the speakers' names)
    names: list[tuple[np.ndarray, np.ndarray]]  # each name's hits: the copy's rows, their shares of the score
    terms: int  # the terms probed, names included
    ranked: bool = True  # False: a large group's query, read whole (top k by Lucene)

    def scores(self, copy: TurnCopy, start: str | None, said_end: str | None) -> WordScores:
        """Every turn the words match in the time range, with its score (a name's share added)."""
        out = WordScores(copy)
        if self.job is not None:
            row = self.job.result()[0]
            for i, b in zip(row["ids"], row["bm25"]):
                r = copy.row.get(i)
                if r is None:
                    out.extra[i] = b
                else:
                    out.total[r], out.matched[r] = b, True
        if self.names:
            window = copy.window(start, said_end)
            for rows, shares in self.names:
                out.total[rows] += shares  # a row appears once per name
                out.matched[rows] |= window[rows]
        return out


class WordScores:
    """The word scores of a held group's turns (``HeldWords.scores``): one per row of the copy
    (``matched`` says which count), and those of turns the copy does not hold."""

    def __init__(self, copy: TurnCopy):
        self.copy = copy
        self.total = np.zeros(len(copy.ids), np.float64)
        self.matched = np.zeros(len(copy.ids), bool)
        self.extra: dict[str, float] = {}

    def get(self, turn: str) -> float | None:
        r = self.copy.row.get(turn)
        if r is None:
            return self.extra.get(turn)
        return float(self.total[r]) if self.matched[r] else None

    def top(self, k: int) -> list[tuple[str, float]]:
        """The ``k`` best (ties: the newer turn, then the order of the conversation)."""
        rows = np.flatnonzero(self.matched)
        values = self.total[rows]
        if len(rows) > k:
            kth = float(np.partition(-values, k - 1)[k - 1])
            keep = values >= -kth
            rows, values = rows[keep], values[keep]
        copy = self.copy
        items = [(copy.ids[r], v, copy.key(r, v)) for r, v in zip(rows.tolist(), values.tolist())]
        items += [(i, b, copy.key(None, b)) for i, b in self.extra.items()]
        items.sort(key=lambda x: x[2])
        return [(i, v) for i, v, _ in items[:k]]


class _Names:
    """``submit_names``'s answer with the group's turn vectors held: the words asked before are
    answered from the copy, the others by the query in flight (then kept)."""

    def __init__(self, terms: list[str], known: dict[str, bool], job: Future | None):
        self.terms, self.known, self.job = terms, known, job

    def result(self) -> list[dict]:
        if self.job is not None:
            named = set(self.job.result()[0]["terms"])
            for term in self.terms:
                self.known.setdefault(term, term in named)
        return [{"terms": [t for t in self.terms if self.known.get(t)]}]


@dataclass
class _Held:
    """A held-turns search between ``TurnFinder.start_held`` and ``find``."""

    copy: TurnCopy
    query: np.ndarray
    near: list[tuple[str, float]]
    by_words: list[tuple[str, float]]
    rows: list[dict]
    words: HeldWords | None
    around: list[str]
    job: Future
    p: dict
    memory_copy: GroupVectors | None
    pairs: list[tuple[str, str, bool]]  # (turn, neighbour, neighbour comes before it)
    single: set[str] | None = None


def episode_fulltext_index(words: str) -> tuple[str, tuple[str, ...]]:
    """The fulltext index (and its fields) for a query's words: the ``english`` one, stemmed and
    with the speaker beside the content, when the query has no CJK character; else ``cjk``."""
    if _CJK.search(words):
        return "episode_content", ("content",)
    return "episode_content_english", ("content", "speaker")


class TurnFinder:
    def __init__(self, store: Store, limits: SearchLimits):
        self.store = store
        self.limits = limits
        self._speakers: dict[str, tuple[float, list[str]]] = {}
        self._lock = threading.Lock()

    # --- who the query names --------------------------------------------------------------
    def submit_names(
        self, p: dict, words: str, fulltext: tuple[str, tuple[str, ...]], copy: TurnCopy | None = None
    ) -> Future | _Names | None:
        """Which query words name a speaker of the group (an English query): asked in the
        background. With the group's turn vectors held (``copy``) each word's answer is kept with
        them, and only the words not asked before are asked."""
        index, fields = fulltext
        if "speaker" not in fields or not escape_terms(words):
            return None
        probes = name_probes(words, p["group_id"])
        if copy is None:
            return self.store.submit("search_name_terms", index=index, probes=probes, group_id=p["group_id"])
        known: dict[str, bool] = copy.memo.setdefault(("names", index), {})
        # a word whose first letter begins no word of any speaker's name cannot match one: the
        # analyzer lowercases, strips a possessive and stems, and none of that touches a first letter
        initials = copy.speaker_initials()
        for probe in probes:
            if probe["term"][:1].lower() not in initials:
                known.setdefault(probe["term"], False)
        unknown = [probe for probe in probes if probe["term"] not in known]
        job = (
            self.store.submit("search_name_terms", index=index, probes=unknown, group_id=p["group_id"])
            if unknown
            else None
        )
        return _Names([probe["term"] for probe in probes], known, job)

    def speakers(
        self,
        p: dict,
        query: str,
        episodes: int,
        names: Future | None,
        fulltext: tuple[str, tuple[str, ...]],
        strategy: list[str],
        profile: RankingProfile,
        copy: TurnCopy | None = None,
    ) -> list[str]:
        fields = fulltext[1]
        speakers: list[str] = []
        if names is not None:
            speakers = names.result()[0]["terms"]
        elif "speaker" not in fields:  # a CJK query has no words to probe: whole names it holds
            speakers = self._speakers_named(p["group_id"], query, episodes, copy)
        if speakers:
            others = profile.conversation.speaker_weight
            strategy.append(
                f"episodes: {', '.join(speakers)} matched as speaker"
                + (", not in what was said" if "speaker" in fields else "")
                + (f"; turns by anyone else at {others:g} x their similarity" if others < 1 else "")
            )
        return speakers

    def _speakers_named(self, group_id: str, query: str, episodes: int, copy: TurnCopy | None = None) -> list[str]:
        """The group's speakers whose whole name (two characters or more) the query holds. A large
        group's speakers are read at most every SIZE_TTL_S (a DISTINCT over 100,000 turns: ~80 ms);
        with the group's turn vectors held, from the copy (which holds who said each turn)."""
        text = query.casefold()
        if copy is not None:
            return [n for n in copy.speakers() if len(n) >= 2 and n.casefold() in text]
        large, now = episodes > self.limits.exact_scan_limit, time.monotonic()
        with self._lock:
            cached = self._speakers.get(group_id) if large else None
        if cached is None or now - cached[0] >= SIZE_TTL_S:
            cached = (now, self.store.read("search_group_speakers", group_id=group_id)[0]["speakers"])
            if large:
                with self._lock:
                    self._speakers[group_id] = cached
        return [n for n in cached[1] if len(n) >= 2 and n.casefold() in text]

    # --- the turns --------------------------------------------------------------------------
    def submit_words(
        self,
        p: dict,
        words: str,
        k: int,
        probed: int,
        fulltext: tuple[str, tuple[str, ...]],
        speakers: list[str],
        copy: TurnCopy,
    ) -> HeldWords | None:
        """The turns matched by words, for a process that holds the group's turn vectors (``copy``):
        asked before the query is embedded (the copy gives the cosines and ranks them); None when
        the query has no words to match. A term that names a speaker matches everything they
        said: its hits are read once per copy and held with it."""
        index, fields = fulltext
        p = {**p, "embedding": None}
        if probed > self.limits.exact_scan_limit:
            lucene = group_query(words, p["group_id"], field=fields, names=speakers)
            if not lucene:
                return None
            return HeldWords(
                self.store.submit("search_episode_fulltext", index=index, lucene=lucene, fetch=k * 3, k=k, **p),
                [],
                0,
                ranked=False,
            )
        probes = term_probes(words, p["group_id"], field=fields, names=speakers)
        if not probes:
            return None
        named = {n.casefold() for n in speakers} if "speaker" in fields else set()
        names = [probe for probe in probes if probe["term"].casefold() in named]
        rest = [probe for probe in probes if probe["term"].casefold() not in named]
        job = (
            self.store.submit("search_episode_fulltext_terms_held", index=index, probes=rest, n=probed, **p)
            if rest
            else None
        )
        return HeldWords(
            job, [self._term_hits(p["group_id"], index, probe["lucene"], probed, copy) for probe in names], len(probes)
        )

    def _term_hits(
        self, group_id: str, index: str, lucene: str, n: int, copy: TurnCopy
    ) -> tuple[np.ndarray, np.ndarray]:
        """The turns one term probe matches, each with its share of the score (IDF among the
        group's ``n`` turns × its score / the best), as ``search_episode_fulltext_terms`` weighs it."""
        key = ("term", index, lucene, n)
        hits = copy.memo.get(key)
        if hits is None:
            row = self.store.read("search_episode_term_hits", index=index, lucene=lucene, n=n, group_id=group_id)[0]
            df, top = len(row["ids"]), max(row["scores"], default=0.0)
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            # (a turn the copy does not hold has no vector: nothing by meaning, nor, here, by name)
            held = [
                (copy.row[i], idf * sc / top) for i, sc in zip(row["ids"], row["scores"]) if top > 0 and i in copy.row
            ]
            hits = copy.memo[key] = (
                np.asarray([r for r, _ in held], np.int64),
                np.asarray([v for _, v in held], np.float64),
            )
        return hits

    def find(
        self,
        p: dict,
        words: str,
        k: int,
        probed: int,
        strategy: list[str],
        with_episode_results: bool,
        turns: dict[str, Turn],
        fulltext: tuple[str, tuple[str, ...]],
        speakers: list[str],
        profile: RankingProfile,
        held: _Held | None = None,
    ) -> dict[str, list[Candidate]]:
        """Ranked lists of matched turns (vector, fulltext, and the turns right before and after
        those: "context"); a turn stands for the memories extracted from it, or for itself when
        nothing was extracted from it. ``turns`` collects every turn seen, with its neighbours.
        ``held``: what ``start_held`` began, when the process holds the group's turn vectors."""
        if held is not None:
            return self._find_held(probed, strategy, with_episode_results, turns, held)
        # the database ranks turns by the better of their own cosine and their closest sentence's
        # (rank.sentence_lift): the cut to the top k happens there
        p = {**p, "sentence_weight": profile.conversation.sentence_weight}
        if probed <= self.limits.scan_limit():
            strategy.append(f"episodes: exact scan ({probed})")
            hits = self.store.read("search_episode_scan", k=k, **p)
        else:
            # the turns' and the sentences' indexes are asked at once
            first = {
                name: self.store.submit(name, fetch=max(k * 5, 50), k=k, **p)
                for name in ("search_episode_index", "search_sentence_index")
            }
            hits = [h for name, page in first.items() for h in self._index(name, p, k, page.result()[0])]
            best: dict[str, dict] = {}
            for hit in hits:  # a turn found by itself and by a sentence: its better score
                seen = best.get(hit["episode"]["id"])
                if seen is None or (hit["score"] or 0) > (seen["score"] or 0):
                    best[hit["episode"]["id"]] = hit
            hits = sorted(best.values(), key=lambda h: -(h["score"] or 0))[:k]
            strategy.append(f"episodes: vector indexes of turns and sentences ({len(hits)} in the group)")
        for hit in hits:
            self._turn(turns, hit).sentences_read = True  # scored with its sentences already
        lists = {"episode_vector": self._list(hits, with_episode_results)}
        index, fields = fulltext
        rows, probes = None, []
        if probed <= self.limits.exact_scan_limit:
            probes = term_probes(words, p["group_id"], field=fields, names=speakers)
            if probes:
                # the turns found by meaning learn their word evidence too, top k by words or not
                rows = self.store.read(
                    "search_episode_fulltext_terms",
                    index=index,
                    probes=probes,
                    n=probed,
                    k=k,
                    also=[h["episode"]["id"] for h in hits],
                    **p,
                )
        else:
            lucene = group_query(words, p["group_id"], field=fields, names=speakers)
            if lucene:
                rows = self.store.read("search_episode_fulltext", index=index, lucene=lucene, fetch=k * 3, k=k, **p)
        if rows is not None:
            if probed <= self.limits.exact_scan_limit:
                word_hits = WordHits(terms=len(probes), n=probed, exact=True)
            else:
                word_hits = WordHits(
                    terms=len(probes), n=probed, exact=False, best=max((r["bm25"] for r in rows), default=0.0)
                )
            for r in rows:
                t = self._turn(turns, r)
                t.bm25, t.word_hits = r["bm25"], word_hits
            lists["episode_fulltext"] = self._list(rows, with_episode_results)
        lifts = profile.conversation
        if turns and (lifts.context_weight > 0 or lifts.reply_weight > 0):
            context = self._neighbours(p, turns)
            if context:
                strategy.append(f"episodes: {len(context)} neighbouring turns read as context")
                lists["episode_context"] = self._list(context, with_episode_results)
        return lists

    def start_held(
        self,
        p: dict,
        k: int,
        probed: int,
        strategy: list[str],
        profile: RankingProfile,
        copy: TurnCopy,
        words: HeldWords | None,
        memory_copy: GroupVectors | None,
    ) -> _Held:
        """The first half of ``find`` with the group's turn vectors held: the nearest turns from
        the copy (scored as the exact scan scores them) and the turns the words match, ranked with
        it; the round trip that reads the turns kept and the turns around them is sent, and
        ``find`` reads its answer (meanwhile the caller sends its own)."""
        query = unit(p["embedding"])
        near = copy.nearest(query, k, profile.conversation.sentence_weight, p.get("start"), p.get("said_end"))
        strategy.append(f"episodes: the group's {len(copy.ids)} turn vectors held in memory")
        by_words: list[tuple[str, float]] = []  # (turn, bm25): the top k by words, then the ones found by meaning
        rows: list[dict] = []  # the word hits of a large group, read whole
        if words is not None and not words.ranked:
            rows = words.job.result()
            for r, c in zip(rows, copy.cosine_of(query, [r["episode"]["id"] for r in rows])):
                r["score"] = None if c is None else (1.0 + c) / 2.0
            self._memory_cosines(p, [m for r in rows for m in r["memories"]], memory_copy)
        elif words is not None:
            scores = words.scores(copy, p.get("start"), p.get("said_end"))
            top = scores.top(k)
            listed = {i for i, _ in top}
            also = [(i, scores.get(i)) for i, _ in near if i not in listed]
            also = sorted(
                ((i, b) for i, b in also if b is not None), key=lambda ib: copy.key(copy.row.get(ib[0]), ib[1])
            )
            by_words = top + also
        ids = list(dict.fromkeys([i for i, _ in near] + [i for i, _ in by_words]))
        lifts = profile.conversation
        around = (
            list(dict.fromkeys(ids + [r["episode"]["id"] for r in rows]))
            if lifts.context_weight > 0 or lifts.reply_weight > 0
            else []
        )
        pairs = copy.neighbours(around, p.get("start"), p.get("said_end"))
        # what the turns say and their neighbours come from the copy: the database reads the memories
        # extracted from them (the cosines of those from the memories' copy)
        need = list(dict.fromkeys(ids + [n for _, n, _ in pairs]))
        job = self.store.submit("search_turns_read", ids=need, **{**p, "embedding": None})
        return _Held(copy, query, near, by_words, rows, words, around, job, p, memory_copy, pairs)

    def _find_held(
        self, probed: int, strategy: list[str], with_episode_results: bool, turns: dict[str, Turn], held: _Held
    ) -> dict[str, list[Candidate]]:
        copy, query, near, by_words, rows, words = (
            held.copy,
            held.query,
            held.near,
            held.by_words,
            held.rows,
            held.words,
        )
        read = {t["id"]: t for t in held.job.result()[0]["turns"]}
        self._memory_cosines(held.p, [m for t in read.values() for m in t["memories"]], held.memory_copy)
        found = {
            i: {"episode": copy.episodes[i], "extracted": t["extracted"], "memories": t["memories"]}
            for i, t in read.items()
        }
        known = set(held.around)
        pairs = [(of, n, before) for of, n, before in held.pairs if n in found]
        context_rows = [{**found[n], "of": of, "new": n not in known, "before": before} for of, n, before in pairs]
        for r, c in zip(context_rows, copy.cosine_of(query, [n for _, n, _ in pairs])):
            r["score"] = None if c is None else (1.0 + c) / 2.0
        hits = [{**found[i], "score": (1.0 + c) / 2.0} for i, c in near if i in found]
        for hit in hits:
            self._turn(turns, hit).sentences_read = True  # scored with its sentences already
        lists = {"episode_vector": self._list(hits, with_episode_results)}
        if by_words:
            own = copy.cosine_of(query, [i for i, _ in by_words])
            rows = [
                {**found[i], "bm25": b, "score": None if c is None else (1.0 + c) / 2.0}
                for (i, b), c in zip(by_words, own)
                if i in found
            ]
        if words is not None:
            if words.ranked:
                word_hits = WordHits(terms=words.terms, n=probed, exact=True)
            else:
                word_hits = WordHits(
                    terms=words.terms, n=probed, exact=False, best=max((r["bm25"] for r in rows), default=0.0)
                )
            for r in rows:
                t = self._turn(turns, r)
                t.bm25, t.word_hits = r["bm25"], word_hits
            lists["episode_fulltext"] = self._list(rows, with_episode_results)
        if held.around:
            context = self._neighbours({}, turns, context_rows)
            if context:
                strategy.append(f"episodes: {len(context)} neighbouring turns read as context")
                lists["episode_context"] = self._list(context, with_episode_results)
        # the memories read here whose only source is the turn they were read with need no more reading
        held.single = {
            item["memory"]["id"] for t in read.values() for item in t["memories"] if item.get("sources") == 1
        }
        return lists

    def _memory_cosines(self, p: dict, rows: list[dict], memory_copy: GroupVectors | None) -> None:
        """The cosines of the memories rows read without the query's embedding."""
        if not rows:
            return
        if memory_copy is not None:
            fill_cosines(self.store, p["group_id"], memory_copy, p["embedding"], rows, lambda r: r["memory"]["id"])
            return
        scores = {
            x["id"]: x["score"]
            for x in self.store.read(
                "search_cosines",
                group_id=p["group_id"],
                ids=list({r["memory"]["id"] for r in rows}),
                embedding=p["embedding"],
            )[0]["rows"]
        }
        for r in rows:
            r["score"] = scores.get(r["memory"]["id"])

    def _neighbours(self, p: dict, turns: dict[str, Turn], rows: list[dict] | None = None) -> list[dict]:
        """Reads the turns right before and after every turn in ``turns`` (adding them; ``rows``:
        already read); returns the rows of the turns that were not there yet."""
        context: list[dict] = []
        if rows is None:
            rows = self.store.read("search_episode_neighbours", ids=list(turns), **p)[0]["rows"]
        for r in rows:
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
        return context

    def _index(self, name: str, p: dict, k: int, row: dict) -> list[dict]:
        """The group's top-k turns from a global vector index (turns or sentences), over-fetched
        ×4 while full pages come back with too few in the group; ``row``: the first page's."""
        fetch = max(k * 5, 50)
        while True:
            hits = row["hits"]
            if len(hits) >= k or row["returned"] < fetch or fetch * 4 > MAX_FETCH:
                return hits
            fetch *= 4
            row = self.store.read(name, fetch=fetch, k=k, **p)[0]

    def sentences(self, p: dict, turns: dict[str, Turn], profile: RankingProfile, copy: TurnCopy | None = None) -> None:
        """The closest sentence's cosine of the turns the vector searches did not already read
        with their sentences (found by words or as neighbours): from ``copy`` when held."""
        unread = [tid for tid, t in turns.items() if not t.sentences_read]
        if not unread or profile.conversation.sentence_weight <= 0:
            return
        if copy is not None and all(tid in copy.row for tid in unread):
            for tid, c in copy.sentence_of(unit(p["embedding"]), unread).items():
                turns[tid].sentence = c
            return
        for r in self.store.read("search_sentence_scores", ids=unread, **p)[0]["rows"]:
            turns[r["id"]].sentence = to_cosine(r["score"])

    def sources(
        self,
        p: dict,
        candidates: list[Candidate],
        turns: dict[str, Turn],
        early: tuple[set[str], Future] | None = None,
        single: set[str] = frozenset(),
        copy: TurnCopy | None = None,
    ) -> None:
        """The turns the memory candidates were extracted from, where the episode lists did not
        already bring them: each memory's ``support``, each turn's cosine. ``early``: the ids
        already asked about and the answer in flight; ``single``: memories read with their only
        source turn (nothing more to read)."""
        by_id = {c.id: c for c in candidates if c.kind == "memory"}
        if not by_id:
            return
        rows: list[dict] = []
        asked: set[str] = set()
        if early is not None:
            asked = early[0]
            rows = [r for r in early[1].result()[0]["rows"] if r["of"] in by_id]
        rest = [i for i in by_id if i not in asked and i not in single]
        if rest:
            rows += self.store.read("search_memory_sources", ids=rest, **p)[0]["rows"]
        unscored = [r for r in rows if r["score"] is None]  # asked without the query (``early``)
        if unscored and copy is not None:
            for r, c in zip(unscored, copy.cosine_of(unit(p["embedding"]), [r["episode"]["id"] for r in unscored])):
                r["score"] = None if c is None else (1.0 + c) / 2.0
        for r in rows:
            c, e = by_id[r["of"]], r["episode"]
            self._turn(turns, r)
            if e["id"] not in c.support:
                c.support.append(e["id"])

    @staticmethod
    def _turn(turns: dict[str, Turn], hit: dict) -> Turn:
        e = hit["episode"]
        t = turns.get(e["id"])
        if t is None:
            t = turns[e["id"]] = Turn(
                id=e["id"],
                text=e.get("content") or "",
                cosine=to_cosine(hit["score"] or 0.5),
                speaker=e.get("speaker"),
                role=e.get("role"),
            )
        return t

    @staticmethod
    def _list(hits: list[dict], with_episode_results: bool) -> list[Candidate]:
        out: dict[str, Candidate] = {}
        for hit in hits:
            episode = hit["episode"]
            evidence = {
                key: episode.get(key) for key in ("id", "content", "timestamp", "session_id", "speaker", "role")
            }
            if hit["memories"]:
                for item in hit["memories"]:
                    c = out.get(item["memory"]["id"])
                    if c is None:
                        c = out[item["memory"]["id"]] = memory_candidate(item)
                    if all(e["id"] != episode["id"] for e in c.episodes):
                        c.episodes.append(evidence)
                    if episode["id"] not in c.support:
                        c.support.append(episode["id"])
            elif hit["extracted"] == 0 and with_episode_results and episode["id"] not in out:
                out[episode["id"]] = Candidate(
                    id=episode["id"],
                    kind="episode",
                    node=episode,
                    cosine=to_cosine(hit["score"] or 0.5),
                    episodes=[evidence],
                    support=[episode["id"]],
                )
        return list(out.values())
