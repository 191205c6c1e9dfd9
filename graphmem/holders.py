"""Who holds a lock or a claim recorded in the database, and whether that holder is still alive.

A consolidation run's lock (graphmem/lifecycle/lock.py) and an extraction job's claim
(graphmem/ingest/jobs.py) record their holder as (host, pid, token). A holder on this host whose
process is gone (kill -9), or a holder of this very process that stopped working without
releasing (its server went away), is dead: what it held may be taken over at once instead of
waiting for its expiry.
"""

from __future__ import annotations

import os
import socket
import threading

HOST = socket.gethostname()


class Holders:
    """The tokens (run ids, job claims) this process holds and is still working on."""

    def __init__(self) -> None:
        self._active: set[str] = set()
        self._lock = threading.Lock()

    def add(self, token: str) -> None:
        with self._lock:
            self._active.add(token)

    def discard(self, token: str) -> None:
        with self._lock:
            self._active.discard(token)

    def alive(self, host: str | None, pid: int | None, token: str | None) -> bool:
        """Whether the holder recorded as (host, pid, token) may still be working: on another host
        it is assumed to (its expiry decides); here, its process must exist and, when that is this
        process, the token must still be worked on (a holder whose server died could not release)."""
        if host != HOST:
            return True
        if not pid:
            return False
        if int(pid) == os.getpid():
            with self._lock:
                return token in self._active
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
