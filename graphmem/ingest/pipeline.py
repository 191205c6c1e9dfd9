"""Conversations in: episodes first, then extraction, and a retry queue for what failed.

``Ingestor.ingest`` stores the turns as episodes together with their extraction jobs in one
transaction, then runs each job: the extractor (rules or an LLM) makes a plan, the plan's
memories are written with their evidence edges (``EXTRACTED_FROM`` the episodes, in the same
transaction as each memory) and its links after them. A job that fails stays ``pending`` with
its error and is retried with backoff by ``retry``; nothing that was said is lost.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol, cast

from ..builder.create import MemoryWriter
from ..builder.link import MemoryLinker
from ..config import Settings
from ..embed import Embedder
from ..errors import ExtractionError, GraphmemError, ValidationError
from ..store.driver import Store
from ..types import (
    MAX_ID,
    MAX_INGEST_CHARS,
    LinkInput,
    MemoryInput,
    as_reference_time,
    validate,
    validate_group_id,
    validate_optional_id,
)
from .episodes import (
    CHUNK_OVERLAP,
    CHUNK_SIZE,
    EpisodeRow,
    EpisodeWriter,
    parse_messages,
    split_text,
    text_length,
    text_messages,
)
from .jobs import JobQueue, job_counts, stranded_jobs
from .models import EpisodeView, ExtractionPlan, IngestReport, JobOutcome, Message, PlannedMemory, RetryReport
from .people import People

log = logging.getLogger(__name__)
EXTRACTORS = ("rules", "llm", "none")
# One segment of a long ingest (in text_length units, a CJK character counting 4): about sixteen
# episode chunks, embedded in one batch and written in one transaction with their jobs, then
# extracted before the next segment is read. Memory and transaction size stay bounded however
# long the input, and the time of an ingest grows linearly with it.
SEGMENT_UNITS = 16 * CHUNK_SIZE
RESUME_PER_INGEST = 3  # stranded jobs of its group an ingest takes up after its own
Progress = Callable[[str, int, int], None]  # (stage, done, total): "episodes" / "extract"


class Extractor(Protocol):
    """``extract(episodes)`` makes a plan; an extractor with ``uses_people = True`` is called as
    ``extract(episodes, people=...)`` with the people the group already knows by role."""

    name: str

    def extract(self, episodes: list[EpisodeView]) -> ExtractionPlan: ...


@dataclass
class Conversation:
    """One session's turns for ``ingest_sessions``; ``embeddings`` (one per message) are optional."""

    session_id: str
    messages: list[Message]
    reference_time: datetime
    embeddings: Sequence[Sequence[float]] | None = None


class MemoryBackend(Protocol):
    """What the ingest path writes through: a MemoryGraph's store, embedder and builder
    (``MemoryWriter``, ``MemoryLinker``), its settings and its schema check."""

    settings: Settings
    store: Store
    embedder: Embedder
    writer: MemoryWriter
    linker: MemoryLinker

    def ensure_schema(self) -> None: ...


