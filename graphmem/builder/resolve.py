"""Concept resolution: which existing node a name stands for.

A name is one node within a group whatever role it plays: Marco the Object of "I met Marco" and
Marco the Subject of "Marco flies gliders" are one ``:Concept`` node carrying both role labels.

1. the user and the agent: 我/I/me/用户/user → the user, 你/you/助手/assistant → the agent, as a
   subject; as an object only the pronouns (我/me/myself, 你/you/yourself): "I study AI" or "I
   hired an assistant" do not name the agent;
2. the exact normalised name (casefold, full/half width, whitespace) in any role, or a name
   consolidation merged into another node (its ``:ConceptMerge`` record): that node;
3. for topics and objects, vector candidates of the same label in the same group:
   cosine > merge_threshold merges; context_threshold < cosine <= merge_threshold merges only
   when the context agrees (the candidate is used by memories of the same type with the same
   subject, for a topic, or the same topic, for an object); otherwise a new node.
Subjects are never merged by similarity: 小明 and 小红 are close in embedding space; nor two
names with different numbers (iPhone 14 / iPhone 15), which embeddings barely tell apart.

All of it is one query (``resolve_concepts``), run inside the write transaction, so a create is
one round trip for resolution and one for the write. A similarity is only trusted when the
embedding model can read at least one of the two names: an English model maps most Chinese
words to the same unknown token, which would make 购物 and 讨厌 look identical.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from ..config import ResolutionSettings
from ..embed import Embedder, unknown_share
from ..lang import AGENT_KEY, AGENT_NAMES, OBJECT_AGENT_NAMES, OBJECT_USER_NAMES, USER_KEY, USER_NAMES
from ..store.driver import Store, tx_run
from ..store.vector import to_cosine
from ..textsim import numbers_differ
from ..types import ConceptRef, MemoryType, normalize_name

_INDEX = {"Topic": "topic_embedding", "Object": "object_embedding"}
_CONTEXT = {"Topic": "topic_context", "Object": "object_context"}
_NEIGHBOUR = {"Topic": "Subject", "Object": "Topic"}
BLIND_SHARE = 0.5  # a name the model reads less than half of has no meaningful embedding
CANDIDATES = 5  # existing topics/objects compared with a new name (the vector index is asked for 50)


@dataclass
class Concept:
    """A name to resolve, and once resolved the key to MERGE on."""

    role: str  # subject | topic | object
    label: str  # Subject | Topic | Object
    name: str
    key: str = ""
    kind: str | None = None  # user | agent for the two special subjects
    embedding: list[float] | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    reason: str = "new"
    reused: bool = False
    embedded: bool = False  # the reused node has an embedding already
    similarity: float | None = None
    merged_into: str | None = None

    def __post_init__(self) -> None:
        self._new_id = self.id
        self.reset()

    def reset(self) -> None:
        """Back to unresolved (a retried transaction resolves again from scratch)."""
        normal = normalize_name(self.name)
        self.key, self.kind, self.reason = normal, None, "new"
        self.id, self.reused, self.similarity, self.merged_into = self._new_id, False, None, None
        self.embedded = False
        users, agents = (
            (USER_NAMES, AGENT_NAMES) if self.label == "Subject" else (OBJECT_USER_NAMES, OBJECT_AGENT_NAMES)
        )
        if self.label in ("Subject", "Object") and normal in users:
            self.key, self.kind, self.reason = USER_KEY, "user", "user"
        elif self.label in ("Subject", "Object") and normal in agents:
            self.key, self.kind, self.reason = AGENT_KEY, "agent", "agent"

    def row(self) -> dict:
        # the embedding is only sent for a node that has none: a reused one has it already (and
        # 384 floats per concept are most of what a create sends over the wire)
        return {
            "key": self.key,
            "name": self.name,
            "id": self.id,
            "kind": self.kind,
            "embedding": None if self.reused and self.embedded else self.embedding,
        }

    def ref(self, node_id: str, node_name: str) -> ConceptRef:
        if self.reused:
            reused, reason = True, self.reason
        elif node_id != self.id:  # another writer created it between resolution and write
            reused, reason = True, "concurrent"
        else:
            reused, reason = False, "new" if self.kind is None else f"{self.kind} (new)"
        return ConceptRef(
            role=self.role,
            id=node_id,
            name=node_name,
            input=self.name,
            reused=reused,
            reason=reason,
            similarity=self.similarity,
        )


class ConceptResolver:
    def __init__(self, store: Store, settings: ResolutionSettings, embedder: Embedder | None = None):
        self.store = store
        self.settings = settings
        # the embedder's unknown_share(text) (the share of a text the model cannot read) is asked
        # at use time; an embedder without it: every similarity is trusted
        self.embedder = embedder

    def resolve(self, group_id: str, memories: list[tuple[MemoryType, list[Concept]]], tx: Any = None) -> None:
        """Resolve every concept of every memory in place (keys, ids, reasons, similarities).

        With ``tx`` the lookup runs inside that transaction (the write's own), else on its own.
        """
        for _, concepts in memories:
            for c in concepts:
                c.reset()
        items = self._items(memories)
        if not items:
            return
        fetch = max(CANDIDATES * 5, 50)
        params = dict(
            group_id=group_id,
            items=list(items.values()),
            fetch=fetch,
            k=CANDIDATES,
            context_min=(1.0 + self.settings.context_threshold) / 2.0,
        )
        rows = (
            tx_run(tx, "resolve_concepts", **params)
            if tx is not None
            else self.store.read("resolve_concepts", **params)
        )
        found = {(r["label"], r["key"]): r for r in rows}
        for memory_type, concepts in memories:
            for c in concepts:
                row = found.get((c.label, c.key))
                if row and row["id"]:
                    c.id, c.reused, c.embedded = row["id"], True, bool(row.get("embedded"))
                    if row.get("alias"):  # merged away by consolidation: its survivor
                        c.key, c.reason, c.merged_into = row["node_key"], "merged name", row["name"]
                    elif c.reason == "new":
                        c.reason = "exact"
                elif row and row["hits"] and c.embedding is not None:
                    self._decide(group_id, memory_type, c, concepts, row["hits"], tx)
        self._share_new_ids(memories)

    @staticmethod
    def _items(memories: list[tuple[MemoryType, list[Concept]]]) -> dict[tuple[str, str], dict]:
        """One lookup per distinct (label, key), with every context it is used in."""
        items: dict[tuple[str, str], dict] = {}
        for memory_type, concepts in memories:
            for c in concepts:
                it = items.get((c.label, c.key))
                if it is None:
                    index = _INDEX.get(c.label) if c.embedding is not None else None
                    it = items[(c.label, c.key)] = {
                        "label": c.label,
                        "key": c.key,
                        "index": index,
                        "embedding": c.embedding if index else None,
                        "contexts": [],
                    }
                neighbour = next((s for s in concepts if s.label == _NEIGHBOUR.get(c.label)), None)
                if neighbour is not None:
                    ref = _context_ref(memory_type, neighbour.key)
                    if all(x["ref"] != ref for x in it["contexts"]):
                        it["contexts"].append(
                            {"ref": ref, "memory_type": memory_type.value, "neighbour_key": neighbour.key}
                        )
        return items

    def _decide(
        self,
        group_id: str,
        memory_type: MemoryType,
        concept: Concept,
        siblings: list[Concept],
        hits: list[dict],
        tx: Any,
    ) -> None:
        neighbour = next((s for s in siblings if s.label == _NEIGHBOUR.get(concept.label)), None)
        for hit in hits:
            score = to_cosine(hit["score"])
            if not self._readable(concept.name, hit["name"]) or numbers_differ(concept.name, hit["name"] or ""):
                continue
            if score > self.settings.merge_threshold:
                self._merge(concept, hit, score, f"vector {score:.2f}")
                return
            if score > self.settings.context_threshold and neighbour is not None:
                if self._agrees(group_id, memory_type, concept, neighbour, hit, tx):
                    self._merge(concept, hit, score, f"context {score:.2f}")
                    return

    def _agrees(
        self, group_id: str, memory_type: MemoryType, concept: Concept, neighbour: Concept, hit: dict, tx: Any
    ) -> bool:
        if _context_ref(memory_type, neighbour.key) in (hit.get("agrees") or []):
            return True
        if neighbour.key == normalize_name(neighbour.name) or neighbour.kind:
            return False  # the lookup already checked this neighbour
        # the neighbour itself was merged into another node in this call: check that one (rare)
        params = dict(group_id=group_id, id=hit["id"], memory_type=memory_type.value, neighbour_key=neighbour.key)
        rows = (
            tx_run(tx, _CONTEXT[concept.label], **params)
            if tx is not None
            else self.store.read(_CONTEXT[concept.label], **params)
        )
        return bool(rows and rows[0]["agrees"])

    def _readable(self, name: str, other: str | None) -> bool:
        """False when neither name is readable by the model: their similarity means nothing."""
        unread = unknown_share(self.embedder)
        if unread is None:
            return True
        return unread(name) <= BLIND_SHARE or unread(other or "") <= BLIND_SHARE

    @staticmethod
    def _share_new_ids(memories: list[tuple[MemoryType, list[Concept]]]) -> None:
        """Two memories of one call naming the same new name (in any roles) create one node: give
        them one id."""
        first: dict[str, str] = {}
        for _, concepts in memories:
            for c in concepts:
                if not c.reused:
                    c.id = first.setdefault(c.key, c.id)

    @staticmethod
    def _merge(concept: Concept, hit: dict, score: float, reason: str) -> None:
        concept.key = hit["normalized_name"]
        concept.id = hit["id"]
        concept.reused = concept.embedded = True  # a vector hit has an embedding
        concept.reason = reason
        concept.similarity = round(score, 4)
        concept.merged_into = hit["name"]


def _context_ref(memory_type: MemoryType, neighbour_key: str) -> str:
    return f"{memory_type.value}|{neighbour_key}"
