"""Turns in, episodes stored: parse messages, split long turns, embed in one batch, write.

Every turn becomes one ``:Episode`` (a long one several, ``chunk`` 0, 1, ... with the same
``order``), chained ``(:Episode)-[:NEXT]->(:Episode)`` within its session, embedded
(``episode_embedding``) and fulltext-indexed (``episode_content``); the sentences of a turn
longer than ``SENTENCE_TURN`` are also embedded one by one, as ``(:Sentence)-[:PART_OF]->
(:Episode)`` (``sentence_embedding``). The episodes of one call
and their extraction jobs are written in one transaction, before any extraction runs, so
what was said is stored even when extraction fails.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TypedDict

import neo4j

from ..embed import Embedder
from ..errors import ValidationError
from ..lang import CJK, read_together, role_name
from ..store.driver import Store, tx_run
from ..types import MAX_ID, MAX_INGEST_CHARS
from .models import EpisodeView, Message

# Sentence ends first (Chinese and English), then clause breaks, then words.
SEPARATORS = ["\n\n", "\n", "。", "！", "？", "；", ". ", "! ", "? ", "; ", "，", ", ", " ", ""]
CHUNK_SIZE = 1000  # in length units (see text_length): about the model's 256 word pieces
CHUNK_OVERLAP = 100
MAX_MESSAGES = 20000


def text_length(text: str) -> int:
    """A length that tracks the embedding model's word pieces: a CJK character weighs like 4 letters."""
    return len(text) + 3 * len(CJK.findall(text))


def split_text(text: str, chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP) -> list[str]:
    """Split a long text at sentence ends (。！？； and ". "), then clauses, then words."""
    text = text.strip()
    if not text:
        return []
    if text_length(text) <= chunk_size:
        return [text]
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        separators=SEPARATORS,
        keep_separator="end",
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        length_function=text_length,
    )
    return [c for c in (s.strip() for s in splitter.split_text(text)) if c]


SENTENCE_TURN = 150  # a turn (chunk) longer than this (in text_length units) also has its sentences embedded
SENTENCE_MIN = 20  # shorter pieces are not sentences of their own ("Oh.", "Thanks!")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])|\n+")


def sentences(text: str) -> list[str]:
    """The sentences of a long turn, each to be embedded alone; [] for a short turn or one that is
    a single sentence. One vector per turn blurs a turn that talks of two things ("I need meal
    ideas. By the way, I had pizza three nights in a row"): each sentence gets its own
    vector, so a question about one of the two finds the turn (docs/benchmarks.md measures it)."""
    if text_length(text) <= SENTENCE_TURN:
        return []
    parts = [p.strip() for p in _SENTENCE_END.split(text)]
    parts = [p for p in parts if text_length(p) >= SENTENCE_MIN]
    return parts if len(parts) > 1 else []


CONTEXT_WEIGHT = 0.5  # how much of its neighbours a short turn's vector takes in
CONTEXT_CHARS = 100  # turns shorter than this take the full weight; longer ones less (∝ 1/length)


def with_context(
    vectors: list[list[float]], contents: Sequence[str], said: Sequence[tuple[str | None, str | None, str | None]]
) -> list[list[float]]:
    """Each episode's vector with a little of its neighbours' (the turns before and after it):
    ``vectors``, ``contents`` and ``said`` (speaker, role, timestamp) are a session's turns in
    order; the new vectors in that order.

    "Yes, last Friday!" means nothing alone: a short turn of a dialogue is embedded together with
    what was said around it, v_i + w_i·(v_{i-1} + v_{i+1}) renormalised, with w_i =
    CONTEXT_WEIGHT · min(1, CONTEXT_CHARS / len(turn)). Long turns stand on their own, and so do
    notes: one party's messages written apart (``lang.read_together``) answer nothing around
    them, and a note would take in the meaning of the unrelated note beside it (docs/benchmarks.md
    measures both).
    """
    if len(vectors) < 2:
        return vectors
    import numpy as np

    base = np.asarray(vectors, dtype=np.float32)
    out = list(vectors)
    for i, content in enumerate(contents):
        if not read_together(said[max(0, i - 1) : i + 2]):
            continue
        weight = CONTEXT_WEIGHT * min(1.0, CONTEXT_CHARS / max(1, len(content)))
        mixed = base[i] + weight * base[max(0, i - 1) : i + 2].sum(axis=0) - weight * base[i]
        norm = float(np.linalg.norm(mixed))
        if norm > 0:
            out[i] = (mixed / norm).tolist()
    return out


