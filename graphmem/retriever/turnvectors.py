"""The process's copy of a conversation group's turn and sentence vectors.

A search of a group with conversation turns matches the turns by meaning: each turn by the
better of its own cosine and its closest sentence's (a long turn's sentences are embedded
apart, ``rank.sentence_lift``). Through the database that is two vector index queries (turns,
sentences; global indexes, so over-fetched and filtered by group) and a third for the
sentences of the turns found by words, each reading embeddings from the property store. A
process that searches the group again keeps its turns' and sentences' vectors as float32
matrices (like the memories' copy, ``vectors.py``): the nearest turns, scored exactly as the
exact scan scores them (``search_episode_scan``: ties to the newer, then the order of the
conversation), and any turn's closest sentence, are matrix products.

Current or not used: the probe returns the group's turn count and its newest ``created_at``
(turns are only ever added, or deleted with their group); the copy is used only when both
match. It is built in the background from the group's second search on, within the same
bounds as the memories' copy (``retrieval.limits.vector_cache_limit`` turns,
``vector_cache_mb``: the turns' copies have a budget of their own).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from .vectors import FETCH_BATCH, VectorCache, one_blas_thread

NO_TIME = float("nan")
_WORDS = re.compile(r"\w+")


def _epoch(stamp: str | None) -> float:
    """An ISO time as seconds (a time without a zone is UTC, as Cypher's ``datetime()`` reads it)."""
    if not stamp:
        return NO_TIME
    try:
        value = datetime.fromisoformat(stamp)
    except ValueError:
        return NO_TIME
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class TurnCopy:
    """One group's turn vectors as of (count, latest); never changed once built."""

    count: int  # turns of the group (search_probe's count), with a vector or not
    latest: str | None  # the newest created_at among them
    ids: tuple[str, ...]  # the rows of ``matrix``
    matrix: np.ndarray  # (turns, dimension), unit rows
    said: np.ndarray  # when each turn was said (epoch seconds; nan: unknown)
    tie: np.ndarray  # each row's place by (said DESC, session, order, chunk): how ties are cut
    sentences: np.ndarray  # (sentences, dimension), unit rows, grouped by turn
    starts: np.ndarray  # where each turn's sentences start in ``sentences``
    owners: np.ndarray  # the turn row of each group of sentences
    row: dict[str, int] = field(default_factory=dict)
    episodes: dict[str, dict] = field(default_factory=dict)  # id -> what a search reads of the turn
    after: dict[str, list[str]] = field(default_factory=dict)  # id -> the turns right after it (NEXT)
    before: dict[str, list[str]] = field(default_factory=dict)  # id -> the turns right before it
    built: float = 0.0
    lookup_only: bool = False  # (the cache's interface: a turn copy is always complete)
    # what the group's data fixes while the copy is current (a speaker's turns: the hits of a
    # name's term probe), read once per copy
    memo: dict = field(default_factory=dict, compare=False)

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + self.sentences.nbytes) + 300 * len(self.episodes)  # (texts: roughly)

    def scores(self, query: np.ndarray, sentence_weight: float) -> tuple[np.ndarray, np.ndarray]:
        """(each turn's own cosine, its closest sentence's cosine or -inf without sentences)."""
        with one_blas_thread():
            own = self.matrix @ query
            best = np.full(len(self.ids), -np.inf, np.float32)
            if len(self.starts) and sentence_weight > 0:
                best[self.owners] = np.maximum.reduceat(self.sentences @ query, self.starts)
        return own, best

    def nearest(
        self, query: np.ndarray, k: int, sentence_weight: float, start: str | None = None, said_end: str | None = None
    ) -> list[tuple[str, float]]:
        """The top-``k`` turns said in [start, said_end), each scored by the better of its own cosine
        and ``sentence_weight`` × its closest sentence's (plain cosines), best first; equal scores
        go to the newer turn, then the order of the conversation (as ``search_episode_scan``)."""
        if not self.ids or k <= 0:
            return []
        own, best = self.scores(query, sentence_weight)
        score = np.maximum(own, sentence_weight * best) if sentence_weight > 0 else own
        rows = np.flatnonzero(self.window(start, said_end))
        if not len(rows):
            return []
        values = score[rows]
        if len(rows) > k:
            kth = np.partition(-values, k - 1)[k - 1]
            tied = values >= -kth  # every row tied with the k-th competes for the cut
            rows, values = rows[tied], values[tied]
        ranked = sorted(zip(rows.tolist(), values.tolist()), key=lambda rv: self.key(rv[0], rv[1]))[:k]
        return [(self.ids[r], v) for r, v in ranked]

    def key(self, r: int | None, value: float) -> tuple[float, int]:
        """How row ``r`` with score ``value`` sorts: the better score first, then the newer turn,
        then the order of the conversation (a turn the copy does not hold goes last among equals)."""
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
        """(turn, neighbour, whether the neighbour comes before it) for the turns right before and
        after each turn in ``ids`` that have a vector and were said in [start, said_end) (as
        search_episode_neighbours reads them)."""
        window = self.window(start, said_end) if start is not None or said_end is not None else None
        out = []
        for i in ids:
            for n, before in [(n, True) for n in self.before.get(i, ())] + [(n, False) for n in self.after.get(i, ())]:
                r = self.row.get(n)
                if r is not None and (window is None or window[r]):
                    out.append((i, n, before))
        return out

    def speakers(self) -> list[str]:
        """Everyone who speaks in the group's turns (``search_group_speakers`` of the copy's turns)."""
        names = self.memo.get("speakers")
        if names is None:
            names = self.memo["speakers"] = list(
                dict.fromkeys(e["speaker"] for e in self.episodes.values() if e.get("speaker") is not None)
            )
        return names

    def speaker_initials(self) -> frozenset[str]:
        """The first letters (lowercase) of the words of every speaker's name in the group."""
        initials = self.memo.get("initials")
        if initials is None:
            initials = self.memo["initials"] = frozenset(
                w[0].lower() for n in self.speakers() for w in _WORDS.findall(n)
            )
        return initials

    def cosine_of(self, query: np.ndarray, ids: list[str]) -> list[float | None]:
        """Plain cosines of the turns ``ids`` (None for one the copy does not hold)."""
        rows = [self.row.get(i) for i in ids]
        known = [r for r in rows if r is not None]
        with one_blas_thread():
            values = iter((self.matrix[known] @ query).tolist()) if known else iter(())
        return [None if r is None else next(values) for r in rows]

    def sentence_of(self, query: np.ndarray, ids: list[str]) -> dict[str, float]:
        """The closest sentence's cosine of each turn in ``ids`` that has sentences."""
        out: dict[str, float] = {}
        for i in ids:
            r = self.row.get(i)
            if r is None:
                continue
            g = int(np.searchsorted(self.owners, r))
            if g < len(self.owners) and self.owners[g] == r:
                end = self.starts[g + 1] if g + 1 < len(self.starts) else len(self.sentences)
                with one_blas_thread():
                    out[i] = float(np.max(self.sentences[self.starts[g] : end] @ query))
        return out


