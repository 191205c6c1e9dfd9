"""How the onnxruntime embedders run a batch: texts of the same length together (padding is wasted
compute), at most ``MAX_BATCH_TOKENS`` tokens a run, and a large batch's runs split over worker
threads (each runs the model on one core; onnxruntime releases the GIL)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import numpy as np


class OnnxInput(Protocol):
    @property
    def name(self) -> str: ...


class OnnxSession(Protocol):
    """What graphmem uses of an ``onnxruntime.InferenceSession`` (onnxruntime ships no type information)."""

    def get_inputs(self) -> list[OnnxInput]: ...

    def run(self, output_names: list[str] | None, input_feed: dict[str, np.ndarray]) -> list[np.ndarray]: ...


class RunsInThreads:
    """Mixin: ``batch_size``, ``workers``, ``dimension`` set by the embedder; the class constants below."""

    MAX_BATCH_TOKENS = 1024  # tokens per run: up to batch_size texts, and at most this many tokens
    PARALLEL_MIN = 64  # a batch of at least this many texts is split over the workers
    THREAD_PREFIX = "graphmem-embed"
    batch_size: int
    workers: int
    dimension: int
    _pool: ThreadPoolExecutor | None = None
    _pool_lock = threading.Lock()
    onnx_path: Path  # the float model: every run of stored texts, on one thread
    # the 8-bit copy a query runs on (embed/int8.py), None: queries run the float model too
    query_path: Path | None = None
    query_revision: str | None = None  # what else decides the query vectors: the 8-bit copy's version
    small_run_threads: int | None = None  # threads of a small run; None: SMALL_RUN_THREADS
    runs_alone = False  # True for a model with 8-bit weights: every text runs alone (see _in_runs)

    def _queries_on(self, precision: str) -> None:
        """With "int8", queries run on the 8-bit copy of ``onnx_path`` (made and checked by
        ``int8.int8_model`` against the embedder's ``_probe``), unless it strays from the float
        model; "float32" leaves them on the float model. A model already on 8-bit weights stays so."""
        if precision != "int8" or self.runs_alone:
            return
        from .int8 import QUANT_VERSION, int8_model

        quantized = int8_model(self.onnx_path, self._probe)
        if quantized != self.onnx_path:
            self.query_path = quantized
            self.query_revision = f"int8v{QUANT_VERSION}"

    def _probe(self, path: Path) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def _warm(self) -> None:
        """The session of a lone text (a search's query, a single create) made in the background:
        a new process's first call then finds it loaded, or loading."""
        in_background(self._session_for, 1)

    def _session_for(self, texts: int, query: bool = False) -> OnnxSession:
        """The session a run of ``texts`` texts uses, made on first use (a process that only
        searches never loads the others): a query's on the 8-bit copy when there is one; a small
        run (a search's query) on SMALL_RUN_THREADS threads; every other run on one thread."""
        path = self.query_path if query and self.query_path is not None else self.onnx_path
        small = SMALL_RUN_THREADS if self.small_run_threads is None else self.small_run_threads
        threads = small if texts <= SMALL_RUN_TEXTS else 1
        key = (str(path), threads)
        sessions = self.__dict__.setdefault("_sessions", {})
        if key not in sessions:
            with self._pool_lock:
                if key not in sessions:
                    sessions[key] = onnx_session(str(path), threads)
        return sessions[key]

    def _in_runs(
        self, ids: list[list[int]], encode: Callable[[list[list[int]], OnnxSession], np.ndarray], query: bool = False
    ) -> np.ndarray:
        """The vectors of the token id lists ``ids`` (one row each), ``encode(run, session)`` per
        run with the session ``_session_for`` picks. A query on the 8-bit copy runs each text
        alone: 8-bit weights quantise a run's activations with one scale, so a text run beside
        others would get a vector that depends on them."""
        out = np.zeros((len(ids), self.dimension), np.float32)
        alone = self.runs_alone or (query and self.query_path is not None)

        def full(rows: list[int]) -> bool:
            if alone:
                return True
            longest = max(1, len(ids[rows[0]]))
            return len(rows) >= max(1, min(self.batch_size, self.MAX_BATCH_TOKENS // longest))

        runs: list[list[int]] = []
        for i in sorted(range(len(ids)), key=lambda i: -len(ids[i])):  # longest first
            last = runs[-1] if runs else None
            if last is None or full(last) or (len(ids[i]) < len(ids[last[-1]]) and len(last) >= MIN_RUN):
                runs.append([i])
            else:
                last.append(i)

        def run(rows: list[int]) -> None:
            out[rows] = encode([ids[i] for i in rows], self._session_for(len(rows), query))

        if self.workers > 1 and len(ids) >= self.PARALLEL_MIN and len(runs) > 1:
            list(self._executor().map(run, runs))
        else:
            for rows in runs:
                run(rows)
        return out

    def _executor(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix=self.THREAD_PREFIX)
        return self._pool


# A run ends where the texts get shorter once it holds MIN_RUN texts: a run of one length carries
# no padding, and the models' cost is per token, padding included. Runs of 64 texts of nearby
# lengths padded bench write's chunks of 250 memories by 23 % (e5) and 41 % (MiniLM); runs of a
# few texts cost no more per token. The vectors are the same to the bit (padding is masked).
MIN_RUN = 4
SMALL_RUN_TEXTS = 2  # a run of at most this many texts (a search's query) uses SMALL_RUN_THREADS
SMALL_RUN_THREADS = min(2, os.cpu_count() or 1)


def onnx_session(path: str | Path, threads: int = 1) -> OnnxSession:
    """An onnxruntime session that runs on ``threads`` threads per call: one for batches (their
    runs go side by side instead), more for a lone query, whose latency a search waits for.
    Idle pool threads sleep instead of spinning: under load the cores are the other calls'."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    if threads > 1:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def padded(batch: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded with 0 to the longest, and the attention mask."""
    length = max(len(x) for x in batch)
    ids = np.zeros((len(batch), length), np.int64)
    mask = np.zeros((len(batch), length), np.int64)
    for r, x in enumerate(batch):
        ids[r, : len(x)] = x
        mask[r, : len(x)] = 1
    return ids, mask


def in_background(fn: Callable[..., Any], *args: Any) -> Future:
    """``fn(*args)`` on a thread of its own; its Future. What a model loads (a tokenizer, a session)
    is read meanwhile the process imports the rest and reaches Neo4j."""
    future: Future = Future()

    def run() -> None:
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
            future.set_exception(exc)

    # not a daemon: the interpreter waits for it at exit rather than tearing a library down mid-load
    threading.Thread(target=run, name="graphmem-model-load", daemon=False).start()
    return future
