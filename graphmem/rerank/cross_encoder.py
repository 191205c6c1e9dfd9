"""A local cross-encoder: the query and a result read together by one model, one score out.

``OnnxCrossEncoder`` runs an ONNX export of a sequence-classification model (inputs
``input_ids``, ``attention_mask`` and, when it has that input, ``token_type_ids``; output the
logits, one or two per pair) with its ``tokenizer.json``: the ``tokenizers`` library makes the
pair (its template adds the separators and the type ids), onnxruntime scores it. No torch. A
model with one logit is read through the logistic function; one with two takes the softmax of
the second (the "relevant" class).

``SentenceTransformersCrossEncoder`` runs any sentence-transformers ``CrossEncoder`` by folder or
name: it needs the extra ``graphmem[sentence-transformers]`` (torch).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from .base import unit_scores

BATCH = 8  # pairs per onnxruntime run; the deadline is checked between runs


def onnx_files(path: str | Path) -> tuple[Path, Path] | None:
    """(model.onnx, tokenizer.json) of a folder or of an .onnx file with tokenizer.json beside it
    (or one level up, as in an ``onnx/`` subfolder), or None when ``path`` holds no ONNX model."""
    path = Path(path).expanduser()
    if path.is_file() and path.suffix == ".onnx":
        candidates = [path]
    elif path.is_dir():
        candidates = [path / "model.onnx", path / "onnx" / "model.onnx", *sorted(path.glob("*.onnx"))]
    else:
        return None
    for model in candidates:
        if model.is_file():
            for folder in (model.parent, model.parent.parent):
                if (folder / "tokenizer.json").is_file():
                    return model, folder / "tokenizer.json"
            raise ConfigError(f"{model} has no tokenizer.json beside it: the cross-encoder needs its fast tokenizer")
    return None


class OnnxCrossEncoder:
    """A cross-encoder on onnxruntime (see the module docstring). Thread-safe."""

    def __init__(self, model: Path, tokenizer: Path, max_length: int = 512):
        from tokenizers import Tokenizer

        from ..embed.runs import onnx_session

        self.name = f"cross-encoder {model}"
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(max_length)
        self._tokenizer.no_padding()
        self._lock = threading.Lock()  # a tokenizers.Tokenizer is not to be shared by threads at once
        self._session = onnx_session(model, threads=1)
        self._inputs = {i.name for i in self._session.get_inputs()}

    def scores(self, query: str, documents: Sequence[str], deadline: float) -> list[float]:
        with self._lock:
            pairs = self._tokenizer.encode_batch([(query, d) for d in documents])
        out: list[float] = []
        for start in range(0, len(pairs), BATCH):
            if time.perf_counter() > deadline:
                raise TimeoutError("past the rerank budget")
            out.extend(self._run(pairs[start : start + BATCH]))
        return out

    def _run(self, pairs: list[Any]) -> list[float]:
        length = max(len(p.ids) for p in pairs)
        ids = np.zeros((len(pairs), length), np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for row, p in enumerate(pairs):
            ids[row, : len(p.ids)] = p.ids
            types[row, : len(p.ids)] = p.type_ids
            mask[row, : len(p.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = types
        logits = np.asarray(self._session.run(None, feed)[0], np.float64).reshape(len(pairs), -1)
        if logits.shape[1] == 1:
            return [float(v) for v in 1.0 / (1.0 + np.exp(-np.clip(logits[:, 0], -60.0, 60.0)))]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return [float(v) for v in shifted[:, -1] / shifted.sum(axis=1)]


class SentenceTransformersCrossEncoder:
    """sentence-transformers' ``CrossEncoder`` (the extra graphmem[sentence-transformers])."""

    def __init__(self, model: str, max_length: int = 512):
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ConfigError(
                f"rerank.path {model!r} holds no ONNX model (model.onnx and tokenizer.json) and "
                f"sentence-transformers is not installed: pip install 'graphmem[sentence-transformers]'"
            ) from exc
        try:
            self._model = CrossEncoder(model, max_length=max_length, device="cpu")
        except Exception as exc:  # noqa: BLE001 - any load failure is a config problem here
            raise ConfigError(f"cannot load the cross-encoder {model!r} ({exc.__class__.__name__}: {exc})") from exc
        self.name = f"cross-encoder {model}"
        self._lock = threading.Lock()

    def scores(self, query: str, documents: Sequence[str], deadline: float) -> list[float]:
        with self._lock:  # torch on a small machine: one call at a time
            raw = self._model.predict([(query, d) for d in documents], show_progress_bar=False, convert_to_numpy=True)
        return unit_scores(np.asarray(raw, np.float64).reshape(len(documents), -1)[:, -1].tolist())


def cross_encoder(path: str | None, engine: str = "auto", max_length: int = 512) -> Any:
    """The cross-encoder ``rerank.path`` names, on the engine ``rerank.engine`` asks for."""
    if not path:
        raise ConfigError("rerank.kind is cross-encoder: set rerank.path to its folder (model.onnx, tokenizer.json)")
    if engine == "sentence-transformers":
        return SentenceTransformersCrossEncoder(path, max_length)
    files = onnx_files(path)
    if files is not None:
        return OnnxCrossEncoder(*files, max_length=max_length)
    if engine == "onnx":
        raise ConfigError(f"rerank.path {path!r} holds no model.onnx (with its tokenizer.json)")
    return SentenceTransformersCrossEncoder(path, max_length)
