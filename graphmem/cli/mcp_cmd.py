"""`graphmem mcp`: serve the memory to MCP clients (Claude Desktop, Cursor, VS Code ...)."""

from __future__ import annotations

import logging
import threading

import typer

from ._common import ConfigOption, err_console


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)


def mcp(
    group: str = typer.Option(
        "default", "--group", "-g", help="The group (tenant) every call is scoped to; the model cannot choose another."
    ),
    tools: str = typer.Option(
        "all",
        "--tools",
        help="'core': the four core tools (create_memory, link_memories, "
        "search_memories, update_memory_importance); 'all': also forget_memory, "
        "ingest_conversation, get_memory, memory_stats.",
    ),
    http: bool = typer.Option(False, "--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio."),
    host: str = typer.Option("127.0.0.1", "--host", help="HTTP bind address; anything but loopback needs --token."),
    port: int = typer.Option(8765, "--port", help="HTTP port."),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="GRAPHMEM_MCP_TOKEN",
        help="Bearer token HTTP clients must send (Authorization: Bearer ...).",
    ),
    group_header: str | None = typer.Option(
        None,
        "--group-header",
        help="HTTP only: take the group from this request header "
        "(e.g. X-Graphmem-Group) instead of --group; requests "
        "without it are refused.",
    ),
    session: str | None = typer.Option(None, "--session", help="Session id recorded with what is written."),
    config: str | None = ConfigOption,
) -> None:
    """Run graphmem as an MCP server: over stdio (default, for a client that starts it) or streamable HTTP.

    Example (Claude Desktop / VS Code start it themselves): graphmem mcp --group alice
    Example (HTTP): graphmem mcp --http --port 8765 --group alice
    """
    from ..errors import ConfigError
    from ..integrations.mcp import build_server, http_app, run_http, serve_stdio  # MissingExtraError without it
    from ._common import open_graph

    if group_header and not http:
        raise ConfigError("--group-header only works with --http: over stdio the group is --group")
    graph = open_graph(config)
    warm_up = threading.Thread(target=_warm_up, args=(graph,), name="graphmem-warm-up", daemon=True)
    try:
        server = build_server(graph, group_id=group, tools=tools, group_header=group_header, session_id=session)
        if http:
            http_app(server, host=host, token=token)  # refuses an open bind before any work
        warm_up.start()
        if http:
            scope = f"group from header {group_header}" if group_header else f"group {group}"
            err_console.print(f"graphmem MCP on http://{host}:{port}/mcp ({scope}, tools: {tools})")
            run_http(server, host=host, port=port, token=token)
        else:
            import anyio

            anyio.run(serve_stdio, server)
    finally:
        if warm_up.is_alive():  # native model loading torn down mid-way aborts the process
            warm_up.join(timeout=60)
        graph.close()


def _warm_up(graph) -> None:
    """Connect, check the schema and load the embedding model while the client is still starting,
    so the first tool call does not wait seconds for them. A failure here is logged; the call
    that needs the database reports it to the client."""
    try:
        graph.ensure_schema()
        graph.embedder.embed(["warm up"])
    except Exception as exc:  # noqa: BLE001 - the first real call reports the problem properly
        logging.getLogger("graphmem.mcp").warning("warm-up failed: %s", exc)
