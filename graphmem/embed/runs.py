"""How the onnxruntime embedders run a batch: texts of the same length together (padding is wasted
compute), at most ``MAX_BATCH_TOKENS`` tokens a run, and a large batch's runs split over worker
threads (each runs the model on one core; onnxruntime releases the GIL)."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)
APART_VERSION = 2  # bump when how a model's weights are written apart changes


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

    def warm(self) -> None:
        """The session of a lone text (a search's query, a single create) made in the background:
        a new process's first call then finds it loaded, or loading. Once: later calls do nothing."""
        if self.__dict__.get("_warming") is None:
            self._warming = in_background(self._session_for, 1)

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
                    sessions[key] = onnx_session(str(weights_apart(path)), threads)
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


def weights_apart(path: Path) -> Path:
    """``path``'s model with its weights in a file of their own beside it, made once (a second or
    two) and found after: ``encoder.onnx`` → ``encoder.apart-v2-<size>-<mtime>.onnx`` and its
    ``.weights``, named for the file they were made from (a model exported again gets a new copy;
    older copies are removed). onnxruntime reads weights kept apart straight into its tensors,
    where a model that holds them inline is first parsed whole and copied: a new process's
    session of e5 or bge-small starts in 0.13–0.18 s instead of 0.25–0.45 s (docs/benchmarks.md,
    "A cold CLI call"). Same graph, same numbers: the vectors are the same to the bit. ``path``
    itself (logged) when the copy cannot be made, as in a read-only cache: a slower start, nothing else."""
    try:
        stat = path.stat()
    except OSError:
        return path  # onnxruntime names the missing file
    prefix = f"{path.stem}.apart-v"
    stem = f"{prefix}{APART_VERSION}-{stat.st_size:x}-{stat.st_mtime_ns:x}"
    target, weights = path.with_name(stem + ".onnx"), path.with_name(stem + ".weights")
    if target.exists() and weights.exists():
        return target
    try:
        import onnx

        model = onnx.load(str(path))
        work = Path(tempfile.mkdtemp(prefix=".apart-", dir=path.parent))
        try:  # the weights land first: whoever finds the model finds its weights beside it
            onnx.save_model(model, str(work / target.name), save_as_external_data=True, location=weights.name)
            for made in (work / weights.name, work / target.name):  # readable by whoever reads the model
                os.chmod(made, stat.st_mode & 0o777)
            os.replace(work / weights.name, weights)
            os.replace(work / target.name, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    except Exception as exc:  # noqa: BLE001 - whatever stops the copy, the model itself still serves
        log.info("could not write the weights of %s apart (%s): its sessions start slower", path, exc)
        return path
    for old in path.parent.glob(f"{prefix}*"):
        if not old.name.startswith(stem):
            old.unlink(missing_ok=True)  # a copy of the model as it was before it was exported again
    for work in path.parent.glob(".apart-*"):
        with contextlib.suppress(OSError):  # another process may be removing it too
            if time.time() - work.stat().st_mtime > 3600:  # left by a process killed while it wrote
                shutil.rmtree(work, ignore_errors=True)
    return target


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
