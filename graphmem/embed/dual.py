"""Two models in one vector: a multilingual model for every text, an English one beside it.

``"multilingual-e5-small+all-MiniLM-L6-v2"`` (the default model) stores one vector per text,
the two models' vectors side by side, each weighted by the text's script:

    v = [a · e5(text), b · minilm(text)],  b = B · (1 − CJK share of the text),  a = √(1 − b²)

so a Chinese text is its e5 vector alone (MiniLM cannot read Chinese: its half would be noise)
and an English text is both, B² = ``ENGLISH_SHARE`` of the weight each. Stored vectors stay
unit length, and the cosine of two of them is

- two English texts: (1 − B²)·cos_e5 + B²·cos_minilm: an ensemble of the two models;
- two Chinese texts: cos_e5;
- an English and a Chinese text: √(1 − B²)·cos_e5 (e5 alone reads across the languages).

A query is weighted the same way, by its own script. One vector property and one vector
index per label: the engine's Cypher is the same whatever the model. MiniLM runs only on texts
with some non-CJK letters.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ..textsim import cjk_share

ENGLISH_SHARE = 0.5  # B²: the English model's share of the cosine of two English texts
# up to this many texts the two models run side by side, each on one core (a search's query, a
# create's text and its new names): below it neither model splits a batch over both cores itself
SMALL_BATCH = 31
_BESIDE_LOCK = threading.Lock()


class DualEmbedder:
    """``primary`` (multilingual) and ``english`` side by side (see the module docstring)."""

    backend = "dual"

    def __init__(self, primary: Any, english: Any, english_share: float = ENGLISH_SHARE):
        self.primary = primary
        self.english = english
        self.name = f"{primary.name}+{english.name}"
        self.dimension = int(primary.dimension) + int(english.dimension)
        self.asymmetric = bool(getattr(primary, "asymmetric", False) or getattr(english, "asymmetric", False))
        self.revision = "+".join(
            r
            for r in (getattr(primary, "revision", None), getattr(english, "revision", None), f"dual{english_share:g}")
            if r
        )
        queries = "+".join(
            r for r in (getattr(primary, "query_revision", None), getattr(english, "query_revision", None)) if r
        )
        self.query_revision = queries or None  # what else decides the query vectors (embed/int8.py)
        self._b = math.sqrt(english_share)
        self._pool: ThreadPoolExecutor | None = None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._side_by_side(texts, query=False)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._side_by_side(texts, query=True)

    def unknown_share(self, text: str) -> float:
        """The multilingual half reads every text: none is unknown to the pair."""
        return 0.0

    def _side_by_side(self, texts: Sequence[str], query: bool) -> np.ndarray:
        n, d1 = len(texts), int(self.primary.dimension)
        out = np.zeros((n, self.dimension), np.float32)
        if not n:
            return out
        from . import embed_array, embed_query_array

        run = embed_query_array if query else embed_array
        b = np.array([self._b * (1.0 - cjk_share(t)) for t in texts], np.float32)
        a = np.sqrt(1.0 - b * b)
        rows = [i for i in range(n) if b[i] > 0]
        # a query or a create (what a caller waits for): the English model runs beside the primary one
        beside = (
            self._beside().submit(run, self.english, [texts[i] for i in rows]) if rows and n <= SMALL_BATCH else None
        )
        out[:, :d1] = run(self.primary, list(texts)) * a[:, None]
        if rows:
            english = beside.result() if beside is not None else run(self.english, [texts[i] for i in rows])
            out[rows, d1:] = english * b[rows, None]
        return out

    def _beside(self) -> ThreadPoolExecutor:
        with _BESIDE_LOCK:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-embed-english")
            return self._pool
