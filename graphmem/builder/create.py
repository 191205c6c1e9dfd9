"""create_memory / create_memories: validate, normalise time, embed, resolve, write atomically."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime

from ..embed import Embedder
from ..store.driver import Store, tx_run
from ..timeparse import is_time_key, normalize_time
from ..types import CreateResult, MemoryInput, MemoryStatus, normalize_name
from .people import join_named_roles, roles_touched
from .requests import claim, fingerprint, finish, stored
from .resolve import Concept, ConceptResolver

WRITE_CHUNK = 250  # memories per transaction in a batch; each memory is whole in one transaction
TAIL_CHUNK = 64  # the last transaction of a batch of more than WRITE_CHUNK (see chunk_bounds)


def render_text(
    subject: str, topic: str, obj: str | None, attributes: dict[str, str], memory_type: str | None = None
) -> str:
    """The readable sentence a memory is shown and searched by: 我 吃饭 白米饭 (时间: 2025-11-05);
    a relation whose topic is a role reads as one: Ruth is my cousin, 小雯是我的表妹, Ruth is Tom's sister."""
    text = _relation_text(subject, topic, obj) if memory_type == "RELATION" and obj else None
    if subject in ("I", "i") and topic.startswith("is "):
        topic = "am " + topic[3:]  # a topic said of anyone ("is a", "is from") read after I: I am a nurse
    text = text or " ".join(p for p in (subject, topic, obj) if p)
    if attributes:
        text += " (" + "; ".join(f"{k}: {v}" for k, v in attributes.items()) + ")"
    return text


def _relation_text(subject: str, role: str, name: str) -> str | None:
    """ "<name> is <subject>'s <role>" when ``role`` is a role word (cousin, 表妹), else None."""
    from ..lang import USER_KEY, is_chinese, person_key
    from ..lexicon.roles import possessive, role_of

    if role_of(role) is None:
        return None
    mine = person_key(subject) == USER_KEY
    if is_chinese(role):
        return f"{name}是{'我的' if mine else possessive(subject, True)}{role}"
    return f"{name} is {'my' if mine else possessive(subject, False)} {role}"


def chunk_bounds(n: int) -> list[tuple[int, int]]:
    """(start, end) of each transaction of a call writing ``n`` memories: WRITE_CHUNK each, and a
    batch of more than one chunk ends with TAIL_CHUNK when its last chunk holds twice that or more.
    Nothing is embedded while the last chunk is written, so on a small machine a core idles for
    that write: a quarter of a chunk idles it a quarter as long (1,000 memories: 250, 250, 250,
    186, 64)."""
    bounds = [(i, min(i + WRITE_CHUNK, n)) for i in range(0, n, WRITE_CHUNK)]
    if len(bounds) > 1 and bounds[-1][1] - bounds[-1][0] >= 2 * TAIL_CHUNK:
        start, end = bounds.pop()
        bounds += [(start, end - TAIL_CHUNK), (end - TAIL_CHUNK, end)]
    return bounds


@dataclass
class Prepared:
    memory: MemoryInput
    id: str
    text: str
    embed_text: str  # the text without its understood times (see prepare)
    attributes: list[dict]
    occurred_at: str | None
    time_values: dict[str, dict]
    concepts: list[Concept]


def prepare(memory: MemoryInput, reference_time: datetime) -> Prepared:
    attributes, shown, time_values, occurred_at, timeless = [], {}, {}, None, {}
    for key, value in memory.attributes.items():
        iso, parsed, display = None, None, value
        if is_time_key(key):
            tv = normalize_time(value, reference_time)
            iso, parsed, display = tv.iso, tv.parsed, tv.display()
            time_values[key] = {
                "original": value,
                "iso": tv.iso,
                "part_of_day": tv.part_of_day,
                "granularity": tv.granularity,
                "parsed": tv.parsed,
            }
            if occurred_at is None and tv.parsed and tv.start is not None:
                occurred_at = tv.start.isoformat()
        shown[key] = display
        if not parsed:
            timeless[key] = display
        attributes.append(
            {
                "id": uuid.uuid4().hex,
                "value_id": uuid.uuid4().hex,
                "key": key,
                "value": value,
                "display": display,
                "normalized": normalize_name(display),
                "iso": iso,
                "parsed": parsed,
            }
        )
    concepts = [Concept("subject", "Subject", memory.subject), Concept("topic", "Topic", memory.topic)]
    if memory.object:
        concepts.append(Concept("object", "Object", memory.object))
    # The embedding leaves out the times that were understood: they live in occurred_at and the
    # time Values, where time filters use them; as text a date is ~6 tokens that say little about
    # meaning, and the embedding is most of a write's cost (17.5 → 9.6 tokens per memory, about
    # 1.75x less CPU, measured on bench write's memories).
    return Prepared(
        memory=memory,
        id=uuid.uuid4().hex,
        text=render_text(memory.subject, memory.topic, memory.object, shown, memory.memory_type.value),
        embed_text=render_text(memory.subject, memory.topic, memory.object, timeless, memory.memory_type.value),
        attributes=attributes,
        occurred_at=occurred_at,
        time_values=time_values,
        concepts=concepts,
    )


