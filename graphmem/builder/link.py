"""link_memories: find both memories by meaning, then write a CAUSALITY or REFERENCE edge.

A description is matched against the group's memories by embedding similarity, lifted by
lexical overlap (character bigrams for Chinese, words for English) where they share words, so
"昨晚没睡好" finds "我 睡眠 不好", "I slept badly" finds it too, and "我很困" finds
"我 身体状态 很困" even with an English-only embedding model. No match good enough, or two
different memories equally good, is refused with the best candidates listed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..embed import Embedder, embed_query
from ..errors import AmbiguousMatchError, NoMatchError, NotFoundError, ValidationError
from ..store.driver import Store, tx_run
from ..store.fulltext import group_query
from ..store.vector import group_topk
from ..textsim import overlap
from ..types import EdgeType, LinkInput, LinkResult
from .requests import claim, fingerprint, finish, stored

MIN_SCORE = 0.25  # below this match score nothing counts as a match
AMBIGUITY_MARGIN = 0.02


def memory_row(store: Store, group_id: str, memory_id: str) -> dict:
    """One memory with its concepts, attributes and links (query ``get_memory``), or NotFoundError."""
    rows = store.read("get_memory", group_id=group_id, id=memory_id)
    if not rows:
        raise NotFoundError(
            f"no memory {memory_id!r} in group {group_id!r}: search_memories returns the ids (from the "
            f"command line: `graphmem search -g GROUP QUERY`)"
        )
    return rows[0]


def _blend(cosine: float, lexical: float) -> float:
    """A description's match score: its cosine, lifted by the words it shares with the memory
    (the mean of the two) when they share many; words never lower it: a description in the
    other language of the memory shares none."""
    cosine = max(cosine, 0.0)
    return round(max(cosine, 0.5 * cosine + 0.5 * lexical), 4)


class MemoryLinker:
    def __init__(self, store: Store, embedder: Embedder):
        self.store = store
        self.embedder = embedder

    def find(self, group_id: str, description: str, embedding: list[float] | None = None, k: int = 10) -> list[dict]:
        """Candidate memories for a description, best first, each with id, text and score."""
        embedding = embedding or embed_query(self.embedder, [description])[0]
        hits = {
            h["id"]: {"id": h["id"], "text": h["name"], "cosine": h["score"]}
            for h in group_topk(self.store, "memory_embedding", "memory_exact_topk", group_id, embedding, k)
        }
        lucene = group_query(description, group_id)
        if lucene:
            for row in self.store.read("memory_fulltext", query=lucene, group_id=group_id, k=k):
                hits.setdefault(row["id"], {"id": row["id"], "text": row["name"], "cosine": None})
        missing = [h["id"] for h in hits.values() if h["cosine"] is None]
        if missing:
            for row in self.store.read("memory_similarity", group_id=group_id, ids=missing, embedding=embedding):
                hits[row["id"]]["cosine"] = 2 * row["score"] - 1
        out = [
            {"id": h["id"], "text": h["text"], "score": _blend(h["cosine"] or 0.0, overlap(description, h["text"]))}
            for h in hits.values()
        ]
        return sorted(out, key=lambda h: -h["score"])

    def pick(self, group_id: str, description: str, field: str, embedding: list[float]) -> dict:
        candidates = self.find(group_id, description, embedding)
        top = candidates[:5]
        if not candidates or candidates[0]["score"] < MIN_SCORE:
            raise NoMatchError(
                f"{field}: no memory in group {group_id!r} matches {description!r} well enough "
                f"(best candidates listed); describe it more closely or create it first",
                top,
            )
        best = candidates[0]
        rivals = [
            c for c in candidates[1:] if best["score"] - c["score"] < AMBIGUITY_MARGIN and c["text"] != best["text"]
        ]
        if rivals:
            raise AmbiguousMatchError(
                f"{field}: {description!r} matches several memories equally well; describe it more precisely", top
            )
        return best

    def link(
        self,
        group_id: str,
        link: LinkInput,
        *,
        discovered: bool = False,
        confidence: float = 1.0,
        request_id: str | None = None,
    ) -> LinkResult:
        if request_id is not None:
            done = stored(self.store, group_id, request_id, "link_memories", _digest(link))
            if done is not None:  # applied before: the first answer, nothing searched or written
                return LinkResult.model_validate(done)
        src_emb, dst_emb = embed_query(self.embedder, [link.source_memory_description, link.target_memory_description])
        source = self.pick(group_id, link.source_memory_description, "source_memory_description", src_emb)
        target = self.pick(group_id, link.target_memory_description, "target_memory_description", dst_emb)
        if source["id"] == target["id"]:
            raise ValidationError(
                "source and target descriptions match the same memory "
                f"({source['text']!r}); a memory cannot be linked to itself",
                field="target_memory_description",
            )
        return self.link_ids(
            group_id, source, target, link, discovered=discovered, confidence=confidence, request_id=request_id
        )

    def link_by_id(
        self,
        group_id: str,
        source_id: str,
        target_id: str,
        link: LinkInput,
        *,
        discovered: bool = False,
        confidence: float = 1.0,
    ) -> LinkResult:
        """Link two memories known by id (extractors, consolidation); the descriptions of ``link``
        are not used."""
        source, target = (
            {"id": m["id"], "text": m["text"]}
            for m in (memory_row(self.store, group_id, i)["memory"] for i in (source_id, target_id))
        )
        return self.link_ids(group_id, source, target, link, discovered=discovered, confidence=confidence)

    def link_ids(
        self,
        group_id: str,
        source: dict,
        target: dict,
        link: LinkInput,
        *,
        discovered: bool = False,
        confidence: float = 1.0,
        request_id: str | None = None,
    ) -> LinkResult:
        edge_type = link.relation_type.edge_type
        query = "link_causality" if edge_type is EdgeType.CAUSALITY else "link_reference"
        params = dict(
            group_id=group_id,
            source_id=source["id"],
            target_id=target["id"],
            relation=link.relation_type.value,
            importance=link.importance,
            discovered=discovered,
            confidence=confidence,
            now=datetime.now(UTC).isoformat(),
        )
        causal = edge_type is EdgeType.CAUSALITY
        result = LinkResult(
            source_id=source["id"],
            target_id=target["id"],
            source_text=source["text"],
            target_text=target["text"],
            edge_type=edge_type,
            relation=link.relation_type,
            cause_id=source["id"] if causal else None,
            effect_id=target["id"] if causal else None,
            source_score=source.get("score", 1.0),
            target_score=target.get("score", 1.0),
        )
        if request_id is None:
            rows = self.store.write(query, **params)
        else:

            def work(tx) -> list:
                claimed, done = claim(tx, group_id, request_id, "link_memories", _digest(link))
                if not claimed:
                    return [done]
                found = tx_run(tx, query, **params)
                if not found:  # nothing written: the key is released with the rollback
                    raise NoMatchError(_GONE)
                finish(tx, group_id, request_id, result.model_dump(mode="json"))
                return [None]

            done = self.store.transaction(work)[0]
            return result if done is None else LinkResult.model_validate(done)
        if not rows:
            raise NoMatchError(_GONE)
        return result


_GONE = "one of the memories disappeared before the link was written; try again"


def _digest(link: LinkInput) -> str:
    return fingerprint("link_memories", link.model_dump(mode="json"))
