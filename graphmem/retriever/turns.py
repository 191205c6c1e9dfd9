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

import re
import threading
import time
from concurrent.futures import Future

from ..config import RankingProfile, SearchLimits
from ..store.driver import Store
from ..store.fulltext import CJK_CHARS, escape_terms, group_query, name_probes, term_probes
from ..store.vector import to_cosine
from .evidence import Candidate, Turn, memory_candidate
from .rank import WordHits

_CJK = re.compile(f"[{CJK_CHARS}]")
MAX_FETCH = 4000            # the largest page asked of a vector index before giving up on more
SIZE_TTL_S = 60.0           # how long the speakers of a large group are trusted


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
    def submit_names(self, p: dict, words: str, fulltext: tuple[str, tuple[str, ...]]) -> Future | None:
        """Which query words name a speaker of the group (an English query): asked in the background."""
        index, fields = fulltext
        if "speaker" not in fields or not escape_terms(words):
            return None
        return self.store.submit("search_name_terms", index=index, probes=name_probes(words, p["group_id"]),
                                 group_id=p["group_id"])

    def speakers(self, p: dict, query: str, episodes: int, names: Future | None,
                 fulltext: tuple[str, tuple[str, ...]], strategy: list[str], profile: RankingProfile) -> list[str]:
        fields = fulltext[1]
        speakers: list[str] = []
        if names is not None:
            speakers = names.result()[0]["terms"]
        elif "speaker" not in fields:        # a CJK query has no words to probe: whole names it holds
            speakers = self._speakers_named(p["group_id"], query, episodes)
        if speakers:
            others = profile.conversation.speaker_weight
            strategy.append(f"episodes: {', '.join(speakers)} matched as speaker"
                            + (", not in what was said" if "speaker" in fields else "")
                            + (f"; turns by anyone else at {others:g} x their similarity" if others < 1 else ""))
        return speakers

    def _speakers_named(self, group_id: str, query: str, episodes: int) -> list[str]:
        """The group's speakers whose whole name (two characters or more) the query holds. A large
        group's speakers are read at most every SIZE_TTL_S (a DISTINCT over 100,000 turns: ~80 ms)."""
        large, now = episodes > self.limits.exact_scan_limit, time.monotonic()
        with self._lock:
            cached = self._speakers.get(group_id) if large else None
        if cached is None or now - cached[0] >= SIZE_TTL_S:
            cached = (now, self.store.read("search_group_speakers", group_id=group_id)[0]["speakers"])
            if large:
                with self._lock:
                    self._speakers[group_id] = cached
        text = query.casefold()
        return [n for n in cached[1] if len(n) >= 2 and n.casefold() in text]

    # --- the turns --------------------------------------------------------------------------
    def find(self, p: dict, words: str, k: int, probed: int, strategy: list[str], with_episode_results: bool,
             turns: dict[str, Turn], fulltext: tuple[str, tuple[str, ...]], speakers: list[str],
             profile: RankingProfile) -> dict[str, list[Candidate]]:
        """Ranked lists of matched turns (vector, fulltext, and the turns right before and after
        those: "context"); a turn stands for the memories extracted from it, or for itself when
        nothing was extracted from it. ``turns`` collects every turn seen, with its neighbours."""
        # the database ranks turns by the better of their own cosine and their closest sentence's
        # (rank.sentence_lift): the cut to the top k happens there
        p = {**p, "sentence_weight": profile.conversation.sentence_weight}
        if probed <= self.limits.scan_limit():
            strategy.append(f"episodes: exact scan ({probed})")
            hits = self.store.read("search_episode_scan", k=k, **p)
        else:
            # the turns' and the sentences' indexes are asked at once
            first = {name: self.store.submit(name, fetch=max(k * 5, 50), k=k, **p)
                     for name in ("search_episode_index", "search_sentence_index")}
            hits = [h for name, page in first.items() for h in self._index(name, p, k, page.result()[0])]
            best: dict[str, dict] = {}
            for hit in hits:                 # a turn found by itself and by a sentence: its better score
                seen = best.get(hit["episode"]["id"])
                if seen is None or (hit["score"] or 0) > (seen["score"] or 0):
                    best[hit["episode"]["id"]] = hit
            hits = sorted(best.values(), key=lambda h: -(h["score"] or 0))[:k]
            strategy.append(f"episodes: vector indexes of turns and sentences ({len(hits)} in the group)")
        for hit in hits:
            self._turn(turns, hit).sentences_read = True     # scored with its sentences already
        lists = {"episode_vector": self._list(hits, with_episode_results)}
        index, fields = fulltext
        rows, probes = None, []
        if probed <= self.limits.exact_scan_limit:
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
            if probed <= self.limits.exact_scan_limit:
                word_hits = WordHits(terms=len(probes), n=probed, exact=True)
            else:
                word_hits = WordHits(terms=len(probes), n=probed, exact=False,
                                     best=max((r["bm25"] for r in rows), default=0.0))
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

    def _neighbours(self, p: dict, turns: dict[str, Turn]) -> list[dict]:
        """Reads the turns right before and after every turn in ``turns`` (adding them); returns
        the rows of the turns that were not there yet."""
        context: list[dict] = []
        for r in self.store.read("search_episode_neighbours", ids=list(turns), **p)[0]["rows"]:
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

    def sentences(self, p: dict, turns: dict[str, Turn], profile: RankingProfile) -> None:
        """The closest sentence's cosine of the turns the vector searches did not already read
        with their sentences (found by words or as neighbours)."""
        unread = [tid for tid, t in turns.items() if not t.sentences_read]
        if not unread or profile.conversation.sentence_weight <= 0:
            return
        for r in self.store.read("search_sentence_scores", ids=unread, **p)[0]["rows"]:
            turns[r["id"]].sentence = to_cosine(r["score"])

    def sources(self, p: dict, candidates: list[Candidate], turns: dict[str, Turn]) -> None:
        """The turns the memory candidates were extracted from, where the episode lists did not
        already bring them: each memory's ``support``, each turn's cosine."""
        by_id = {c.id: c for c in candidates if c.kind == "memory"}
        if not by_id:
            return
        for r in self.store.read("search_memory_sources", ids=list(by_id), **p)[0]["rows"]:
            c, e = by_id[r["of"]], r["episode"]
            self._turn(turns, r)
            if e["id"] not in c.support:
                c.support.append(e["id"])

    @staticmethod
    def _turn(turns: dict[str, Turn], hit: dict) -> Turn:
        e = hit["episode"]
        t = turns.get(e["id"])
        if t is None:
            t = turns[e["id"]] = Turn(id=e["id"], text=e.get("content") or "", cosine=to_cosine(hit["score"] or 0.5),
                                      speaker=e.get("speaker"), role=e.get("role"))
        return t

    @staticmethod
    def _list(hits: list[dict], with_episode_results: bool) -> list[Candidate]:
        out: dict[str, Candidate] = {}
        for hit in hits:
            episode = hit["episode"]
            evidence = {key: episode.get(key) for key in ("id", "content", "timestamp", "session_id", "speaker",
                                                          "role")}
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
                out[episode["id"]] = Candidate(id=episode["id"], kind="episode", node=episode,
                                               cosine=to_cosine(hit["score"] or 0.5), episodes=[evidence],
                                               support=[episode["id"]])
        return list(out.values())
