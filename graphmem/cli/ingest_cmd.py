"""`graphmem ingest FILE` and `graphmem extract`: conversations in, the extraction queue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from ._common import ConfigOption, console, open_graph, open_graph_or_server, print_json, progress_bar

FORMATS = ("json", "jsonl", "text")
EXTRACTORS = ("rules", "llm", "none")


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.command("extract")(extract)


def read_conversation(path: Path, fmt: str | None) -> tuple[list[dict] | None, str | None]:
    """(messages, None) for json/jsonl, (None, text) for text; the format from the suffix by default."""
    from ..errors import ValidationError

    if not path.exists():
        raise ValidationError(f"{path}: no such file", field="file")
    fmt = fmt or {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(path.suffix.lower(), "text")
    if fmt not in FORMATS:
        raise ValidationError(f"--format: must be one of {', '.join(FORMATS)}", field="format", allowed=list(FORMATS))
    raw = path.read_text(encoding="utf-8")
    if fmt == "text":
        return None, raw
    try:
        if fmt == "json":
            data: Any = json.loads(raw)
            if isinstance(data, dict):
                data = data.get("messages")
            if not isinstance(data, list):
                raise ValidationError(f'{path}: expected a list of messages or {{"messages": [...]}}', field="file")
            return data, None
        messages = []
        for n, line in enumerate(raw.splitlines(), 1):
            if line.strip():
                try:
                    messages.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValidationError(f"{path}:{n}: not valid JSON ({exc.msg})", field="file") from None
        return messages, None
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})", field="file") from None


def _parts(messages: list | None, text: str | None, batch: int) -> list[tuple[list | None, str | None, int]]:
    """The calls a file is sent in: (messages, text, characters) each, at most ``batch`` turns and
    MAX_INGEST_CHARS characters per call (a long text cut at sentence ends)."""
    from ..ingest.episodes import split_text
    from ..types import MAX_INGEST_CHARS

    if messages is None:
        pieces = split_text(text or "", MAX_INGEST_CHARS, 0) if len(text or "") > MAX_INGEST_CHARS else [text or ""]
        return [(None, piece, len(piece)) for piece in pieces]
    parts: list[tuple[list | None, str | None, int]] = []
    current: list = []
    chars = 0
    for message in messages:
        if current and (len(current) >= batch or chars + len(message.content) > MAX_INGEST_CHARS):
            parts.append((current, None, chars))
            current, chars = [], 0
        current.append(message)
        chars += len(message.content)
    if current:
        parts.append((current, None, chars))
    return parts


def ingest(
    file: Path = typer.Argument(
        ...,
        help="The conversation: JSON (a list of {role, content, speaker?, timestamp?} "
        'or {"messages": [...]}), JSONL (one message per line) or plain text.',
    ),
    group: str = typer.Option("default", "--group", "-g", help="Group (tenant) to store it in."),
    session: str | None = typer.Option(
        None, "--session", help="Session id (default: a new one; an existing one is continued)."
    ),
    fmt: str | None = typer.Option(None, "--format", "-f", help="json, jsonl or text (default: from the suffix)."),
    extractor: str | None = typer.Option(
        None,
        "--extractor",
        "-x",
        help="rules (offline, zh+en), llm (llm.base_url base_url) or none (default: llm when configured, else rules).",
    ),
    reference_time: str | None = typer.Option(
        None,
        "--reference-time",
        help="When the conversation took place (ISO 8601; default now), for turns without a timestamp.",
    ),
    batch: int = typer.Option(500, "--batch", min=1, help="Turns stored per transaction."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Store a conversation as episodes (every turn kept, embedded, searchable) and extract memories from it.

    A failed extraction never loses a turn: its job stays pending and `graphmem extract --retry` retries it.
    A long file is sent in parts (each at most 200,000 characters, stored and extracted in segments),
    with a progress bar in characters.
    """
    import uuid

    from ..errors import ValidationError
    from ..graph import as_reference_time
    from ..ingest.episodes import parse_messages
    from ..ingest.pipeline import ingestor_for

    if extractor is not None and extractor not in EXTRACTORS:
        raise ValidationError(
            f"--extractor: must be one of {', '.join(EXTRACTORS)}", field="extractor", allowed=list(EXTRACTORS)
        )
    messages, text = read_conversation(file, fmt)
    reference = as_reference_time(reference_time)
    session = session or f"s-{uuid.uuid4().hex[:12]}"
    parsed = parse_messages(messages) if messages is not None else None  # fail before connecting
    parts = _parts(parsed, text, batch)
    size = sum(chars for _, _, chars in parts)
    counts = dict.fromkeys(("episodes", "memories", "links", "jobs_pending", "jobs_failed", "jobs_running"), 0)
    errors: list[str] = []
    with open_graph_or_server(config) as graph:  # a running `graphmem serve` does the work when there is one
        ingestor = ingestor_for(graph)
        with progress_bar(console, disable=as_json) as bar:
            task = bar.add_task(f"ingest {file.name} (characters)", total=size)
            done = 0
            for part_messages, part_text, chars in parts:

                def follow(stage: str, k: int, n: int, base: int = done, chars: int = chars) -> None:
                    if stage == "segments" and n:
                        bar.update(task, completed=base + chars * k // n)

                report = ingestor.ingest(
                    group,
                    part_messages,
                    part_text,
                    session_id=session,
                    reference_time=reference,
                    extractor=extractor,
                    source="cli",
                    progress=follow,
                )
                errors.extend(report.errors)
                counts["episodes"] += len(report.episodes)
                counts["memories"] += len(report.memories)
                counts["links"] += report.links
                counts["jobs_pending"] += report.jobs_pending
                counts["jobs_failed"] += report.jobs_failed
                counts["jobs_running"] += report.jobs_running
                done += chars
                bar.update(task, completed=done)
    if as_json:
        print_json(
            {
                **counts,
                "errors": errors,
                "group_id": group,
                "session_id": session,
                "file": str(file),
                "parts": len(parts),
            }
        )
        return
    console.print(
        f"[green]stored[/green] {counts['episodes']} episodes in session {session} of group {group}; "
        f"extracted {counts['memories']} memories and {counts['links']} links",
        highlight=False,
    )
    if counts["jobs_pending"] or counts["jobs_failed"] or counts["jobs_running"]:
        console.print(
            f"[yellow]{counts['jobs_pending']} extraction job(s) pending, {counts['jobs_failed']} failed, "
            f"{counts['jobs_running']} left running[/yellow]: the turns are stored; run "
            f"`graphmem extract --retry --group {group}`",
            highlight=False,
        )
    for error in errors[:5]:
        console.print(f"  [dim]{error}[/dim]", highlight=False)


def extract(
    retry: bool = typer.Option(False, "--retry", help="Retry the pending extraction jobs whose backoff has passed."),
    group: str | None = typer.Option(None, "--group", "-g", help="Only this group (default: every group)."),
    max_jobs: int = typer.Option(100, "--max", min=1, help="At most this many jobs."),
    force: bool = typer.Option(False, "--force", help="With --retry: ignore the backoff, retry every pending job now."),
    failed: bool = typer.Option(False, "--failed", help="With --retry: give failed jobs one more attempt too."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """The extraction queue: job counts by state (and the latest errors), or with --retry a retry round."""
    from ..ingest.jobs import job_counts
    from ..ingest.pipeline import ingestor_for

    with open_graph(config) as graph:
        if not retry:
            counts = job_counts(graph.store, group)
            jobs = []
            if group is not None:
                ingestor = ingestor_for(graph)
                jobs = [
                    j
                    for state in ("pending", "failed")
                    for j in ingestor.queue.list(group, state=state, limit=max_jobs)
                ]
            if as_json:
                print_json({"counts": counts, "jobs": jobs})
                return
            console.print("extraction jobs: " + ", ".join(f"{k} {v}" for k, v in counts.items()), highlight=False)
            for j in jobs:
                console.print(
                    f"  {j['state']:<8} {j['id']} attempts {j['attempts']} next {j['next_attempt_at']}: "
                    f"[dim]{(j.get('last_error') or '')[:160]}[/dim]",
                    highlight=False,
                )
            if counts["pending"] or counts["failed"] or counts.get("stranded"):
                console.print(
                    "retry with `graphmem extract --retry` (--force ignores the backoff, --failed "
                    "includes failed jobs; stranded ones, whose process or server died, are always taken)",
                    highlight=False,
                )
            return
        from rich.progress import Progress

        with Progress(console=console, disable=as_json, transient=True) as bar:
            task = bar.add_task("retry", total=None)
            report = ingestor_for(graph).retry(
                group,
                max_jobs=max_jobs,
                force=force,
                include_failed=failed,
                progress=lambda _, done, total: bar.update(task, completed=done, total=total),
            )
        counts = job_counts(graph.store, group)
    if as_json:
        print_json({**report.model_dump(mode="json"), "counts": counts})
        return
    console.print(
        f"retried {report.attempted} job(s): {report.done} done, {report.pending} pending, "
        f"{report.failed} failed; {len(report.memories)} memories and {report.links} links written",
        highlight=False,
    )
    for error in report.errors[:10]:
        console.print(f"  [dim]{error}[/dim]", highlight=False)
    console.print("queue: " + ", ".join(f"{k} {v}" for k, v in counts.items()), highlight=False)
