"""`graphmem serve`: the memory as an HTTP API (graphmem/http/), which this machine's CLI also uses."""

from __future__ import annotations

from typing import Any

import typer

from ._common import ConfigOption, err_console


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: str | None = typer.Option(
        None, "--host", help="Bind address (default http.host, 127.0.0.1); anything but loopback needs a token."
    ),
    port: int | None = typer.Option(None, "--port", help="Port (default http.port, 8766)."),
    group: str | None = typer.Option(
        None,
        "--group",
        "-g",
        help="The group of requests without a token, and of --token (default http.group, 'default').",
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="GRAPHMEM_SERVE_TOKEN",
        help="A bearer token for --group (at least 16 characters); [http] tokens in the config holds more.",
    ),
    admin_token: str | None = typer.Option(
        None,
        "--admin-token",
        help="A bearer token that may name any group (X-Graphmem-Group header) and delete groups "
        "(default http.admin_token, GRAPHMEM_HTTP__ADMIN_TOKEN).",
    ),
    config: str | None = ConfigOption,
) -> None:
    """Serve the memory over HTTP: every call of the Python API, OpenAPI schema at /openapi.json,
    interactive docs at /docs. While it runs, `graphmem search`, `add`, `show`, `stats` and
    `ingest` on this machine go through it (no model to load: they answer at once).

    Example: graphmem serve            then: curl -s localhost:8766/v1/search -d '{"query": "我住哪？"}'
    Example (other machines): graphmem serve --host 0.0.0.0 --token "$(openssl rand -hex 24)" -g alice
    """
    import secrets

    from ..http.auth import Gate, is_loopback  # no FastAPI needed yet
    from ._common import load

    settings = load(config)
    h = settings.http
    host = host or h.host
    port = port or h.port
    group = group or h.group
    tokens = dict(h.tokens)
    if token:
        tokens[token] = group
    local_token = secrets.token_urlsafe(32)  # this machine's CLI: written to a file only this user reads
    admins = [t for t in (admin_token or h.admin_token,) if t]
    gate = Gate(host=host, group=group, tokens=tokens, admin_tokens=admins, local_token=local_token)
    try:
        import uvicorn

        from ..http.app import create_app
    except ModuleNotFoundError as exc:
        from ..errors import MissingExtraError

        raise MissingExtraError("graphmem serve", "http", exc.name) from None
    from ..http.runtime import remove_runtime, runtime_file, write_runtime
    from ._common import embedder_loading

    embedder = embedder_loading(settings)
    from ..graph import MemoryGraph

    graph = MemoryGraph(settings, embedder=embedder)
    uri, database = settings.effective_uri(), settings.neo4j.database
    where = runtime_file(uri, database)
    local_url = f"http://{host if is_loopback(host) else '127.0.0.1'}:{port}"
    if ":" in host and is_loopback(host):  # ::1
        local_url = f"http://[{host}]:{port}"

    graph.ensure_schema()  # a stopped database or another model fails here, in one line
    graph.embedder.embed(["warm up"])  # the first request does not wait for the model
    scope = "the group of each token" if tokens else f"group {group!r}"

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.should_exit:  # the port is taken: uvicorn said so
                return
            write_runtime(where, url=local_url, token=local_token, uri=uri, database=database)
            err_console.print(
                f"graphmem HTTP API on http://{host}:{port} ({scope}), docs at /docs; "
                "this machine's CLI now goes through it. Ctrl-C stops it.",
                highlight=False,
                soft_wrap=True,
            )

        async def shutdown(self, sockets: Any = None) -> None:
            # here, not after run(): uvicorn ends the process with the signal that stopped it
            remove_runtime(where)
            await super().shutdown(sockets)

    app = create_app(graph, gate, version=_version())
    try:
        Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")).run()
    finally:
        remove_runtime(where)
        graph.close()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("graphmem")
    except PackageNotFoundError:
        return "0"
