"""Shared fixtures: one real Neo4j for the whole session (never a mock).

Which Neo4j, in this order:
1. ``NEO4J_URI`` is set: that server, with ``NEO4J_USER`` / ``NEO4J_PASSWORD`` / ``NEO4J_DATABASE``;
2. otherwise a local server (``graphmem.server.LocalNeo4j``) on a free port with a throw-away
   home, heap 1g, pagecache 256m, stopped and deleted at session end; the jar cache
   (``server.cache_dir``, ``GRAPHMEM_SERVER__CACHE_DIR``) is reused across runs;
3. if Java/Maven are missing and a Docker engine answers: testcontainers' Neo4jContainer.

Settings never read a developer's ./graphmem.toml: they are built from an empty config
file plus the variables above and ``GRAPHMEM_SERVER__*`` (e.g. ``GRAPHMEM_SERVER__VERSION``).

Fixtures:
- ``neo4j_settings`` (session): a ``graphmem.config.Settings`` pointing at that server;
- ``make_settings`` (session): ``make_settings(**sections)`` -> Settings for the same server
  with section overrides, e.g. ``make_settings(retrieval={"seed_k": 5})``;
- ``neo4j_driver`` (session): a ``neo4j.Driver`` for it, closed at the end;
- ``group_id`` (function): a fresh tenant id per test, so tests never see each other's data.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from graphmem.config import Settings, load_settings
from graphmem.server import LocalNeo4j, MissingToolError, check_connection, free_port

# Smaller transaction-log preallocation keeps throw-away homes small (Neo4j's default is 256 MB
# per database); the rest of the server configuration is the production one.
TEST_EXTRA_CONF = "db.tx_log.preallocate=false\ndb.tx_log.rotation.size=16M\n"


def _environ_for_tests() -> dict[str, str]:
    keep = ("NEO4J_URI", "NEO4J_USER", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")
    return {k: v for k, v in os.environ.items() if k in keep or k.startswith("GRAPHMEM_SERVER__")}


def _docker_available() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:  # noqa: BLE001 - any failure means: no usable engine
        return False


@pytest.fixture(scope="session")
def _session_tmp() -> Path:
    path = Path(tempfile.mkdtemp(prefix="graphmem-tests-"))
    (path / "graphmem.toml").write_text("# empty: tests must not read a developer's config\n")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def _neo4j_overrides(_session_tmp: Path) -> dict:
    """The ``neo4j``/``server`` setting sections that point at the session's server."""
    environ = _environ_for_tests()
    config = _session_tmp / "graphmem.toml"
    if environ.get("NEO4J_URI"):
        s = load_settings(config, environ=environ)
        check_connection(s.neo4j.uri, s.neo4j.user, s.neo4j.password, s.neo4j.database)
        yield {"neo4j": s.neo4j.model_dump()}
        return

    home = _session_tmp / "neo4j"
    home.joinpath("conf").mkdir(parents=True)
    home.joinpath("conf", "extra.conf").write_text(TEST_EXTRA_CONF)
    server = {"home": str(home), "bolt_port": free_port(), "heap": "1g", "pagecache": "256m"}
    settings = load_settings(config, environ=environ, server=server)
    local = LocalNeo4j(settings)
    try:
        info = local.start()
    except MissingToolError:
        if not _docker_available():
            raise
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer("neo4j:5.26-community") as container:
            uri = container.get_connection_url().replace("bolt://", "neo4j://", 1)
            yield {"neo4j": {"uri": uri, "user": container.username, "password": container.password}}
        return
    try:
        yield {
            "neo4j": {"uri": info.uri, "user": info.user, "password": info.password},
            "server": {**server, "version": local.version},
        }
    finally:
        local.stop()


@pytest.fixture(scope="session")
def make_settings(_session_tmp: Path, _neo4j_overrides: dict):
    """Factory: ``make_settings(**sections)`` -> Settings for the session's Neo4j."""

    def make(**sections: dict) -> Settings:
        merged = {k: dict(v) for k, v in _neo4j_overrides.items()}
        for section, values in sections.items():
            merged.setdefault(section, {}).update(values)
        return load_settings(_session_tmp / "graphmem.toml", environ={}, **merged)

    return make


@pytest.fixture(scope="session")
def neo4j_settings(make_settings) -> Settings:
    """Settings whose ``neo4j.uri/user/password`` reach a real, running Neo4j."""
    return make_settings()


@pytest.fixture(scope="session")
def neo4j_driver(neo4j_settings: Settings):
    """A ``neo4j.Driver`` (routing, ``neo4j://``) for the session's server."""
    from neo4j import GraphDatabase

    n = neo4j_settings.neo4j
    driver = GraphDatabase.driver(n.uri, auth=(n.user, n.password))
    yield driver
    driver.close()


@pytest.fixture
def group_id() -> str:
    """A unique tenant id for one test."""
    return "t-" + uuid.uuid4().hex[:12]


@pytest.fixture(scope="session")
def graph(neo4j_settings: Settings):
    """One MemoryGraph for the session, schema installed; tests isolate themselves by group_id."""
    from graphmem.graph import MemoryGraph

    g = MemoryGraph(neo4j_settings)
    g.init_schema()
    yield g
    g.close()


@pytest.fixture
def async_graph(graph):
    """The async API over the session's MemoryGraph (same implementation, awaited)."""
    from graphmem.graph import AsyncMemoryGraph

    a = AsyncMemoryGraph.__new__(AsyncMemoryGraph)
    a.sync = graph
    return a


@pytest.fixture
def cli_env(neo4j_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Environment for running the CLI in-process against the test server, from a directory
    whose graphmem.toml is empty (a developer's config is never read)."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "graphmem.toml"
    config.write_text("# empty: only the environment below\n")
    n = neo4j_settings.neo4j
    return {"NEO4J_URI": n.uri, "NEO4J_USER": n.user, "NEO4J_PASSWORD": n.password, "GRAPHMEM_CONFIG": str(config)}


@pytest.fixture
def cli_process(neo4j_settings, tmp_path):
    """``cli_process(*args, stdin=None, ok=True)``: run `python -m graphmem.cli.app ARGS` as a user would,
    against the test server, in a directory without a graphmem.toml; ``ok`` asserts exit code 0."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    n = neo4j_settings.neo4j
    env.update(NEO4J_URI=n.uri, NEO4J_USER=n.user, NEO4J_PASSWORD=n.password or "", NEO4J_DATABASE=n.database)

    def run(*args: str, stdin: str | None = None, ok: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(
            [sys.executable, "-m", "graphmem.cli.app", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=300,
        )
        if ok:
            assert proc.returncode == 0, proc.stderr
        return proc

    return run
