"""The bodies of the HTTP requests: the library's own input types (``MemoryInput``, ``LinkInput``,
``SearchInput`` from graphmem/types.py), each with the options of the MemoryGraph call it maps to,
and small bodies for the calls that take plain arguments. The answers are the library's result
types themselves (``CreateResult``, ``SearchResponse``, ``MemoryRecord``, ``IngestReport`` ...).

No body has a group field: the group comes from the token (graphmem/http/auth.py), and a body that
names one is refused. The values are checked again by the library: these types give the
OpenAPI schema and refuse what is plainly wrong before any work.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..types import MAX_INGEST_CHARS, LinkInput, MemoryInput, SearchInput

MAX_BATCH = 1000  # memories in one create-many request (one embedding batch, a few transactions)
MAX_TURNS = 10000  # turns in one ingest request (the library's own cap per call)

ReferenceTime = Field(
    None,
    description="When the call happens, for 今天/yesterday in the input (ISO 8601 datetime; default now).",
)
SessionId = Field(None, description="The conversation session to record with what is written.")
RequestId = Field(
    None,
    description="An idempotency key: the same call repeated with it (after a lost answer) writes nothing again "
    "and returns the first call's result.",
)
Extractor = Literal["rules", "llm", "none"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CreateMemoryRequest(MemoryInput):
    """One memory (the fields of ``create_memory``) and the call's options."""

    session_id: str | None = SessionId
    reference_time: str | None = ReferenceTime
    request_id: str | None = RequestId


class CreateMemoriesRequest(_Body):
    """Several memories written together (``create_memories``): one embedding batch, all validated first."""

    memories: list[MemoryInput] = Field(..., min_length=1, max_length=MAX_BATCH)
    session_id: str | None = SessionId
    reference_time: str | None = ReferenceTime
    request_id: str | None = RequestId


class LinkRequest(LinkInput):
    """Two memories described in words and the relation between them (``link_memories``)."""

    request_id: str | None = RequestId


class SearchRequest(SearchInput):
    """A search (``search_memories``): every option of the Python API, ``as_of`` included."""

    mode: Literal["auto", "fast", "deep"] | None = Field(  # type: ignore[assignment]
        None, description="auto (walk the graph when the query asks for it), fast or deep; default: the server's"
    )
    reference_time: str | None = Field(
        None, description="The time 'today', 'last week' and decay are measured at (ISO 8601; default now)."
    )
    rerank: bool | None = Field(
        None, description="Reorder the best results with the server's reranker (default: when one is configured)."
    )


class IngestRequest(_Body):
    """A conversation to store and extract memories from (``ingest``): ``messages`` or ``text``."""

    messages: list[dict[str, Any]] | None = Field(
        None,
        max_length=MAX_TURNS,
        description="Turns: {role, content, speaker?, timestamp?, id?}, in order.",
    )
    text: str | None = Field(None, max_length=MAX_INGEST_CHARS, description="Plain text, split into turns.")
    session_id: str | None = Field(None, description="The session (default: a new one; an existing one goes on).")
    reference_time: str | None = ReferenceTime
    extractor: Extractor | None = Field(
        None, description="rules, llm or none (default: llm when the server has one configured, else rules)."
    )
    request_id: str | None = RequestId


class RetryRequest(_Body):
    """A round of the extraction queue (``retry_extractions``)."""

    max_jobs: int = Field(100, ge=1, le=1000)
    force: bool = Field(False, description="Ignore the backoff: retry every pending job now.")
    include_failed: bool = Field(False, description="Give failed jobs one more attempt too.")


class ConsolidateRequest(_Body):
    """One consolidation run over the group (``consolidate``)."""

    dry_run: bool = Field(False, description="Report what it would change; change nothing.")
    now: str | None = Field(None, description="The time decay and age are measured at (ISO 8601; default now).")
    max_batches: int | None = Field(None, ge=1)


class ImportanceRequest(_Body):
    importance: float = Field(..., ge=0, le=1)


class NoteRequest(_Body):
    """A scratchpad note: any JSON value, forgotten after ``ttl_seconds`` if given."""

    value: Any
    ttl_seconds: float | None = Field(None, gt=0)


class TurnsRequest(_Body):
    messages: list[dict[str, Any]] = Field(..., min_length=1, description="Turns: {role, content, speaker?}.")


class EndSessionRequest(_Body):
    promote: bool = Field(True, description="Ingest the session's buffered turns before clearing it.")
    reference_time: str | None = ReferenceTime
    extractor: Extractor | None = None


class ContextRequest(_Body):
    """A prompt section within ``max_tokens``: the session's notes and turns, and memories for ``query``."""

    session_id: str | None = None
    query: str | None = None
    max_tokens: int = Field(1000, ge=1, le=100_000)
    max_results: int = Field(20, ge=1, le=200)
    turns: int = Field(20, ge=0, le=1000)
    as_of: str | None = Field(None, description="What was current then (ISO 8601), as in a search.")
    reference_time: str | None = ReferenceTime


class ContextResponse(BaseModel):
    context: str


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str
