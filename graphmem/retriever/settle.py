"""What a searching process keeps for good, out of the garbage collector's way.

CPython's full collection walks every container object the process holds: the imported
modules' functions, classes and constants (about 50,000 objects once graphmem, the Neo4j
driver, numpy and pydantic are loaded), however long they have lived. It runs every few dozen
searches and costs 15 ms on an idle machine, 40–55 ms on a busy 2-core one, all of it inside
whichever search it falls in: the tail of the latency. Once the first search has loaded what
searching needs, ``freeze_once`` collects what is garbage and moves the rest to the permanent
generation (``gc.freeze``), which no collection walks again; objects made later are collected
as before. At exit they are handed back (``gc.unfreeze``), so the interpreter's last collection
frees them as it would have (extensions that count their objects at exit find none left).
Only when asked (``retrieval.freeze_gc = true``): it changes the collector of the whole host
process, which a library must not do on its own; a process that serves searches turns it on.
"""

from __future__ import annotations

import atexit
import gc
import threading

_lock = threading.Lock()
_frozen = False


def freeze_once() -> bool:
    """Collect, then freeze what the process holds, the first time only; True when it froze."""
    global _frozen
    if _frozen:
        return False
    with _lock:
        if _frozen:
            return False
        gc.collect()
        gc.freeze()
        atexit.register(gc.unfreeze)
        _frozen = True
        return True