def embedding_text(content: str, speaker: str | None) -> str:
    """What an episode is embedded as: a named speaker's turn carries the name ("Dana: ...")
    so that questions about a person find what that person said; other turns are their content."""
    return f"{speaker}: {content}" if speaker else content


def _parse_time(value: Any, field: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.fromtimestamp(float(value), tz=UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        except ValueError:
            pass
        from ..timeparse import normalize_time

        tv = normalize_time(value)
        if tv.parsed and tv.start is not None:
            return tv.start
    raise ValidationError(
        f"{field}: {value!r} is not a time (use ISO 8601, e.g. 2025-11-05T08:00:00+08:00)", field=field
    )


def parse_messages(messages: Iterable[Any]) -> list[Message]:
    """Validate handed-over turns: dicts with role and content, optional speaker/name, timestamp, id."""
    if isinstance(messages, dict):
        messages = messages.get("messages", [])
    out: list[Message] = []
    for i, raw in enumerate(messages):
        if len(out) >= MAX_MESSAGES:
            raise ValidationError(
                f"messages: at most {MAX_MESSAGES} turns per call; split the conversation", field="messages"
            )
        where = f"messages[{i}]"
        if isinstance(raw, Message):
            out.append(raw)
            continue
        if not isinstance(raw, dict):
            raise ValidationError(f"{where}: must be an object with role and content", field=where)
        content = raw.get("content", raw.get("text"))
        if isinstance(content, list):  # OpenAI content parts
            content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not isinstance(content, str):
            raise ValidationError(f"{where}.content: must be a string", field=f"{where}.content")
        content = content.strip()
        if not content:
            continue  # an empty turn says nothing; nothing is lost by skipping it
        if len(content) > MAX_INGEST_CHARS:
            raise ValidationError(
                f"{where}.content: {len(content)} characters; at most {MAX_INGEST_CHARS} are allowed",
                field=f"{where}.content",
            )
        role = raw.get("role") or ("user" if raw.get("speaker") or raw.get("name") else None)
        if not isinstance(role, str) or not role.strip() or len(role) > 32:
            raise ValidationError(
                f"{where}.role: must be a short string such as user or assistant",
                field=f"{where}.role",
                allowed=["user", "assistant", "system"],
            )
        role = role_name(role)
        speaker = raw.get("speaker", raw.get("name"))
        if speaker is not None and (not isinstance(speaker, str) or len(speaker) > 200):
            raise ValidationError(f"{where}.speaker: must be a name (a string)", field=f"{where}.speaker")
        timestamp = _parse_time(raw.get("timestamp", raw.get("time", raw.get("date"))), f"{where}.timestamp")
        external = raw.get("external_id", raw.get("id"))
        if external is not None:
            external = str(external)[:MAX_ID]
        out.append(
            Message(
                role=role,
                content=content,
                speaker=(speaker or "").strip() or None,
                timestamp=timestamp,
                external_id=external,
            )
        )
    return out


def text_messages(text: str, role: str = "user", speaker: str | None = None) -> list[Message]:
    """A plain text as one turn (split into chunks when it is written)."""
    if not isinstance(text, str) or not text.strip():
        raise ValidationError("text: must be a non-empty string", field="text")
    return [Message(role=role, content=text.strip(), speaker=speaker)]


class EpisodeProps(TypedDict):
    """The properties of an ``:Episode`` node as ``episodes_create`` writes them."""

    session_id: str
    role: str
    speaker: str | None
    content: str
    timestamp: str
    order: int  # relative while built; the writer adds the session's tail
    chunk: int
    chunks: int
    external_id: str | None
    source: str
    created_at: str
    part_key: str | None  # a bulk ingest's part (ingest/bulk.py): one episode per key and group


class SentenceRow(TypedDict):
    text: str
    embedding: list[float]


class EpisodeRow(TypedDict):
    """One row of ``episodes_create``: a turn (or a chunk of a long one) and its sentences. The
    builder fills every ``embedding`` (one batch for all rows) before it returns the rows."""

    id: str
    props: EpisodeProps
    embedding: list[float]
    turn: int  # the turn's order within what was built (``props.order`` before the tail is added)
    sentences: list[SentenceRow]


class EpisodeWriter:
    """Builds episode rows (split, embedded in one batch) and writes them with their jobs."""

    def __init__(
        self, store: Store, embedder: Embedder, *, chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP
    ):
        self.store = store
        self.embedder = embedder
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap

    def build(
        self,
        messages: Sequence[Message],
        *,
        session_id: str,
        reference_time: datetime,
        source: str,
        embeddings: Sequence[Sequence[float]] | None = None,
    ) -> list[EpisodeRow]:
        """Rows for ``episodes_create``; ``order`` is relative (the writer adds the session's tail).

        ``embeddings`` (one per message, of ``embedding_text(content, speaker)``) skips embedding for
        turns that fit in one chunk: callers that already embedded the turns (benchmarks) pass them.
        """
        return self.build_sessions([(messages, session_id, reference_time, embeddings)], source=source)[0]

    def build_sessions(
        self,
        sessions: Sequence[tuple[Sequence[Message], str, datetime, Sequence[Sequence[float]] | None]],
        *,
        source: str,
    ) -> list[list[EpisodeRow]]:
        """``build`` for several sessions (messages, session_id, reference_time, embeddings): their
        turns and sentences are embedded in one batch, which the embedder can split over its
        workers (one session's sentences alone are too few to)."""
        now = datetime.now(UTC).isoformat()
        built: list[list[EpisodeRow]] = []
        to_embed: list[tuple[int, int, int, str]] = []  # (session, row, sentence or -1, text)
        for messages, session_id, reference_time, embeddings in sessions:
            rows: list[EpisodeRow] = []
            last = reference_time
            for order, msg in enumerate(messages):
                chunks = split_text(msg.content, self.chunk_size, self.chunk_overlap) or [msg.content]
                last = msg.timestamp or last  # a turn without a time was said with the one before
                stamp = last.isoformat()
                for chunk, content in enumerate(chunks):
                    props: EpisodeProps = {
                        "session_id": session_id,
                        "role": msg.role,
                        "speaker": msg.speaker,
                        "content": content,
                        "timestamp": stamp,
                        "order": order,
                        "chunk": chunk,
                        "chunks": len(chunks),
                        "external_id": msg.external_id,
                        "source": source,
                        "created_at": now,
                        "part_key": None,
                    }
                    row: EpisodeRow = {
                        "id": uuid.uuid4().hex,
                        "props": props,
                        "embedding": [],  # set below: given, or from the one batch
                        "turn": order,
                        "sentences": [{"text": t, "embedding": []} for t in sentences(content)],
                    }
                    if embeddings is not None and len(chunks) == 1:
                        row["embedding"] = [float(x) for x in embeddings[order]]
                    else:
                        to_embed.append((len(built), len(rows), -1, embedding_text(content, msg.speaker)))
                    to_embed.extend(
                        (len(built), len(rows), j, embedding_text(x["text"], msg.speaker))
                        for j, x in enumerate(row["sentences"])
                    )
                    rows.append(row)
            built.append(rows)
        if to_embed:
            vectors = self.embedder.embed([t for *_, t in to_embed])
            for (k, i, j, _), vector in zip(to_embed, vectors):
                if j < 0:
                    built[k][i]["embedding"] = vector
                else:
                    built[k][i]["sentences"][j]["embedding"] = [float(x) for x in vector]
        for rows in built:
            mixed = with_context(
                [r["embedding"] for r in rows],
                [r["props"]["content"] for r in rows],
                [(r["props"].get("speaker"), r["props"].get("role"), r["props"].get("timestamp")) for r in rows],
            )
            for row, vector in zip(rows, mixed):
                row["embedding"] = vector
        return built

    def write(self, group_id: str, session_id: str, rows: list[EpisodeRow], jobs: list[dict]) -> list[EpisodeRow]:
        """One session's rows and their jobs in ONE transaction (see ``write_sessions``)."""
        written = self.write_sessions(group_id, [(session_id, rows)], jobs)
        assert written is not None  # None only for a request applied before: this call makes none
        return written

    def write_sessions(
        self,
        group_id: str,
        batches: list[tuple[str, list[EpisodeRow]]],
        jobs: list[dict],
        *,
        request: tuple[str, str, Any] | None = None,
    ) -> list[EpisodeRow] | None:
        """Write the rows of each session (continuing its order and NEXT chain) and the jobs in ONE
        transaction: a turn is never stored without the job that extracts it, nor a job without its turns.

        Returns all rows with their final ``order``. ``jobs`` are job rows ({id, props}).
        ``request``: (request_id, fingerprint, result) of an idempotent ingest, claimed in the same
        transaction; None is returned (nothing written) when that request was applied before.
        """
        from ..builder.requests import claim, finish

        def work(tx: neo4j.ManagedTransaction) -> list[EpisodeRow] | None:
            if request is not None:
                claimed, _ = claim(tx, group_id, request[0], "ingest", request[1])
                if not claimed:
                    return None
                finish(tx, group_id, request[0], request[2])
            out: list[EpisodeRow] = []
            for session_id, rows in batches:
                tail = tx_run(tx, "episode_session_tail", group_id=group_id, session_id=session_id)
                offset = (tail[0]["order"] + 1) if tail and tail[0]["order"] is not None else 0
                for row in rows:
                    row["props"]["order"] = row["turn"] + offset  # recomputed if the transaction is retried
                tx_run(tx, "episodes_create", group_id=group_id, rows=rows)
                ids = ([tail[0]["id"]] if tail else []) + [r["id"] for r in rows]
                pairs = [[a, b] for a, b in zip(ids, ids[1:])]
                if pairs:
                    tx_run(tx, "episodes_chain", group_id=group_id, pairs=pairs)
                out.extend(rows)
            if jobs:
                tx_run(tx, "job_create", group_id=group_id, jobs=jobs)
            return out

        return self.store.transaction(work)

    def load(self, group_id: str, ids: Sequence[str]) -> list[EpisodeView]:
        """Stored episodes by id, in the order given (missing ones are left out)."""
        if not ids:
            return []
        rows = self.store.read("episodes_by_ids", group_id=group_id, ids=list(ids))
        return [to_view(r["episode"]) for r in rows]


def to_view(e: dict) -> EpisodeView:
    stamp = e.get("timestamp")
    try:
        when = datetime.fromisoformat(stamp) if stamp else datetime.now(UTC)
    except ValueError:
        when = datetime.now(UTC)
    return EpisodeView(
        id=e["id"],
        session_id=e.get("session_id") or "",
        role=e.get("role") or "user",
        content=e.get("content") or "",
        timestamp=when,
        order=int(e.get("order") or 0),
        chunk=int(e.get("chunk") or 0),
        speaker=e.get("speaker"),
        external_id=e.get("external_id"),
    )
