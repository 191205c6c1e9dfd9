"""The data of the ingest path: turns in, episodes stored, extraction plans, reports out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


@dataclass
class Message:
    """One conversation turn as handed over: who said what, and when (None: the reference time)."""

    role: str
    content: str
    speaker: str | None = None
    timestamp: datetime | None = None
    external_id: str | None = None


@dataclass
class EpisodeView:
    """A stored episode as the extractors see it."""

    id: str
    session_id: str
    role: str
    content: str
    timestamp: datetime
    order: int
    chunk: int = 0
    speaker: str | None = None
    external_id: str | None = None


@dataclass
class PlannedMemory:
    """One memory an extractor wants written; ``key`` is unique within its job."""

    key: str
    memory: dict[str, Any]
    episode_ids: list[str]
    reference_time: str  # ISO: relative times in the memory are read against it
    session_id: str | None = None
    relative: bool = True  # False: nothing in it depends on reference_time (batched freely)
    kind: str | None = None  # schema.Kind: what it says (residence, relation, event ...)
    slot: str | None = None  # schema.Slot: the single-valued slot it sets, which consolidation reads
    ends: bool = False  # it ends the slot's current value (quit, moved out) without a new one

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "memory": self.memory,
            "episode_ids": self.episode_ids,
            "reference_time": self.reference_time,
            "session_id": self.session_id,
            "relative": self.relative,
            "kind": self.kind,
            "slot": self.slot,
            "ends": self.ends,
        }


@dataclass
class PlannedLink:
    """A memory → memory link: by the keys of planned memories (rules) or by descriptions (LLM)."""

    source: str
    target: str
    relation_type: str
    importance: float = 0.6
    by_key: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "relation_type": self.relation_type,
            "importance": self.importance,
            "by_key": self.by_key,
        }


@dataclass
class ExtractionPlan:
    """What an extractor wants written (memories in batches per reference time, then links).
    ``via_tools``: the plan is an LLM's tool calls, kept on the job so that a retry after a crash
    finishes it instead of asking the LLM again. ``refused``: the memories left out as fragments of
    their turn (``fragments.fragment``), each as "turn n: subject | topic | object: why"."""

    memories: list[PlannedMemory] = field(default_factory=list)
    links: list[PlannedLink] = field(default_factory=list)
    via_tools: bool = False
    refused: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "memories": [m.to_dict() for m in self.memories],
            "links": [link.to_dict() for link in self.links],
            "via_tools": self.via_tools,
            "refused": self.refused,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExtractionPlan:
        return cls(
            memories=[PlannedMemory(**m) for m in data.get("memories", [])],
            links=[PlannedLink(**link) for link in data.get("links", [])],
            via_tools=bool(data.get("via_tools")),
            refused=list(data.get("refused") or []),
        )


class JobOutcome(BaseModel):
    job_id: str
    group_id: str
    state: str  # done | pending | failed
    attempts: int
    memories: list[str] = Field(default_factory=list)
    links: int = 0
    error: str | None = None
    warnings: list[str] = Field(default_factory=list)


class IngestReport(BaseModel):
    """What one ``ingest`` call stored and extracted. ``episodes`` are the new episode ids in order."""

    group_id: str
    session_id: str
    episodes: list[str] = Field(default_factory=list)
    memories: list[str] = Field(default_factory=list)
    links: int = 0
    jobs: list[str] = Field(default_factory=list)
    jobs_pending: int = 0
    jobs_failed: int = 0
    jobs_running: int = 0  # claimed but not finished: the database went away during the attempt
    jobs_resumed: list[str] = Field(default_factory=list)  # stranded jobs of the group this call finished
    errors: list[str] = Field(default_factory=list)

    def merged(self, other: IngestReport) -> IngestReport:
        """This report followed by ``other`` (the next segment of the same call)."""
        return self.model_copy(
            update={
                "episodes": self.episodes + other.episodes,
                "memories": self.memories + other.memories,
                "links": self.links + other.links,
                "jobs": self.jobs + other.jobs,
                "jobs_pending": self.jobs_pending + other.jobs_pending,
                "jobs_failed": self.jobs_failed + other.jobs_failed,
                "jobs_running": self.jobs_running + other.jobs_running,
                "jobs_resumed": self.jobs_resumed + other.jobs_resumed,
                "errors": self.errors + other.errors,
            }
        )


class RetryReport(BaseModel):
    """What one ``retry_extractions`` call did."""

    attempted: int = 0
    done: int = 0
    pending: int = 0
    failed: int = 0
    memories: list[str] = Field(default_factory=list)
    links: int = 0
    errors: list[str] = Field(default_factory=list)
