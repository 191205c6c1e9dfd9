"""A long file in parts: read as a stream, each part stored exactly once however often it is run.

``graphmem ingest FILE`` goes through ``ingest_file``. A part is a turn of a JSON or JSONL
conversation, or a chunk of a plain text (cut as every long text is, ``split_text``, a block of
the file at a time, so that the parts are the same in every run). Each part carries a key, a
digest of the file's path, the part's place in the file and its content, stored on its episode
under a uniqueness constraint (``episode_part_key``, per group).

Parts are stored a batch at a time (about SEGMENT_UNITS of text, at most ``batch_parts`` parts):
the batch's episodes and extraction jobs in one transaction, then its extraction, while the next
batch is embedded beside it. Before a batch is embedded its keys are looked up: a run stopped
anywhere (Ctrl-C, a crash, a lost server) and started again skips the parts it finds, continues
their session and stores the rest, none twice. Memories are written as ever (each whole in one
transaction, a job's memory once: ``extract_key``). The work per batch does not depend on what
is stored already, so the time grows linearly with the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import neo4j.exceptions

from ..errors import GraphmemError, ValidationError
from ..types import as_reference_time, validate_group_id, validate_optional_id
from .episodes import EpisodeRow, parse_messages, split_text, text_length
from .models import Message
from .pipeline import SEGMENT_UNITS, Extractor, Ingestor

log = logging.getLogger(__name__)

FORMATS = ("json", "jsonl", "text")
# A plain text is cut into parts a block at a time: a block ends at the first blank line after
# this many characters (or at a line end after four times as many), so its parts do not depend on
# how the file is read, and at most a block of it is in memory.
TEXT_BLOCK = 64_000
STRANDED_PER_FILE = 100  # stranded jobs of its group a bulk ingest takes up before it starts


@dataclass(frozen=True)
class Part:
    """One part of a file: its place (a text's chunk number, a JSONL turn's line), its key, the
    turn it is stored as, and how many characters of the file lie up to its end."""

    index: int
    key: str
    message: Message
    end: int


@dataclass
class BulkProgress:
    """How far a bulk ingest got (updated after every batch: still right after a Ctrl-C)."""

    file: str
    group_id: str
    total_chars: int
    session_id: str | None = None
    parts: int = 0  # parts handled by this run: stored, or found stored before
    stored: int = 0  # parts this run stored
    skipped: int = 0  # parts found stored by an earlier run
    chars: int = 0  # characters of the file up to the end of the last handled part
    episodes: int = 0
    memories: int = 0
    links: int = 0
    jobs_pending: int = 0
    jobs_failed: int = 0
    jobs_running: int = 0
    jobs_resumed: int = 0  # jobs an earlier run left (stranded or not run) that this one ran
    stopped: bool = False  # ended early when asked (``should_stop``), the rest of the file not read
    errors: list[str] = field(default_factory=list)


def file_identity(path: str | Path) -> str:
    """What a part key names its file by: the file's absolute path."""
    return str(Path(path).resolve())


def part_key(identity: str, index: int, content: str) -> str:
    """The idempotency key of a part: its file, its place in the file and its content."""
    digest = hashlib.sha256(f"{identity}\0{index}\0{content}".encode()).hexdigest()[:40]
    return f"part:{digest}"


