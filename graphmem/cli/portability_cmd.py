"""`graphmem export|import|backup|restore|markdown`: moving memories out, in, and into files people read."""

from __future__ import annotations

from pathlib import Path

import typer

from ._common import ConfigOption, console, count, load, open_graph, print_json, progress_bar


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_)
    app.command("backup")(backup)
    app.command("restore")(restore)
    app.command("markdown")(markdown)


def _progress(disable: bool):
    return progress_bar(console, disable=disable)


def _tracker(bar):
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    return update


def export(
    file: Path = typer.Argument(..., help="The JSON Lines file to write (overwritten)."),
    group: str = typer.Option(..., "--group", "-g", help="Group (tenant) to export."),
    vectors: bool = typer.Option(
        True,
        "--vectors/--no-vectors",
        help="Include the embeddings (bigger file; import then needs no model work "
        "when the target uses the same model).",
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the counts as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Write every node and relationship of a group, with their properties, to a JSON Lines file
    (a versioned header line first). Read in one snapshot: the file is consistent."""
    from ..analyst.portability import export_group

    with open_graph(config) as graph, _progress(json_output) as bar:
        report = export_group(graph.store, group, file, vectors=vectors, progress=_tracker(bar))
    data = {"group_id": group, "file": str(file), "vectors": vectors, "nodes": report.nodes, "edges": report.edges}
    if json_output:
        print_json(data)
        return
    console.print(
        f"exported group [bold]{group}[/bold] to {file}: {count(sum(report.nodes.values()), 'node')}, "
        f"{count(sum(report.edges.values()), 'relationship')}{'' if vectors else ' (no vectors)'}",
        highlight=False,
    )
    for label, n in sorted(report.nodes.items()):
        console.print(f"  {label:<14} {n}", highlight=False)


def import_(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="A file written by `graphmem export`."),
    group: str | None = typer.Option(
        None,
        "--group",
        "-g",
        help="Import under this group (default: the group the file came from). "
        "Nodes get new ids derived from the new group's name.",
    ),
    batch: int = typer.Option(500, "--batch", min=1, max=10000, help="Rows per transaction."),
    json_output: bool = typer.Option(False, "--json", help="Print the counts as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Import a group from an export file. Idempotent: importing the same file again changes
    nothing. Embeddings are computed again when the file has none or comes from another model."""
    from ..analyst.portability import import_group
    from ..graph import MemoryGraph

    settings = load(config)
    with MemoryGraph(settings) as graph, _progress(json_output) as bar:
        report = import_group(graph, file, group, batch=batch, progress=_tracker(bar))
    data = {
        "source_group": report.source_group,
        "group_id": report.group_id,
        "nodes": report.nodes,
        "edges": report.edges,
        "reembedded": report.reembedded,
        "vectors": report.reason,
    }
    if json_output:
        print_json(data)
        return
    console.print(
        f"imported {file} (group {report.source_group}) into group [bold]{report.group_id}[/bold]: "
        f"{count(sum(report.nodes.values()), 'node')}, {count(sum(report.edges.values()), 'relationship')}; "
        f"{report.reason}" + (f", {count(report.reembedded, 'embedding')} computed" if report.reembedded else ""),
        highlight=False,
    )


HomeOption = typer.Option(
    None, "--home", help="The home directory of the local server to act on (default: server.home)."
)
PortOption = typer.Option(None, "--port", min=1, max=65535, help="Act on the local server listening on this Bolt port.")


def backup(
    file: Path | None = typer.Argument(
        None, help="Dump file to write (default: <server.home>/backups/neo4j-<time>.dump)."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite FILE if it exists."),
    home: Path | None = HomeOption,
    port: int | None = PortOption,
    json_output: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Back up a local server's whole database with neo4j-admin database dump. Neo4j Community
    dumps only offline: a running server is stopped, and started again afterwards.

    Which server: --home, else the one listening on --port (or on the port of a local NEO4J_URI),
    else server.home. No other server is ever stopped."""
    from ..analyst.backup import backup as run_backup

    with (
        console.status("dumping the database (the server is stopped meanwhile)...", spinner="dots")
        if not json_output
        else _nothing()
    ):
        report = run_backup(load(config), file, force=force, home=home, port=port)
    _print_backup(report, "backed up", json_output)


def restore(
    file: Path | None = typer.Argument(None, help="A dump written by `graphmem backup`."),
    force: bool = typer.Option(False, "--force", help="Replace the existing database (every group in it)."),
    memory: str | None = typer.Option(
        None,
        "--memory",
        help="Instead of a dump: bring back this archived "
        "memory (forgotten, faded or summarised) with the status it had.",
    ),
    group: str = typer.Option("default", "--group", "-g", help="The group of --memory."),
    home: Path | None = HomeOption,
    port: int | None = PortOption,
    json_output: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Restore a local server's database from a dump (neo4j-admin database load), replacing
    what it holds: refused without --force. The server is stopped and started again around it.
    Which server: as for `graphmem backup` (--home, --port, a local NEO4J_URI, server.home).

    With --memory ID: restore one archived memory of a group instead (nothing else changes)."""
    from ..analyst.backup import restore as run_restore
    from ..errors import ValidationError

    if memory is not None and file is None:
        with open_graph(config) as graph:
            result = graph.restore(group, memory)
        if json_output:
            print_json(result)
        else:
            console.print(f"restored memory {memory}: status {result['status']}", highlight=False)
        return
    if file is None or memory is not None:
        raise ValidationError(
            "restore: give either a dump FILE or --memory ID (one archived memory), not "
            + ("both" if file is not None else "neither"),
            field="file",
        )
    with (
        console.status("loading the dump (the server is stopped meanwhile)...", spinner="dots")
        if not json_output
        else _nothing()
    ):
        report = run_restore(load(config), file, force=force, home=home, port=port)
    _print_backup(report, "restored", json_output)


def _nothing():
    from contextlib import nullcontext

    return nullcontext()


def _print_backup(report, verb: str, json_output: bool) -> None:
    from dataclasses import asdict

    from ..server.launcher import human_size

    if json_output:
        print_json(asdict(report))
        return
    console.print(
        f"{verb} database {report.database!r} {'to' if verb == 'backed up' else 'from'} {report.path} "
        f"({human_size(report.bytes)}) in {report.seconds:.0f} s"
        f"{'; the server was started again' if report.restarted else ''}",
        highlight=False,
    )


def markdown(
    group: str = typer.Option(..., "--group", "-g", help="Group (tenant) to write the files for."),
    out: Path = typer.Option(Path("."), "--out", "-o", file_okay=False, help="Directory for MEMORY.md and USER.md."),
    json_output: bool = typer.Option(False, "--json", help="Print the paths and counts as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Write MEMORY.md (what is known, by subject and topic, current facts first, superseded ones
    struck through) and USER.md (the user's profile) for a group: a readable mirror of the graph,
    regenerated each time, never read back."""
    from ..analyst.markdown import write_markdown

    with open_graph(config) as graph:
        report = write_markdown(graph.store, group, out)
    if json_output:
        print_json(report)
        return
    console.print(
        f"wrote {report['memory_md']} ({count(report['memories'], 'memory', 'memories')}) and {report['user_md']} "
        f"({report['user_facts']} lines about the user)",
        highlight=False,
    )
