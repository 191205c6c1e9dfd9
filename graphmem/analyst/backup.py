"""Backup and restore of the local server's database (``graphmem backup`` / ``graphmem restore``).

Neo4j Community dumps and loads a database only while it is offline, with
``neo4j-admin database dump|load`` (``org.neo4j.cli.AdminTool``, in the jars the launcher
fetched). So: stop the server if it runs, dump or load, start it again, whatever happened.
A backup is the whole database (every group), byte for byte; to move one group, use
``graphmem export`` / ``graphmem import``.

Which server: the one in ``home`` (``--home``); else the local server listening on ``port``
(``--port``) or on the port of a loopback ``NEO4J_URI``; else the configured ``server.home``.
A server is never stopped unless it is the one pointed at: a port no local graphmem server
listens on, a home whose server listens elsewhere, or a remote URI is refused.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from ..config import Settings
from ..errors import ServerError, ValidationError

ADMIN_TIMEOUT_S = 3600  # a dump or load of a large store can take a while


@dataclass
class BackupReport:
    path: str
    database: str
    bytes: int
    seconds: float
    restarted: bool  # the server was running and was started again


def default_backup_path(settings: Settings) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return Path(settings.server.home).expanduser() / "backups" / f"{settings.neo4j.database}-{stamp}.dump"


def _admin(local, args: list[str]) -> None:
    from ..server.fetch import fetch_jars
    from ..server.launcher import ADMIN_TOOL, _one_line

    java = local.find_java()
    lib = fetch_jars(local.server.cache_dir, local.version, java, progress=local.progress)
    local.conf_dir.mkdir(parents=True, exist_ok=True)
    if not local.conf_file.is_file():
        local._write_conf(local.server.bolt_port)
    cmd = [str(java.executable), "-Xmx512m", *local._class_sharing(java), "-cp", f"{lib}/*", ADMIN_TOOL, *args]
    try:
        out = subprocess.run(
            cmd, capture_output=True, text=True, env=local._env(java), cwd=local.home, timeout=ADMIN_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise ServerError(f"neo4j-admin {' '.join(args[:2])} took longer than {ADMIN_TIMEOUT_S} s") from None
    if out.returncode != 0:
        raise ServerError(
            f"neo4j-admin {' '.join(args[:2])} failed: "
            f"{_one_line(out.stderr or out.stdout) or f'exit {out.returncode}'}"
        )


def _offline(local, work) -> bool:
    """Run ``work()`` with the server stopped; start it again if it was running. True if restarted."""
    running = local.is_running()
    if running:
        local.stop()
    try:
        work()
    finally:
        if running:
            local.start()
    return running


def running_servers() -> dict[int, Path]:
    """The local Neo4j servers graphmem runs on this machine that are running: Bolt port -> home."""
    from ..server.launcher import ENTRY_POINTS, LocalNeo4j, _cmdline

    found: dict[int, Path] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        args = _cmdline(int(entry.name))
        homes = [a.split("=", 1)[1] for a in args if a.startswith("--home-dir=")]
        if homes and any(a in ENTRY_POINTS for a in args):
            local = LocalNeo4j(home=homes[0])
            found[local.port] = local.home
    return found


def _loopback_port(uri: str) -> int | None:
    """The port of a URI that names this machine, None for another host."""
    parts = urlsplit(uri)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return None
    return parts.port or 7687


def _local(settings: Settings, home: str | Path | None = None, port: int | None = None):
    """The local server a backup or restore acts on (see the module doc); refuses anything else."""
    from ..server import LocalNeo4j

    if home is None and port is None and settings.neo4j.uri:
        port = _loopback_port(settings.neo4j.uri)
        if port is None:
            raise ValidationError(
                f"backup and restore work on a local server; NEO4J_URI points at {settings.neo4j.uri}: "
                f"use `graphmem export` for a remote database (or pass --home of a local server)",
                field="uri",
            )
    if home is None and port is not None:
        servers = running_servers()
        if port not in servers:
            raise ValidationError(
                f"no local graphmem server listens on port {port} (running: "
                f"{', '.join(f'{p} ({h})' for p, h in sorted(servers.items())) or 'none'}): pass --home of "
                f"the server to back up or restore (a stopped server is named by its home)",
                field="port",
            )
        home = servers[port]
    local = LocalNeo4j(settings, home=home)
    if port is not None and local.is_running() and local.port != port:
        raise ValidationError(
            f"the server in {local.home} listens on port {local.port}, not {port}: nothing was stopped; "
            f"pass the home and port of the same server",
            field="port",
        )
    # restarted on the port it runs on (a stopped one on --port, else the configured one)
    return LocalNeo4j(local.settings, port=local.port if local.is_running() else port)


def backup(
    settings: Settings,
    path: str | Path | None = None,
    *,
    force: bool = False,
    home: str | Path | None = None,
    port: int | None = None,
) -> BackupReport:
    """Dump a local server's database to ``path`` (default: <home>/backups/<db>-<time>.dump);
    which server: see the module doc."""
    local = _local(settings, home, port)
    settings = local.settings
    database = settings.neo4j.database
    target = Path(path).expanduser() if path else default_backup_path(settings)
    if target.is_dir():
        target = target / default_backup_path(settings).name
    if target.exists() and not force:
        raise ValidationError(
            f"{target} already exists: pass --force to overwrite it, or name another file", field="path"
        )
    if not (local.data_dir / "databases" / database).is_dir():
        raise ServerError(
            f"the local server in {local.home} has no database {database!r} yet: "
            f"start it once with `graphmem neo4j start`"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".graphmem-dump-") as tmp:

        def work() -> None:
            _admin(local, ["database", "dump", database, f"--to-path={tmp}", "--overwrite-destination=true"])

        restarted = _offline(local, work)
        shutil.move(str(Path(tmp) / f"{database}.dump"), target)
    return BackupReport(
        path=str(target),
        database=database,
        bytes=target.stat().st_size,
        seconds=time.monotonic() - t0,
        restarted=restarted,
    )


def restore(
    settings: Settings,
    path: str | Path,
    *,
    force: bool = False,
    home: str | Path | None = None,
    port: int | None = None,
) -> BackupReport:
    """Load a dump into a local server's database, replacing it (only with ``force`` when the
    database already exists, which it does after the server's first start); which server: see
    the module doc."""
    local = _local(settings, home, port)
    database = settings.neo4j.database
    source = Path(path).expanduser()
    if not source.is_file():
        raise ValidationError(f"{source} does not exist: give a file written by `graphmem backup`", field="path")
    exists = (local.data_dir / "databases" / database).is_dir()
    if exists and not force:
        raise ValidationError(
            f"the local server's database {database!r} in {local.data_dir} exists and would be "
            f"replaced by {source.name}: pass --force to overwrite it (every group in it)",
            field="force",
        )
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=".graphmem-load-", dir=local.home) as tmp:
        staged = Path(tmp) / f"{database}.dump"
        try:
            staged.hardlink_to(source)
        except OSError:
            shutil.copyfile(source, staged)

        def work() -> None:
            _admin(local, ["database", "load", database, f"--from-path={tmp}", "--overwrite-destination=true"])

        restarted = _offline(local, work)
    return BackupReport(
        path=str(source),
        database=database,
        bytes=source.stat().st_size,
        seconds=time.monotonic() - t0,
        restarted=restarted,
    )
