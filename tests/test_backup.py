"""`graphmem backup` then `graphmem restore` on a local server brings back every memory (and
only them): Neo4j Community's offline dump/load, with the server stopped and started around it."""

from __future__ import annotations

import json

import pytest

from graphmem.config import load_settings
from graphmem.errors import ValidationError
from graphmem.server import LocalNeo4j, free_port
from graphmem.server.launcher import SHORT_LIVED_CONF

# system: starts its own server and restarts it twice (about two minutes)
pytestmark = [pytest.mark.slow, pytest.mark.system]


def test_backup_then_restore_brings_back_every_memory(graph, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from graphmem.cli.app import app
    from graphmem.graph import MemoryGraph

    home, config = tmp_path / "neo4j", tmp_path / "graphmem.toml"
    home.joinpath("conf").mkdir(parents=True)
    home.joinpath("conf", "extra.conf").write_text("db.tx_log.preallocate=false\n" + SHORT_LIVED_CONF)
    config.write_text("# empty\n")
    server = {"home": str(home), "bolt_port": free_port(), "heap": "512m", "pagecache": "64m"}
    env = {
        "GRAPHMEM_CONFIG": str(config),
        "GRAPHMEM_SERVER__HOME": str(home),
        "GRAPHMEM_SERVER__BOLT_PORT": str(server["bolt_port"]),
        "GRAPHMEM_SERVER__HEAP": "512m",
        "GRAPHMEM_SERVER__PAGECACHE": "64m",
    }
    for key in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = load_settings(config, environ=env)
    local = LocalNeo4j(settings)
    local.start()
    runner = CliRunner()
    try:
        with MemoryGraph(settings, embedder=graph.embedder) as g:
            g.init_schema()
            kept = [
                g.create_memory("home", "我", "事实", "住在", "深圳").memory_id,
                g.create_memory("home", "I", "OPINION", "like", "green tea").memory_id,
            ]
        dump = tmp_path / "backups" / "graph.dump"
        out = runner.invoke(app, ["backup", str(dump), "--json"])
        assert out.exit_code == 0, out.output
        report = json.loads(out.stdout)
        assert report["restarted"] and dump.is_file() and report["bytes"] > 0
        assert local.is_running()
        # an existing file is not overwritten without --force
        again = runner.invoke(app, ["backup", str(dump)])
        assert isinstance(again.exception, ValidationError) and "--force" in str(again.exception)

        with MemoryGraph(settings, embedder=graph.embedder) as g:
            later = g.create_memory("home", "我", "事件", "吃了", "火锅").memory_id
            g.forget("home", kept[0])
        # the database exists: restore refuses without --force
        refused = runner.invoke(app, ["restore", str(dump)])
        assert isinstance(refused.exception, ValidationError) and "--force" in str(refused.exception)
        done = runner.invoke(app, ["restore", str(dump), "--force", "--json"])
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["restarted"] and local.is_running()

        with MemoryGraph(settings, embedder=graph.embedder) as g:
            back = {m.id: m for m in g.list_memories("home")}
            assert set(back) == set(kept)  # the later memory is gone
            assert back[kept[0]].status.value == "staged"  # and the forget undone
            hits = g.search_memories("home", "where do I live", max_results=1).results
            assert hits and hits[0].memory_id == kept[0]  # indexes work on the restored store
            assert later not in back
    finally:
        local.stop()


def test_backup_refuses_a_remote_database(neo4j_settings, tmp_path):
    from graphmem.analyst.backup import backup

    settings = neo4j_settings.model_copy(
        update={"neo4j": neo4j_settings.neo4j.model_copy(update={"uri": "neo4j://db.example.com:7687"})}
    )
    with pytest.raises(ValidationError, match="graphmem export"):
        backup(settings, tmp_path / "x.dump")
