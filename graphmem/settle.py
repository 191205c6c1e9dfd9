"""What a searching process keeps for good, out of the garbage collector's way, when asked
(``retrieval.freeze_gc``: it changes the host process's collector, which a library must not do
on its own). CPython's full collection walks every object the process holds (~50,000 once the
libraries are loaded), 15–55 ms inside one search every few dozen; after the first search
``freeze_once`` moves them to the permanent generation (``gc.freeze``), handed back at exit.
"""

from __future__ import annotations

import atexit
import gc
import threading

_lock = threading.Lock()
_frozen = False


def freeze_once() -> None:
    """Collect, then freeze what the process holds, the first time only."""
    global _frozen
    with _lock:
        if not _frozen:
            gc.collect()
            gc.freeze()
            atexit.register(gc.unfreeze)
            _frozen = True
