"""The local Neo4j server, its probe and its CLI, against real server processes (no mocks).

One extra server (own home and port, not the session one) serves most tests; the last test
stops and restarts it to show that data survives.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.config import load_settings
from graphmem.errors import ConfigError, Neo4jUnavailableError, ServerError
from graphmem.server import (
    LocalNeo4j,
    MissingToolError,
    PortInUseError,
    check_connection,
    fetch_jars,
    find_java,
    free_port,
    required_java_major,
)
from graphmem.server.launcher import CHECKPOINT_INTERVAL, SHORT_LIVED_CONF

GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))
# small throw-away homes; flags for the JVM (server.jvm.additional, as Neo4j's own launcher reads
# them): the JIT's first tier alone, so that the server starts on less CPU
TEST_EXTRA_CONF = "db.tx_log.preallocate=false\ndb.tx_log.rotation.size=16M\n" + SHORT_LIVED_CONF


def _settings(home: Path, **server):
    (home / "graphmem.toml").write_text("")
    env = {k: v for k, v in os.environ.items() if k.startswith("GRAPHMEM_SERVER__")}
    return load_settings(
        home / "graphmem.toml",
        environ=env,
        server={"home": str(home / "neo4j"), "heap": "512m", "pagecache": "128m", **server},
    )


def _clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("NEO4J_") and (not k.startswith("GRAPHMEM_") or k == "GRAPHMEM_SERVER__CACHE_DIR")
    }
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def extra():
    """A second local server: (LocalNeo4j, ConnectionInfo). Stopped and deleted at the end."""
    root = Path(tempfile.mkdtemp(prefix="graphmem-server-test-"))
    settings = _settings(root, bolt_port=free_port())
    (root / "neo4j" / "conf").mkdir(parents=True)
    (root / "neo4j" / "conf" / "extra.conf").write_text(TEST_EXTRA_CONF)
    srv = LocalNeo4j(settings)
    try:
        yield srv, srv.start()
    finally:
        srv.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.system
def test_start_reports_and_status(extra):
    srv, info = extra
    assert not info.already_running
    assert info.uri == f"neo4j://127.0.0.1:{srv.server.bolt_port}"
    assert info.password and info.password == srv.password_file.read_text().strip()
    assert stat.S_IMODE(srv.password_file.stat().st_mode) == 0o600
    st = srv.status()
    assert st.running and st.pid == info.pid == int(srv.pid_file.read_text())
    assert st.version.startswith(srv.version.rsplit(".", 1)[0]) and st.version.startswith("5.26")
    assert st.edition == "community"
    assert st.store_bytes > 0 and st.error is None
    # the transaction logs are bounded by graphmem's retention, and status says how much they take
    conf = srv.conf_file.read_text()
    assert f"db.tx_log.rotation.retention_policy={srv.settings.server.tx_log_retention}" in conf
    assert f"db.checkpoint.interval.time={CHECKPOINT_INTERVAL}" in conf
    # extra.conf (the tests' smaller log files) replaces graphmem's line instead of declaring it twice
    assert conf.count("db.tx_log.rotation.size=") == 1 and "db.tx_log.rotation.size=16M" in conf
    assert 0 < st.tx_log_bytes <= st.store_bytes
    assert "Bolt enabled" in "\n".join(srv.logs(200)[srv.neo4j_log])
    # a server.jvm.additional line of extra.conf reaches the JVM's command line, after graphmem's flags
    cmdline = Path(f"/proc/{st.pid}/cmdline")
    if cmdline.exists():
        args = cmdline.read_bytes().decode().split("\0")
        assert "-XX:TieredStopAtLevel=1" in args and args.index("-XX:TieredStopAtLevel=1") > args.index("-XX:+UseG1GC")


@pytest.mark.system
def test_binds_loopback_only(extra):
    srv, _ = extra
    conf = srv.conf_file.read_text()
    assert "server.http.enabled=false" in conf and "server.default_listen_address=127.0.0.1" in conf
    tables = [p for p in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")) if p.exists()]
    if not tables:
        pytest.skip("needs Linux /proc/net/tcp")
    port_hex = f"{srv.server.bolt_port:04X}"
    listening = {
        line.split()[1].rsplit(":", 1)[0]
        for table in tables
        for line in table.read_text().splitlines()[1:]
        if line.split()[3] == "0A" and line.split()[1].endswith(":" + port_hex)
    }
    loopback = {"0100007F", "0000000000000000FFFF00000100007F"}  # 127.0.0.1, ::ffff:127.0.0.1
    assert listening and listening <= loopback, listening


@pytest.mark.system
def test_start_twice_is_idempotent(extra):
    srv, info = extra
    again = LocalNeo4j(srv.settings).start()
    assert again.already_running and again.pid == info.pid and again.uri == info.uri
    assert again.version.startswith("5.26")


@pytest.mark.system
def test_port_in_use_names_the_port(extra, tmp_path):
    srv, _ = extra
    port = srv.server.bolt_port
    other = LocalNeo4j(_settings(tmp_path, bolt_port=port))
    with pytest.raises(PortInUseError) as exc:
        other.start()
    msg = str(exc.value)
    assert f"port {port}" in msg and "--port" in msg and "\n" not in msg
    assert not other.is_running()


@pytest.mark.system
def test_wrong_password_is_one_line(extra):
    srv, info = extra
    with pytest.raises(Neo4jUnavailableError) as exc:
        check_connection(info.uri, "neo4j", "not-the-password", password_file=srv.password_file)
    msg = str(exc.value)
    assert "refused the credentials for user 'neo4j'" in msg and str(srv.password_file) in msg
    assert "\n" not in msg
    assert check_connection(info.uri, info.user, info.password) == (srv.status().version, "community")


def test_unreachable_uri_is_one_line():
    uri = f"neo4j://127.0.0.1:{free_port()}"
    with pytest.raises(Neo4jUnavailableError) as exc:
        check_connection(uri, "neo4j", "whatever")
    msg = str(exc.value)
    assert msg.startswith(f"cannot reach Neo4j at {uri}: connection refused") and "\n" not in msg
    assert "graphmem neo4j start" in msg
    with pytest.raises(ConfigError):
        check_connection("http://127.0.0.1:7474", "neo4j", "x")


@pytest.mark.system
def test_missing_java_is_a_clear_error(tmp_path):
    with pytest.raises(MissingToolError) as exc:
        find_java(None, 17, environ={"PATH": str(tmp_path)}, search_dirs=[])
    assert str(exc.value).startswith("Java 17+ not found: install OpenJDK 17")
    assert "GRAPHMEM_SERVER__JAVA_HOME" in str(exc.value)

    missing = tmp_path / "no-such-jdk"
    srv = LocalNeo4j(_settings(tmp_path, java_home=str(missing), bolt_port=free_port()))
    with pytest.raises(ServerError) as exc:
        srv.start()
    assert str(missing) in str(exc.value) and "\n" not in str(exc.value)
    assert not srv.is_running()


def test_calendar_versions_need_java_21():
    assert required_java_major("5.26.30") == 17
    assert required_java_major("2026.08.1") == 21
    try:
        java = find_java(None, 21)
    except MissingToolError as exc:
        assert str(exc).startswith("Java 21+ not found")
    else:
        assert java.major >= 21 and java.executable.is_file()


def test_fetch_without_mvn_is_a_clear_error(tmp_path):
    java = find_java(None, 17)
    with pytest.raises(MissingToolError) as exc:
        fetch_jars(tmp_path, "5.26.30", java, environ={"PATH": str(tmp_path)})
    assert "Maven (mvn) not found" in str(exc.value) and "apt-get install maven" in str(exc.value)


def test_jvm_flags_of_extra_conf_follow_graphmems_own(tmp_path):
    """``server.jvm.additional`` lines of conf/extra.conf are flags for the JVM, one a line, in their
    order; a commented line or one without a value gives none."""
    srv = LocalNeo4j(_settings(tmp_path, bolt_port=free_port()))
    conf = tmp_path / "neo4j" / "conf"
    conf.mkdir(parents=True)
    assert srv._jvm_additional() == []  # no extra.conf
    (conf / "extra.conf").write_text(
        "server.jvm.additional=-XX:TieredStopAtLevel=1\n"
        "# server.jvm.additional=-Xlog:gc\n"
        "server.jvm.additional=\n"
        "db.tx_log.preallocate=false\n"
        " server.jvm.additional = -Dfoo=a=b \n"
    )
    assert srv._jvm_additional() == ["-XX:TieredStopAtLevel=1", "-Dfoo=a=b"]
    # a setting of extra.conf replaces graphmem's own line; a commented one does not
    (conf / "extra.conf").write_text("db.tx_log.rotation.size=16M\n# db.checkpoint.interval.time=1m\n")
    srv._write_conf(free_port())
    settings = [ln.split("=", 1)[0] for ln in srv.conf_file.read_text().splitlines() if "=" in ln]
    assert settings.count("db.tx_log.rotation.size") == 1 and "db.tx_log.rotation.size=16M" in srv.conf_file.read_text()
    assert settings.count("db.checkpoint.interval.time") == 1


def test_cli_help():
    from graphmem.cli.neo4j_cmd import app

    runner = CliRunner()
    for cmd in ("start", "stop", "status", "logs"):
        result = runner.invoke(app, [cmd, "--help"])
        assert result.exit_code == 0, result.output
        assert "Usage" in result.output and len(result.output.splitlines()) > 5


def test_cli_status_unreachable_is_one_line(tmp_path):
    port = free_port()
    res = subprocess.run(
        [GRAPHMEM, "neo4j", "status"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_clean_env(NEO4J_URI=f"neo4j://127.0.0.1:{port}", NEO4J_PASSWORD="x"),
        timeout=120,
    )
    assert res.returncode == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and str(port) in lines[0], res.stderr


@pytest.mark.system
def test_cli_against_running_server(extra, tmp_path):
    srv, info = extra
    env = _clean_env(GRAPHMEM_SERVER__HOME=str(srv.home))
    res = subprocess.run(
        [GRAPHMEM, "neo4j", "status", "--json"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert res.returncode == 0, res.stderr
    import json

    data = json.loads(res.stdout)
    assert data["running"] and data["pid"] == info.pid and data["uri"] == info.uri
    assert data["edition"] == "community" and data["version"].startswith("5.26")

    res = subprocess.run(
        [GRAPHMEM, "neo4j", "start"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert res.returncode == 0, res.stderr
    assert "already running" in res.stdout and info.uri in res.stdout

    res = subprocess.run(
        [GRAPHMEM, "neo4j", "logs", "-n", "5"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert res.returncode == 0 and "neo4j.log" in res.stdout


def test_session_fixtures(neo4j_settings, neo4j_driver, group_id):
    """conftest's session server (or NEO4J_URI) works through the settings and the driver."""
    n = neo4j_settings.neo4j
    assert n.uri.startswith("neo4j://") and n.password
    version, edition = check_connection(n.uri, n.user, n.password, n.database)
    assert version and edition
    assert group_id.startswith("t-") and len(group_id) == 14
    records, _, _ = neo4j_driver.execute_query("RETURN $g AS g", g=group_id, database_=n.database)
    assert records[0]["g"] == group_id


