"""Operator commands: init the schema, re-embed, delete or rename a group, show the effective
config, run the demo."""

from __future__ import annotations

import sys

import typer

from ._common import ConfigOption, console, count, err_console, load, open_graph, print_json, progress_bar

config_app = typer.Typer(no_args_is_help=True, help="Inspect graphmem's configuration.")


def register(app: typer.Typer) -> None:
    app.command("init")(init)
    app.command("reembed")(reembed)
    app.command("delete-group")(delete_group)
    app.command("rename-group")(rename_group)
    app.command("demo")(demo)
    app.add_typer(config_app, name="config")


def init(config: str = ConfigOption, json_output: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Install the schema: uniqueness constraints, vector indexes (dimension of the configured
    embedding model), cjk fulltext indexes and the meta node. Idempotent: running it twice
    changes nothing. Refuses a database initialised for another embedding model."""
    from ..graph import MemoryGraph

    with MemoryGraph(load(config)) as graph:
        version, edition = graph.store.verify()
        report = graph.init_schema()
    data = {
        "uri": graph.store.uri,
        "server": f"Neo4j {version} {edition}",
        "model": report.model,
        "dimension": report.dimension,
        "created": report.created,
        "existing": len(report.existing),
        "changed": report.changed,
    }
    if json_output:
        print_json(data)
        return
    console.print(f"[bold]{data['server']}[/bold] at {data['uri']}")
    console.print(f"embedding model {report.model} (dimension {report.dimension})")
    if report.changed:
        console.print(f"[green]created[/green] {len(report.created)}: {', '.join(report.created)}")
    else:
        console.print(f"schema up to date ({len(report.existing)} indexes and constraints); nothing changed")


def reembed(
    config: str = ConfigOption,
    group: str | None = typer.Option(
        None,
        "--group",
        "-g",
        help="Only this group, re-embedded with the "
        "model the database already uses (a refresh); a new model means "
        "every group.",
    ),
    batch: int = typer.Option(256, "--batch", min=1, max=10_000, help="Nodes embedded per transaction."),
    json_output: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Move the database to the configured embedding model (setting embedding.model): every memory,
    turn, sentence and concept gets the new model's vector, in batches, while searches keep
    using the old vectors; when all are done the vectors and vector indexes are swapped (seconds).
    Stopped (Ctrl-C, a crash) and run again, it carries on where it was."""
    from ..graph import MemoryGraph
    from ..store.reembed import reembed as run
    from ._common import _LazyEmbedder, progress_bar

    settings = load(config)
    with MemoryGraph(settings, embedder=_LazyEmbedder(settings)) as graph:
        graph.store.verify()
        bar = None if json_output else progress_bar(console)
        tasks: dict[str, int] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if bar is None:
                return
            if stage not in tasks:
                tasks[stage] = bar.add_task(
                    f"re-embed {stage}" if not stage.startswith("swap") else stage, total=total or None
                )
            bar.update(tasks[stage], completed=done, total=total or None)

        if bar is not None:
            bar.start()
        try:
            report = run(graph.store, graph.embedder, group_id=group, batch=batch, progress=progress)
        finally:
            if bar is not None:
                bar.stop()
    data = {
        "model": report.model,
        "dimension": report.dimension,
        "previous_model": report.previous_model,
        "embedded": report.embedded,
        "resumed": report.resumed,
        "swapped": report.swapped,
    }
    if json_output:
        print_json(data)
        return
    done = sum(report.embedded.values())
    console.print(
        f"re-embedded {count(done, 'node')} with {report.model} (dimension {report.dimension})"
        + (f", from {report.previous_model}" if report.previous_model not in (None, report.model) else "")
        + ("; resumed an interrupted run" if report.resumed else ""),
        highlight=False,
    )
    console.print("vector indexes rebuilt; the database now uses " + report.model, highlight=False)


def delete_group(
    group: str = typer.Option(..., "--group", "-g", help="The group (tenant) whose data is deleted."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Delete without asking (scripts)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print what would be deleted; delete nothing."),
    json_output: bool = typer.Option(False, "--json", help="Print JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Delete everything of one group for good: its memories, conversation turns, concepts, working
    memory, extraction jobs, idempotency keys, consolidation records and locks, with every edge.
    Nothing of another group is touched; it cannot be undone (`graphmem backup` first if in doubt).

    Asks for the group id to confirm unless --yes. Runs in batches: stopped half-way (Ctrl-C, a
    crash), run it again and it finishes. Ids stored before the group id rule are accepted here."""
    from ..errors import ValidationError
    from ..store.admin import group_contents
    from ..types import validate_stored_group_id

    group = validate_stored_group_id(group)
    with open_graph(config) as graph:
        contents = group_contents(graph.store, group)
        nodes = contents["nodes"]
        unfinished = nodes.pop("GroupDeletion", 0) > 0
        total = sum(nodes.values())
        if dry_run or (total == 0 and not unfinished):
            data = {"group_id": group, "dry_run": dry_run, "nodes": nodes, "total": total, "edges": contents["edges"]}
            if json_output:
                print_json(data)
                return
            verb = "would delete" if total else "nothing to delete:"
            console.print(
                f"{verb} {count(total, 'node')} and {count(contents['edges'], 'relationship')} of group {group!r}"
                + (f" ({_labels(nodes)})" if total else f" no node carries the group id {group!r}"),
                highlight=False,
                soft_wrap=True,
            )
            return
        if not yes:
            if not sys.stdin.isatty():
                raise ValidationError(
                    "delete-group asks for confirmation and stdin is not a terminal: pass --yes to delete "
                    "without asking (--dry-run shows what would go)",
                    field="yes",
                )
            console.print(
                f"This deletes {count(total, 'node')} and {count(contents['edges'], 'relationship')} of group {group!r} "
                f"({_labels(nodes)}) for good.",
                highlight=False,
                soft_wrap=True,
            )
            if typer.prompt("Type the group id to confirm", default="", show_default=False) != group:
                err_console.print("not confirmed: nothing deleted")
                raise typer.Exit(1)
        bar = None if json_output else progress_bar(err_console, transient=True)
        if bar is not None:
            bar.start()
            task = bar.add_task(f"deleting {group}", total=total or None)
        try:
            report = graph.delete_group(
                group, progress=None if bar is None else (lambda done: bar.update(task, completed=done))
            )
        finally:
            if bar is not None:
                bar.stop()
    if json_output:
        print_json(report.model_dump(mode="json"))
        return
    console.print(
        f"[green]deleted[/green] group {group!r}: {count(report.nodes, 'node')} ({_labels(report.deleted)}) in "
        f"{report.seconds:.1f} s" + ("; an earlier, unfinished deletion is now complete" if report.resumed else ""),
        highlight=False,
        soft_wrap=True,
    )


def rename_group(
    old: str = typer.Argument(..., help="The group id as stored (an id from before the group id rule is accepted)."),
    new: str = typer.Argument(..., help="The new group id: letters, digits and _ - . : @, no spaces."),
    json_output: bool = typer.Option(False, "--json", help="Print JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Move every node of a group to a new group id (which must hold nothing yet): for ids stored
    before the group id rule, which no call reads any more (`graphmem stats --legacy` lists them).
    Stop the clients of the group first; stopped half-way, run it again with the same ids."""
    from ..store.admin import rename_group as run

    with open_graph(config) as graph:
        report = run(graph.store, old, new)
    if json_output:
        print_json(report.model_dump(mode="json"))
        return
    console.print(
        f"[green]renamed[/green] group {report.old!r} to {report.new!r}: {count(report.nodes, 'node')} in {report.seconds:.1f} s",
        highlight=False,
    )


def _labels(nodes: dict[str, int]) -> str:
    return ", ".join(f"{label} {n}" for label, n in sorted(nodes.items(), key=lambda kv: -kv[1]))


@config_app.command("show")
def config_show(
    config: str = ConfigOption, json_output: bool = typer.Option(False, "--json", help="Print JSON.")
) -> None:
    """Print the effective configuration (file + environment), with secrets masked."""
    settings = load(config)
    data = settings.masked()
    data["effective"] = {
        "uri": settings.effective_uri(),
        "password_source": (
            "config/env"
            if settings.neo4j.password
            else str(settings.password_file)
            if settings.neo4j.uri is None
            else "missing"
        ),
    }
    if json_output:
        print_json(data)
        return
    for section, values in data.items():
        console.print(f"[bold]\\[{section}][/bold]")
        for key, value in values.items():
            console.print(f"  {key} = {value!r}", highlight=False)


def demo(
    config: str = ConfigOption,
    group: str = typer.Option("demo", "--group", "-g", help="Group (tenant) to write the demo memories into."),
    keep: bool = typer.Option(False, "--keep", help="Keep earlier demo memories instead of starting clean."),
) -> None:
    """Write a few memories in Chinese and English, link them, search them, print what comes back;
    then facts that change, consolidated: the current one first."""
    from ..demo import run_demo

    run_demo(load(config), group, keep=keep)
