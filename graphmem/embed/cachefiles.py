"""Files of the model cache written whole or not at all: another process reading the cache (or
this one, killed mid-write) sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def written_atomically(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target`` to write; moved onto ``target`` when the block ends
    without an error, removed when it raises."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
