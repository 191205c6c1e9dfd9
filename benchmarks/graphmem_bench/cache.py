"""An on-disk embedding cache for benchmark runs (sqlite, keyed by model and text).

Embedding every turn of a benchmark is most of its cost; the figures do not change when the
same texts are embedded again, so a re-run reads them back. Wraps any ``Embedder``.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from graphmem.config import user_cache_dir
from graphmem.embed import Embedder, embed_array, embed_query_array


def default_cache_path(model: str, revision: str | None = None) -> Path:
    """One file per model (and revision of its vectors, e.g. e5's centring)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model + (f"-{revision}" if revision else ""))
    return user_cache_dir() / "bench" / f"embeddings-{safe}.sqlite"


class CachedEmbedder:
    """``embed(texts)`` through a sqlite cache; misses are embedded in one batch and stored."""

    def __init__(self, inner: Embedder, path: Path | str):
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS emb (key BLOB PRIMARY KEY, vec BLOB NOT NULL)")
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def _key(text: str) -> bytes:
        return hashlib.sha1(text.encode("utf-8")).digest()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """The embeddings as a float32 matrix (one row per text)."""
        return self._cached(texts, query=False)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        """The texts embedded as queries (the same as ``embed_array`` for a symmetric model)."""
        return self._cached(texts, query=True)

    def _cached(self, texts: Sequence[str], query: bool) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        # a query's vector is keyed apart when the model embeds queries otherwise: another prefix
        # (e5), or another copy of its weights (the 8-bit query side: its revision in the key)
        revision = getattr(self.inner, "query_revision", None) if query else None
        apart = query and (getattr(self.inner, "asymmetric", False) or revision)
        keys = [
            self._key(f"query\x00{revision}\x00{t}" if revision else "query\x00" + t) if apart else self._key(t)
            for t in texts
        ]
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            unique = list(dict.fromkeys(keys))
            for start in range(0, len(unique), 500):
                part = unique[start : start + 500]
                marks = ",".join("?" * len(part))
                for key, vec in self._db.execute(f"SELECT key, vec FROM emb WHERE key IN ({marks})", part):
                    found[key] = np.frombuffer(vec, dtype=np.float32)
        missing: dict[bytes, str] = {}
        for key, text in zip(keys, texts):
            if key not in found and key not in missing:
                missing[key] = text
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            vectors = (
                embed_query_array(self.inner, list(missing.values()))
                if query
                else embed_array(self.inner, list(missing.values()))
            )
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO emb (key, vec) VALUES (?, ?)",
                    [(k, v.tobytes()) for k, v in zip(missing, vectors)],
                )
                self._db.commit()
            found.update(zip(missing, vectors))
        for i, key in enumerate(keys):
            out[i] = found[key]
        return out

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.inner, name)  # e.g. unknown_share of the wrapped model

    def close(self) -> None:
        with self._lock:
            self._db.close()
