"""What a search process remembers of large groups between searches (``retriever/``): their size and
the index's, their speakers; each read by a named query of cypher/search_*.cypher, trusted for TTL_S."""

from __future__ import annotations

import threading
import time
from typing import Any

from .driver import Store

TTL_S = 60.0  # how long the size of a large group, and its speakers, are trusted


class GroupFacts:
    """What a process remembers of large groups between searches: their size and the index's
    (a count over 100,000 memories), their speakers (a DISTINCT over 100,000 turns: ~80 ms)."""

    def __init__(self, store: Store):
        self.store = store
        self._kept: dict[tuple[str, str], tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def _get(self, name: str, group_id: str) -> Any:
        now = time.monotonic()
        with self._lock:
            kept = self._kept.get((name, group_id))
        if kept is None or now - kept[0] >= TTL_S:
            kept = (now, self.store.read(name, group_id=group_id)[0])
            with self._lock:
                self._kept[(name, group_id)] = kept
        return kept[1]

    def size(self, group_id: str) -> tuple[int, int]:
        """(the group's memories, every memory in the index)."""
        row = self._get("search_group_size", group_id)
        return row["group_size"], row["total"]

    def speakers(self, group_id: str) -> list[str]:
        return self._get("search_group_speakers", group_id)["speakers"]
