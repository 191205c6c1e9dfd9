"""The process's copy of a group's memory vectors: nearest memories without the vector index.

Reading an embedding in Cypher is the costliest thing a search does (~30 µs each), and Neo4j 5's
vector index answers for the whole database. A process that searches a group again keeps its
vectors as a float32 matrix of unit rows: the exact top-k of the group alone is one product
(the cosines it reports then computed alike for equal rows: ``exact_cosines``).
Current or not used: the probe's memory count and newest ``created_at`` must match the copy's.
A copy is (re)built in the background from the group's second search on, reading only what it
lacks, within ``limits.vector_cache_limit`` memories and ``vector_cache_mb`` in all (least
recently searched dropped first). A larger group keeps a float16 copy for the cosines of the
memories a search names by id (``lookup``), refreshed every LOOKUP_REFRESH_S.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from .driver import Store

FETCH_BATCH = 2000  # vectors read per round trip while (re)building a copy
LARGE_TTL_S = 60.0  # how long a group seen above the limit is taken to still be
LOOKUP_REFRESH_S = 60.0  # a large group's copy is read again (only what it lacks) this often
MAX_TALLIES = 100_000  # groups whose searches are counted before the tallies start again
ZERO_RUN = 64  # a query's leading or trailing zeros are left out of a product when at least this many
_BLAS: ThreadpoolController | None = None


def one_blas_thread() -> Any:
    """A context in which numpy's BLAS runs on the calling thread only: left to itself OpenBLAS
    wakes its other threads for a sub-millisecond product, and they spin for a long while
    afterwards, taking a core from the search (and every other one)."""
    global _BLAS
    if _BLAS is None:
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def products(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``rows @ query`` on one BLAS thread, without the columns before the query's first non-zero
    entry and after its last. A question in English has no Chinese block in the default model's
    vector (its last 512 of 1,280 columns are zero): two fifths of every row need not be read, and
    reading the rows is most of what the product over a large group costs. The rows are summed
    alike either way (the columns left out add exact zeros); used to find contenders, whose
    cosines are then computed whole (``exact_cosines``)."""
    nonzero = np.flatnonzero(query)
    start, end = (int(nonzero[0]), int(nonzero[-1]) + 1) if len(nonzero) else (0, 0)
    with one_blas_thread():
        if end - start > len(query) - ZERO_RUN:  # nothing worth leaving out
            return rows @ query
        return rows[:, start:end] @ query[start:end]


def exact_cosines(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The cosines of unit ``rows`` to a unit query in float32 (as Neo4j computes them), each row
    summed alike wherever it sits: BLAS's matrix product gives the rows at the end of a block
    another rounding, so two memories of the same text, tied in the database, would no longer tie
    here and their order would follow their places in the matrix."""
    return np.einsum("ij,j->i", rows.astype(np.float32, copy=False), query.astype(np.float32, copy=False))


def unit(vector: Any) -> np.ndarray:
    """A vector as float32 unit length (what the held rows are, and are multiplied with)."""
    v = np.asarray(vector, np.float32)
    return v / max(float(np.linalg.norm(v)), 1e-12)


@dataclass(frozen=True)
class HeldVectors:
    """One group's vectors (of memories, or of turns: ``turnvectors.TurnCopy``) as of (count,
    latest); never changed once built."""

    count: int  # the group's texts (search_probe's count), with a vector or not
    latest: str | None  # the newest created_at among them
    ids: tuple[str, ...]  # the rows of ``matrix``
    matrix: np.ndarray  # (len(ids), dimension), unit rows
    built: float = 0.0  # time.monotonic() when read
    lookup_only: bool = False  # a large group's: float16 rows, for cosines of memories named by id
    row: dict[str, int] = field(init=False, repr=False, compare=False)  # id -> row

    def __post_init__(self) -> None:
        object.__setattr__(self, "row", {i: r for r, i in enumerate(self.ids)})

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes)

    def cosine_of(self, query: np.ndarray, ids: Sequence[str]) -> list[float | None]:
        """Plain cosines of ``ids`` to the query (None for one the copy does not hold)."""
        rows = [self.row.get(i) for i in ids]
        known = [r for r in rows if r is not None]
        values = iter(exact_cosines(self.matrix[known], query).tolist() if known else [])
        return [None if r is None else next(values) for r in rows]


class GroupVectors(HeldVectors):
    """A group's memory vectors."""

    def nearest(self, query: np.ndarray, n: int) -> tuple[list[str], list[float]]:
        """The ``n`` nearest memories (ids, plain cosines), best first: found with one matrix
        product, their cosines then computed row by row (``exact_cosines``)."""
        if not self.ids:
            return [], []
        cos = products(self.matrix, query)
        n = min(n, len(cos))
        top = np.argpartition(-cos, n - 1)[:n] if n < len(cos) else np.arange(len(cos))
        exact = exact_cosines(self.matrix[top], query)
        order = np.lexsort((top, -exact))
        return [self.ids[top[i]] for i in order], [float(exact[i]) for i in order]


