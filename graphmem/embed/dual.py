"""A multilingual model for every text, a model of each language beside it, in one vector.

``"multilingual-e5-small+bge-small-en-v1.5+bge-small-zh-v1.5-q"`` (the default model) stores one
vector per text: e5's vector, the English model's and the Chinese model's side by side in three
blocks, each weighted by the text's script (s, its CJK share):

    v = [a · e5(text), b · en(text), c · zh(text)]
    b = B · (1 − s),  c = C · s,  a = √(1 − b² − c²)

so an English text is e5 and the English model (its Chinese block zero), a Chinese text e5 and
the Chinese model (its English block zero), B² = ``ENGLISH_SHARE`` and C² = ``CHINESE_SHARE``
of the weight each. Stored vectors stay unit length, and the cosine of two of them is

- two English texts: (1 − B²)·cos_e5 + B²·cos_en: an ensemble of e5 and the English model;
- two Chinese texts: (1 − C²)·cos_e5 + C²·cos_zh: an ensemble of e5 and the Chinese model;
- an English and a Chinese text: √(1 − B²)·√(1 − C²)·cos_e5: e5 alone reads across the
  languages, since each language model's block is zero in the other language's vector.

The English and the Chinese model's vectors are therefore never multiplied with each other (two
models' spaces have nothing in common), and neither model reads a text of the other language
(its half would be noise: bge-small-en reads Chinese as unknown tokens). A text of both scripts
is read by all three, each language model in proportion to its share of the text. A query is
weighted the same way, by its own script. One vector property and one vector index per label:
the engine's Cypher is the same whatever the model. A language model runs only on texts with
some of its script.

``"A+B"`` (no Chinese model) is the same with C = 0: Chinese read by e5 alone, the pair
``multilingual-e5-small+bge-small-en-v1.5`` that was the default before.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ..textsim import cjk_share
from .sides import embed_array, embed_query_array

ENGLISH_SHARE = 0.5  # B²: the English model's share of the cosine of two English texts
CHINESE_SHARE = 0.3  # C²: the Chinese model's share of the cosine of two Chinese texts
_BESIDE_LOCK = threading.Lock()


def _latin(share: float) -> float:
    return 1.0 - share


def _cjk(share: float) -> float:
    return share


class DualEmbedder:
    """``primary`` (multilingual) with ``english`` and, optionally, ``chinese`` beside it (see the
    module docstring)."""

    backend = "dual"

    def __init__(
        self,
        primary: Any,
        english: Any,
        chinese: Any | None = None,
        english_share: float = ENGLISH_SHARE,
        chinese_share: float = CHINESE_SHARE,
    ):
        self.primary = primary
        # each language model, its weight (B, C) and how much of a text is its script
        self.readers: list[tuple[Any, float, Callable[[float], float]]] = [(english, math.sqrt(english_share), _latin)]
        if chinese is not None:
            self.readers.append((chinese, math.sqrt(chinese_share), _cjk))
        if hasattr(primary, "small_run_threads"):
            # a query runs the language model beside the multilingual one: one thread each fills two
            # cores, where a second thread of the multilingual model's only makes the two take turns
            primary.small_run_threads = 1
        models = [primary] + [m for m, _, _ in self.readers]
        self.name = "+".join(m.name for m in models)
        self.dimension = sum(int(m.dimension) for m in models)
        self.asymmetric = any(getattr(m, "asymmetric", False) for m in models)
        shares = f"dual{english_share:g}" + (f"-zh{chinese_share:g}" if chinese is not None else "")
        self.revision = "+".join(r for r in [*(getattr(m, "revision", None) for m in models), shares] if r)
        queries = "+".join(r for r in (getattr(m, "query_revision", None) for m in models) if r)
        self.query_revision = queries or None  # what else decides the query vectors (embed/int8.py)
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
        """The multilingual block reads every text: none is unknown to the whole."""
        return 0.0

    def warm(self, texts: Sequence[str] | None = None) -> None:
        """What embedding ``texts`` needs (None: any text) loaded in the background from now on:
        the multilingual model always, a language model only when its script occurs in them. A
        process that asks one Chinese question never loads the English model."""
        shares = None if texts is None else [cjk_share(t) for t in texts]
        needed = [self.primary] + [
            model
            for model, weight, script in self.readers
            if shares is None or any(weight * script(s) > 0 for s in shares)  # as _side_by_side picks its rows
        ]
        for model in needed:
            warm = getattr(model, "warm", None)
            if warm is not None:
                warm()

    def _side_by_side(self, texts: Sequence[str], query: bool) -> np.ndarray:
        n = len(texts)
        out = np.zeros((n, self.dimension), np.float32)
        if not n:
            return out
        run = embed_query_array if query else embed_array
        shares = [cjk_share(t) for t in texts]
        blocks: list[tuple[Any, int, list[int], np.ndarray, Future | None]] = []
        start, left = int(self.primary.dimension), np.ones(n, np.float32)
        for model, weight, script in self.readers:
            w = np.array([weight * script(s) for s in shares], np.float32)
            left -= w * w
            rows = [i for i in range(n) if w[i] > 0]
            # the language models run beside the primary one: a query or a create (what a caller waits for)
            # fills two cores; a batch, whose models each split their runs over both cores, no longer leaves
            # one idle while a model tokenises its texts (Python, one thread) or runs its last few texts
            beside = self._beside().submit(run, model, [texts[i] for i in rows]) if rows else None
            blocks.append((model, start, rows, w, beside))
            start += int(model.dimension)
        a = np.sqrt(np.clip(left, 0.0, 1.0))
        out[:, : int(self.primary.dimension)] = run(self.primary, list(texts)) * a[:, None]
        for model, start, rows, w, beside in blocks:
            if rows:
                vectors = beside.result() if beside is not None else run(model, [texts[i] for i in rows])
                out[rows, start : start + int(model.dimension)] = vectors * w[rows, None]
        return out

    def _beside(self) -> ThreadPoolExecutor:
        with _BESIDE_LOCK:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-embed-language")
            return self._pool
