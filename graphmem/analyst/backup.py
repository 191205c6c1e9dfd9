"""Backup and restore of the local server's database (``graphmem backup`` / ``graphmem restore``).

Neo4j Community dumps and loads a database only while it is offline, with
``neo4j-admin database dump|load`` (``org.neo4j.cli.AdminTool``, in the jars the launcher
fetched). So: stop the server if it runs, dump or load, start it again, whatever happened.
A backup is the whole database (every group), byte for byte; to move one group, use
``graphmem export`` / ``graphmem import``.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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
    cmd = [str(java.executable), "-Xmx512m", "-cp", f"{lib}/*", ADMIN_TOOL, *args]
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


def _local(settings: Settings):
    from ..server import LocalNeo4j

    if settings.neo4j.uri:
        raise ValidationError(
            f"backup and restore work on the local server (server.home "
            f"{settings.server.home}); NEO4J_URI points at {settings.neo4j.uri}: unset it, or "
            f"use `graphmem export` for a remote database",
            field="uri",
        )
    return LocalNeo4j(settings)


def backup(settings: Settings, path: str | Path | None = None, *, force: bool = False) -> BackupReport:
    """Dump the local server's database to ``path`` (default: <server.home>/backups/<db>-<time>.dump)."""
    local = _local(settings)
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


def restore(settings: Settings, path: str | Path, *, force: bool = False) -> BackupReport:
    """Load a dump into the local server's database, replacing it (only with ``force`` when the
    database already exists, which it does after the server's first start)."""
    local = _local(settings)
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
