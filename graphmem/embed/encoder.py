"""A text encoder on onnxruntime: an ONNX file, its tokenizer.json, a pooling and the prefixes.

``OnnxEmbedder`` runs any BERT-style encoder whose ONNX graph takes ``input_ids`` and
``attention_mask`` (and ``token_type_ids`` when it has that input) and returns the last hidden
state: the models in Maven jars (``jars.py``, bge-small-en-v1.5) as shipped, and the
sentence-transformers folders (``sentence.py``, all-MiniLM-L6-v2) through a graph written from
their weights (``bert.py``). The ``tokenizers`` library runs the tokenizer.json; the pooling
(the first token's vector, or the mean of the tokens') and the L2 normalisation are done here.
No torch. Texts are batched by token count, not characters, so a batch of mixed Chinese (a token
per character) and English (a token per word) carries little padding; onnxruntime releases the
GIL while it computes, so the thread writing to Neo4j is not starved meanwhile.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .centre import REVISION, Centres
from .runs import OnnxSession, RunsInThreads, in_background, onnx_session, padded

# The ONNX embedders split a batch of at least RunsInThreads.PARALLEL_MIN texts over this many
# threads (each running the model on one core); single texts always use one. Measured with
# `graphmem bench write` on 2 cores: batches of 1,000 at ~300/s with one, ~380/s with two, as
# the model's second thread fills the time Neo4j leaves the second core idle.
BATCH_WORKERS = min(2, os.cpu_count() or 1)
POOLINGS = ("cls", "mean")


@dataclass(frozen=True)
class EncoderFiles:
    """What ``OnnxEmbedder`` runs: the files and how the model reads and pools."""

    name: str
    onnx: Path
    tokenizer: Path
    dimension: int
    pooling: str = "mean"  # "cls" or "mean"
    max_length: int = 512  # tokens a text is cut to, special tokens included
    lower_case: bool = False  # lower-case the text before the tokenizer (its own normaliser may too)
    query_prefix: str = ""  # put before a search's query (an instruction)
    passage_prefix: str = ""  # put before what is stored
    revision: str | None = None  # what else than the name decides the vectors
    # the model's common direction taken out (centre.py), measured once into this file; None: not
    centres: Path | None = None
    # the ONNX file quantises its activations per run (8-bit weights): each text then runs alone,
    # so that its vector does not depend on the texts embedded beside it
    quantized: bool = False


class _ReadsUnknown:
    """``unknown_share`` for an embedder that can tokenise (``_token_ids``)."""

    _unknown: dict[str, float]

    def _token_ids(self, text: str) -> tuple[list[int], int | None]:  # pragma: no cover - interface
        raise NotImplementedError

    def unknown_share(self, text: str) -> float:
        """Share of ``text``'s tokens the model cannot read (its unknown token), in [0, 1].

        An English model reads most Chinese words as [UNK]: their embeddings are all alike,
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