class TurnCache(VectorCache):
    """The turn copies of the groups a process searches (``VectorCache``'s bounds and lifecycle:
    current or not used, built in the background from a group's second search on)."""

    def lookup(self, group_id: str) -> None:  # a turn copy is complete or not held
        return None

    def _read(self, group_id: str, old: TurnCopy | None, lookup_only: bool = False) -> TurnCopy | None:
        members = self.store.read("search_turn_ids", group_id=group_id)
        if len(members) > self.limit:
            return None
        latest = max((m["created_at"] for m in members if m["created_at"] is not None), default=None)
        wanted = [m for m in members if m["embedded"]]
        turns: dict[str, np.ndarray] = {}
        sentences: dict[str, list[np.ndarray]] = {}
        for begin in range(0, len(wanted), FETCH_BATCH // 2):
            if self._closed:
                return None
            row = self.store.read(
                "search_turn_vectors_of",
                group_id=group_id,
                ids=[m["id"] for m in wanted[begin : begin + FETCH_BATCH // 2]],
            )[0]
            for t in row["turns"]:
                v = np.asarray(t["embedding"], np.float32)
                if v.shape == (self.dimension,):
                    turns[t["id"]] = v / max(float(np.linalg.norm(v)), 1e-12)
            for s in row["sentences"]:
                v = np.asarray(s["embedding"], np.float32)
                if v.shape == (self.dimension,):
                    sentences.setdefault(s["turn"], []).append(v / max(float(np.linalg.norm(v)), 1e-12))
        held = [m for m in wanted if m["id"] in turns]
        after = {m["id"]: list(m["next"]) for m in members if m["next"]}
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
        matrix = np.stack([turns[i] for i in ids]) if ids else np.zeros((0, self.dimension), np.float32)
        starts, owners, rows = [], [], []
        for r, i in enumerate(ids):
            if sentences.get(i):
                starts.append(len(rows))
                owners.append(r)
                rows.extend(sentences[i])
        sentence_matrix = np.stack(rows) if rows else np.zeros((0, self.dimension), np.float32)
        return TurnCopy(
            count=len(members),
            latest=latest,
            ids=ids,
            matrix=np.ascontiguousarray(matrix),
            said=np.asarray([_epoch(m["episode"]["timestamp"]) for m in held], np.float64),
            tie=tie,
            sentences=np.ascontiguousarray(sentence_matrix, np.float32),
            starts=np.asarray(starts, np.int64),
            owners=np.asarray(owners, np.int64),
            row={i: r for r, i in enumerate(ids)},
            episodes={m["id"]: m["episode"] for m in members},
            after=after,
            before=before,
            built=time.monotonic(),
        )