class Ingestor:
    """The ingest path of one MemoryGraph (``graph.ingest`` and ``graph.retry_extractions`` use it):
    episodes through ``EpisodeWriter``, jobs through ``JobQueue``, memories and links straight
    through the builder."""

    def __init__(
        self,
        graph: MemoryBackend,
        *,
        max_attempts: int = 5,
        backoff_base_s: float = 30.0,
        backoff_max_s: float = 3600.0,
        rules_window: int = 200,
        llm_window: int = 10,
        llm_window_chars: int = 8000,
        chunk_size: int = CHUNK_SIZE,
        chunk_overlap: int = CHUNK_OVERLAP,
    ):
        self.store = graph.store
        self.llm_settings = graph.settings.llm
        self.memory_writer = graph.writer
        self.linker = graph.linker
        self.ensure_schema = graph.ensure_schema
        self.writer = EpisodeWriter(graph.store, graph.embedder, chunk_size=chunk_size, chunk_overlap=chunk_overlap)
        self.queue = JobQueue(
            graph.store, max_attempts=max_attempts, backoff_base_s=backoff_base_s, backoff_max_s=backoff_max_s
        )
        self.rules_window = rules_window
        self.llm_window = llm_window
        self.llm_window_chars = llm_window_chars
        self._extractors: dict[str, Extractor] = {}
        self._lock = threading.Lock()

    # --- extractors ---
    def extractor(self, spec: Any) -> Extractor | None:
        """ "rules", "llm", "none" (or None: llm when an endpoint is configured, else rules), or an object."""
        if spec is None:
            spec = "llm" if self.llm_settings.base_url else "rules"
        if isinstance(spec, str):
            name = spec.strip().lower()
            if name == "none":
                return None
            with self._lock:
                if name not in self._extractors:
                    if name == "rules":
                        from .rules import RuleExtractor

                        self._extractors[name] = RuleExtractor()
                    elif name == "llm":
                        from .llm import LLMExtractor

                        self._extractors[name] = LLMExtractor(self.llm_settings)
                    else:
                        raise ValidationError(
                            f"extractor: {spec!r} is not known in this process",
                            field="extractor",
                            allowed=list(EXTRACTORS),
                        )
                return self._extractors[name]
        if not hasattr(spec, "extract") or not isinstance(getattr(spec, "name", None), str):
            raise ValidationError(
                "extractor: must be rules, llm, none, or an object with a name and extract(episodes)",
                field="extractor",
                allowed=list(EXTRACTORS),
            )
        with self._lock:
            self._extractors[spec.name] = spec  # retries in this process find it by name
        return spec

    # --- ingest ---
    def ingest(
        self,
        group_id: str,
        messages: Any = None,
        text: str | None = None,
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        extractor: Any = None,
        source: str = "ingest",
        progress: Progress | None = None,
        request_id: str | None = None,
    ) -> IngestReport:
        """Store the turns (or a text, split into chunks) of one session, then extract from them.
        ``request_id``: an idempotency key (see ``ingest_sessions``).

        At most MAX_INGEST_CHARS characters per call. A long input is taken in segments of about
        SEGMENT_UNITS (each stored, then extracted, before the next is read), so time and memory
        grow linearly with it; ``progress("segments", done, total)`` follows them."""
        group_id = validate_group_id(group_id)
        session_id = validate_optional_id(session_id, "session_id") or f"s-{uuid.uuid4().hex[:12]}"
        if (messages is None) == (text is None):
            raise ValidationError("give either messages (a list of turns) or text", field="messages")
        field = "messages" if text is None else "text"
        if text is not None and isinstance(text, str) and len(text) > MAX_INGEST_CHARS:
            raise ValidationError(_too_long(field, len(text)), field=field)
        if text is None and (size := _turns_size(messages)) > MAX_INGEST_CHARS:
            raise ValidationError(_too_long(field, size), field=field)  # before any turn is parsed
        parsed = text_messages(text) if text is not None else parse_messages(messages)
        size = sum(len(m.content) for m in parsed)
        if size > MAX_INGEST_CHARS:
            raise ValidationError(_too_long(field, size), field=field)
        if not parsed:
            raise ValidationError("messages: every turn is empty: there is nothing to store", field="messages")
        reference = as_reference_time(reference_time)
        parts = segments(parsed)
        report: IngestReport | None = None
        for k, part in enumerate(parts):
            done = self.ingest_sessions(
                group_id,
                [Conversation(session_id, part, reference)],
                extractor=extractor,
                source=source,
                progress=progress if len(parts) == 1 else None,
                request_id=segment_key(request_id, k),
            )
            report = done if report is None else report.merged(done)
            if progress and len(parts) > 1:
                progress("segments", k + 1, len(parts))
        return report  # type: ignore[return-value]

    def ingest_sessions(
        self,
        group_id: str,
        conversations: list[Conversation],
        *,
        extractor: Any = None,
        source: str = "ingest",
        progress: Progress | None = None,
        request_id: str | None = None,
    ) -> IngestReport:
        """Several sessions at once: one transaction for all their episodes and jobs, then extraction.

        ``request_id``: an idempotency key claimed in the episodes' transaction. A repeat of an
        applied request stores nothing: it returns the first report, or, when the first call did
        not get to the end, finishes that call's extraction jobs and reports them."""
        from ..builder.requests import fingerprint, record, stored, validate_request_id

        group_id = validate_group_id(group_id)
        request_id = validate_request_id(request_id)
        ext = self.extractor(extractor)
        self.ensure_schema()
        claim: tuple[str, str] | None = None  # (request id, fingerprint) of an idempotent call
        if request_id is not None:
            digest = fingerprint(
                "ingest",
                [[[m.role, m.content, m.speaker, m.timestamp] for m in c.messages] for c in conversations]
                + [ext.name if ext else None],
            )
            done = stored(self.store, group_id, request_id, "ingest", digest)
            if done is not None:
                return self._replay(group_id, done)
            claim = (request_id, digest)
        built = self.writer.build_sessions(
            [(c.messages, c.session_id, c.reference_time, c.embeddings) for c in conversations], source=source
        )
        batches = [(conv.session_id, rows) for conv, rows in zip(conversations, built) if rows]
        request = None if claim is None else (*claim, {"final": False})
        report = self.store_built(
            group_id,
            batches,
            extractor=ext,
            session_id=conversations[0].session_id if conversations else "",
            progress=progress,
            request=request,
        )
        if report is None and claim is not None:
            # the same request was applied meanwhile (a concurrent repeat): nothing was written
            return self._replay(group_id, stored(self.store, group_id, claim[0], "ingest", claim[1]))
        assert report is not None  # None only for a request applied before
        if request_id is not None:
            record(self.store, group_id, request_id, {"final": True, "report": report.model_dump(mode="json")})
        return report

    def store_built(
        self,
        group_id: str,
        batches: list[tuple[str, list[EpisodeRow]]],
        *,
        extractor: Extractor | None,
        session_id: str,
        progress: Progress | None = None,
        request: tuple[str, str, dict] | None = None,
        resume: bool = True,
    ) -> IngestReport | None:
        """Write built episode rows (``EpisodeWriter.build_sessions``) with their extraction jobs in
        one transaction, then run the jobs. ``request``: (request id, fingerprint, result) claimed in
        that transaction (None is returned, nothing written, when it was applied before); the
        report is stored in the result's "report". ``resume``: take up the group's stranded jobs too."""
        all_rows = [row for _, rows in batches for row in rows]
        jobs = (
            [
                self.queue.new(session_id=sid, episode_ids=ids, extractor=extractor.name)
                for sid, ids in self._windows(batches, extractor)
            ]
            if extractor is not None
            else []
        )
        report = IngestReport(
            group_id=group_id,
            session_id=session_id,
            episodes=[r["id"] for r in all_rows],
            jobs=[j["id"] for j in jobs],
        )
        if request is not None:
            request = (request[0], request[1], {**request[2], "report": report.model_dump(mode="json")})
        if self.writer.write_sessions(group_id, batches, jobs, request=request) is None:
            return None
        if progress:
            progress("episodes", len(all_rows), len(all_rows))
        for i, job in enumerate(jobs, 1):
            outcome = self.run_job(group_id, job["id"])
            if outcome is not None:
                report.memories.extend(outcome.memories)
                report.links += outcome.links
                report.errors.extend(([outcome.error] if outcome.error else []) + outcome.warnings)
                _count_state(report, outcome.state)
            if progress:
                progress("extract", i, len(jobs))
        if resume:
            report.jobs_resumed = self.resume_stranded(group_id)
        return report

    def _replay(self, group_id: str, done: dict) -> IngestReport:
        """The report of an ingest request applied before; its unfinished jobs are run first."""
        report = IngestReport.model_validate(done["report"])
        if done.get("final"):
            return report
        report.memories, report.links, report.errors = [], 0, []
        for job_id in report.jobs:
            outcome = self.run_job(group_id, job_id)
            if outcome is not None:
                report.links += outcome.links
                report.errors.extend(([outcome.error] if outcome.error else []) + outcome.warnings)
                _count_state(report, outcome.state)
            report.memories.extend(
                r["id"] for r in self.store.read("job_written_memories", group_id=group_id, job_id=job_id)
            )
        return report

    def _windows(self, batches: list[tuple[str, list[EpisodeRow]]], ext: Extractor) -> list[tuple[str, list[str]]]:
        """Episodes per job: the rules take big windows; an LLM a few turns (and characters) at a time."""
        llm = ext.name != "rules"
        limit = self.llm_window if llm else self.rules_window
        out: list[tuple[str, list[str]]] = []
        for sid, rows in batches:
            current: list[str] = []
            chars = 0
            for row in rows:
                size = len(row["props"]["content"])
                if current and (len(current) >= limit or (llm and chars + size > self.llm_window_chars)):
                    out.append((sid, current))
                    current, chars = [], 0
                current.append(row["id"])
                chars += size
            if current:
                out.append((sid, current))
        if llm:
            return out
        merged: list[tuple[str, list[str]]] = []  # the rules: windows may span sessions
        for sid, ids in out:
            if merged and len(merged[-1][1]) + len(ids) <= limit:
                merged[-1] = (merged[-1][0], merged[-1][1] + ids)
            else:
                merged.append((sid, list(ids)))
        return merged

    # --- one job ---
    def run_job(
        self, group_id: str, job_id: str, *, include_failed: bool = False, stale: str | None = None
    ) -> JobOutcome | None:
        """One attempt at one job; None when it is not claimable (done, or running elsewhere).
        ``stale``: the claim of a dead holder of the running job, taken over."""
        job = self.queue.claim(group_id, job_id, include_failed=include_failed, stale=stale)
        if job is None:
            return None
        try:
            return self._attempt(group_id, job_id, job)
        finally:
            self.queue.release(job)

    def _attempt(self, group_id: str, job_id: str, job: dict) -> JobOutcome:
        attempts = int(job.get("attempts") or 1)
        memories: list[str] = []
        links = 0
        warnings: list[str] = []
        try:
            ext = self.extractor(job.get("extractor") or "rules")
            if ext is None:
                raise ExtractionError("the job names no extractor")
            plan = ExtractionPlan.from_dict(json.loads(job["plan"])) if job.get("plan") else None
            if plan is None:
                episodes = self.writer.load(group_id, job.get("episode_ids") or [])
                plan = (
                    cast(Any, ext).extract(episodes, people=self.people(group_id))
                    if getattr(ext, "uses_people", False)
                    else ext.extract(episodes)
                )
                if plan.via_tools and (plan.memories or plan.links):
                    # an LLM's answer is kept: a retry after a crash finishes it instead of asking again
                    self.queue.save_plan(group_id, job_id, json.dumps(plan.to_dict(), ensure_ascii=False))
            memories, links, warnings = self._execute(group_id, job_id, plan, ext.name, first=attempts == 1)
        except Exception as exc:  # noqa: BLE001 - any failure is recorded on the job, never lost
            error = _describe(exc)
            try:
                finished = self.queue.fail(group_id, job, error)
            except GraphmemError as inner:  # the database is gone: the job is stranded, taken up again later
                return JobOutcome(
                    job_id=job_id,
                    group_id=group_id,
                    state="running",
                    attempts=attempts,
                    error=f"{error}; and the job could not be updated: {inner}",
                )
            return JobOutcome(
                job_id=job_id,
                group_id=group_id,
                state=finished.get("state", "pending"),
                attempts=attempts,
                memories=memories,
                links=links,
                error=error,
                warnings=warnings,
            )
        self.queue.succeed(group_id, job_id, memories=len(memories), links=links)
        return JobOutcome(
            job_id=job_id,
            group_id=group_id,
            state="done",
            attempts=attempts,
            memories=memories,
            links=links,
            warnings=warnings,
        )

    def _execute(
        self, group_id: str, job_id: str, plan: ExtractionPlan, extractor: str, *, first: bool = False
    ) -> tuple[list[str], int, list[str]]:
        """Write the plan's memories that are not written yet (each with its evidence), then its links.
        ``first``: the job's first attempt, which finds nothing written before (the look-up reads
        the group's memories: skipped, so a long ingest's jobs do not grow with the group)."""
        written = (
            {}
            if first
            else {
                r["key"]: r["id"]
                for r in self.store.read("job_written_memories", group_id=group_id, job_id=job_id)
                if r["key"]
            }
        )
        todo = [pm for pm in plan.memories if pm.key not in written]
        source = f"extract:{extractor}"
        new_ids: list[str] = []
        self.ensure_schema()
        for reference_time, batch in _batches(todo).items():
            results = self.memory_writer.create(
                group_id,
                [_valid_memory(pm) for pm in batch],
                session_id=None,
                reference_time=as_reference_time(reference_time),
                source=source,
                extra=[_extra(pm, job_id) for pm in batch],
            )
            for pm, res in zip(batch, results):
                written[pm.key] = res.memory_id
                new_ids.append(res.memory_id)
        links, warnings = 0, []
        for link in plan.links:
            try:
                if link.by_key and (link.source not in written or link.target not in written):
                    continue
                edge = validate(
                    LinkInput,
                    {
                        "source_memory_description": link.source,
                        "target_memory_description": link.target,
                        "relation_type": link.relation_type,
                        "importance": link.importance,
                    },
                )
                if link.by_key:
                    self.linker.link_by_id(group_id, written[link.source], written[link.target], edge)
                else:
                    self.linker.link(group_id, edge)
                links += 1
            except GraphmemError as exc:
                warnings.append(f"link {link.source!r} → {link.target!r} not written: {exc}")
        return new_ids, links, warnings

    def people(self, group_id: str) -> People:
        """The people the group's speakers named with a role or described before."""
        return People.of_group(self.store, group_id)

    # --- the queue ---
    def retry(
        self,
        group_id: str | None = None,
        *,
        max_jobs: int = 100,
        force: bool = False,
        include_failed: bool = False,
        progress: Progress | None = None,
    ) -> RetryReport:
        """Retry the jobs that are due (``force``: every pending one; ``include_failed``: failed ones too)."""
        if group_id is not None:
            group_id = validate_group_id(group_id)
        due = self.queue.due(group_id, limit=max_jobs, force=force, include_failed=include_failed)
        report = RetryReport()
        for i, (gid, job_id, stale) in enumerate(due, 1):
            outcome = self.run_job(gid, job_id, include_failed=include_failed, stale=stale)
            if outcome is not None:
                report.attempted += 1
                report.memories.extend(outcome.memories)
                report.links += outcome.links
                if outcome.state == "done":
                    report.done += 1
                elif outcome.state == "failed":
                    report.failed += 1
                else:
                    report.pending += 1
                if outcome.error:
                    report.errors.append(f"job {job_id} ({gid}): {outcome.error}")
            if progress:
                progress("retry", i, len(due))
        return report

    def resume_stranded(self, group_id: str, limit: int = RESUME_PER_INGEST) -> list[str]:
        """Run the group's stranded jobs (their process or server died during an attempt) again;
        the ids of those taken up."""
        resumed: list[str] = []
        try:
            for job in stranded_jobs(self.store, group_id, limit=limit):
                if self.run_job(group_id, job["id"], stale=job["claim"]) is not None:
                    resumed.append(job["id"])
        except GraphmemError as exc:  # the server went away meanwhile: this call's own work is done
            log.warning("stranded extraction jobs of %s not taken up: %s", group_id, exc)
        return resumed

    def counts(self, group_id: str | None = None) -> dict[str, int]:
        return job_counts(self.store, group_id)