class VectorCache:
    def __init__(self, store: Store, limit: int, budget_mb: float, dimension: int):
        self.store, self.limit, self.dimension = store, limit, dimension
        self.budget = int(budget_mb * 1024 * 1024)
        self._groups: OrderedDict[str, Any] = OrderedDict()
        self._searches: dict[str, int] = {}
        self._building: set[str] = set()
        self._too_big: dict[str, int] = {}  # group -> the count at which its copy did not fit
        self._large: dict[str, float] = {}  # group -> when it was last seen above the limit
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False

    @property
    def enabled(self) -> bool:
        return self.budget > 0 and self.limit > 0

    def close(self) -> None:
        with self._lock:
            self._closed, pool = True, self._pool
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def get(self, group_id: str, count: int, latest: str | None) -> Any:
        """The group's copy when it is current for the probe's (count, latest); else None, and a
        (re)build is started in the background from the group's second search on."""
        if not self.enabled or count == 0:
            return None
        with self._lock:
            if count > self.limit:
                self._large[group_id] = time.monotonic()
                return None
            copy = self._groups.get(group_id)
            if copy is not None and not copy.lookup_only and copy.count == count and copy.latest == latest:
                self._groups.move_to_end(group_id)
                return copy
            if self._too_big.get(group_id) != count:
                self._start(group_id, None if copy is None or copy.lookup_only else copy, False)
        return None

    def peek(self, group_id: str) -> GroupVectors | None:
        """The group's whole copy when one is held, current or not (``get`` tells which), without
        counting a search or starting a build."""
        with self._lock:
            copy = self._groups.get(group_id)
        return copy if copy is not None and not copy.lookup_only else None

    def lookup(self, group_id: str) -> GroupVectors | None:
        """A large group's copy (above the limit, seen so a moment ago), for the cosines of the
        memories a query names by id; read again in the background every LOOKUP_REFRESH_S. None
        until it is built (from the group's second search on)."""
        if not self.enabled:
            return None
        with self._lock:
            copy = self._groups.get(group_id)
            if copy is not None and not copy.lookup_only:
                return None
            if copy is not None:
                self._groups.move_to_end(group_id)
                if time.monotonic() - copy.built < LOOKUP_REFRESH_S:
                    return copy
            if group_id not in self._too_big:
                self._start(group_id, copy, True)
        return copy

    def _start(self, group_id: str, old: Any, lookup_only: bool) -> None:
        """Count this search of the group and, from its second on, (re)build its copy in the
        background unless one is being built. Called under the lock. The tallies of many groups
        are forgotten together now and then: a process serving many tenants does not grow."""
        if len(self._searches) >= MAX_TALLIES:
            self._searches.clear()
            self._too_big.clear()
            self._large.clear()
        seen = self._searches[group_id] = self._searches.get(group_id, 0) + 1
        if seen < 2 or group_id in self._building or self._closed:
            return
        self._building.add(group_id)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-vectors")
        self._pool.submit(self._build, group_id, old, lookup_only)

    def too_large(self, group_id: str) -> bool:
        """Whether the group was above the limit a moment ago: its probe need not count that far."""
        with self._lock:
            seen = self._large.get(group_id)
        return seen is not None and time.monotonic() - seen < LARGE_TTL_S

    def holds(self, group_id: str) -> bool:
        with self._lock:
            return group_id in self._groups

    def wait(self, group_id: str, timeout_s: float) -> bool:
        """Wait until no copy of the group is being built (at most ``timeout_s``); True when one is held."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                if group_id not in self._building:
                    return group_id in self._groups
            time.sleep(0.05)
        return self.holds(group_id)

    def _build(self, group_id: str, old: Any, lookup_only: bool) -> None:
        try:
            copy = self._read(group_id, old, lookup_only)
            if copy is None:
                return
            with self._lock:
                self._groups[group_id] = copy
                self._groups.move_to_end(group_id)
                total = sum(g.nbytes for g in self._groups.values())
                while total > self.budget and len(self._groups) > 1:
                    total -= self._groups.popitem(last=False)[1].nbytes
                if total > self.budget:  # one group larger than the whole budget
                    self._groups.pop(group_id, None)
                    self._too_big[group_id] = copy.count
        except Exception:  # noqa: BLE001 - the copy only speeds searches up: they go on without it
            pass
        finally:
            with self._lock:
                self._building.discard(group_id)

    def _read(self, group_id: str, old: Any, lookup_only: bool = False) -> Any:
        """The group's copy, reading only the vectors ``old`` lacks; a large group's copy takes in
        the memories written since it was read (those deleted meanwhile stay: nothing asks for
        their cosine) unless too many are new."""
        if lookup_only and old is not None:
            rows = self.store.read(
                "search_vectors_since", group_id=group_id, since=old.latest or "", limit=FETCH_BATCH + 1
            )
            if len(rows) <= FETCH_BATCH:
                new = [r for r in rows if r["id"] not in old.row and len(r["embedding"]) == self.dimension]
                latest = max([old.latest or ""] + [r["created_at"] for r in rows if r["created_at"]]) or None
                ids, matrix = old.ids + tuple(r["id"] for r in new), old.matrix
                if new:
                    added = np.asarray([r["embedding"] for r in new], np.float32)
                    added /= np.clip(np.linalg.norm(added, axis=1, keepdims=True), 1e-12, None)
                    matrix = np.concatenate([old.matrix, added.astype(old.matrix.dtype)])
                return GroupVectors(old.count + len(new), latest, ids, matrix, time.monotonic(), True)
            old = None  # too much is new: read it all again
        members = self.store.read("search_vector_ids", group_id=group_id)
        if (len(members) > self.limit) != lookup_only:  # the group crossed the limit meanwhile
            return None
        dtype = np.float16 if lookup_only else np.float32
        latest = max((m["created_at"] for m in members if m["created_at"] is not None), default=None)
        wanted = [m["id"] for m in members if m["embedded"]]
        have = {i: old.matrix[r] for i, r in old.row.items()} if old is not None else {}
        missing = [i for i in wanted if i not in have]
        for start in range(0, len(missing), FETCH_BATCH):
            if self._closed:
                return None
            for r in self.store.read("search_vectors_of", group_id=group_id, ids=missing[start : start + FETCH_BATCH]):
                if len(r["embedding"]) == self.dimension:
                    have[r["id"]] = unit(r["embedding"]).astype(dtype)
        ids = tuple(i for i in wanted if i in have)
        matrix = np.stack([have[i] for i in ids]) if ids else np.zeros((0, self.dimension), dtype)
        return GroupVectors(
            len(members), latest, ids, np.ascontiguousarray(matrix, dtype), time.monotonic(), lookup_only
        )
