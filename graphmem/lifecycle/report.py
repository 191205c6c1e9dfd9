"""What a consolidation run did (or, dry, would do): the report and the events it emits."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

STEPS = ("merge_concepts", "merge_memories", "conflicts", "discover", "summarize", "decay", "mark")
EVENTS = (
    "memory_merged",
    "concept_merged",
    "conflict_found",
    "memory_archived",
    "important_memory",
    "summary_made",
    "run_finished",
)


class ConceptMerge(BaseModel):
    """Two concept nodes found to be one: ``merged`` was folded into ``survivor``."""

    label: Literal["Subject", "Topic", "Object"]
    survivor_id: str
    survivor_name: str
    merged_id: str
    merged_name: str
    reason: str  # normalised | vector 0.97 | context 0.91
    similarity: float | None = None
    merge_id: str | None = None  # the :ConceptMerge record (what `graphmem unmerge` takes)


class MemoryMerge(BaseModel):
    """Two memories found to say the same: ``duplicate`` is archived, its evidence moved to ``survivor``."""

    survivor_id: str
    duplicate_id: str
    reason: str  # same parts | same text 0.99
    text: str


class Conflict(BaseModel):
    """``newer`` supersedes ``older`` (a SUPERSEDES edge newer -> older)."""

    newer_id: str
    older_id: str
    newer_text: str
    older_text: str
    reason: str  # slot residence | polarity 喜欢/讨厌 | correction 其实


class Discovered(BaseModel):
    source_id: str
    target_id: str
    edge_type: Literal["REFERENCE", "CAUSALITY"]
    relation: str
    confidence: float


class Summary(BaseModel):
    summary_id: str | None = None  # None in a dry run's plan before it is written
    text: str
    subject: str
    topic: str
    sources: list[str]
    period: str


class ConsolidationReport(BaseModel):
    run_id: str
    group_id: str
    dry_run: bool = False
    started_at: str
    finished_at: str | None = None
    as_of: str  # the time decay and age were measured at
    status: Literal["finished", "failed", "interrupted"] = "finished"
    processed: int = 0  # staged memories taken in this run
    counts: dict[str, int] = Field(default_factory=dict)
    concept_merges: list[ConceptMerge] = Field(default_factory=list)
    memory_merges: list[MemoryMerge] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    discovered: list[Discovered] = Field(default_factory=list)
    summaries: list[Summary] = Field(default_factory=list)
    archived: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    seconds: float = 0.0

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


class Event(BaseModel):
    kind: str
    group_id: str
    run_id: str
    data: dict[str, Any] = Field(default_factory=dict)
