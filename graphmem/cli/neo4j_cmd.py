"""`graphmem neo4j ...`: run the local Neo4j Community server (no Docker needed)."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from ._common import ConfigOption, console, load, print_json

app = typer.Typer(
    no_args_is_help=True,
    help="Run a local Neo4j Community server: fetched once from Maven Central, run on Java 17+, "
    "bound to 127.0.0.1, data kept under server.home.",
)

NOT_RUNNING = 3  # `status`'s exit code for a local server that is not running (LSB's "program is not running")

HomeOption = typer.Option(
    None,
    "--home",
    help="Server directory (data/, logs/, conf/, password). Default: server.home (~/.local/share/graphmem/neo4j).",
)


def _command(words: str, home: Path | None, config: str | None) -> str:
    """A `graphmem neo4j ...` command to suggest, with the --home and --config the user gave."""
    import shlex

    extra = [*(["--home", str(home)] if home is not None else []), *(["--config", config] if config else [])]
    return " ".join(["graphmem", "neo4j", words, *map(shlex.quote, extra)])


def _server(
    config: str | None,
    home: Path | None = None,
    port: int | None = None,
    version: str | None = None,
    progress: bool = False,
):
    from ..server import LocalNeo4j

    settings = load(config)
    say = (lambda msg: console.print(msg, highlight=False)) if progress else None
    return settings, LocalNeo4j(settings, home=home, port=port, version=version, progress=say)


@app.command()
def start(
    port: int | None = typer.Option(
        None, "--port", "-p", min=1, max=65535, help="Bolt port on 127.0.0.1 (default: server.bolt_port, 7687)."
    ),
    version: str | None = typer.Option(
        None,
        "--version",
        help="Neo4j version, e.g. 5.26.30 (Java 17+) or 2026.08.1 (Java 21+). Default: server.version.",
    ),
    home: Path | None = HomeOption,
    config: str | None = ConfigOption,
) -> None:
    """Start the server (fetching its jars on first use) and wait until Bolt answers.

    Idempotent: if it already runs, says so and exits 0. The password is taken from NEO4J_PASSWORD / neo4j.password, or generated on first start and stored (0600) in <home>/password.
    """
    settings, srv = _server(config, home, port, version, progress=True)
    t0 = time.monotonic()
    info = srv.start()
    if info.already_running:
        console.print(f"Neo4j is already running (pid {info.pid}) at {info.uri}.", highlight=False)
        if port is not None and info.uri.rsplit(":", 1)[-1] != str(port):
            console.print(
                f"It listens on {info.uri}, not port {port}: run `{_command('stop', home, config)}` first to change "
                "the port.",
                highlight=False,
            )
    else:
        console.print(
            f"Neo4j {info.version} {info.edition} started (pid {info.pid}) in {time.monotonic() - t0:.0f} s.",
            highlight=False,
        )
    pw_from = "NEO4J_PASSWORD / neo4j.password" if settings.neo4j.password else f"{info.password_file} (0600)"
    console.print(
        f"  URI:      {info.uri}\n  user:     {info.user}\n  password: in {pw_from}\n"
        f"  data:     {srv.data_dir}\n  logs:     {_command('logs', home, config)}",
        highlight=False,
    )
    if settings.neo4j.uri and settings.neo4j.uri != info.uri:
        console.print(
            f"note: NEO4J_URI is set to {settings.neo4j.uri}; graphmem commands use that, not this server.",
            highlight=False,
        )


@app.command()
def stop(
    home: Path | None = HomeOption,
    timeout: float = typer.Option(60.0, "--timeout", help="Seconds to wait after SIGTERM before SIGKILL."),
    config: str | None = ConfigOption,
) -> None:
    """Stop the server (SIGTERM, then SIGKILL after --timeout). Data is kept."""
    _, srv = _server(config, home)
    pid = srv.pid()
    if srv.stop(timeout=timeout):
        console.print(f"Neo4j stopped (pid {pid}); data kept in {srv.data_dir}.", highlight=False)
    else:
        console.print(f"Neo4j is not running (home {srv.home}).", highlight=False)


@app.command()
def status(
    as_json: bool = typer.Option(False, "--json", help="Print the status as JSON."),
    home: Path | None = HomeOption,
    config: str | None = ConfigOption,
) -> None:
    """Show whether the server runs: pid, version, edition, URI, size on disk (and of it the transaction logs).

    With NEO4J_URI set (and no --home), checks that server instead and fails with one line if it cannot be reached or refuses the credentials.

    Exit code: 0 running, 3 not running (as an init script's status), 1 an error.
    """
    settings, srv = _server(config, home)
    if settings.neo4j.uri and home is None:
        from ..server import check_connection
        from ..store.driver import CONNECTION_TIMEOUT_S

        n = settings.neo4j
        version, edition = check_connection(
            n.uri, n.user, settings.effective_password(), n.database, timeout=CONNECTION_TIMEOUT_S
        )
        data = {
            "mode": "external",
            "running": True,
            "uri": n.uri,
            "user": n.user,
            "database": n.database,
            "version": version,
            "edition": edition,
        }
        if as_json:
            print_json(data)
        else:
            console.print(
                f"Neo4j {version} {edition} answers at {n.uri} (from NEO4J_URI / neo4j.uri).", highlight=False
            )
        return
    st = srv.status()
    data = {"mode": "local", **st.to_dict()}
    if as_json:
        print_json(data)
        raise typer.Exit(0 if st.running else NOT_RUNNING)
    if st.running:
        what = f"Neo4j {st.version} {st.edition}" if st.version else "Neo4j"
        console.print(f"{what} is running (pid {st.pid}) at {st.uri}.", highlight=False)
        if st.error:
            console.print(f"[yellow]warning:[/yellow] {st.error}", highlight=False)
    else:
        console.print(f"Neo4j is not running (start it with `{_command('start', home, config)}`).", highlight=False)
    console.print(
        f"  home:       {st.home}\n  on disk:    {data['store_size']} ({st.data_dir}), of which "
        f"transaction logs {data['tx_log_size']} (kept: {settings.server.tx_log_retention} beyond recovery)\n"
        f"  password:   {st.password_file}\n  log:        {st.neo4j_log}",
        highlight=False,
    )
    raise typer.Exit(0 if st.running else NOT_RUNNING)


@app.command()
def logs(
    lines: int = typer.Option(50, "-n", "--lines", min=0, help="How many trailing lines to show per log."),
    follow: bool = typer.Option(False, "--follow", "-f", help="Keep printing new lines until Ctrl-C."),
    home: Path | None = HomeOption,
    config: str | None = ConfigOption,
) -> None:
    """Show the tail of the server's neo4j.log and console.log (JVM output)."""
    import sys

    _, srv = _server(config, home)
    files = srv.log_files()
    if not any(p.exists() for p in files):
        console.print(f"No logs yet in {srv.logs_dir} (the server has never started there).", highlight=False)
        if not follow:
            return
    for path, text in srv.logs(lines).items():
        if not path.exists():
            continue
        console.print(f"[bold]==> {path} <==[/bold]", highlight=False)
        for line in text:
            sys.stdout.write(line + "\n")
    sys.stdout.flush()
    if not follow:
        return
    offsets = {p: (p.stat().st_size if p.exists() else 0) for p in files}
    try:
        while True:
            for path in files:
                if not path.exists():
                    continue
                size = path.stat().st_size
                if size < offsets[path]:  # rotated or truncated
                    offsets[path] = 0
                if size > offsets[path]:
                    with open(path, "rb") as fh:
                        fh.seek(offsets[path])
                        chunk = fh.read()
                    offsets[path] += len(chunk)
                    sys.stdout.write(chunk.decode(errors="replace"))
                    sys.stdout.flush()
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
