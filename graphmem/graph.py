"""MemoryGraph (sync) and AsyncMemoryGraph: the public API, one implementation.

AsyncMemoryGraph runs the same methods in a worker thread (``asyncio.to_thread``): the
logic exists once, and the Neo4j driver and the embedding model are thread-safe. Its methods
are written out from MemoryGraph's by ``scripts/async_face.py`` (run it after changing a
public method of MemoryGraph; a test fails while the two faces differ).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .builder.create import MemoryWriter
from .builder.link import MemoryLinker, memory_row
from .builder.resolve import ConceptResolver
from .config import Settings, load_settings
from .embed import Embedder, get_embedder
from .errors import NotFoundError, ValidationError
from .store.driver import Store
from .store.schema import SchemaReport, check_compatible, install_schema, is_current
from .types import (
    CreateResult,
    GroupDeletion,
    LinkInput,
    LinkResult,
    MemoryInput,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    SearchInput,
    SearchResponse,
    _importance,
    as_reference_time,
    group_id_problem,
    parse_memory_type,
    validate,
    validate_group_id,
    validate_id,
    validate_optional_id,
)

if TYPE_CHECKING:  # loaded on first use (importing graphmem stays cheap)
    from .ingest.models import IngestReport, RetryReport
    from .ingest.pipeline import Extractor, Ingestor
    from .lifecycle import Consolidator
    from .lifecycle.report import ConsolidationReport, Event
    from .retriever import Retriever
    from .working import WorkingMemory


class MemoryGraph:
    """A knowledge-graph memory on Neo4j. Every call is scoped to a ``group_id``.

    >>> g = MemoryGraph()                      # settings from graphmem.toml / NEO4J_* / GRAPHMEM_*
    >>> g.create_memory("alice", subject="我", memory_type="事件", topic="吃饭", object="白米饭",
    ...                 attributes={"时间": "今天"})
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        embedder: Embedder | None = None,
        config_path: str | None = None,
    ) -> None:
        if settings is None:
            neo4j = {k: v for k, v in dict(uri=uri, user=user, password=password, database=database).items() if v}
            settings = load_settings(config_path, neo4j=neo4j) if neo4j else load_settings(config_path)
        self.settings = settings
        self.store = Store(settings)
        e = settings.embedding
        self.embedder = embedder or get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)
        self.resolver = ConceptResolver(self.store, settings.resolution, self.embedder)
        self.writer = MemoryWriter(self.store, self.embedder, self.resolver)
        self.linker = MemoryLinker(self.store, self.embedder)
        self._schema_checked = False
        self._schema_lock = threading.Lock()
        self._retriever: Retriever | None = None
        self._working: WorkingMemory | None = None
        self._ingestor: Ingestor | None = None
        self._consolidator: Consolidator | None = None

    # --- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        retriever = self._retriever
        if retriever is not None:
            retriever.close()
        self.store.close()

    def __enter__(self) -> MemoryGraph:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def init_schema(self) -> SchemaReport:
        """Install constraints, vector and fulltext indexes (idempotent)."""
        report = install_schema(self.store, self.embedder.name, self.embedder.dimension)
        self._schema_checked = True
        return report

    def ensure_schema(self) -> None:
        """Refuse a database built for another model; install the schema if it is missing."""
        if self._schema_checked:
            return
        with self._schema_lock:
            if not self._schema_checked:
                self.store.ensure_reachable()  # a stopped server fails now, before the model loads
                # missing, or from an older graphmem: create what is missing (never drops anything)
                if not is_current(check_compatible(self.store, self.embedder.name, self.embedder.dimension)):
                    install_schema(self.store, self.embedder.name, self.embedder.dimension)
                self._schema_checked = True

    # --- write path -----------------------------------------------------------------------
    def create_memory(
        self,
        group_id: str,
        subject: str,
        memory_type: str | MemoryType,
        topic: str,
        object: str | None = None,
        attributes: dict[str, str] | None = None,
        importance: float = 0.5,
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        source: str = "api",
        request_id: str | None = None,
    ) -> CreateResult:
        """Write one memory in one transaction and say which concept nodes were reused and why.

        ``request_id``: an idempotency key; a call repeated with it (after a lost answer) writes
        nothing and returns the first call's result."""
        memory = validate(
            MemoryInput,
            {
                "subject": subject,
                "memory_type": memory_type,
                "topic": topic,
                "object": object,
                "attributes": attributes,
                "importance": importance,
            },
        )
        return self.create_memories(
            group_id,
            [memory],
            session_id=session_id,
            reference_time=reference_time,
            source=source,
            request_id=request_id,
        )[0]

    def create_memories(
        self,
        group_id: str,
        memories: Iterable[dict | MemoryInput],
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        source: str = "api",
        extra: list[dict] | None = None,
        request_id: str | None = None,
    ) -> list[CreateResult]:
        """Write many memories: one embedding batch and a few transactions. All are validated first.
        ``request_id``: an idempotency key (see create_memory)."""
        from .builder.requests import validate_request_id

        group_id = validate_group_id(group_id)
        request_id = validate_request_id(request_id)
        session_id = validate_optional_id(session_id, "session_id")
        items = []
        for i, m in enumerate(memories):
            try:
                items.append(validate(MemoryInput, m))
            except ValidationError as exc:
                raise ValidationError(
                    f"memories[{i}]: {exc}", field=exc.field, allowed=exc.allowed, errors=exc.errors
                ) from None
        if not items:
            return []
        self.ensure_schema()
        return self.writer.create(
            group_id,
            items,
            session_id=session_id,
            reference_time=as_reference_time(reference_time),
            source=source,
            extra=extra,
            request_id=request_id,
        )

    def link_memories(
        self,
        group_id: str,
        source_memory_description: str,
        target_memory_description: str,
        relation_type: str,
        importance: float = 0.6,
        *,
        request_id: str | None = None,
    ) -> LinkResult:
        """Find both memories by meaning and link them; causal edges go from cause to effect.
        ``request_id``: an idempotency key (see create_memory)."""
        from .builder.requests import validate_request_id

        group_id = validate_group_id(group_id)
        request_id = validate_request_id(request_id)
        link = validate(
            LinkInput,
            {
                "source_memory_description": source_memory_description,
                "target_memory_description": target_memory_description,
                "relation_type": relation_type,
                "importance": importance,
            },
        )
        self.ensure_schema()
        return self.linker.link(group_id, link, request_id=request_id)

    def link_memory_ids(
        self,
        group_id: str,
        source_id: str,
        target_id: str,
        relation_type: str,
        importance: float = 0.6,
        *,
        discovered: bool = False,
        confidence: float = 1.0,
    ) -> LinkResult:
        """Link two memories known by id (used by extractors and consolidation)."""
        group_id = validate_group_id(group_id)
        link = validate(
            LinkInput,
            {
                "source_memory_description": source_id,
                "target_memory_description": target_id,
                "relation_type": relation_type,
                "importance": importance,
            },
        )
        return self.linker.link_by_id(
            group_id, source_id, target_id, link, discovered=discovered, confidence=confidence
        )

    def update_memory_importance(self, group_id: str, memory_id: str, importance: float) -> dict[str, Any]:
        group_id = validate_group_id(group_id)
        checked_id = validate_id(memory_id, "memory_id")
        try:
            value = _importance(importance)
        except ValueError as exc:
            raise ValidationError(f"importance: {exc}", field="importance") from None
        rows = self.store.write(
            "update_importance", group_id=group_id, id=checked_id, importance=value, now=datetime.now(UTC).isoformat()
        )
        if not rows:
            raise NotFoundError(f"no memory {memory_id!r} in group {group_id!r}")
        return {"success": True, **rows[0]}

    def forget(self, group_id: str, memory_id: str) -> dict[str, Any]:
        """Soft delete: the memory is archived (hidden from search) and can be restored."""
        return self._set_status(group_id, memory_id, MemoryStatus.ARCHIVED)

    def restore(self, group_id: str, memory_id: str) -> dict[str, Any]:
        """Undo ``forget``: the memory gets back the status it had (staged or consolidated)."""
        return self._set_status(group_id, memory_id, None)

    def _set_status(self, group_id: str, memory_id: str, status: MemoryStatus | None) -> dict[str, Any]:
        group_id = validate_group_id(group_id)
        memory_id = validate_id(memory_id, "memory_id")
        rows = self.store.write(
            "set_status",
            group_id=group_id,
            id=memory_id,
            status=status.value if status else None,
            now=datetime.now(UTC).isoformat(),
        )
        if not rows:
            raise NotFoundError(f"no memory {memory_id!r} in group {group_id!r}")
        return {"success": True, **rows[0]}

    # --- reading back ---------------------------------------------------------------------
    def get_memory(self, group_id: str, memory_id: str) -> MemoryRecord:
        group_id = validate_group_id(group_id)
        return _record(memory_row(self.store, group_id, validate_id(memory_id, "memory_id")))

    def list_memories(
        self,
        group_id: str,
        *,
        status: str | None = None,
        memory_type: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[MemoryRecord]:
        group_id = validate_group_id(group_id)
        if status is not None and status not in {s.value for s in MemoryStatus}:
            raise ValidationError(
                "status: must be one of staged, consolidated, archived",
                field="status",
                allowed=[s.value for s in MemoryStatus],
            )
        mtype = None
        if memory_type is not None:
            try:
                mtype = parse_memory_type(memory_type).value
            except ValueError as exc:
                raise ValidationError(f"memory_type: {exc}", field="memory_type") from None
        rows = self.store.read(
            "list_memories",
            group_id=group_id,
            status=status,
            memory_type=mtype,
            skip=max(0, int(offset)),
            limit=max(1, min(int(limit), 1000)),
        )
        return [_record({"memory": r["memory"], "attributes": [], "links": []}) for r in rows]

    # --- read path (graphmem/retriever) ------------------------------------------------------
    def search_memories(
        self,
        group_id: str,
        query: str,
        memory_types: list[str] | None = None,
        time_range: dict | None = None,
        max_results: int = 10,
        expand_depth: int = 1,
        mode: str | None = None,
        relation_filters: list[str] | None = None,
        subject: str | None = None,
        include_archived: bool = False,
        reference_time: datetime | str | None = None,
        profile: str | None = "default",
        superseded: str | None = None,
        rerank: bool | None = None,
        as_of: datetime | str | None = None,
    ) -> SearchResponse:
        """Hybrid seeds, Cypher BFS expansion, weighted score.

        Returns a ``SearchResponse``: the plan (depth, relation filters, time range and why),
        and results best first, each with its score, the parts of the score, its distance
        from a direct match, the path that reached it and the episodes it came from.
        ``superseded``: memories replaced by newer ones (consolidation's SUPERSEDES):
        "current_first" (the current version just before each), "hide" or "keep"; default
        ``retrieval.superseded``. Each result says whether it is current.
        ``rerank``: the configured reranker (``[rerank]``, graphmem/rerank/) reorders the best
        results when one is set (None), always (True: an error when none is) or never (False).
        ``as_of`` (a datetime, or an ISO 8601 date or datetime): what was current then, the
        memories valid at that moment (``valid_from`` <= as_of < ``valid_until``, or still
        current), superseded ones included, those said or true only later left out; each
        result carries its ``valid_from`` / ``valid_until``. A question with a past time about a
        state ("where did I live last March?") is answered the same way without it.
        """
        group_id = validate_group_id(group_id)
        inp = validate(
            SearchInput,
            {
                "query": query,
                "memory_types": memory_types,
                "time_range": time_range,
                "max_results": max_results,
                "expand_depth": expand_depth,
                "mode": mode or self.settings.retrieval.limits.default_mode,
                "relation_filters": relation_filters,
                "subject": subject,
                "include_archived": include_archived,
                "profile": profile,
                "superseded": superseded,
                "as_of": as_of,
            },
        )
        self.settings.retrieval.profile(inp.profile)  # an unknown profile is refused before any work
        self.ensure_schema()
        response = self._get_retriever().search(group_id, inp, as_reference_time(reference_time))
        from .rerank import reranked

        return reranked(response, self.settings, rerank)

    def _get_retriever(self) -> Retriever:
        if self._retriever is None:
            with self._schema_lock:
                if self._retriever is None:
                    from .retriever import Retriever

                    self._retriever = Retriever(self.store, self.embedder, self.settings.retrieval)
        return self._retriever

    def stats(self, group_id: str | None = None) -> dict[str, Any]:
        """Counts by type and status, nodes and edges by label, extraction jobs by state (one
        group, or all)."""
        from .ingest.jobs import job_counts
        from .stats import graph_stats

        group = None if group_id is None else validate_group_id(group_id)
        runs = self.store.read("lifecycle_runs", group_id=group, limit=1)
        return {
            **graph_stats(self.store, group),
            "extraction_jobs": job_counts(self.store, group),
            "last_consolidation": runs[0]["run"] if runs else None,
        }

    # --- lifecycle (graphmem/lifecycle) -------------------------------------------------------
    @property
    def consolidator(self) -> Consolidator:
        """The consolidator (``graphmem.lifecycle.Consolidator``) of this graph, created on first use."""
        if self._consolidator is None:
            with self._schema_lock:
                if self._consolidator is None:
                    from .lifecycle import Consolidator

                    self._consolidator = Consolidator(self)
        return self._consolidator

    def consolidate(
        self,
        group_id: str,
        *,
        dry_run: bool = False,
        now: datetime | str | None = None,
        max_batches: int | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> ConsolidationReport:
        """One consolidation run over the group: merge duplicate concepts and
        memories, supersede contradicted facts, discover links, fold old trivia into summaries,
        decay and archive; staged memories become consolidated. ``dry_run``: report what it would
        change and change nothing. ``now``: the time decay and age are measured at (default: now).
        Returns a ``ConsolidationReport``; raises ConsolidationLockedError while another run holds
        the group."""
        group_id = validate_group_id(group_id)
        if max_batches is not None and (not isinstance(max_batches, int) or max_batches < 1):
            raise ValidationError("max_batches: must be a positive integer", field="max_batches")
        self.ensure_schema()
        as_of = as_reference_time(now) if now is not None else None
        return self.consolidator.run(group_id, dry_run=dry_run, now=as_of, max_batches=max_batches, progress=progress)

    def memory_groups(self) -> list[str]:
        """Every group that holds memories (what ``consolidate --all`` and the scheduler's
        ``group_ids=None`` go through), sorted. Ids stored before the group id rule are left out:
        ``graphmem stats --legacy`` lists them, ``graphmem rename-group`` gives them a valid id."""
        return sorted(
            {r["group_id"] for r in self.store.read("lifecycle_groups") if group_id_problem(r["group_id"]) is None}
        )

    # --- administration (graphmem/store/admin.py) ------------------------------------------------
    def delete_group(self, group_id: str, *, progress: Any = None) -> GroupDeletion:
        """Delete everything of one group for good: memories, turns, concepts, working memory,
        extraction jobs, idempotency keys, consolidation records and locks, with their edges.
        In batches; killed half-way, call it again and it finishes. Nothing of another group is
        touched. Not an agent tool: an operator's call (``graphmem delete-group``)."""
        from .store.admin import delete_group

        return delete_group(self.store, group_id, progress=progress)

    def on(self, event: str, callback: Callable[[Event], Any]) -> None:
        """Register ``callback(event)`` for consolidation events: memory_merged, concept_merged,
        conflict_found, memory_archived, important_memory, summary_made, run_finished ("*": all)."""
        self.consolidator.on(event, callback)

    def unmerge(self, group_id: str, which: str) -> dict[str, Any]:
        """Undo a concept merge (by merge id, merged node id or merged name): the merged node comes
        back with its id, properties and edges."""
        from .lifecycle.concepts import unmerge
        from .lifecycle.work import Work

        group_id = validate_group_id(group_id)
        if not isinstance(which, str) or not which.strip():
            raise ValidationError("which: give a merge id, the merged node's id or its name", field="which")
        return unmerge(Work(self.store), group_id, which.strip())

    def supersede_chain(self, group_id: str, memory_id: str) -> list[dict[str, Any]]:
        """The memories of a memory's supersede chain, the current one first (depth 0)."""
        group_id = validate_group_id(group_id)
        return self.store.read("lifecycle_chain", group_id=group_id, id=validate_id(memory_id, "memory_id"))

    def consolidation_runs(self, group_id: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        """The latest consolidation runs (one group, or all), newest first."""
        group = None if group_id is None else validate_group_id(group_id)
        return [r["run"] for r in self.store.read("lifecycle_runs", group_id=group, limit=max(1, int(limit)))]

    # --- conversations (graphmem/ingest) -----------------------------------------------------
    def ingest(
        self,
        group_id: str,
        messages: list[dict] | None = None,
        text: str | None = None,
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        extractor: str | Extractor | None = None,
        request_id: str | None = None,
    ) -> IngestReport:
        """Store turns as episodes, extract memories from them, queue what failed.

        ``messages``: [{role, content, speaker?, timestamp?, id?}] (or ``text``, split into chunks);
        ``extractor``: "rules", "llm", "none" or an object (default: llm when llm.base_url is set,
        else rules). Returns an ``IngestReport`` (episode and memory ids, links, jobs pending/failed).
        ``request_id``: an idempotency key; the turns are stored once however often the call is
        repeated with it, and a repeat finishes the extraction the first call left unfinished.
        """
        return self.ingestor.ingest(
            group_id,
            messages,
            text,
            session_id=session_id,
            reference_time=reference_time,
            extractor=extractor,
            request_id=request_id,
        )

    def retry_extractions(
        self, group_id: str | None = None, *, max_jobs: int = 100, force: bool = False, include_failed: bool = False
    ) -> RetryReport:
        """Retry pending extraction jobs whose backoff has passed (``force``: all pending ones;
        ``include_failed``: failed ones too). Returns a ``RetryReport``."""
        return self.ingestor.retry(group_id, max_jobs=max_jobs, force=force, include_failed=include_failed)

    @property
    def ingestor(self) -> Ingestor:
        """The ingest path (``graphmem.ingest.Ingestor``) over this graph's builder, created on first use."""
        if self._ingestor is None:
            with self._schema_lock:
                if self._ingestor is None:
                    from .ingest.pipeline import Ingestor

                    self._ingestor = Ingestor(self)
        return self._ingestor

    # --- working memory and prompt context (graphmem/working.py) ------------------------------
    @property
    def working(self) -> WorkingMemory:
        """The scratchpad and recent-turns buffer of sessions (``graphmem.working.WorkingMemory``)."""
        if self._working is None:
            with self._schema_lock:
                if self._working is None:
                    from .working import WorkingMemory

                    self._working = WorkingMemory(self.store)
        return self._working

    def set_note(
        self, group_id: str, session_id: str, key: str, value: Any, ttl_seconds: float | None = None
    ) -> dict[str, Any]:
        """Keep a scratchpad note (any JSON value) for this session; ``ttl_seconds``: forget it after."""
        return self.working.set_note(group_id, session_id, key, value, ttl_seconds)

    def notes(self, group_id: str, session_id: str) -> dict[str, Any]:
        """The session's live scratchpad notes, oldest first."""
        return self.working.notes(group_id, session_id)

    def delete_note(self, group_id: str, session_id: str, key: str) -> bool:
        return self.working.delete_note(group_id, session_id, key)

    def add_turns(self, group_id: str, session_id: str, messages: list[dict[str, Any]]) -> list[int]:
        """Append conversation turns to the session's recent-turns buffer."""
        return self.working.add_turns(group_id, session_id, messages)

    def recent_turns(self, group_id: str, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        return self.working.recent_turns(group_id, session_id, limit)

    def end_session(
        self,
        group_id: str,
        session_id: str,
        *,
        promote: bool = True,
        reference_time: datetime | str | None = None,
        extractor: str | Extractor | None = None,
    ) -> dict[str, Any]:
        """Close a session: with ``promote`` its buffered turns are ingested (episodes and extracted
        memories) first; then its scratchpad and buffer are cleared."""
        report = None
        if promote:
            from .working import MAX_TURNS_READ

            turns = self.working.recent_turns(group_id, session_id, MAX_TURNS_READ)
            if turns:
                messages = [
                    {k: t[k] for k in ("role", "content", "speaker", "timestamp") if t.get(k) is not None}
                    for t in turns
                ]
                report = self.ingest(
                    group_id, messages, session_id=session_id, reference_time=reference_time, extractor=extractor
                )
        cleared = self.working.clear(group_id, session_id)
        return {
            "group_id": group_id,
            "session_id": session_id,
            "cleared": cleared,
            "ingested": report.model_dump(mode="json") if report is not None else None,
        }

    def context(
        self,
        group_id: str,
        session_id: str | None,
        query: str | None,
        max_tokens: int = 1000,
        *,
        max_results: int = 20,
        turns: int = 20,
        **search: Any,
    ) -> str:
        """One prompt section within ``max_tokens`` (estimated, Chinese and English alike): the session's
        scratchpad, its recent turns and the memories retrieved for ``query`` (best first, with the
        turn each came from). ``search``: more ``search_memories`` arguments."""
        from .working import render_context

        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise ValidationError("max_tokens: must be a positive integer", field="max_tokens")
        notes = self.working.notes(group_id, session_id) if session_id else {}
        recent = self.working.recent_turns(group_id, session_id, turns) if session_id else []
        found = self.search_memories(group_id, query, max_results=max_results, **search) if query else None
        return render_context(notes, recent, found, max_tokens)


def _record(row: dict) -> MemoryRecord:
    m = dict(row["memory"])
    attributes = {a["key"]: a["value"] for a in row.get("attributes", []) if a.get("key")}
    return MemoryRecord(
        id=m["id"],
        group_id=m["group_id"],
        memory_type=m["memory_type"],
        text=m["text"],
        subject=row.get("subject") or m.get("subject_name"),
        topic=row.get("topic") or m.get("topic_name"),
        object=row.get("object") or m.get("object_name"),
        attributes=attributes,
        importance=m.get("importance", 0.5),
        status=m.get("status", "staged"),
        occurred_at=m.get("occurred_at"),
        created_at=m.get("created_at"),
        last_accessed_at=m.get("last_accessed_at"),
        access_count=m.get("access_count") or 0,
        session_id=m.get("session_id"),
        source=m.get("source"),
        links=[link for link in row.get("links", []) if link],
        attribute_details=[a for a in row.get("attributes", []) if a.get("key")],
        superseded_by=m.get("superseded_by"),
        valid_from=m.get("valid_from"),
        valid_until=m.get("valid_until"),
    )


# --- generated by scripts/async_face.py from MemoryGraph: do not edit by hand ---


class AsyncMemoryGraph:
    """The async face of MemoryGraph: the same methods, awaited (each runs in a worker thread)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        embedder: Embedder | None = None,
        config_path: str | None = None,
    ) -> None:
        self.sync = MemoryGraph(
            settings,
            uri=uri,
            user=user,
            password=password,
            database=database,
            embedder=embedder,
            config_path=config_path,
        )

    async def __aenter__(self) -> AsyncMemoryGraph:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        return await asyncio.to_thread(self.sync.close)

    async def init_schema(self) -> SchemaReport:
        """Install constraints, vector and fulltext indexes (idempotent)."""
        return await asyncio.to_thread(self.sync.init_schema)

    async def ensure_schema(self) -> None:
        """Refuse a database built for another model; install the schema if it is missing."""
        return await asyncio.to_thread(self.sync.ensure_schema)

    async def create_memory(
        self,
        group_id: str,
        subject: str,
        memory_type: str | MemoryType,
        topic: str,
        object: str | None = None,
        attributes: dict[str, str] | None = None,
        importance: float = 0.5,
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        source: str = "api",
        request_id: str | None = None,
    ) -> CreateResult:
        """Write one memory in one transaction and say which concept nodes were reused and why.

        ``request_id``: an idempotency key; a call repeated with it (after a lost answer) writes
        nothing and returns the first call's result."""
        return await asyncio.to_thread(
            self.sync.create_memory,
            group_id,
            subject,
            memory_type,
            topic,
            object,
            attributes,
            importance,
            session_id=session_id,
            reference_time=reference_time,
            source=source,
            request_id=request_id,
        )

    async def create_memories(
        self,
        group_id: str,
        memories: Iterable[dict | MemoryInput],
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        source: str = "api",
        extra: list[dict] | None = None,
        request_id: str | None = None,
    ) -> list[CreateResult]:
        """Write many memories: one embedding batch and a few transactions. All are validated first.
        ``request_id``: an idempotency key (see create_memory)."""
        return await asyncio.to_thread(
            self.sync.create_memories,
            group_id,
            memories,
            session_id=session_id,
            reference_time=reference_time,
            source=source,
            extra=extra,
            request_id=request_id,
        )

    async def link_memories(
        self,
        group_id: str,
        source_memory_description: str,
        target_memory_description: str,
        relation_type: str,
        importance: float = 0.6,
        *,
        request_id: str | None = None,
    ) -> LinkResult:
        """Find both memories by meaning and link them; causal edges go from cause to effect.
        ``request_id``: an idempotency key (see create_memory)."""
        return await asyncio.to_thread(
            self.sync.link_memories,
            group_id,
            source_memory_description,
            target_memory_description,
            relation_type,
            importance,
            request_id=request_id,
        )

    async def link_memory_ids(
        self,
        group_id: str,
        source_id: str,
        target_id: str,
        relation_type: str,
        importance: float = 0.6,
        *,
        discovered: bool = False,
        confidence: float = 1.0,
    ) -> LinkResult:
        """Link two memories known by id (used by extractors and consolidation)."""
        return await asyncio.to_thread(
            self.sync.link_memory_ids,
            group_id,
            source_id,
            target_id,
            relation_type,
            importance,
            discovered=discovered,
            confidence=confidence,
        )

    async def update_memory_importance(self, group_id: str, memory_id: str, importance: float) -> dict[str, Any]:
        return await asyncio.to_thread(self.sync.update_memory_importance, group_id, memory_id, importance)

    async def forget(self, group_id: str, memory_id: str) -> dict[str, Any]:
        """Soft delete: the memory is archived (hidden from search) and can be restored."""
        return await asyncio.to_thread(self.sync.forget, group_id, memory_id)

    async def restore(self, group_id: str, memory_id: str) -> dict[str, Any]:
        """Undo ``forget``: the memory gets back the status it had (staged or consolidated)."""
        return await asyncio.to_thread(self.sync.restore, group_id, memory_id)

    async def get_memory(self, group_id: str, memory_id: str) -> MemoryRecord:
        return await asyncio.to_thread(self.sync.get_memory, group_id, memory_id)

    async def list_memories(
        self,
        group_id: str,
        *,
        status: str | None = None,
        memory_type: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[MemoryRecord]:
        return await asyncio.to_thread(
            self.sync.list_memories, group_id, status=status, memory_type=memory_type, limit=limit, offset=offset
        )

    async def search_memories(
        self,
        group_id: str,
        query: str,
        memory_types: list[str] | None = None,
        time_range: dict | None = None,
        max_results: int = 10,
        expand_depth: int = 1,
        mode: str | None = None,
        relation_filters: list[str] | None = None,
        subject: str | None = None,
        include_archived: bool = False,
        reference_time: datetime | str | None = None,
        profile: str | None = "default",
        superseded: str | None = None,
        rerank: bool | None = None,
        as_of: datetime | str | None = None,
    ) -> SearchResponse:
        """Hybrid seeds, Cypher BFS expansion, weighted score.

        Returns a ``SearchResponse``: the plan (depth, relation filters, time range and why),
        and results best first, each with its score, the parts of the score, its distance
        from a direct match, the path that reached it and the episodes it came from.
        ``superseded``: memories replaced by newer ones (consolidation's SUPERSEDES):
        "current_first" (the current version just before each), "hide" or "keep"; default
        ``retrieval.superseded``. Each result says whether it is current.
        ``rerank``: the configured reranker (``[rerank]``, graphmem/rerank/) reorders the best
        results when one is set (None), always (True: an error when none is) or never (False).
        ``as_of`` (a datetime, or an ISO 8601 date or datetime): what was current then, the
        memories valid at that moment (``valid_from`` <= as_of < ``valid_until``, or still
        current), superseded ones included, those said or true only later left out; each
        result carries its ``valid_from`` / ``valid_until``. A question with a past time about a
        state ("where did I live last March?") is answered the same way without it.
        """
        return await asyncio.to_thread(
            self.sync.search_memories,
            group_id,
            query,
            memory_types,
            time_range,
            max_results,
            expand_depth,
            mode,
            relation_filters,
            subject,
            include_archived,
            reference_time,
            profile,
            superseded,
            rerank,
            as_of,
        )

    async def stats(self, group_id: str | None = None) -> dict[str, Any]:
        """Counts by type and status, nodes and edges by label, extraction jobs by state (one
        group, or all)."""
        return await asyncio.to_thread(self.sync.stats, group_id)

    async def consolidate(
        self,
        group_id: str,
        *,
        dry_run: bool = False,
        now: datetime | str | None = None,
        max_batches: int | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> ConsolidationReport:
        """One consolidation run over the group: merge duplicate concepts and
        memories, supersede contradicted facts, discover links, fold old trivia into summaries,
        decay and archive; staged memories become consolidated. ``dry_run``: report what it would
        change and change nothing. ``now``: the time decay and age are measured at (default: now).
        Returns a ``ConsolidationReport``; raises ConsolidationLockedError while another run holds
        the group."""
        return await asyncio.to_thread(
            self.sync.consolidate, group_id, dry_run=dry_run, now=now, max_batches=max_batches, progress=progress
        )

    async def memory_groups(self) -> list[str]:
        """Every group that holds memories (what ``consolidate --all`` and the scheduler's
        ``group_ids=None`` go through), sorted. Ids stored before the group id rule are left out:
        ``graphmem stats --legacy`` lists them, ``graphmem rename-group`` gives them a valid id."""
        return await asyncio.to_thread(self.sync.memory_groups)

    async def delete_group(self, group_id: str, *, progress: Any = None) -> GroupDeletion:
        """Delete everything of one group for good: memories, turns, concepts, working memory,
        extraction jobs, idempotency keys, consolidation records and locks, with their edges.
        In batches; killed half-way, call it again and it finishes. Nothing of another group is
        touched. Not an agent tool: an operator's call (``graphmem delete-group``)."""
        return await asyncio.to_thread(self.sync.delete_group, group_id, progress=progress)

    def on(self, event: str, callback: Callable[[Event], Any]) -> None:
        """Register ``callback(event)`` for consolidation events: memory_merged, concept_merged,
        conflict_found, memory_archived, important_memory, summary_made, run_finished ("*": all)."""
        return self.sync.on(event, callback)

    async def unmerge(self, group_id: str, which: str) -> dict[str, Any]:
        """Undo a concept merge (by merge id, merged node id or merged name): the merged node comes
        back with its id, properties and edges."""
        return await asyncio.to_thread(self.sync.unmerge, group_id, which)

    async def supersede_chain(self, group_id: str, memory_id: str) -> list[dict[str, Any]]:
        """The memories of a memory's supersede chain, the current one first (depth 0)."""
        return await asyncio.to_thread(self.sync.supersede_chain, group_id, memory_id)

    async def consolidation_runs(self, group_id: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        """The latest consolidation runs (one group, or all), newest first."""
        return await asyncio.to_thread(self.sync.consolidation_runs, group_id, limit)

    async def ingest(
        self,
        group_id: str,
        messages: list[dict] | None = None,
        text: str | None = None,
        *,
        session_id: str | None = None,
        reference_time: datetime | str | None = None,
        extractor: str | Extractor | None = None,
        request_id: str | None = None,
    ) -> IngestReport:
        """Store turns as episodes, extract memories from them, queue what failed.

        ``messages``: [{role, content, speaker?, timestamp?, id?}] (or ``text``, split into chunks);
        ``extractor``: "rules", "llm", "none" or an object (default: llm when llm.base_url is set,
        else rules). Returns an ``IngestReport`` (episode and memory ids, links, jobs pending/failed).
        ``request_id``: an idempotency key; the turns are stored once however often the call is
        repeated with it, and a repeat finishes the extraction the first call left unfinished.
        """
        return await asyncio.to_thread(
            self.sync.ingest,
            group_id,
            messages,
            text,
            session_id=session_id,
            reference_time=reference_time,
            extractor=extractor,
            request_id=request_id,
        )

    async def retry_extractions(
        self, group_id: str | None = None, *, max_jobs: int = 100, force: bool = False, include_failed: bool = False
    ) -> RetryReport:
        """Retry pending extraction jobs whose backoff has passed (``force``: all pending ones;
        ``include_failed``: failed ones too). Returns a ``RetryReport``."""
        return await asyncio.to_thread(
            self.sync.retry_extractions, group_id, max_jobs=max_jobs, force=force, include_failed=include_failed
        )

    async def set_note(
        self, group_id: str, session_id: str, key: str, value: Any, ttl_seconds: float | None = None
    ) -> dict[str, Any]:
        """Keep a scratchpad note (any JSON value) for this session; ``ttl_seconds``: forget it after."""
        return await asyncio.to_thread(self.sync.set_note, group_id, session_id, key, value, ttl_seconds)

    async def notes(self, group_id: str, session_id: str) -> dict[str, Any]:
        """The session's live scratchpad notes, oldest first."""
        return await asyncio.to_thread(self.sync.notes, group_id, session_id)

    async def delete_note(self, group_id: str, session_id: str, key: str) -> bool:
        return await asyncio.to_thread(self.sync.delete_note, group_id, session_id, key)

    async def add_turns(self, group_id: str, session_id: str, messages: list[dict[str, Any]]) -> list[int]:
        """Append conversation turns to the session's recent-turns buffer."""
        return await asyncio.to_thread(self.sync.add_turns, group_id, session_id, messages)

    async def recent_turns(self, group_id: str, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.sync.recent_turns, group_id, session_id, limit)

    async def end_session(
        self,
        group_id: str,
        session_id: str,
        *,
        promote: bool = True,
        reference_time: datetime | str | None = None,
        extractor: str | Extractor | None = None,
    ) -> dict[str, Any]:
        """Close a session: with ``promote`` its buffered turns are ingested (episodes and extracted
        memories) first; then its scratchpad and buffer are cleared."""
        return await asyncio.to_thread(
            self.sync.end_session,
            group_id,
            session_id,
            promote=promote,
            reference_time=reference_time,
            extractor=extractor,
        )

    async def context(
        self,
        group_id: str,
        session_id: str | None,
        query: str | None,
        max_tokens: int = 1000,
        *,
        max_results: int = 20,
        turns: int = 20,
        **search: Any,
    ) -> str:
        """One prompt section within ``max_tokens`` (estimated, Chinese and English alike): the session's
        scratchpad, its recent turns and the memories retrieved for ``query`` (best first, with the
        turn each came from). ``search``: more ``search_memories`` arguments."""
        return await asyncio.to_thread(
            self.sync.context, group_id, session_id, query, max_tokens, max_results=max_results, turns=turns, **search
        )


# --- end of the generated AsyncMemoryGraph ---
