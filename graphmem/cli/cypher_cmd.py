"""`graphmem cypher list|show|run`: the analysts' query library (graphmem/cypher/explore/)."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.table import Table

from ._common import ConfigOption, console, count, open_graph, print_json

app = typer.Typer(
    no_args_is_help=True,
    help="The analysts' Cypher library: named, read-only, group-scoped queries "
    "(timelines, causal chains, evidence, hubs, duplicates, conflicts, decay, shape).",
)


@app.command("list")
def list_queries(
    json_output: bool = typer.Option(False, "--json", help="Print JSON."),
    chinese: bool = typer.Option(False, "--zh", help="Describe the queries in Chinese (中文说明)."),
) -> None:
    """List the library's queries: name, the question each answers, its parameters."""
    from ..analyst.library import library

    book = library()
    if json_output:
        print_json(
            [
                {
                    "name": q.name,
                    "file": q.file,
                    "en": q.en,
                    "zh": q.zh,
                    "params": [
                        {"name": p.name, "required": p.required, "default": p.default, "en": p.en, "zh": p.zh}
                        for p in q.params
                    ],
                }
                for q in book.values()
            ]
        )
        return
    table = Table(title="graphmem cypher run NAME -g GROUP [--param k=v]", title_justify="left")
    table.add_column("name", style="bold cyan", no_wrap=True)
    table.add_column("question" if not chinese else "问题")
    table.add_column("parameters (= default)", no_wrap=False)
    for q in book.values():
        params = ", ".join(
            p.name if p.required else f"{p.name}={json.dumps(p.default, ensure_ascii=False)}"
            for p in q.params
            if p.name != "group_id"
        )
        table.add_row(q.name, _first_sentence(q.zh if chinese else q.en), params)
    console.print(table)


@app.command("show")
def show(
    name: str = typer.Argument(..., help="Query name (see `graphmem cypher list`)."),
    group: str = typer.Option("alice", "--group", "-g", help="Group to put in the :param lines."),
    params: list[str] | None = typer.Option(None, "--param", "-p", help="NAME=VALUE for the :param lines."),
) -> None:
    """Print a query ready to paste into Neo4j Browser: its :param lines, then the Cypher."""
    from ..analyst.library import get, parse_param

    q = get(name)
    values = {"group_id": group, **dict(parse_param(p) for p in params or [])}
    typer.echo(f"// {q.name}: {q.en}\n// {q.zh}\n{q.browser_params(values)}\n\n{q.cypher};")


@app.command("run")
def run(
    name: str = typer.Argument(..., help="Query name (see `graphmem cypher list`)."),
    group: str = typer.Option(..., "--group", "-g", help="Group (tenant) to query."),
    params: list[str] | None = typer.Option(
        None,
        "--param",
        "-p",
        help="NAME=VALUE, repeatable; VALUE is read as JSON when it parses (3, true, null, [..], {..}), else as text.",
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the rows as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Run a library query for one group (in a read transaction) and print its rows as a table.

    Example: graphmem cypher run subject_timeline -g alice --param subject=我
    """
    from ..analyst.library import get, parse_param
    from ..analyst.library import run as run_query

    q = get(name)  # an unknown name fails before connecting
    values = dict(parse_param(p) for p in params or [])
    with open_graph(config) as graph:
        rows = run_query(graph.store, q.name, group, values)
    if json_output:
        print_json(rows)
        return
    if not rows:
        console.print(f"{q.name}: no rows for group {group!r}", highlight=False)
        return
    if len(rows) == 1:  # one row (an overview): one line per column
        table = Table(title=f"{q.name} ({group})", title_justify="left", show_header=False)
        table.add_column("column", style="bold")
        table.add_column("value", overflow="fold")
        for column, value in rows[0].items():
            table.add_row(column, _cell(value))
        console.print(table)
        return
    table = Table(title=f"{q.name} ({group}): {count(len(rows), 'row')}", title_justify="left")
    for column in rows[0]:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(_cell(v) for v in row.values()))
    console.print(table)


def _first_sentence(text: str) -> str:
    for end in ("。", "? ", ". ", "？", "："):
        if end in text:
            return text.split(end, 1)[0] + end.strip()
    return text


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return (
            " → ".join(_cell(v) for v in value)
            if value and all(isinstance(v, str) for v in value)
            else json.dumps(value, ensure_ascii=False, default=str)
        )
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)