def segments(messages: list[Message], units: int = SEGMENT_UNITS) -> list[list[Message]]:
    """The turns in consecutive groups of at most ``units`` (text_length); a turn longer than that
    is cut at sentence ends (then clauses, then words) into several turns of the same speaker and time."""
    out: list[list[Message]] = [[]]
    used = 0
    for message in messages:
        size = text_length(message.content)
        pieces = (
            [message] if size <= units else [replace(message, content=c) for c in split_text(message.content, units, 0)]
        )
        for piece in pieces:
            size = text_length(piece.content)
            if out[-1] and used + size > units:
                out.append([])
                used = 0
            out[-1].append(piece)
            used += size
    return [part for part in out if part]


def segment_key(request_id: str | None, k: int) -> str | None:
    """The idempotency key of segment ``k`` of a keyed ingest: the key itself for the first, then
    ``<key>#k`` (a digest of the key when that would pass MAX_ID)."""
    if request_id is None or k == 0:
        return request_id
    key = f"{request_id}#{k}"
    if len(key) <= MAX_ID:
        return key
    return f"seg:{hashlib.sha256(request_id.encode()).hexdigest()[:40]}#{k}"


def _turns_size(messages: Any) -> int:
    """The characters of the turns' contents as handed over (a string content, or ``text``), summed
    at C speed: a list of turns far over the cap is refused before any turn is looked at."""
    if isinstance(messages, dict):
        messages = messages.get("messages")
    if not isinstance(messages, (list, tuple)):
        return 0
    return sum(
        len(c) for m in messages if isinstance(m, dict) and isinstance(c := m.get("content", m.get("text")), str)
    )