def _logged_at(line: str) -> datetime:
    """The time at the head of a neo4j.log line (``2026-12-03 03:40:40.726+0000 INFO  ...``)."""
    return datetime.strptime(line[:28], "%Y-%m-%d %H:%M:%S.%f%z")


@pytest.mark.system
def test_stop_then_start_keeps_data(extra):
    """Last on purpose: restarts the module's server."""
    srv, info = extra
    import neo4j

    with neo4j.GraphDatabase.driver(info.uri, auth=info.auth) as driver:
        driver.execute_query("CREATE (:Probe {key: $k})", k="kept", database_="neo4j")
    assert srv.stop() is True
    assert not srv.is_running() and not srv.pid_file.exists()
    # the stop does not sit out Bolt's idle waits (5 s for connections, 5 s for its threads to fall
    # quiet) after the databases have stopped: the server's own log, from stopping to stopped
    log = srv.logs(400)[srv.neo4j_log]
    stopping = [_logged_at(line) for line in log if line.rstrip().endswith("INFO  Stopping...")]
    stopped = [_logged_at(line) for line in log if line.rstrip().endswith("INFO  Stopped.")]
    assert stopping and stopped and (stopped[-1] - stopping[-1]).total_seconds() < 3, log[-10:]
    assert srv.stop() is False
    assert srv.status().running is False

    # a clean stop leaves the classes the server loaded in an archive of the jar cache (unless one of
    # this version and JDK was there already), which the next JVM maps instead of loading them again
    archive = srv.class_archive(srv.find_java())
    assert archive.is_file() and not list(srv.home.glob("*.jsa.part"))

    again = srv.start()
    assert not again.already_running and again.password == info.password
    with neo4j.GraphDatabase.driver(again.uri, auth=again.auth) as driver:
        records, _, _ = driver.execute_query("MATCH (p:Probe) RETURN p.key AS key", database_="neo4j")
    assert [r["key"] for r in records] == ["kept"]
    maps = Path(f"/proc/{again.pid}/maps")
    if maps.exists():
        assert str(archive) in maps.read_text()  # the JVM took it (one it refuses is not mapped)
