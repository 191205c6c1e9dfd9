"""`graphmem consolidate`, `graphmem unmerge`, `graphmem forget`: the memory lifecycle from the
command line (graphmem/lifecycle)."""

from __future__ import annotations

import re
from typing import Any

import typer
from rich.table import Table

from ._common import ConfigOption, console, count, err_console, open_graph, print_json, progress_bar, suggested

GroupOption = typer.Option("default", "--group", "-g", help="Group (tenant) to work on.")
_EVERY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "": 3600}


def register(app: typer.Typer) -> None:
    app.command("consolidate")(consolidate)
    app.command("unmerge")(unmerge)
    app.command("forget")(forget)


def parse_every(value: str) -> float:
    """'6h', '30m', '90s', '1d' (a bare number is hours) -> seconds."""
    from ..errors import ValidationError

    match = _EVERY.match(value or "")
    if not match or float(match.group(1)) <= 0:
        raise ValidationError(f"--every: {value!r} is not an interval: write e.g. 6h, 30m, 90s or 1d", field="every")
    return float(match.group(1)) * _UNIT_S[match.group(2)]


def consolidate(
    group: str = GroupOption,
    all_groups: bool = typer.Option(
        False, "--all", help="Every group that holds memories, one after another (instead of --group)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print what a run would change; change nothing."),
    as_json: bool = typer.Option(False, "--json", help="Print the run's report as JSON."),
    every: str | None = typer.Option(
        None,
        "--every",
        help="Run again at this interval until stopped (6h, 30m, 1d); after a failure, retry sooner (backoff).",
    ),
    at: str | None = typer.Option(
        None, "--at", help="Measure decay and age as of this time (ISO; default now): preview what will fade."
    ),
    max_batches: int | None = typer.Option(
        None, "--max-batches", min=1, help="Stop after this many batches of staged memories."
    ),
    config: str | None = ConfigOption,
) -> None:
    """Consolidate a group's memories: merge duplicate concepts (same name in
    another width, case, spelling or script; same meaning in the same context) and duplicate
    memories; mark contradicted facts superseded by the newer one (我住在北京 → 我搬到上海了,
    I work at Acme → I joined Globex); link related memories; fold old trivia into summaries;
    archive what has faded (never deleted: `graphmem restore --memory ID`). Each change is a
    small transaction, so a killed run can simply be run again. Undo a merge with `graphmem unmerge`."""
    from ..graph import as_reference_time

    now = as_reference_time(at) if at else None
    interval = parse_every(every) if every else None
    with open_graph(config) as graph:

        def once() -> list[Any]:
            if interval is not None and not dry_run:  # a standing scheduler also takes up extraction jobs
                graph.retry_extractions(None if all_groups else group)
            groups = graph.memory_groups() if all_groups else [group]
            return [_run(graph, g, dry_run, now, max_batches, as_json) for g in groups]

        def show(reports: list[Any]) -> None:
            if as_json:
                print_json(
                    [r.model_dump(mode="json") for r in reports] if all_groups else reports[0].model_dump(mode="json")
                )
                return
            for r in reports:
                _print(r)
            if all_groups:
                console.print(f"{count(len(reports), 'group')} consolidated", highlight=False)

        if interval is None:
            show(once())
            return
        from ..lifecycle.scheduler import run_every

        def done(reports: list[Any]) -> None:
            show(reports)
            err_console.print(f"[dim]next run in {every} (Ctrl-C to stop)[/dim]")

        def failed(exc: Exception, delay: float) -> None:
            err_console.print(f"[red]consolidation failed:[/red] {exc}; retrying in {delay:.0f} s")

        try:
            run_every(once, interval, on_result=done, on_error=failed)
        except KeyboardInterrupt:
            err_console.print("stopped")


