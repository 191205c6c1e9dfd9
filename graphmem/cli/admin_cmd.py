"""Operator commands: init the schema, show the effective config, run the demo."""
from __future__ import annotations

import typer

from ._common import ConfigOption, console, load, print_json

config_app = typer.Typer(no_args_is_help=True, help="Inspect graphmem's configuration.")


def register(app: typer.Typer) -> None:
    app.command("init")(init)
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
    data = {"uri": graph.store.uri, "server": f"Neo4j {version} {edition}", "model": report.model,
            "dimension": report.dimension, "created": report.created, "existing": len(report.existing),
            "changed": report.changed}
    if json_output:
        print_json(data)
        return
    console.print(f"[bold]{data['server']}[/bold] at {data['uri']}")
    console.print(f"embedding model {report.model} (dimension {report.dimension})")
    if report.changed:
        console.print(f"[green]created[/green] {len(report.created)}: {', '.join(report.created)}")
    else:
        console.print(f"schema up to date ({len(report.existing)} indexes and constraints); nothing changed")


@config_app.command("show")
def config_show(config: str = ConfigOption,
                json_output: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Print the effective configuration (file + environment), with secrets masked."""
    settings = load(config)
    data = settings.masked()
    data["effective"] = {"uri": settings.effective_uri(),
                         "password_source": ("config/env" if settings.neo4j.password else
                                             str(settings.password_file) if settings.neo4j.uri is None else "missing")}
    if json_output:
        print_json(data)
        return
    for section, values in data.items():
        console.print(f"[bold]\\[{section}][/bold]")
        for key, value in values.items():
            console.print(f"  {key} = {value!r}", highlight=False)


def demo(config: str = ConfigOption,
         group: str = typer.Option("demo", "--group", "-g", help="Group (tenant) to write the demo memories into."),
         keep: bool = typer.Option(False, "--keep", help="Keep earlier demo memories instead of starting clean.")) -> None:
    """Write a few memories in Chinese and English, link them, search them, print what comes back."""
    from ..demo import run_demo

    run_demo(load(config), group, keep=keep)