def file_format(path: Path, fmt: str | None) -> str:
    fmt = fmt or {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(path.suffix.lower(), "text")
    if fmt not in FORMATS:
        raise ValidationError(f"--format: must be one of {', '.join(FORMATS)}", field="format", allowed=list(FORMATS))
    return fmt


def count_chars(path: Path) -> int:
    """The file's length in characters (read once, a block at a time): the progress bar's total."""
    total = 0
    with path.open(encoding="utf-8") as f:
        while block := f.read(1 << 20):
            total += len(block)
    return total


def read_parts(path: str | Path, fmt: str | None = None) -> Iterator[Part]:
    """The parts of a file in order, read as a stream (a JSON file is read whole: JSON is one value)."""
    path = Path(path)
    if not path.exists():
        raise ValidationError(f"{path}: no such file", field="file")
    fmt = file_format(path, fmt)
    identity = file_identity(path)
    if fmt == "text":
        return _text_parts(path, identity)
    if fmt == "jsonl":
        return _jsonl_parts(path, identity)
    return _json_parts(path, identity)


def _text_parts(path: Path, identity: str) -> Iterator[Part]:
    index = 0
    read = 0
    block: list[str] = []
    size = 0

    def flush(end: int) -> Iterator[Part]:
        nonlocal index
        chunks = split_text("".join(block))
        start = end - size
        for n, chunk in enumerate(chunks, 1):
            yield Part(
                index,
                part_key(identity, index, chunk),
                Message(role="user", content=chunk),
                end if n == len(chunks) else min(end, start + n * size // len(chunks)),
            )
            index += 1

    with path.open(encoding="utf-8") as f:
        for line in f:
            block.append(line)
            size += len(line)
            read += len(line)
            if (size >= TEXT_BLOCK and not line.strip()) or size >= 4 * TEXT_BLOCK:
                yield from flush(read)
                block, size = [], 0
    if block:
        yield from flush(read)


def _turn(raw: Any, where: str) -> Message | None:
    """A handed-over turn validated (None for an empty one), its errors saying where it is."""
    try:
        parsed = parse_messages([raw])
    except ValidationError as exc:
        message = str(exc).replace("messages[0]", "")
        raise ValidationError(f"{where}: {message.lstrip('.: ')}", field="file") from None
    return parsed[0] if parsed else None


def _jsonl_parts(path: Path, identity: str) -> Iterator[Part]:
    read = 0
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            read += len(line)
            text = line.strip()
            if not text:
                continue
            try:
                raw = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValidationError(f"{path}:{n}: not valid JSON ({exc.msg})", field="file") from None
            message = _turn(raw, f"{path}:{n}")
            if message is not None:
                yield Part(n, part_key(identity, n, text), message, read)


def _json_parts(path: Path, identity: str) -> Iterator[Part]:
    raw = path.read_text(encoding="utf-8")
    try:
        data: Any = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})", field="file") from None
    if isinstance(data, dict):
        data = data.get("messages")
    if not isinstance(data, list):
        raise ValidationError(f'{path}: expected a list of messages or {{"messages": [...]}}', field="file")
    for i, item in enumerate(data):
        message = _turn(item, f"{path}: messages[{i}]")
        if message is not None:
            content = json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)
            yield Part(i, part_key(identity, i, content), message, len(raw) * (i + 1) // len(data))


def batches(parts: Iterable[Part], *, units: int = SEGMENT_UNITS, max_parts: int = 500) -> Iterator[list[Part]]:
    """Consecutive parts, at most ``units`` of text (``text_length``) and ``max_parts`` parts a batch."""
    batch: list[Part] = []
    used = 0
    try:
        for part in parts:
            size = text_length(part.message.content)
            if batch and (used + size > units or len(batch) >= max_parts):
                yield batch
                batch, used = [], 0
            batch.append(part)
            used += size
    except GraphmemError:  # a bad turn: the parts before it are handed on first
        if batch:
            yield batch
        raise
    if batch:
        yield batch


@dataclass
class _Prepared:
    """A batch looked up and embedded: the parts stored before (key -> session), the rows of the rest."""

    batch: list[Part]
    stored: dict[str, str]
    rows: list[EpisodeRow]


class _Ahead:
    """``prepare(batch)`` of the next batch in a thread of its own, while the current one is written
    and extracted. Not a daemon: after a Ctrl-C the process exits once the batch's embedding is
    over (onnxruntime aborts the process when it is torn down in the middle of a run)."""

    def __init__(self, prepare: Callable[[list[Part]], _Prepared], batch: list[Part]):
        self._box: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(prepare, batch), name="graphmem-bulk")
        self._thread.start()

    def _run(self, prepare: Callable[[list[Part]], _Prepared], batch: list[Part]) -> None:
        try:
            self._box["value"] = prepare(batch)
        except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread by result()
            self._box["error"] = exc

    def result(self) -> _Prepared:
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["value"]