def _said(p: Prepared) -> tuple[str, str, str | None, str, str | None]:
    """(memory type, subject, the subject's kind, topic, object) of a resolved memory."""
    subject = next(c for c in p.concepts if c.role == "subject")
    m = p.memory
    return m.memory_type.value, m.subject, subject.kind, m.topic, m.object


class MemoryWriter:
    NAME_CACHE = 8192  # concept names whose embeddings are kept: 我, 吃饭 ... recur all the time

    def __init__(self, store: Store, embedder: Embedder, resolver: ConceptResolver):
        self.store = store
        self.embedder = embedder
        self.resolver = resolver
        self._names: OrderedDict[str, list[float]] = OrderedDict()
        self._names_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def create(
        self,
        group_id: str,
        memories: list[MemoryInput],
        *,
        session_id: str | None,
        reference_time: datetime,
        source: str,
        status: MemoryStatus = MemoryStatus.STAGED,
        extra: list[dict] | None = None,
        request_id: str | None = None,
    ) -> list[CreateResult]:
        """Write ``memories``: each whole in one transaction, WRITE_CHUNK of them per transaction
        (``chunk_bounds``).

        A batch is embedded chunk by chunk in a background thread while the chunks before are
        written, so the model and Neo4j work at the same time; a text is embedded once per call.
        If a transaction fails, the chunks before it stay written (each memory whole) and the
        error is raised. With a ``request_id`` each chunk's transaction also stores its results
        under the key (``<request_id>``, then ``<request_id>#1``, ...): a retry of the call writes only
        the chunks that were not written and returns the first results for the others.
        """
        prepared = [prepare(m, reference_time) for m in memories]
        now = datetime.now(UTC).isoformat()
        extras = extra or [{}] * len(prepared)
        bounds = chunk_bounds(len(prepared))
        chunks = [prepared[start:end] for start, end in bounds]
        results: list[CreateResult] = []

        def key_of(index: int) -> tuple[str, str] | None:
            """Chunk ``index``'s idempotency key and fingerprint; None without a request_id."""
            if request_id is None:
                return None
            key = request_id if index == 0 else f"{request_id}#{index}"
            return key, fingerprint(
                "create_memories", [[p.memory.model_dump(mode="json") for p in chunks[index]], session_id]
            )

        def write(index: int) -> list[CreateResult]:
            keyed = key_of(index)
            chunk, (start, end) = chunks[index], bounds[index]

            def work(tx):
                if keyed is not None:
                    claimed, done = claim(tx, group_id, keyed[0], "create_memories", keyed[1])
                    if not claimed:
                        return [CreateResult.model_validate(r) for r in done]
                out = self.write_in(
                    tx,
                    group_id,
                    chunk,
                    session_id=session_id,
                    reference_time=reference_time,
                    source=source,
                    status=status,
                    now=now,
                    extras=extras[start:end],
                )
                if keyed is not None:
                    finish(tx, group_id, keyed[0], [r.model_dump(mode="json") for r in out])
                return out

            return self.store.transaction(work)

        if len(chunks) == 1 and (keyed := key_of(0)) is not None:
            done = stored(self.store, group_id, keyed[0], "create_memories", keyed[1])
            if done is not None:  # applied before: nothing to embed or write
                return [CreateResult.model_validate(r) for r in done]

        vectors: dict[str, list[float]] = {}  # text or name -> vector, for the whole call
        if len(chunks) == 1:
            self._embed(prepared, vectors)
            results.extend(write(0))
        else:
            # every chunk's embedding queued at once: the model works through the batch without
            # waiting for the writes, and each write waits only for its own chunk's vectors
            pending = [self._pool.submit(self._embed, chunk, vectors) for chunk in chunks]
            try:
                for index, future in enumerate(pending):
                    future.result()
                    results.extend(write(index))
            finally:
                for future in pending:
                    future.cancel()
        return results

    def write_in(
        self,
        tx,
        group_id: str,
        chunk: list[Prepared],
        *,
        session_id: str | None,
        reference_time: datetime,
        source: str,
        status: MemoryStatus,
        now: str,
        extras: list[dict],
    ) -> list[CreateResult]:
        """Resolve and write embedded memories inside the transaction ``tx`` (the caller's: a
        batch chunk, or a consolidation step that writes a summary with its links)."""
        # resolution reads inside the write transaction: one session, and a retried
        # transaction (deadlock, leader switch) resolves again against what is there now
        self.resolver.resolve(group_id, [(p.memory.memory_type, p.concepts) for p in chunk], tx=tx)
        rows = [self._row(p, session_id, reference_time, source, status, now, extras[i]) for i, p in enumerate(chunk)]
        by_id = {r["memory_id"]: r for r in tx_run(tx, "create_memories", group_id=group_id, rows=rows)}
        results = [self._result(p, by_id[p.id], status) for p in chunk]
        # 我的上司叫赵雅琳 after notes about 我上司: one person, one node, from this write on
        joined = join_named_roles(tx, group_id, roles_touched(_said(p) for p in chunk), now=now)
        if joined:
            said = "; ".join(f"{j['merged']} is {j['survivor']} (named later)" for j in joined)
            for r in results:
                r.message += f"; {said}"
        return results

    def embed(self, prepared: list[Prepared]) -> None:
        """Embed memories prepared with ``prepare`` (texts and new concept names)."""
        self._embed(prepared, {})

    @property
    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            with self._names_lock:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-embed")
        return self._executor

    def _embed(self, prepared: list[Prepared], done: dict[str, list[float]]) -> None:
        """One embedding batch: the memory texts and the concept names not embedded yet.

        ``done`` holds what earlier chunks of the same call embedded (a text repeated across
        a batch is embedded once); concept names are also kept across calls (NAME_CACHE).
        """
        texts = list(dict.fromkeys(p.embed_text for p in prepared if p.embed_text not in done))
        with self._names_lock:
            known = {
                n: self._names[n]
                for p in prepared
                for c in p.concepts
                if c.embedding is None and (n := c.name) in self._names
            }
        names = sorted(
            {c.name for p in prepared for c in p.concepts if c.embedding is None} - known.keys() - done.keys()
        )
        vectors = self.embedder.embed(texts + names) if texts or names else []
        by_text = dict(zip(texts, vectors))
        by_name = {**known, **dict(zip(names, vectors[len(texts) :]))}
        with self._names_lock:
            for name in names:
                self._names[name] = by_name[name]
            for name in known:
                self._names.move_to_end(name)
            while len(self._names) > self.NAME_CACHE:
                self._names.popitem(last=False)
        # only the embedding thread touches ``done``: the chunks of a call are embedded in order
        done.update(by_text)
        done.update(by_name)
        for p in prepared:
            p.embedding = done[p.embed_text]  # type: ignore[attr-defined]
            for c in p.concepts:
                if c.embedding is None:
                    c.embedding = done[c.name]

    @staticmethod
    def _row(p: Prepared, session_id, reference_time, source, status, now, extra: dict) -> dict:
        props = {
            "memory_type": p.memory.memory_type.value,
            "text": p.text,
            "embedded_text": p.embed_text,
            "importance": p.memory.importance,
            "status": status.value,
            "occurred_at": p.occurred_at,
            # since when what it says holds: its own time, else when it was said (a supersede
            # later sets valid_until: lifecycle_supersede)
            "valid_from": p.occurred_at or reference_time.isoformat(),
            "created_at": now,
            "reference_time": reference_time.isoformat(),
            "session_id": session_id,
            "source": source,
            "subject_name": p.memory.subject,
            "topic_name": p.memory.topic,
            "object_name": p.memory.object,
            **extra,
        }
        by_role = {c.role: c for c in p.concepts}
        return {
            "memory": {"id": p.id, "props": props, "embedding": p.embedding},  # type: ignore[attr-defined]
            "subject": by_role["subject"].row(),
            "topic": by_role["topic"].row(),
            "object": by_role["object"].row() if "object" in by_role else None,
            "attributes": p.attributes,
        }

    @staticmethod
    def _result(p: Prepared, row: dict, status: MemoryStatus) -> CreateResult:
        refs = []
        for c in p.concepts:
            refs.append(c.ref(row[f"{c.role}_id"], row[f"{c.role}_name"]))
        merged = [f"{r.input}→{r.name} ({r.reason})" for r in refs if r.reused and r.input != r.name]
        message = "saved" + (f"; merged {', '.join(merged)}" if merged else "")
        return CreateResult(
            memory_id=p.id,
            status=status.value,
            text=p.text,
            occurred_at=p.occurred_at,
            concepts=refs,
            time_values=p.time_values,
            message=message,
        )
