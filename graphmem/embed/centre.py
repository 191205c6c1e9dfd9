"""A model's common direction taken out of its vectors.

Some models give every text a vector near one common direction: any two texts, however
unrelated, have a cosine of 0.4–0.9 (multilingual-e5-small, bge-small-en-v1.5), where
all-MiniLM-L6-v2 gives unrelated texts about 0. Every threshold of graphmem (concept merging,
a search's similarity floor, the blend with word evidence) reads a cosine as "0 unrelated, 1
the same", so for such a model the common direction is taken out: a vector is its difference
from the mean vector of everyday sentences of its own language (``common_texts.py``, Chinese
and English, embedded the same way: a query's mean for queries, a stored text's for stored
texts; a mixed text's mean is the two in proportion to its CJK share), normalised again. The
cosine of two texts then measures what is particular to them, and a question in one language
about a memory in the other is on the same scale as one in the memory's language: with a
single mean, every Chinese text stayed closer to every other Chinese text than to any English one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..textsim import cjk_share
from .cachefiles import written_atomically

CENTRE_VERSION = 2  # bump when common_texts.SENTENCES or the centring changes
REVISION = f"centre{CENTRE_VERSION}"  # in an embedder's revision: what else than the weights decides the vectors

Raw = Callable[[list[str], bool], np.ndarray]  # (texts, as queries) -> the model's own unit vectors


class Centres:
    """Each side's (query, stored text) mean raw vector of the Chinese and of the English
    everyday sentences, measured once by ``raw`` and kept in the ``cache`` file."""

    def __init__(self, raw: Raw, cache: Path | None):
        names = [f"{side}_{lang}" for side in ("query", "passage") for lang in ("zh", "en")]
        if cache is not None and cache.exists():
            with np.load(cache) as saved:
                v = [saved[n] for n in names]
        else:
            from .common_texts import SENTENCES

            zh = [t for t in SENTENCES if cjk_share(t) > 0.5]
            en = [t for t in SENTENCES if cjk_share(t) <= 0.5]
            v = [raw(texts, query).mean(axis=0) for query in (True, False) for texts in (zh, en)]
            if cache is not None:
                with written_atomically(cache) as tmp, open(tmp, "wb") as out:
                    np.savez(out, **dict(zip(names, v)))
        self._means = {True: (v[0], v[1]), False: (v[2], v[3])}

    def apply(self, vectors: np.ndarray, texts: Sequence[str], query: bool) -> np.ndarray:
        """``vectors`` (the raw ones of ``texts``) without their language's common direction, unit length."""
        if not len(vectors):
            return vectors
        chinese, english = self._means[query]
        share = np.array([cjk_share(t) for t in texts], np.float32)[:, None]
        out = vectors - (share * chinese + (1.0 - share) * english)
        return out / np.clip(np.linalg.norm(out, axis=1, keepdims=True), 1e-12, None)
