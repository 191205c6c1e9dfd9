"""Running the consolidator at an interval.

``ConsolidationScheduler`` (async, in-process) and ``run_every`` (the blocking loop behind
``graphmem consolidate --every``) share ``next_delay``: the interval after a good run; after
failures, a backoff that doubles from ``RETRY_FIRST_S`` up to the interval. Each round first
retries the extraction jobs that are due, and those stranded by a process or server that died,
so that what was said is extracted even when no one runs ``graphmem extract --retry``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)
RETRY_FIRST_S = 60.0  # the first pause after a failed run; doubled per failure, at most the interval


def next_delay(interval_s: float, failures: int, retry_first_s: float = RETRY_FIRST_S) -> float:
    if failures <= 0:
        return interval_s
    return min(interval_s, retry_first_s * 2 ** (failures - 1))


def run_every(
    run: Callable[[], Any],
    interval_s: float,
    *,
    on_result: Callable[[Any], None] | None = None,
    on_error: Callable[[Exception, float], None] | None = None,
    retry_first_s: float = RETRY_FIRST_S,
    max_runs: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Call ``run()`` every ``interval_s`` seconds (backing off after errors); returns the runs made."""
    failures = runs = 0
    while max_runs is None or runs < max_runs:
        try:
            result = run()
            failures = 0
            if on_result:
                on_result(result)
        except Exception as exc:  # noqa: BLE001 - a scheduler logs and retries whatever failed
            failures += 1
            delay = next_delay(interval_s, failures, retry_first_s)
            log.error("consolidation failed (%s); next try in %.1f s", exc, delay)
            if on_error:
                on_error(exc, delay)
        runs += 1
        if max_runs is not None and runs >= max_runs:
            break
        sleep(next_delay(interval_s, failures, retry_first_s))
    return runs


class ConsolidationScheduler:
    """Consolidate groups every ``interval_s`` in the background of an asyncio application::

        scheduler = ConsolidationScheduler(graph, ["alice", "bob"], interval_s=6 * 3600)
        scheduler.start()            # inside a running event loop
        ...
        await scheduler.stop()

    ``graph``: a MemoryGraph or AsyncMemoryGraph; ``group_ids``: the groups, or None for every group
    that holds memories when the run starts. Each run is logged; ``runs`` holds the reports (the
    last 100), ``errors`` the failures; after a failure it retries sooner (backoff).
    """

    def __init__(
        self,
        graph: Any,
        group_ids: list[str] | None = None,
        *,
        interval_s: float | None = None,
        retry_first_s: float = RETRY_FIRST_S,
    ):
        self.graph = getattr(graph, "sync", graph)
        self.group_ids = None if group_ids is None else list(group_ids)
        self.interval_s = interval_s or self.graph.settings.consolidation.interval_hours * 3600
        self.retry_first_s = retry_first_s
        self.runs: list[Any] = []
        self.errors: list[Exception] = []
        self._task: asyncio.Task | None = None
        self._failures = 0

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="graphmem-consolidation")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def run_once(self) -> list[Any]:
        """Extraction jobs that are due or stranded first (their memories join this run), then one
        consolidation per group."""
        reports = []
        for group_id in self.group_ids if self.group_ids is not None else [None]:
            retried = await asyncio.to_thread(self.graph.retry_extractions, group_id)
            if retried.attempted:
                log.info("extraction jobs retried before consolidating: %s done of %s", retried.done, retried.attempted)
        groups = self.group_ids if self.group_ids is not None else await asyncio.to_thread(self.graph.memory_groups)
        for group_id in groups:
            report = await asyncio.to_thread(self.graph.consolidate, group_id)
            log.info("consolidated %s: %s in %.1f s", group_id, report.counts, report.seconds)
            reports.append(report)
        return reports

    async def _loop(self) -> None:
        while True:
            try:
                self.runs.extend(await self.run_once())
                del self.runs[:-100]
                self._failures = 0
            except Exception as exc:  # noqa: BLE001 - logged, retried after a backoff
                self._failures += 1
                self.errors.append(exc)
                del self.errors[:-100]
                log.error(
                    "consolidation failed (%s); retrying in %.1f s",
                    exc,
                    next_delay(self.interval_s, self._failures, self.retry_first_s),
                )
            await asyncio.sleep(next_delay(self.interval_s, self._failures, self.retry_first_s))
