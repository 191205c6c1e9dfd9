"""The `graphmem` typer app. Each command family lives in its own module."""

from __future__ import annotations

import typer

from . import (
    admin_cmd,
    bench_cmd,
    cypher_cmd,
    ingest_cmd,
    lifecycle_cmd,
    mcp_cmd,
    memory_cmd,
    neo4j_cmd,
    portability_cmd,
    search_cmd,
    serve_cmd,
)

app = typer.Typer(
    name="graphmem",
    help="graphmem: a knowledge-graph memory engine for LLM agents, on Neo4j.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(neo4j_cmd.app, name="neo4j")
app.add_typer(bench_cmd.app, name="bench")
app.add_typer(cypher_cmd.app, name="cypher")
admin_cmd.register(app)
memory_cmd.register(app)
search_cmd.register(app)
ingest_cmd.register(app)
mcp_cmd.register(app)
serve_cmd.register(app)
portability_cmd.register(app)
lifecycle_cmd.register(app)


def main() -> None:
    from ._common import run_app

    run_app(app)


if __name__ == "__main__":
    main()