def _too_long(field: str, size: int) -> str:
    return (
        f"{field}: {size} characters in one ingest call; at most {MAX_INGEST_CHARS} are allowed: split it "
        f"into several calls (`graphmem ingest FILE` sends a long file in parts, with progress)"
    )


def _count_state(report: IngestReport, state: str) -> None:
    """A job of the call that did not end done: pending (retried later), failed, or still running
    (its end could not be recorded: stranded, taken up by the next ingest or retry)."""
    report.jobs_pending += state == "pending"
    report.jobs_failed += state == "failed"
    report.jobs_running += state == "running"


def _valid_memory(pm: PlannedMemory) -> MemoryInput:
    """A planned memory checked again before it is written (a plan may come back from the job's JSON)."""
    try:
        return validate(MemoryInput, pm.memory)
    except ValidationError as exc:
        raise ExtractionError(f"memory {pm.key} of the plan is invalid: {exc}") from None


def _extra(pm: PlannedMemory, job_id: str) -> dict:
    """Memory properties set with the write: its evidence, its job, and its own session and time."""
    return {
        "episode_ids": list(pm.episode_ids),
        "job_id": job_id,
        "extract_key": pm.key,
        "session_id": pm.session_id,
        "reference_time": pm.reference_time,
        "kind": pm.kind,
        "slot": pm.slot,  # consolidation supersedes the slot's older value with this one
        "slot_ends": pm.ends or None,
    }


def _batches(memories: list[PlannedMemory]) -> OrderedDict[str, list[PlannedMemory]]:
    """One batch for every memory whose times are absolute; one per reference time for the others."""
    out: OrderedDict[str, list[PlannedMemory]] = OrderedDict()
    free = [pm for pm in memories if not pm.relative]
    if free:
        out[max(pm.reference_time for pm in free)] = free
    for pm in memories:
        if pm.relative:
            out.setdefault(pm.reference_time, []).append(pm)
    return out


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def ingestor_for(graph: Any) -> Ingestor:
    """The graph's Ingestor (``MemoryGraph.ingestor``), created on first use."""
    return graph.ingestor
