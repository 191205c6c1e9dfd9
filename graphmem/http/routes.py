"""The endpoints: each one MemoryGraph call for the request's group (graphmem/http/auth.py), its
answer the library's own result type. Handlers are plain functions: the server runs them in its
thread pool, where the graph's calls (the driver, the model) run as they do in-process."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.responses import FileResponse
from fastapi.security import HTTPBearer
from starlette.background import BackgroundTask

from ..errors import ForbiddenError
from ..graph import MemoryGraph
from ..ingest.models import IngestReport, RetryReport
from ..lifecycle.report import ConsolidationReport
from ..types import CreateResult, GroupDeletion, LinkResult, MemoryRecord, SearchResponse
from . import schemas as s
from .auth import GROUP_HEADER, Access, Gate, refuse_group_arguments

router = APIRouter(prefix="/v1")
# declares the bearer token in the OpenAPI schema (the /docs page's Authorize button); the token
# itself is read and checked by auth.Gate, which also refuses a scheme other than Bearer
bearer = HTTPBearer(auto_error=False, description="A tenant token (its group) or the admin token.")
SOURCE = "http"  # the ``source`` recorded with what the API writes


def graph_of(request: Request) -> MemoryGraph:
    return request.app.state.graph


def access_of(
    request: Request,
    _scheme: Any = Depends(bearer),
    authorization: str | None = Header(None, include_in_schema=False),
    group: str | None = Header(
        None,
        alias=GROUP_HEADER,
        description="An admin token's group (a tenant token's own group, or none: the token decides).",
    ),
) -> Access:
    refuse_group_arguments(list(request.query_params), "query string")
    gate: Gate = request.app.state.gate
    return gate.access(authorization, group)


def _json(model: Any) -> Response:
    """A pydantic answer serialised once by pydantic-core (FastAPI would validate it again)."""
    return Response(model.model_dump_json(), media_type="application/json")


def _json_list(models: list[Any]) -> Response:
    return Response("[" + ",".join(m.model_dump_json() for m in models) + "]", media_type="application/json")


Graph = Depends(graph_of)
Caller = Depends(access_of)


# --- memories -------------------------------------------------------------------------------
@router.post("/memories", response_model=CreateResult, tags=["memories"], summary="Create one memory")
def create_memory(body: s.CreateMemoryRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    result = graph.create_memory(
        access.group_id,
        body.subject,
        body.memory_type,
        body.topic,
        body.object,
        dict(body.attributes),
        body.importance,
        session_id=body.session_id,
        reference_time=body.reference_time,
        source=SOURCE,
        request_id=body.request_id,
    )
    return _json(result)


@router.post("/memories/batch", response_model=list[CreateResult], tags=["memories"], summary="Create several memories")
def create_memories(body: s.CreateMemoriesRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    results = graph.create_memories(
        access.group_id,
        body.memories,
        session_id=body.session_id,
        reference_time=body.reference_time,
        source=SOURCE,
        request_id=body.request_id,
    )
    return _json_list(results)


@router.get("/memories", response_model=list[MemoryRecord], tags=["memories"], summary="List memories, newest first")
def list_memories(
    status: str | None = Query(None, description="staged, consolidated or archived"),
    memory_type: str | None = Query(None, description="事件/事实/关系/观点 or event/fact/relation/opinion"),
    limit: int = Query(50, ge=1, le=1000),
    offset: int = Query(0, ge=0),
    graph: MemoryGraph = Graph,
    access: Access = Caller,
) -> Response:
    rows = graph.list_memories(access.group_id, status=status, memory_type=memory_type, limit=limit, offset=offset)
    return _json_list(rows)


@router.get("/memories/{memory_id}", response_model=MemoryRecord, tags=["memories"], summary="Show one memory")
def get_memory(memory_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    return _json(graph.get_memory(access.group_id, memory_id))


@router.get("/memories/{memory_id}/supersede-chain", tags=["memories"], summary="A memory's supersede chain")
def supersede_chain(memory_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> list[dict[str, Any]]:
    return graph.supersede_chain(access.group_id, memory_id)


@router.put("/memories/{memory_id}/importance", tags=["memories"], summary="Set a memory's importance")
def update_importance(
    memory_id: str, body: s.ImportanceRequest, graph: MemoryGraph = Graph, access: Access = Caller
) -> dict[str, Any]:
    return graph.update_memory_importance(access.group_id, memory_id, body.importance)


@router.post("/memories/{memory_id}/forget", tags=["memories"], summary="Archive a memory (it can be restored)")
def forget(memory_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> dict[str, Any]:
    return graph.forget(access.group_id, memory_id)


@router.post("/memories/{memory_id}/restore", tags=["memories"], summary="Undo forget")
def restore(memory_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> dict[str, Any]:
    return graph.restore(access.group_id, memory_id)


@router.post("/links", response_model=LinkResult, tags=["memories"], summary="Link two memories described in words")
def link(body: s.LinkRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    result = graph.link_memories(
        access.group_id,
        body.source_memory_description,
        body.target_memory_description,
        body.relation_type.value,
        body.importance,
        request_id=body.request_id,
    )
    return _json(result)


# --- search ---------------------------------------------------------------------------------
@router.post("/search", response_model=SearchResponse, tags=["search"], summary="Search the group's memories")
def search(body: s.SearchRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    response = graph.search_memories(
        access.group_id,
        body.query,
        memory_types=[t.value for t in body.memory_types] if body.memory_types else None,
        time_range=body.time_range.model_dump() if body.time_range else None,
        max_results=body.max_results,
        expand_depth=body.expand_depth,
        mode=body.mode,
        relation_filters=[r.value for r in body.relation_filters] if body.relation_filters else None,
        subject=body.subject,
        include_archived=body.include_archived,
        reference_time=body.reference_time,
        profile=body.profile,
        superseded=body.superseded,
        rerank=body.rerank,
        as_of=body.as_of,
    )
    return _json(response)


@router.post("/context", response_model=s.ContextResponse, tags=["search"], summary="A prompt section")
def context(body: s.ContextRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> s.ContextResponse:
    options = {k: v for k, v in (("as_of", body.as_of), ("reference_time", body.reference_time)) if v is not None}
    text = graph.context(
        access.group_id,
        body.session_id,
        body.query,
        body.max_tokens,
        max_results=body.max_results,
        turns=body.turns,
        **options,
    )
    return s.ContextResponse(context=text)


# --- conversations and the extraction queue -------------------------------------------------
@router.post("/ingest", response_model=IngestReport, tags=["conversations"], summary="Store and extract a conversation")
def ingest(body: s.IngestRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    report = graph.ingest(
        access.group_id,
        body.messages,
        body.text,
        session_id=body.session_id,
        reference_time=body.reference_time,
        extractor=body.extractor,
        request_id=body.request_id,
    )
    return _json(report)


@router.post(
    "/extractions/retry", response_model=RetryReport, tags=["conversations"], summary="Retry pending extractions"
)
def retry_extractions(body: s.RetryRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    report = graph.retry_extractions(
        access.group_id, max_jobs=body.max_jobs, force=body.force, include_failed=body.include_failed
    )
    return _json(report)


# --- working memory -------------------------------------------------------------------------
@router.get("/sessions/{session_id}/notes", tags=["working memory"], summary="The session's scratchpad")
def notes(session_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> dict[str, Any]:
    return graph.notes(access.group_id, session_id)


@router.put("/sessions/{session_id}/notes/{key}", tags=["working memory"], summary="Keep a scratchpad note")
def set_note(
    session_id: str, key: str, body: s.NoteRequest, graph: MemoryGraph = Graph, access: Access = Caller
) -> dict[str, Any]:
    return graph.set_note(access.group_id, session_id, key, body.value, body.ttl_seconds)


@router.delete("/sessions/{session_id}/notes/{key}", tags=["working memory"], summary="Drop a scratchpad note")
def delete_note(session_id: str, key: str, graph: MemoryGraph = Graph, access: Access = Caller) -> dict[str, bool]:
    return {"deleted": graph.delete_note(access.group_id, session_id, key)}


@router.post("/sessions/{session_id}/turns", tags=["working memory"], summary="Append turns to the session")
def add_turns(
    session_id: str, body: s.TurnsRequest, graph: MemoryGraph = Graph, access: Access = Caller
) -> dict[str, list[int]]:
    return {"orders": graph.add_turns(access.group_id, session_id, body.messages)}


@router.get("/sessions/{session_id}/turns", tags=["working memory"], summary="The session's recent turns")
def recent_turns(
    session_id: str, limit: int = Query(20, ge=0, le=10000), graph: MemoryGraph = Graph, access: Access = Caller
) -> list[dict[str, Any]]:
    return graph.recent_turns(access.group_id, session_id, limit)


@router.post("/sessions/{session_id}/end", tags=["working memory"], summary="Close a session")
def end_session(
    session_id: str, body: s.EndSessionRequest, graph: MemoryGraph = Graph, access: Access = Caller
) -> dict[str, Any]:
    return graph.end_session(
        access.group_id,
        session_id,
        promote=body.promote,
        reference_time=body.reference_time,
        extractor=body.extractor,
    )


# --- the group: statistics, consolidation, export, deletion ---------------------------------
@router.get("/stats", tags=["group"], summary="Memories by type and status, nodes, edges, extraction jobs")
def stats(
    whole_database: bool = Query(False, description="Every group's counts together (admin token only)."),
    graph: MemoryGraph = Graph,
    access: Access = Caller,
) -> dict[str, Any]:
    if whole_database and not access.admin:
        raise ForbiddenError("the whole database's counts need the server's admin token (http.admin_token)")
    return graph.stats(None if whole_database else access.group_id)


@router.post("/consolidate", response_model=ConsolidationReport, tags=["group"], summary="Run a consolidation")
def consolidate(body: s.ConsolidateRequest, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    report = graph.consolidate(access.group_id, dry_run=body.dry_run, now=body.now, max_batches=body.max_batches)
    return _json(report)


@router.get(
    "/export",
    tags=["group"],
    summary="The group as JSON Lines (graphmem import reads it)",
    response_class=FileResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def export(vectors: bool = Query(True), graph: MemoryGraph = Graph, access: Access = Caller) -> FileResponse:
    from ..analyst.portability import export_group

    fd, path = tempfile.mkstemp(prefix="graphmem-export-", suffix=".jsonl")
    os.close(fd)
    try:
        export_group(graph.store, access.group_id, path, vectors=vectors)
    except BaseException:
        os.unlink(path)
        raise
    return FileResponse(
        path,
        media_type="application/x-ndjson",
        filename=f"{access.group_id}.jsonl",
        background=BackgroundTask(os.unlink, path),
    )


@router.delete(
    "/groups/{group_id}", response_model=GroupDeletion, tags=["group"], summary="Delete a group for good (admin)"
)
def delete_group(group_id: str, graph: MemoryGraph = Graph, access: Access = Caller) -> Response:
    if not access.admin:
        raise ForbiddenError("deleting a group needs the server's admin token (http.admin_token)")
    return _json(graph.delete_group(group_id))


@router.get("/health", response_model=s.Health, tags=["server"], summary="Whether the server answers")
def health(request: Request) -> s.Health:
    return s.Health(version=request.app.version)
