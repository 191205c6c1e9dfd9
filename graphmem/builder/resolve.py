"""Concept resolution (seed 004 §5.1, refined): which existing node a name stands for.

1. the user and the agent: 我/I/me/用户/user → the user subject, 你/you/助手/assistant → the agent;
2. the exact normalised name (casefold, full/half width, whitespace);
3. for topics and objects, vector candidates of the same label in the same group:
   cosine > merge_threshold merges; context_threshold < cosine <= merge_threshold merges only
   when the context agrees (the candidate is used by memories of the same type with the same
   subject, for a topic, or the same topic, for an object); otherwise a new node.
Subjects are never merged by similarity: 小明 and 小红 are close in embedding space.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from ..config import ResolutionSettings
from ..store.driver import Store
from ..store.vector import group_topk, to_cosine
from ..types import ConceptRef, MemoryType, normalize_name

USER_NAMES = {"我", "我自己", "本人", "i", "me", "myself", "my", "用户", "user", "the user"}
AGENT_NAMES = {"你", "你自己", "助手", "ai助手", "ai", "you", "yourself", "assistant", "the assistant", "agent"}
USER_KEY, AGENT_KEY = "@user", "@agent"

_INDEX = {"Topic": ("topic_embedding", "topic_exact_topk"), "Object": ("object_embedding", "object_exact_topk")}
_CONTEXT = {"Topic": "topic_context", "Object": "object_context"}


@dataclass
class Concept:
    """A name to resolve, and once resolved the key to MERGE on."""
    role: str                 # subject | topic | object
    label: str                # Subject | Topic | Object
    name: str
    key: str = ""
    kind: str | None = None   # user | agent for the two special subjects
    embedding: list[float] | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    reason: str = "new"
    reused: bool = False
    similarity: float | None = None
    merged_into: str | None = None

    def __post_init__(self) -> None:
        normal = normalize_name(self.name)
        self.key = normal
        if self.label == "Subject" and normal in USER_NAMES:
            self.key, self.kind, self.reason = USER_KEY, "user", "user"
        elif self.label == "Subject" and normal in AGENT_NAMES:
            self.key, self.kind, self.reason = AGENT_KEY, "agent", "agent"

    def row(self) -> dict:
        return {"key": self.key, "name": self.name, "id": self.id, "embedding": self.embedding, "kind": self.kind}

    def ref(self, node_id: str, node_name: str) -> ConceptRef:
        if self.reused:
            reused, reason = True, self.reason
        elif node_id != self.id:      # another writer created it between resolution and write
            reused, reason = True, "concurrent"
        else:
            reused, reason = False, "new" if self.kind is None else f"{self.kind} (new)"
        return ConceptRef(role=self.role, id=node_id, name=node_name, input=self.name, reused=reused,
                          reason=reason, similarity=self.similarity)


class ConceptResolver:
    def __init__(self, store: Store, settings: ResolutionSettings):
        self.store = store
        self.settings = settings

    def resolve(self, group_id: str, memories: list[tuple[MemoryType, list[Concept]]]) -> None:
        """Resolve every concept of every memory in place (keys, reasons, similarities)."""
        concepts = [c for _, cs in memories for c in cs]
        self._exact(group_id, concepts)
        pending = [(mt, c, cs) for mt, cs in memories for c in cs
                   if not c.reused and c.label in _INDEX and c.embedding is not None]
        if not pending:
            return
        hits = self._candidates(group_id, [c for _, c, _ in pending])
        for memory_type, concept, siblings in pending:
            self._decide(group_id, memory_type, concept, siblings, hits.get((concept.label, concept.key), []))

    def _exact(self, group_id: str, concepts: list[Concept]) -> None:
        items = [{"label": c.label, "key": c.key} for c in concepts]
        rows = self.store.read("concept_exact", group_id=group_id, items=items)
        found = {(r["label"], r["key"]): r for r in rows if r["id"]}
        for c in concepts:
            row = found.get((c.label, c.key))
            if row:
                c.id, c.reused = row["id"], True
                if c.reason == "new":
                    c.reason = "exact"

    def _candidates(self, group_id: str, concepts: list[Concept]) -> dict[tuple[str, str], list[dict]]:
        k = self.settings.candidates
        out: dict[tuple[str, str], list[dict]] = {}
        for label, (index, exact) in _INDEX.items():
            mine = {c.key: c for c in concepts if c.label == label}
            if not mine:
                continue
            fetch = max(k * 5, 50)
            rows = self.store.read("vector_index_topk_batch", index=index, fetch=fetch, k=k, group_id=group_id,
                                   items=[{"key": key, "embedding": c.embedding} for key, c in mine.items()])
            for row in rows:
                if len(row["hits"]) < k and row["returned"] >= fetch:   # starved by other groups
                    hits = group_topk(self.store, index, exact, group_id, mine[row["key"]].embedding, k)
                else:
                    hits = [{**h, "score": to_cosine(h["score"])} for h in row["hits"]]
                out[(label, row["key"])] = hits
        return out

    def _decide(self, group_id: str, memory_type: MemoryType, concept: Concept,
                siblings: list[Concept], hits: list[dict]) -> None:
        neighbour = next((s for s in siblings if s.label == ("Subject" if concept.label == "Topic" else "Topic")), None)
        for hit in hits:
            score = hit["score"]
            if score > self.settings.merge_threshold:
                self._merge(concept, hit, f"vector {score:.2f}")
                return
            if score > self.settings.context_threshold and neighbour is not None:
                agrees = self.store.read(_CONTEXT[concept.label], group_id=group_id, id=hit["id"],
                                         memory_type=memory_type.value, neighbour_key=neighbour.key)
                if agrees and agrees[0]["agrees"]:
                    self._merge(concept, hit, f"context {score:.2f}")
                    return

    @staticmethod
    def _merge(concept: Concept, hit: dict, reason: str) -> None:
        concept.key = hit["normalized_name"]
        concept.id = hit["id"]
        concept.reused = True
        concept.reason = reason
        concept.similarity = round(hit["score"], 4)
        concept.merged_into = hit["name"]