class OnnxEmbedder(RunsInThreads, _ReadsUnknown):
    """An encoder on onnxruntime (see the module docstring). Thread-safe: sessions may run from
    several threads at once; each run uses one intra-op thread, a lone query up to two."""

    backend = "onnx"
    THREAD_PREFIX = "graphmem-onnx"
    small_run_threads = 1  # a lone query runs on one thread: in the pair it runs beside e5, one core each

    def __init__(
        self, files: EncoderFiles, batch_size: int = 64, workers: int | None = None, precision: str = "float32"
    ):
        import onnxruntime  # noqa: F401 - ImportError: the caller says what to install

        from .int8 import check_precision

        check_precision(precision)
        if files.pooling not in POOLINGS:
            raise ValueError(f"pooling {files.pooling!r}: use one of {', '.join(POOLINGS)}")
        self.files = files
        self.name = files.name
        self.dimension = files.dimension
        self.revision = "+".join(r for r in (files.revision, REVISION if files.centres else None) if r) or None
        self.asymmetric = files.query_prefix != files.passage_prefix
        self.batch_size = max(1, batch_size)
        self.workers = max(1, BATCH_WORKERS if workers is None else workers)
        self._loading: Future | None = None  # the tokenizer, read on a thread of its own from warm() or first use
        self._loading_lock = threading.Lock()
        self._tok_lock = threading.Lock()  # a tokenizers.Tokenizer is not to be shared by threads at once
        self.onnx_path = files.onnx
        self._inputs: set[str] | None = None
        self._unknown: dict[str, float] = {}
        self.runs_alone = files.quantized
        self._centres = Centres(self._raw, files.centres) if files.centres else None
        self._queries_on(precision)

    def warm(self) -> None:
        """The tokenizer and the session of a lone text read in the background from now on."""
        self._tokenizer_loading()
        super().warm()

    def _tokenizer_loading(self) -> Future:
        with self._loading_lock:
            if self._loading is None:
                self._loading = in_background(_tokenizer, self.files)
            return self._loading

    @property
    def _tokenizer(self) -> Any:
        return self._tokenizer_loading().result()[0]

    @property
    def _unk(self) -> int | None:
        return self._tokenizer_loading().result()[1]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """What is stored, as a float32 matrix, one row per text."""
        return self._embed(texts, query=False)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        """A search's query: the query prefix, and the 8-bit copy of the model when there is one."""
        return self._embed(texts, query=True)

    def _ids(self, texts: Sequence[str], query: bool) -> list[list[int]]:
        prefix = self.files.query_prefix if query else self.files.passage_prefix
        texts = [prefix + t for t in texts]
        if self.files.lower_case:
            texts = [t.lower() for t in texts]
        with self._tok_lock:
            return [e.ids for e in self._tokenizer.encode_batch(texts)]

    def _embed(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not len(texts):
            return np.zeros((0, self.dimension), np.float32)
        vectors = self._in_runs(self._ids(texts, query), self._encode, query)
        return self._centres.apply(vectors, texts, query) if self._centres is not None else vectors

    def _raw(self, texts: list[str], query: bool) -> np.ndarray:
        """The model's own vectors of ``texts`` as queries or stored texts, on the float model."""
        return self._in_runs(self._ids(texts, query), self._encode)

    def _encode(self, batch: list[list[int]], session: OnnxSession) -> np.ndarray:
        input_ids, mask = padded(batch)
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if self._inputs is None:
            self._inputs = {i.name for i in session.get_inputs()}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        hidden = session.run(None, feed)[0]
        return pooled(hidden, mask, self.files.pooling)

    def _probe(self, path: Path) -> np.ndarray:
        """The probe texts' query vectors by the model file ``path`` (int8.int8_model's check)."""
        from .int8 import PROBES

        session = onnx_session(path)
        raw = np.concatenate([self._encode([x], session) for x in self._ids(PROBES, query=True)])
        return self._centres.apply(raw, PROBES, query=True) if self._centres is not None else raw

    def _token_ids(self, text: str) -> tuple[list[int], int | None]:
        """The text's token ids (no special tokens) and the id of the unknown token."""
        if self._unk is None:
            return [], None
        with self._tok_lock:
            text = text.lower() if self.files.lower_case else text
            return self._tokenizer.encode(text, add_special_tokens=False).ids, self._unk


def _tokenizer(files: EncoderFiles) -> tuple[Any, int | None]:
    """The model's tokenizer and the id of its unknown token. A tokenizer.json may carry its own
    truncation and padding: a text is cut at max_length, and padded per run by the embedder."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(files.tokenizer))
    tokenizer.enable_truncation(files.max_length)
    tokenizer.no_padding()
    unk = getattr(tokenizer.model, "unk_token", None)
    return tokenizer, tokenizer.token_to_id(unk) if unk else None


def pooled(hidden: np.ndarray, mask: np.ndarray, pooling: str = "mean") -> np.ndarray:
    """One unit vector per text: the first token's hidden state ("cls"), or the mean of its
    tokens' with the padding left out ("mean", sentence-transformers' mean pooling)."""
    if pooling == "cls":
        vectors = hidden[:, 0, :]
    else:
        weights = mask[..., None].astype(np.float32)
        vectors = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
