"""The consolidator: one run takes the group's staged memories in batches and, per batch, merges
duplicate concepts, merges duplicate memories, finds conflicts (supersede chains), discovers
links, and marks the batch consolidated; then, over the whole group, folds old trivia into
summaries and updates decay, archiving what faded. Seed 004 §12.1–12.4.

Safe by construction:
- every change is a small transaction that is whole or absent, and every step is idempotent
  (a merged node is gone, a merged memory archived, a superseded one names its successor, a
  batch is marked only when its steps are done): a run killed anywhere and run again ends in
  the graph an uninterrupted run makes;
- one run per group at a time (``lock.RunLock``, in the database);
- ``dry_run``: the same run inside one transaction that is rolled back: the report says
  exactly what a run would change, and nothing changes;
- every run leaves a ``:ConsolidationRun`` node (when, counts per step, errors).
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..config import Settings
from ..errors import ValidationError
from .concepts import ConceptMerger
from .discover import RelationFinder
from .fade import Fader
from .lock import HOST, RunLock
from .memories import MemoryReconciler
from .report import EVENTS, ConsolidationReport, Event
from .work import Work

log = logging.getLogger(__name__)
IMPORTANT = 0.8  # a memory at least this important raises an "important_memory" event

Listener = Callable[[Event], Any]


class Consolidator:
    """``run(group_id)`` consolidates one group; ``on(kind, callback)`` registers for events."""

    def __init__(self, graph: Any, settings: Settings | None = None):
        self.graph = graph
        self.settings = settings or graph.settings
        self._listeners: dict[str, list[Listener]] = {}

    def on(self, kind: str, callback: Listener) -> None:
        """Call ``callback(event)`` for every event of ``kind`` ("*": all): memory_merged,
        concept_merged, conflict_found, memory_archived, important_memory, summary_made, run_finished."""
        if kind != "*" and kind not in EVENTS:
            raise ValidationError(f"event: unknown kind {kind!r}", field="event", allowed=["*", *EVENTS])
        self._listeners.setdefault(kind, []).append(callback)

    def _emit(self, report: ConsolidationReport, kind: str, **data: Any) -> None:
        if report.dry_run:
            return
        event = Event(kind=kind, group_id=report.group_id, run_id=report.run_id, data=data)
        for cb in self._listeners.get(kind, []) + self._listeners.get("*", []):
            try:
                cb(event)
            except Exception as exc:  # noqa: BLE001 - a listener's failure must not stop the run
                log.warning("consolidation event listener %r failed on %s: %s", cb, kind, exc)
                report.errors.append(f"listener for {kind} failed: {exc}")

    def run(
        self,
        group_id: str,
        *,
        dry_run: bool = False,
        now: datetime | None = None,
        max_batches: int | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> ConsolidationReport:
        cfg = self.settings.consolidation
        as_of = now or datetime.now(UTC)
        if as_of.tzinfo is None:
            as_of = as_of.replace(tzinfo=UTC)
        started = time.perf_counter()
        run_id = uuid.uuid4().hex
        stamp = datetime.now(UTC).isoformat()
        report = ConsolidationReport(
            run_id=run_id, group_id=group_id, dry_run=dry_run, started_at=stamp, as_of=as_of.isoformat()
        )
        work = Work(self.graph.store, dry_run=dry_run)
        lock = RunLock(work, group_id, run_id, cfg.lock_ttl_s)
        try:
            lock.acquire()
            if lock.stolen_from:
                report.errors.append(f"took over the lock of run {lock.stolen_from}, whose process is gone")
                work.write(
                    "lifecycle_run_finish",
                    group_id=group_id,
                    run_id=lock.stolen_from,
                    finished_at=stamp,
                    status="interrupted",
                    counts=None,
                    errors=["its process ended before it finished"],
                    processed=None,
                    seconds=None,
                )
            work.write(
                "lifecycle_run_start",
                group_id=group_id,
                run_id=run_id,
                started_at=stamp,
                as_of=as_of.isoformat(),
                host=HOST,
                pid=os.getpid(),
            )
            report.status = "interrupted"  # until the steps end (Ctrl-C leaves it so in the record)
            try:
                self._steps(work, lock, report, as_of, max_batches, progress)
                report.status = "finished"
            except Exception as exc:
                report.status = "failed"
                report.errors.append(f"{type(exc).__name__}: {exc}")
                raise
            finally:
                report.finished_at = datetime.now(UTC).isoformat()
                report.seconds = round(time.perf_counter() - started, 3)
                try:
                    work.write(
                        "lifecycle_run_finish",
                        group_id=group_id,
                        run_id=run_id,
                        finished_at=report.finished_at,
                        status=report.status,
                        counts=json.dumps(report.counts, sort_keys=True),
                        errors=report.errors[:50],
                        processed=report.processed,
                        seconds=report.seconds,
                    )
                    lock.release()
                except Exception as exc:  # noqa: BLE001 - the run's own error matters more
                    lock.abandon()  # the lock stays behind: the next run takes it over
                    log.warning("could not record the end of consolidation run %s: %s", run_id, exc)
        finally:
            work.close()
        self._emit(report, "run_finished", status=report.status, counts=report.counts)
        return report

    def _steps(
        self,
        work: Work,
        lock: RunLock,
        report: ConsolidationReport,
        as_of: datetime,
        max_batches: int | None,
        progress: Callable[[str, int, int], None] | None,
    ) -> None:
        cfg = self.settings.consolidation
        group_id, run_id = report.group_id, report.run_id
        judge = self._judge()
        concepts = ConceptMerger(work, self.settings.resolution, judge.same if judge else None)
        reconciler = MemoryReconciler(work)
        finder = RelationFinder(work, cfg, judge.causes if judge else None)
        staged_total = sum(r["n"] for r in work.read("lifecycle_counts", group_id=group_id) if r["status"] == "staged")
        batches = 0
        while max_batches is None or batches < max_batches:
            ids = [r["id"] for r in work.read("lifecycle_staged", group_id=group_id, limit=cfg.batch_size)]
            if not ids:
                break
            now = datetime.now(UTC).isoformat()
            report.count("keyed_concepts", concepts.key_new_concepts(group_id))
            merges = concepts.merge_batch(group_id, ids, run_id)
            report.concept_merges.extend(merges)
            report.count("concepts_merged", len(merges))
            for m in merges:
                self._emit(report, "concept_merged", **m.model_dump())
            batch, related = reconciler.load(group_id, ids)
            dups, conflicts = reconciler.reconcile(group_id, batch, related, run_id, now)
            report.memory_merges.extend(dups)
            report.count("memories_merged", len(dups))
            for d in dups:
                self._emit(report, "memory_merged", **d.model_dump())
            report.conflicts.extend(conflicts)
            report.count("conflicts", len(conflicts))
            for c in conflicts:
                self._emit(report, "conflict_found", **c.model_dump())
            archived = {d.duplicate_id for d in dups}
            found = finder.discover(group_id, ids, archived, run_id, now)
            report.discovered.extend(found)
            report.count("references", sum(1 for f in found if f.edge_type == "REFERENCE"))
            report.count("causal_candidates", sum(1 for f in found if f.edge_type == "CAUSALITY"))
            for memory in batch:
                if memory.id not in archived and memory.importance >= IMPORTANT:
                    self._emit(report, "important_memory", memory_id=memory.id, text=memory.text)
            work.write("lifecycle_mark_consolidated", group_id=group_id, ids=ids, now=now, run_id=run_id)
            report.processed += len(ids)
            batches += 1
            if progress:
                progress("batches", report.processed, max(staged_total, report.processed))
            lock.refresh()
        now = datetime.now(UTC).isoformat()
        fader = Fader(work, cfg, self.settings.retrieval.decay, judge.summary if judge else None)
        summaries = fader.summarize(
            group_id,
            as_of,
            run_id,
            now,
            self.graph.writer,
            lambda s: self._emit(report, "summary_made", **s.model_dump()),
        )
        report.summaries.extend(summaries)
        report.count("summaries", len(summaries))
        report.count("summarized", sum(len(s.sources) for s in summaries))
        updated, faded = fader.decay(group_id, as_of, run_id, now)
        report.count("strength_updated", updated)
        report.archived.extend(faded)
        report.count("archived", len(faded))
        for memory_id in faded:
            self._emit(report, "memory_archived", memory_id=memory_id, reason="decayed")

    def _judge(self) -> Any:
        if not (self.settings.consolidation.use_llm and self.settings.llm.base_url):
            return None
        from .judge import LLMJudge

        return LLMJudge(self.settings.llm)
