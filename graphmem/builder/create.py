"""create_memory / create_memories: validate, normalise time, embed, resolve, write atomically."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timezone

from ..embed import Embedder
from ..store.driver import Store, tx_run
from ..timeparse import is_time_key, normalize_time
from ..types import CreateResult, MemoryInput, MemoryStatus, normalize_name
from .resolve import Concept, ConceptResolver

WRITE_CHUNK = 250   # memories per transaction in a batch; each memory is whole in one transaction


def render_text(subject: str, topic: str, obj: str | None, attributes: dict[str, str]) -> str:
    """The readable sentence a memory is embedded and searched by: 我 吃饭 白米饭 (时间: 2025-11-05)."""
    text = " ".join(p for p in (subject, topic, obj) if p)
    if attributes:
        text += " (" + "; ".join(f"{k}: {v}" for k, v in attributes.items()) + ")"
    return text


@dataclass
class Prepared:
    memory: MemoryInput
    id: str
    text: str
    attributes: list[dict]
    occurred_at: str | None
    time_values: dict[str, dict]
    concepts: list[Concept]


def prepare(memory: MemoryInput, reference_time: datetime) -> Prepared:
    attributes, shown, time_values, occurred_at = [], {}, {}, None
    for key, value in memory.attributes.items():
        iso, parsed, display = None, None, value
        if is_time_key(key):
            tv = normalize_time(value, reference_time)
            iso, parsed, display = tv.iso, tv.parsed, tv.display()
            time_values[key] = {"original": value, "iso": tv.iso, "part_of_day": tv.part_of_day,
                                "granularity": tv.granularity, "parsed": tv.parsed}
            if occurred_at is None and tv.parsed and tv.start is not None:
                occurred_at = tv.start.isoformat()
        shown[key] = display
        attributes.append({"id": uuid.uuid4().hex, "value_id": uuid.uuid4().hex, "key": key, "value": value,
                           "display": display, "normalized": normalize_name(display), "iso": iso, "parsed": parsed})
    concepts = [Concept("subject", "Subject", memory.subject), Concept("topic", "Topic", memory.topic)]
    if memory.object:
        concepts.append(Concept("object", "Object", memory.object))
    return Prepared(memory=memory, id=uuid.uuid4().hex,
                    text=render_text(memory.subject, memory.topic, memory.object, shown),
                    attributes=attributes, occurred_at=occurred_at, time_values=time_values, concepts=concepts)


class MemoryWriter:
    def __init__(self, store: Store, embedder: Embedder, resolver: ConceptResolver):
        self.store = store
        self.embedder = embedder
        self.resolver = resolver

    def create(self, group_id: str, memories: list[MemoryInput], *, session_id: str | None,
               reference_time: datetime, source: str, status: MemoryStatus = MemoryStatus.STAGED,
               extra: list[dict] | None = None) -> list[CreateResult]:
        prepared = [prepare(m, reference_time) for m in memories]
        self._embed(prepared)
        self.resolver.resolve(group_id, [(p.memory.memory_type, p.concepts) for p in prepared])
        now = datetime.now(timezone.utc).isoformat()
        rows = [self._row(p, session_id, reference_time, source, status, now, (extra or [{}] * len(prepared))[i])
                for i, p in enumerate(prepared)]
        results: list[dict] = []
        for start in range(0, len(rows), WRITE_CHUNK):
            chunk = rows[start:start + WRITE_CHUNK]
            results.extend(self.store.transaction(
                lambda tx, chunk=chunk: tx_run(tx, "create_memories", group_id=group_id, rows=chunk)))
        by_id = {r["memory_id"]: r for r in results}
        return [self._result(p, by_id[p.id], status) for p in prepared]

    def _embed(self, prepared: list[Prepared]) -> None:
        texts = [p.text for p in prepared]
        names = sorted({c.name for p in prepared for c in p.concepts})
        vectors = self.embedder.embed(texts + names)
        by_name = dict(zip(names, vectors[len(texts):]))
        for p, vector in zip(prepared, vectors):
            p.embedding = vector  # type: ignore[attr-defined]
            for c in p.concepts:
                c.embedding = by_name[c.name]

    @staticmethod
    def _row(p: Prepared, session_id, reference_time, source, status, now, extra: dict) -> dict:
        props = {"memory_type": p.memory.memory_type.value, "text": p.text, "importance": p.memory.importance,
                 "status": status.value, "occurred_at": p.occurred_at, "created_at": now,
                 "reference_time": reference_time.isoformat(), "session_id": session_id, "source": source,
                 "subject_name": p.memory.subject, "topic_name": p.memory.topic, "object_name": p.memory.object,
                 **extra}
        by_role = {c.role: c for c in p.concepts}
        return {"memory": {"id": p.id, "props": props, "embedding": p.embedding},  # type: ignore[attr-defined]
                "subject": by_role["subject"].row(), "topic": by_role["topic"].row(),
                "object": by_role["object"].row() if "object" in by_role else None,
                "attributes": p.attributes}

    @staticmethod
    def _result(p: Prepared, row: dict, status: MemoryStatus) -> CreateResult:
        refs = []
        for c in p.concepts:
            refs.append(c.ref(row[f"{c.role}_id"], row[f"{c.role}_name"]))
        merged = [f"{r.input}→{r.name} ({r.reason})" for r in refs if r.reused and r.input != r.name]
        message = "saved" + (f"; merged {', '.join(merged)}" if merged else "")
        return CreateResult(memory_id=p.id, status=status.value, text=p.text, occurred_at=p.occurred_at,
                            concepts=refs, time_values=p.time_values, message=message)
