"""The process's copy of a conversation group's turns: their vectors and their sentences',
what they say and the order they were said in (as ``vectors.py`` keeps a group's memories).
The nearest turns, scored and tied exactly as ``search_episode_scan`` (the better of a turn's
own cosine and SENTENCE_WEIGHT × its closest sentence's; the newer first, then the order of the
conversation), and any turn's closest sentence: found by matrix products, then scored row by row
(``exact_cosines``) so that two equal turns tie here as in the database. Current or not used: the
probe returns the group's turn count and newest ``created_at`` (turns are only ever added).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..store.vector_copy import FETCH_BATCH, HeldVectors, VectorCache, exact_cosines, products, unit
from ..timeparse.stamps import parse_time
from .rank import NAME_WORDS, SENTENCE_WEIGHT

NO_TIME = float("nan")
# how far below the k-th score of the matrix product a turn is still scored row by row (it rounds at ~1e-7)
FLOAT32_SLACK = 1e-5


def _epoch(stamp: str | None) -> float:
    """An ISO time as seconds (a time without a zone is UTC, as Cypher's ``datetime()`` reads it)."""
    value = parse_time(stamp)
    return NO_TIME if value is None else value.timestamp()


@dataclass(frozen=True, kw_only=True)
class TurnCopy(HeldVectors):
    """One group's turns (a turn copy is always complete: never ``lookup_only``)."""

    said: np.ndarray  # when each turn was said (epoch seconds; nan: unknown)
    tie: np.ndarray  # each row's place by (said DESC, session, order, chunk): how ties are cut
    sentences: np.ndarray  # (sentences, dimension), unit rows, grouped by turn
    starts: np.ndarray  # where each turn's sentences start in ``sentences``
    owners: np.ndarray  # the turn row of each group of sentences
    episodes: dict[str, dict]  # id -> what a search reads of the turn
    after: dict[str, list[str]]  # id -> the turns right after it (NEXT)
    before: dict[str, list[str]]  # id -> the turns right before it
    # what the group's data fixes while the copy is current (the hits of a term probe, which
    # terms name a speaker), read once per copy
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + self.sentences.nbytes) + 300 * len(self.episodes)  # (texts: roughly)

    def nearest(self, query: np.ndarray, k: int, start: str | None, said_end: str | None) -> list[tuple[str, float]]:
        """The top-``k`` turns said in [start, said_end), by the better of their own cosine and
        SENTENCE_WEIGHT × their closest sentence's (plain cosines), best first, ties as the scan's.
        Found with matrix products, then the contenders' scores computed row by row (``exact_cosines``)."""
        if not self.ids or k <= 0:
            return []
        score = products(self.matrix, query)
        if len(self.starts):
            best = np.full(len(self.ids), -np.inf, np.float32)
            best[self.owners] = np.maximum.reduceat(products(self.sentences, query), self.starts)
            score = np.maximum(score, SENTENCE_WEIGHT * best)
        rows = np.flatnonzero(self.window(start, said_end))
        near = np.asarray([r for r, _ in self.contenders(rows, score[rows], k, FLOAT32_SLACK)], np.int64)
        exact = self.exact_scores(query, near)
        ranked = sorted(self.contenders(near, exact, k), key=lambda rv: self.key(rv[0], rv[1]))[:k]
        return [(self.ids[r], v) for r, v in ranked]

    def exact_scores(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """``nearest``'s score of each of ``rows``, computed row by row."""
        closest, own = self.closest_sentences(query, rows.tolist()), exact_cosines(self.matrix[rows], query)
        return np.array(
            [max(s, SENTENCE_WEIGHT * closest[r]) if r in closest else s for s, r in zip(own, rows)], np.float32
        )

    def closest_sentences(self, query: np.ndarray, rows: list[int]) -> dict[int, float]:
        """The closest sentence's cosine of each of ``rows`` that has sentences."""
        out: dict[int, float] = {}
        for r in rows:
            g = int(np.searchsorted(self.owners, r))
            if g < len(self.owners) and self.owners[g] == r:
                end = self.starts[g + 1] if g + 1 < len(self.starts) else len(self.sentences)
                out[r] = float(np.max(exact_cosines(self.sentences[self.starts[g] : end], query)))
        return out

    @staticmethod
    def contenders(rows: np.ndarray, values: np.ndarray, k: int, slack: float = 0.0) -> list[tuple[int, float]]:
        """The (row, value) pairs that compete for the top ``k``: every one tied with the k-th
        (within ``slack`` below it)."""
        if len(rows) > k:
            tied = values >= -np.partition(-values, k - 1)[k - 1] - slack
            rows, values = rows[tied], values[tied]
        return list(zip(rows.tolist(), values.tolist()))

    def key(self, r: int | None, value: float) -> tuple[float, int]:
        """How row ``r`` with score ``value`` sorts: the better score, then the newer turn, then the
        order of the conversation (a turn the copy does not hold last among equals)."""
        return -value, len(self.ids) if r is None else int(self.tie[r])

    def window(self, start: str | None, said_end: str | None) -> np.ndarray:
        """Which rows were said in [start, said_end) (a turn of unknown time is not, when asked)."""
        keep = np.ones(len(self.ids), bool)
        if start is not None:
            keep &= self.said >= _epoch(start)
        if said_end is not None:
            keep &= self.said < _epoch(said_end)
        return keep

    def neighbours(self, ids: list[str], start: str | None, said_end: str | None) -> list[tuple[str, str, bool]]:
        """(turn, neighbour, whether it comes before) for the turns right before and after each of
        ``ids`` that have a vector and were said in [start, said_end) (as search_episode_neighbours)."""
        window = self.window(start, said_end) if start is not None or said_end is not None else None
        out = []
        for i in ids:
            for n, before in [(n, True) for n in self.before.get(i, ())] + [(n, False) for n in self.after.get(i, ())]:
                r = self.row.get(n)
                if r is not None and (window is None or window[r]):
                    out.append((i, n, before))
        return out

    @cached_property
    def speakers(self) -> list[str]:
        """Everyone who speaks in the group's turns."""
        return list(dict.fromkeys(e["speaker"] for e in self.episodes.values() if e.get("speaker") is not None))

    @cached_property
    def speaker_initials(self) -> frozenset[str]:
        """The first letters (lowercase) of the words of every speaker's name in the group."""
        return frozenset(w[0].lower() for n in self.speakers for w in NAME_WORDS.findall(n))

    def sentence_of(self, query: np.ndarray, ids: list[str]) -> dict[str, float]:
        """The closest sentence's cosine of each turn in ``ids`` that has sentences."""
        rows = {i: r for i in ids if (r := self.row.get(i)) is not None}
        closest = self.closest_sentences(query, list(rows.values()))
        return {i: closest[r] for i, r in rows.items() if r in closest}


class TurnCache(VectorCache):
    """The turn copies of the groups a process searches (``VectorCache``'s bounds and lifecycle)."""

    def lookup(self, group_id: str) -> None:  # a turn copy is complete or not held
        return None

    def _read(self, group_id: str, old: Any, lookup_only: bool = False) -> TurnCopy | None:
        members = self.store.read("search_turn_ids", group_id=group_id)
        if len(members) > self.limit:
            return None
        wanted = [m["id"] for m in members if m["embedded"]]
        turns: dict[str, np.ndarray] = {}
        sentences: dict[str, list[np.ndarray]] = {}
        for begin in range(0, len(wanted), FETCH_BATCH // 2):
            if self._closed:
                return None
            row = self.store.read(
                "search_turn_vectors_of", group_id=group_id, ids=wanted[begin : begin + FETCH_BATCH // 2]
            )[0]
            for t in row["turns"]:
                if len(t["embedding"]) == self.dimension:
                    turns[t["id"]] = unit(t["embedding"])
            for s in row["sentences"]:
                if len(s["embedding"]) == self.dimension:
                    sentences.setdefault(s["turn"], []).append(unit(s["embedding"]))
        return self._copy(members, turns, sentences)

    def _copy(
        self, members: list[dict], turns: dict[str, np.ndarray], sentences: dict[str, list[np.ndarray]]
    ) -> TurnCopy:
        held = [m for m in members if m["embedded"] and m["id"] in turns]
        before: dict[str, list[str]] = {}
        for m in members:
            for n in m["next"]:
                before.setdefault(n, []).append(m["id"])
        # ties: the newer turn first, then the order of the conversation (two stable sorts)
        places = sorted(
            range(len(held)),
            key=lambda r: (held[r]["episode"]["session_id"] or "", held[r]["order"] or 0, held[r]["chunk"] or 0),
        )
        places.sort(key=lambda r: held[r]["episode"]["timestamp"] or "", reverse=True)
        tie = np.empty(len(held), np.int64)
        tie[places] = np.arange(len(held))
        ids = tuple(m["id"] for m in held)
        starts, owners, rows = [], [], []  # type: list[int], list[int], list[np.ndarray]
        for r, i in enumerate(ids):
            if sentences.get(i):
                starts.append(len(rows))
                owners.append(r)
                rows.extend(sentences[i])
        empty = np.zeros((0, self.dimension), np.float32)
        return TurnCopy(
            count=len(members),
            latest=max((m["created_at"] for m in members if m["created_at"] is not None), default=None),
            ids=ids,
            matrix=np.ascontiguousarray(np.stack([turns[i] for i in ids]) if ids else empty),
            said=np.asarray([_epoch(m["episode"]["timestamp"]) for m in held], np.float64),
            tie=tie,
            sentences=np.ascontiguousarray(np.stack(rows) if rows else empty, np.float32),
            starts=np.asarray(starts, np.int64),
            owners=np.asarray(owners, np.int64),
            episodes={m["id"]: m["episode"] for m in members},
            after={m["id"]: list(m["next"]) for m in members if m["next"]},
            before=before,
            built=time.monotonic(),
        )
