"""Access statistics, written off the read path: a search hands the ids it returned to
``AccessRecorder.record`` (a non-blocking put on a bounded queue; when it is full, statistics are
dropped rather than slow a search); a background thread batches them for up to ``interval``
seconds (or ``max_batch`` ids) and writes ``access_count`` + 1, ``last_accessed_at`` (query
``record_access``). ``flush()`` waits for what was recorded; ``close()`` (or the program's exit)
flushes and stops the thread.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
import weakref
from collections import defaultdict
from datetime import UTC, datetime

from .errors import Neo4jUnavailableError
from .store.driver import Store

log = logging.getLogger(__name__)
_STOP = object()


class AccessRecorder:
    def __init__(self, store: Store, *, interval: float = 0.5, max_batch: int = 2000, max_queue: int = 10000):
        self.store = store
        self.interval = interval
        self.max_batch = max_batch
        self._queue: queue.Queue = queue.Queue(maxsize=max_queue)
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        self.dropped = 0
        self.written = 0

    def record(self, group_id: str, ids: list[str]) -> None:
        """Never blocks: the write happens later, in the background."""
        if not ids or self._closed:
            return
        self._ensure_thread()
        try:
            self._queue.put_nowait((group_id, list(ids)))
        except queue.Full:
            self.dropped += len(ids)

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until everything recorded before this call is written. True when it was."""
        if self._thread is None or not self._thread.is_alive():
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, timeout: float = 30.0) -> None:
        if self._closed:
            return
        self.flush(timeout)
        self._closed = True
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._queue.put(_STOP)
            thread.join(timeout)

    # --- the writer thread ------------------------------------------------------------
    def _ensure_thread(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="graphmem-access", daemon=True)
                self._thread.start()
                ref = weakref.ref(self)  # a program that never calls close() still writes what it read
                atexit.register(lambda: (r := ref()) is not None and not r._closed and r.flush(timeout=5))

    def _run(self) -> None:
        pending: dict[str, list[str]] = defaultdict(list)
        size, since = 0, 0.0
        while True:
            wait = self.interval if not size else max(0.0, since + self.interval - time.monotonic())
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                item = None
            if isinstance(item, tuple):
                if not size:
                    since = time.monotonic()
                pending[item[0]].extend(item[1])
                size += len(item[1])
                if size < self.max_batch and time.monotonic() - since < self.interval:
                    continue
            self._write(pending)
            pending, size = defaultdict(list), 0
            if isinstance(item, threading.Event):
                item.set()
            elif item is _STOP:
                return

    def _write(self, pending: dict[str, list[str]]) -> None:
        if not pending:
            return
        now = datetime.now(UTC).isoformat()
        for group_id, ids in pending.items():
            try:
                self.store.write("record_access", group_id=group_id, ids=ids, now=now)
                self.written += len(ids)
            except Neo4jUnavailableError as exc:  # the server is gone: one line, no traceback
                log.warning("could not record access statistics for %d memories of %r: %s", len(ids), group_id, exc)
            except Exception:  # noqa: BLE001 - statistics must never break searches
                log.warning(
                    "could not record access statistics for %d memories of %r", len(ids), group_id, exc_info=True
                )
