"""The file a running ``graphmem serve`` leaves for the CLI on this machine, and how the CLI finds a
server without loading the settings.

``graphmem serve`` writes ``<cache>/serve/<key>.json`` (its URL, pid and a local admin token,
readable by this user only) once it answers, and removes it when it stops; ``key`` names the
database it serves. The CLI reads the same few settings the file is keyed by (the Neo4j URI and
database, ``[http]`` url, token and client) straight from graphmem.toml and the environment:
standard library only, so that a command sent to a server imports neither pydantic nor the
driver. ``tests/test_http_cli.py`` holds this reading equal to ``Settings.effective_uri()``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

from ..paths import user_cache_dir

DEFAULT_BOLT_PORT = 7687  # ServerSettings.bolt_port's default
DEFAULT_DATABASE = "neo4j"  # Neo4jSettings.database's default


class ClientConfig(NamedTuple):
    """What the CLI needs to know to reach a server: the database it would use, and [http]."""

    uri: str
    database: str
    url: str | None = None
    token: str | None = None
    client: str = "auto"


class FoundServer(NamedTuple):
    url: str
    token: str | None
    configured: bool  # http.url (a failure is an error) rather than found on this machine (a fallback)


def _raw_settings(config: str | Path | None, environ: dict[str, str]) -> dict[str, Any]:
    path = config or environ.get("GRAPHMEM_CONFIG")
    if path is None and not Path("graphmem.toml").exists():
        return {}
    try:
        return tomllib.loads(Path(path or "graphmem.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}  # the direct path reports the broken file properly


def client_config(config: str | Path | None = None, environ: dict[str, str] | None = None) -> ClientConfig:
    """The settings the CLI's server path reads, resolved as ``load_settings`` does: the file,
    then NEO4J_* and GRAPHMEM_<SECTION>__<KEY> variables over it."""
    env = dict(os.environ if environ is None else environ)
    data = _raw_settings(config, env)

    def setting(section: str, key: str, *env_names: str) -> Any:
        value = (data.get(section) or {}).get(key)
        for name in (*env_names, f"GRAPHMEM_{section.upper()}__{key.upper()}"):
            if env.get(name) or (name.startswith("GRAPHMEM_") and name in env):
                value = env[name]
        return value

    uri = setting("neo4j", "uri", "NEO4J_URI")
    port = setting("server", "bolt_port") or DEFAULT_BOLT_PORT
    return ClientConfig(
        uri=uri or f"neo4j://127.0.0.1:{port}",
        database=setting("neo4j", "database", "NEO4J_DATABASE") or DEFAULT_DATABASE,
        url=setting("http", "url") or None,
        token=setting("http", "token") or None,
        client=str(setting("http", "client") or "auto"),
    )


def runtime_file(uri: str, database: str) -> Path:
    """Where the server of this database leaves its address."""
    key = hashlib.sha256(f"{uri}|{database}".encode()).hexdigest()[:16]
    return user_cache_dir() / "serve" / f"{key}.json"


def write_runtime(path: Path, *, url: str, token: str, uri: str, database: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the token: this user only
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"url": url, "pid": os.getpid(), "token": token, "uri": uri, "database": database}, fh)
    os.replace(tmp, path)


def remove_runtime(path: Path) -> None:
    """Remove the file if it is still this process's (a newer server may have replaced it)."""
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def _alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: not a server this user started
        return False
    return True


def find_server(config: str | Path | None = None, environ: dict[str, str] | None = None) -> FoundServer | None:
    """The server the CLI should use: ``http.url``, else a live local server of the same database,
    else None (and None whenever ``http.client`` is "off")."""
    cfg = client_config(config, environ)
    if cfg.client == "off":
        return None
    if cfg.url:
        return FoundServer(cfg.url.rstrip("/"), cfg.token, configured=True)
    try:
        found = json.loads(runtime_file(cfg.uri, cfg.database).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("url"), str) or not _alive(found.get("pid")):
        return None
    return FoundServer(found["url"], found.get("token"), configured=False)
