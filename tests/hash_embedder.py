"""A deterministic stand-in for the embedding model, for tests whose assertions do not depend on
what a model understands (ids, validation, tenancy, export, MCP wiring, CLI output).

Each text is hashed, not read: its words and their character trigrams (a CJK text's characters and
character pairs) each draw a fixed pseudo-random direction (seeded by the feature's hash), summed by
weight, plus one direction every text shares, and the vector is unit-normalised: dense like a model's
(so a stored vector costs what a model's does), and the cosine of two texts follows the features
they share. The same text always gets the same vector, texts that
share words are close, and unrelated texts meet at cosine ≈ ``COMMON``² ≈ 0.42 (the real models' unrelated
texts meet well above zero too, above ``retrieval.seed_min_similarity``). It says nothing about
meaning: a test that checks ranking, recall, merging by meaning or search across languages uses the
real models (``@pytest.mark.real_models``).

It takes the configured model's name and dimension (``graphmem.embed.stand_in``), so the test
server's database holds one model's schema whichever embedder a test uses; each test writes into
groups of its own, so no group mixes the two kinds of vector.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

COMMON = 0.65  # every vector's component along the shared direction (dimension 0)
_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=200_000)
def _direction(feature: str, dimension: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
    v = np.random.default_rng(seed).standard_normal(dimension - 1).astype(np.float32)
    return v / np.linalg.norm(v)


def _features(text: str) -> list[tuple[str, float]]:
    text = unicodedata.normalize("NFKC", text).casefold()
    out: list[tuple[str, float]] = []
    for word in _WORD.findall(text):
        if _CJK.search(word):
            chars = [c for c in word]
            out += [(c, 1.0) for c in chars]
            out += [(a + b, 1.0) for a, b in zip(chars, chars[1:])]
            continue
        out.append((word, 1.0))
        padded = f"#{word}#"
        out += [(padded[i : i + 3], 0.5) for i in range(len(padded) - 2)]
    return out


class HashEmbedder:
    """``embed`` / ``embed_query`` / ``embed_array`` / ``embed_query_array`` of graphmem's
    ``Embedder`` protocol; queries and passages are embedded alike."""

    backend = "hash"

    def __init__(self, name: str, dimension: int):
        self.name = name
        self.dimension = int(dimension)
        self._vector = lru_cache(maxsize=50_000)(self._one)

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimension, np.float32)
        for feature, weight in _features(text):
            v[1:] += weight * _direction(feature, self.dimension)
        norm = float(np.linalg.norm(v))
        if norm:
            v *= np.sqrt(1 - COMMON**2) / norm
        v[0] = COMMON if norm else 1.0  # the direction every text shares
        v.setflags(write=False)
        return v

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), np.float32)
        for i, text in enumerate(texts):
            out[i] = self._vector(text)
        return out

    embed_query_array = embed_array

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def unknown_share(self, text: str) -> float:
        return 0.0
