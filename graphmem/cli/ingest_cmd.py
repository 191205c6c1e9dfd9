"""`graphmem ingest FILE` and `graphmem extract`: conversations in, the extraction queue."""

from __future__ import annotations

import contextlib
import shlex
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer

from ._common import ConfigOption, console, count, err_console, open_graph, print_json, progress_bar, suggested

EXTRACTORS = ("rules", "llm", "none")


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.command("extract")(extract)


PROGRESS_LINE_PARTS = 1000  # without a terminal: one progress line per this many parts


def ingest(
    file: Path = typer.Argument(
        ...,
        help="The conversation: JSON (a list of {role, content, speaker?, timestamp?} "
        'or {"messages": [...]}), JSONL (one message per line) or plain text.',
    ),
    group: str = typer.Option("default", "--group", "-g", help="Group (tenant) to store it in."),
    session: str | None = typer.Option(
        None,
        "--session",
        help="Session id (default: the session an earlier run of this file stored its parts in, else a new one; "
        "an existing session is continued).",
    ),
    fmt: str | None = typer.Option(None, "--format", "-f", help="json, jsonl or text (default: from the suffix)."),
    extractor: str | None = typer.Option(
        None,
        "--extractor",
        "-x",
        help="rules (offline, zh+en), llm (the endpoint configured as llm.base_url) or none "
        "(default: llm when an endpoint is configured, else rules).",
    ),
    reference_time: str | None = typer.Option(
        None,
        "--reference-time",
        help="When the conversation took place (ISO 8601; default now), for turns without a timestamp.",
    ),
    batch: int = typer.Option(
        500, "--batch", min=1, help="At most this many parts (turns or text chunks) per transaction."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Store a conversation or a text as episodes (every turn kept, embedded, searchable) and extract memories from it.

    The file is read as a stream, in parts: a turn of a JSON or JSONL conversation, or a chunk of about
    1,000 characters of a plain text. Each part is stored once: run the same command again after a Ctrl-C,
    a crash or a lost server and it skips what is stored and goes on. Progress: a bar on a terminal,
    otherwise a line every 1,000 parts (on stderr). A failed extraction never loses a turn: its job stays
    pending and `graphmem extract --retry` retries it.
    """
    from ..errors import GraphmemError, ValidationError
    from ..ingest.bulk import BulkProgress, count_chars, file_format, ingest_file
    from ..ingest.pipeline import ingestor_for

    if extractor is not None and extractor not in EXTRACTORS:
        raise ValidationError(
            f"--extractor: must be one of {', '.join(EXTRACTORS)}", field="extractor", allowed=list(EXTRACTORS)
        )
    if not file.exists():
        raise ValidationError(f"{file}: no such file", field="file")
    file_format(file, fmt)
    done = BulkProgress(file=str(file), group_id=group, total_chars=count_chars(file))
    bar_on = console.is_terminal and not as_json
    with open_graph(config) as graph:
        ingestor = ingestor_for(graph)
        with progress_bar(console, disable=not bar_on) as bar:
            task = bar.add_task(f"ingest {file.name} (characters)", total=done.total_chars)
            lines = _ProgressLines(file.name) if not bar_on else None

            def follow(p: BulkProgress) -> None:
                bar.update(task, completed=p.chars)
                if lines is not None:
                    lines.update(p)

            how = None
            try:
                with _first_ctrl_c_ends_the_batch() as asked:
                    ingest_file(
                        ingestor,
                        file,
                        group,
                        fmt=fmt,
                        session_id=session,
                        reference_time=reference_time,
                        extractor=extractor,
                        batch_parts=batch,
                        progress=done,
                        on_batch=follow,
                        should_stop=asked,
                    )
                how = "interrupted" if done.stopped else None
            except GraphmemError:
                bar.stop()
                _stopped(done, "stopped", file, group, fmt, extractor, reference_time, batch, config)
                raise
            except BaseException as exc:  # a second Ctrl-C, wherever it landed (inside the driver, too)
                if not _interrupted(exc):
                    raise
                how = "interrupted"
            if how is not None:
                bar.stop()
                _stopped(done, how, file, group, fmt, extractor, reference_time, batch, config)
                raise typer.Exit(130)
            if lines is not None:
                lines.update(done, last=True)
    if as_json:
        print_json(
            {
                "episodes": done.episodes,
                "memories": done.memories,
                "links": done.links,
                "jobs_pending": done.jobs_pending,
                "jobs_failed": done.jobs_failed,
                "jobs_running": done.jobs_running,
                "jobs_resumed": done.jobs_resumed,
                "errors": done.errors,
                "group_id": group,
                "session_id": done.session_id,
                "file": str(file),
                "parts": done.parts,
                "parts_stored": done.stored,
                "parts_found_stored": done.skipped,
                "characters": done.chars,
            }
        )
        return
    found = f" ({count(done.skipped, 'part')} stored by an earlier run, skipped)" if done.skipped else ""
    console.print(
        f"[green]stored[/green] {count(done.episodes, 'episode')} in session {done.session_id} of group {group}"
        f"{found}; extracted {count(done.memories, 'memory', 'memories')} and {count(done.links, 'link')}",
        highlight=False,
    )
    if done.jobs_pending or done.jobs_failed or done.jobs_running:
        from rich.markup import escape

        console.print(
            f"[yellow]{count(done.jobs_pending, 'extraction job')} pending, {done.jobs_failed} failed, "
            f"{done.jobs_running} left running[/yellow]: the turns are stored; run "
            f"`{escape(suggested('extract', '--retry', group=group, config=config))}`",
            highlight=False,
        )
    for error in done.errors[:5]:
        console.print(f"  [dim]{error}[/dim]", highlight=False)


@contextlib.contextmanager
def _first_ctrl_c_ends_the_batch() -> Iterator[Callable[[], bool]]:
    """Within: the first Ctrl-C asks the ingest to stop after the batch it is storing (what is
    stored is then exactly the batches before); a second one stops it at once (KeyboardInterrupt,
    a transaction in flight rolled back). Yields the question the ingest asks after each batch."""
    asked: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def on_ctrl_c(signum: int, frame: Any) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(True)
        err_console.print("Ctrl-C: stopping after the batch being stored (Ctrl-C again stops at once)", highlight=False)

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield lambda: bool(asked)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted(exc: BaseException | None) -> bool:
    """Whether a Ctrl-C caused ``exc`` (the driver may raise its own error while unwinding one)."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__context__ or exc.__cause__
        seen += 1
    return False


class _ProgressLines:
    """Progress without a terminal: a line on stderr every PROGRESS_LINE_PARTS parts, and at the end."""

    def __init__(self, name: str):
        import time

        self.name = name
        self.start = time.monotonic()
        self.shown = 0

    def update(self, p: Any, *, last: bool = False) -> None:
        import time

        if not last and p.parts // PROGRESS_LINE_PARTS == self.shown // PROGRESS_LINE_PARTS:
            return
        self.shown = p.parts
        elapsed = max(time.monotonic() - self.start, 1e-9)
        share = 100 * p.chars / p.total_chars if p.total_chars else 100.0
        err_console.print(
            f"ingest {self.name}: {count(p.parts, 'part')}, {p.chars:,} of {p.total_chars:,} characters ({share:.0f}%), "
            f"{p.chars / elapsed:,.0f} characters/s, {elapsed:.0f} s",
            highlight=False,
            soft_wrap=True,
        )


def _stopped(
    done: Any,
    how: str,
    file: Path,
    group: str,
    fmt: str | None,
    extractor: str | None,
    reference_time: str | None,
    batch: int,
    config: str | None,
) -> None:
    """How far an ingest got, and the command that resumes it (the same options, the session)."""
    share = 100 * done.chars / done.total_chars if done.total_chars else 0.0
    command = ["graphmem", "ingest", str(file), "--group", group]
    if done.session_id:
        command += ["--session", done.session_id]
    for flag, value in (("--format", fmt), ("--extractor", extractor), ("--reference-time", reference_time)):
        if value is not None:
            command += [flag, value]
    if batch != 500:
        command += ["--batch", str(batch)]
    if config is not None:
        command += ["--config", config]
    err_console.print(
        f"{how}: {count(done.parts, 'part')} of {file.name} handled ({done.chars:,} of {done.total_chars:,} "
        f"characters, {share:.0f}%), {done.stored} stored by this run; nothing is stored twice. Resume with:",
        highlight=False,
        soft_wrap=True,
    )
    err_console.print("  " + shlex.join(command), highlight=False, soft_wrap=True, markup=False)


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
        f"retried {count(report.attempted, 'job')}: {report.done} done, {report.pending} pending, "
        f"{report.failed} failed; {count(len(report.memories), 'memory', 'memories')} and "
        f"{count(report.links, 'link')} written",
        highlight=False,
    )
    for error in report.errors[:10]:
        console.print(f"  [dim]{error}[/dim]", highlight=False)
    console.print("queue: " + ", ".join(f"{k} {v}" for k, v in counts.items()), highlight=False)
