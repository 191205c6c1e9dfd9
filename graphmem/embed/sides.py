"""What graphmem needs of an embedding model (``Embedder``), its optional sides, and the helpers that
use a side when a model has it. Re-exported by ``graphmem.embed``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """What graphmem needs of an embedding model: its name (stored beside the vectors), the
    vectors' dimension, and texts as vectors. The optional sides below are used when present."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@runtime_checkable
class QuerySide(Protocol):
    """Optional: queries embedded apart from passages (e5's "query: " prefix, bge's instruction)."""

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]: ...


@runtime_checkable
class ArraySide(Protocol):
    """Optional: passages and queries as one float32 array each, without Python lists between."""

    def embed_array(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray: ...


@runtime_checkable
class Vocabulary(Protocol):
    """Optional: the share of a text's words the model cannot read (its tokenizer's unknown
    pieces): a similarity over such a text means little, and search and merging weigh it so."""

    def unknown_share(self, text: str) -> float: ...


def embed_query(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """``texts`` embedded as queries (an embedder without a query side embeds them as passages)."""
    return embedder.embed_query(texts) if isinstance(embedder, QuerySide) else embedder.embed(texts)


def embed_query_array(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    if isinstance(embedder, ArraySide):
        return embedder.embed_query_array(texts)
    return np.asarray(embed_query(embedder, texts), np.float32).reshape(len(texts), -1)


def embed_array(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    if isinstance(embedder, ArraySide):
        return embedder.embed_array(texts)
    return np.asarray(embedder.embed(texts), np.float32).reshape(len(texts), -1)


def unknown_share(embedder: Embedder | None) -> Callable[[str], float] | None:
    """The embedder's ``unknown_share`` (``Vocabulary``), None when it has none."""
    return embedder.unknown_share if isinstance(embedder, Vocabulary) else None
