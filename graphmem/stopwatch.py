"""A search's stopwatch: each step's milliseconds, none overlapping (``SearchResponse.timings_ms``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class Clock:
    """Each step's milliseconds (``lap``: since the step before; ``timed``: work on another thread
    that overlaps them, and when it ended)."""

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()
        self.laps: dict[str, float] = {}
        self.ended: dict[str, float] = {}

    def lap(self, name: str, since: float | None = None) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - (self.last if since is None else since)) * 1000, 2)
        self.last = now if since is None else self.last

    def timed(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.lap(name, since=start)
            self.ended[name] = time.perf_counter()

    def split(self, name: str, overlapped: str, began: float) -> None:
        """Step ``name`` (the lap just taken, which began at ``began``) split where ``overlapped``
        (timed beside it) ended: ``<overlapped>_wait``, the part the step waited for it, and
        ``<name>_own``, the rest. With the other laps they add up to the total, none overlapping."""
        step = self.laps[name]
        end = self.ended.get(overlapped, began)
        wait = min(step, max(0.0, (end - began) * 1000))
        self.laps[f"{overlapped}_wait"] = round(wait, 2)
        self.laps[f"{name}_own"] = round(step - wait, 2)