def _run(graph: Any, group: str, dry_run: bool, now: Any, max_batches: int | None, quiet: bool) -> Any:
    with progress_bar(err_console, transient=True, disable=quiet) as bar:
        task = bar.add_task(f"consolidating {group}", total=None)
        return graph.consolidate(
            group,
            dry_run=dry_run,
            now=now,
            max_batches=max_batches,
            progress=lambda _, done, total: bar.update(task, completed=done, total=total),
        )


def _print(report: Any) -> None:
    c = report.counts
    verb = "would change" if report.dry_run else "changed"
    console.print(
        f"[bold]{'dry run: ' if report.dry_run else ''}consolidated group {report.group_id!r}[/bold]: "
        f"{report.processed} staged memories in {report.seconds:.1f} s (run {report.run_id}, "
        f"as of {report.as_of[:19]})",
        highlight=False,
    )
    rows = [
        ("concept nodes merged", "concepts_merged"),
        ("duplicate memories merged", "memories_merged"),
        ("conflicts (superseded)", "conflicts"),
        ("links discovered: related", "references"),
        ("links discovered: possible causes", "causal_candidates"),
        ("summaries made", "summaries"),
        ("memories folded into summaries", "summarized"),
        ("archived (faded)", "archived"),
    ]
    table = Table(title=f"what the run {verb}", title_justify="left")
    table.add_column("step")
    table.add_column("count", justify="right")
    for label, key in rows:
        table.add_row(label, str(c.get(key, 0)))
    console.print(table)
    for m in report.concept_merges[:20]:
        console.print(
            f"  merge {m.label} {m.merged_name!r} → {m.survivor_name!r} ({m.reason})"
            + (
                f"  [dim]undo: graphmem unmerge {m.merge_id} -g {report.group_id}[/dim]"
                if m.merge_id and not report.dry_run
                else ""
            ),
            highlight=False,
        )
    for d in report.memory_merges[:20]:
        console.print(f"  duplicate {d.text!r} → {d.survivor_id[:8]} ({d.reason})", highlight=False)
    for x in report.conflicts[:20]:
        console.print(f"  supersede {x.older_text!r} ← {x.newer_text!r} ({x.reason})", highlight=False)
    for s in report.summaries[:10]:
        console.print(f"  summary {s.text!r} ({count(len(s.sources), 'memory', 'memories')})", highlight=False)
    shown = {"concept_merges": 20, "memory_merges": 20, "conflicts": 20, "summaries": 10}
    more = {k: len(getattr(report, k)) - n for k, n in shown.items() if len(getattr(report, k)) > n}
    if more:
        console.print(
            "  [dim]… and "
            + ", ".join(f"{n} more {k.replace('_', ' ')}" for k, n in more.items())
            + " (--json lists all)[/dim]",
            highlight=False,
        )
    for e in report.errors:
        console.print(f"  [yellow]note:[/yellow] {e}", highlight=False)


def unmerge(
    which: str = typer.Argument(
        ..., help="The merge id (printed by `graphmem consolidate`), or the merged node's id or name."
    ),
    group: str = GroupOption,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Undo a concept merge: the merged node comes back with its id, properties and edges."""
    with open_graph(config) as graph:
        result = graph.unmerge(group, which)
    if as_json:
        print_json(result)
        return
    console.print(
        f"restored {result['label']} {result['restored_name']!r} ({result['restored_id']}): "
        f"{result['moved']} edges moved back from {result['holder_id']}",
        highlight=False,
    )


def forget(
    memory_id: str = typer.Argument(..., help="The memory's id."),
    group: str = GroupOption,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Archive a memory (hidden from search, never deleted); `graphmem restore --memory ID` brings it back."""
    with open_graph(config) as graph:
        result = graph.forget(group, memory_id)
    if as_json:
        print_json(result)
        return
    restore = suggested("restore", "--memory", memory_id, group=group, config=config)
    console.print(f"archived {memory_id} (restore: {restore})", highlight=False, markup=False, soft_wrap=True)