def ingest_file(
    ingestor: Ingestor,
    path: str | Path,
    group_id: str,
    *,
    fmt: str | None = None,
    session_id: str | None = None,
    reference_time: datetime | str | None = None,
    extractor: Any = None,
    source: str = "cli",
    batch_parts: int = 500,
    progress: BulkProgress | None = None,
    on_batch: Callable[[BulkProgress], None] | None = None,
    stop_after: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> BulkProgress:
    """Store a file's parts as episodes and extract memories from them, a batch at a time.

    ``session_id``: the session to store them in; by default the one an earlier run of the same
    file stored its parts in (a resumed run continues it), else a new one. ``progress`` is
    updated after every batch (pass one to read how far a run got after a Ctrl-C); ``on_batch``
    is called after every batch. ``should_stop()`` is asked after every batch: True ends the run
    there (``progress.stopped``), as ``stop_after`` does after that many parts.
    """
    group_id = validate_group_id(group_id)
    session_id = validate_optional_id(session_id, "session_id")
    path = Path(path)
    parts = read_parts(path, fmt)  # the file and its format checked before any work
    reference = as_reference_time(reference_time)
    ext: Extractor | None = ingestor.extractor(extractor)
    ingestor.ensure_schema()
    store = ingestor.store
    done = progress or BulkProgress(file=str(path), group_id=group_id, total_chars=count_chars(path))
    done.session_id = session_id
    done.jobs_resumed += len(ingestor.resume_stranded(group_id, limit=STRANDED_PER_FILE))

    def prepare(batch: list[Part]) -> _Prepared:
        keys = [p.key for p in batch]
        stored = {r["key"]: r["session_id"] for r in store.read("episode_parts_stored", group_id=group_id, keys=keys)}
        todo = [p for p in batch if p.key not in stored]
        rows: list[EpisodeRow] = []
        if todo:
            # the session is set when the batch is written (a resumed run learns it from the first batch)
            (rows,) = ingestor.writer.build_sessions([([p.message for p in todo], "", reference, None)], source=source)
            for row in rows:
                part = todo[row["turn"]]
                chunks = row["props"]["chunks"]
                row["props"]["part_key"] = part.key if chunks == 1 else f"{part.key}#{row['props']['chunk']}"
        return _Prepared(batch, stored, rows)

    def write(prepared: _Prepared) -> None:
        if done.session_id is None:  # continue the session of an earlier run, else a new one
            done.session_id = next(iter(prepared.stored.values()), None) if prepared.stored else None
            if done.session_id is None and prepared.rows:
                done.session_id = f"s-{uuid.uuid4().hex[:12]}"
        if prepared.rows:
            for row in prepared.rows:
                row["props"]["session_id"] = done.session_id or ""
            report = ingestor.store_built(
                group_id,
                [(done.session_id or "", prepared.rows)],
                extractor=ext,
                session_id=done.session_id or "",
                resume=False,
            )
            assert report is not None  # None only for a keyed request
            done.episodes += len(report.episodes)
            done.memories += len(report.memories)
            done.links += report.links
            done.jobs_pending += report.jobs_pending
            done.jobs_failed += report.jobs_failed
            done.jobs_running += report.jobs_running
            done.errors.extend(report.errors)
        stored_now = len(prepared.batch) - len(prepared.stored)
        done.parts += len(prepared.batch)
        done.stored += stored_now
        done.skipped += len(prepared.stored)
        done.chars = prepared.batch[-1].end

    if stop_after is not None:
        parts = _first(parts, stop_after)
    pending = batches(parts, max_parts=batch_parts)
    current = next(pending, None)
    ahead = _Ahead(prepare, current) if current is not None else None
    while ahead is not None:
        prepared = ahead.result()
        failure: GraphmemError | None = None
        try:
            following = next(pending, None)
        except GraphmemError as exc:  # a bad turn further on: what comes before it is stored first
            following, failure = None, exc
        ahead = _Ahead(prepare, following) if following is not None else None
        try:
            write(prepared)
        except neo4j.exceptions.ConstraintError:
            # another run of the same file stored some of these parts meanwhile: look again, write the rest
            log.info("parts of %s were stored meanwhile by another run; writing the rest", path)
            write(prepare(prepared.batch))
        if on_batch is not None:
            on_batch(done)
        if failure is not None:
            raise failure
        if should_stop is not None and ahead is not None and should_stop():
            done.stopped = True
            return done
    if done.session_id is not None:
        done.jobs_resumed += _finish_left_jobs(ingestor, group_id, done.session_id)
    return done


def _first(parts: Iterator[Part], n: int) -> Iterator[Part]:
    for i, part in enumerate(parts):
        if i >= n:
            return
        yield part


def _finish_left_jobs(ingestor: Ingestor, group_id: str, session_id: str, limit: int = 1000) -> int:
    """Run the session's extraction jobs an earlier run stored but never ran (stopped between a
    batch's write and its extraction): a resumed run extracts everything once."""
    ran = 0
    for job in ingestor.queue.list(group_id, state="pending", limit=limit):
        if job.get("session_id") == session_id and not job.get("attempts"):
            if ingestor.run_job(group_id, job["id"]) is not None:
                ran += 1
    return ran
