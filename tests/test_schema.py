"""`graphmem init`: idempotent schema install, refusal of a database built for another model."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from graphmem.errors import SchemaMismatchError
from graphmem.graph import MemoryGraph
from graphmem.store.schema import SCHEMA_VERSION

# under pytest-xdist, alone on the shared server: it drops indexes and rewrites the schema's version
pytestmark = pytest.mark.exclusive


class OtherModel:
    """An embedder with another dimension: stands for a user who switched models."""

    name = "some-512d-model"
    dimension = 512

    def embed(self, texts):
        return [[0.0] * self.dimension for _ in texts]


def _cli_env(settings) -> dict:
    env = dict(os.environ)
    env.update(
        NEO4J_URI=settings.effective_uri(), NEO4J_USER=settings.neo4j.user, NEO4J_PASSWORD=settings.effective_password()
    )
    env.pop("GRAPHMEM_CONFIG", None)
    return env


def test_init_twice_changes_nothing(graph):
    first = graph.init_schema()
    second = graph.init_schema()
    assert not second.changed, second.created
    assert set(first.created + first.existing) - {"meta"} == set(second.existing)
    names = {r["name"]: r for r in graph.store.read("schema_objects")}
    for required in ("memory_embedding", "memory_text", "episode_content", "topic_key", "memory_id"):
        assert required in names
    dims = {r["name"]: r["dimension"] for r in graph.store.read("vector_index_dimensions")}
    assert dims["memory_embedding"] == graph.embedder.dimension == 1280  # the default: e5 384 + bge-en 384 + bge-zh 512
    meta = graph.store.read("meta_read")[0]
    assert meta == {"schema_version": SCHEMA_VERSION, "model": graph.embedder.name, "dimension": 1280}


def test_fulltext_index_uses_cjk_analyzer(graph):
    rows = graph.store.run_text(
        "SHOW FULLTEXT INDEXES YIELD name, options RETURN name, options.indexConfig.`fulltext.analyzer` AS analyzer"
    )
    analyzers = {r["name"]: r["analyzer"] for r in rows}
    assert analyzers["memory_text"] == analyzers["episode_content"] == "cjk"
    assert analyzers["episode_content_english"] == "english"


def test_a_database_from_an_older_graphmem_gets_the_new_indexes(neo4j_settings, graph):
    graph.init_schema()
    graph.store.run_text("DROP INDEX episode_content_english IF EXISTS", write=True)
    graph.store.write("meta_write", schema_version=1, model=graph.embedder.name, dimension=graph.embedder.dimension)
    with MemoryGraph(neo4j_settings, embedder=graph.embedder) as upgraded:
        upgraded.search_memories("t-upgrade", "anything at all", mode="fast")  # first use
        names = {r["name"] for r in upgraded.store.read("schema_objects")}
        meta = upgraded.store.read("meta_read")[0]
    assert "episode_content_english" in names and meta["schema_version"] == SCHEMA_VERSION


def test_processes_starting_together_on_a_database_without_indexes_all_start(neo4j_settings, graph):
    """Two apps (an MCP server and a CLI call, say) that first use a database at the same moment
    both install the schema: the index one of them made first is not an error for the other."""
    from concurrent.futures import ThreadPoolExecutor

    names = ("episode_content_english", "concept_loose_key", "memory_text")
    for _ in range(3):
        for name in names:
            graph.store.run_text(f"DROP INDEX {name} IF EXISTS", write=True)
        graphs = [MemoryGraph(neo4j_settings, embedder=graph.embedder) for _ in range(4)]
        try:
            with ThreadPoolExecutor(len(graphs)) as pool:
                list(pool.map(lambda g: g.init_schema(), graphs))  # re-raises what any of them raised
        finally:
            for g in graphs:
                g.close()
        assert set(names) <= {r["name"] for r in graph.store.read("schema_objects")}


def test_dimension_mismatch_is_refused_naming_both(neo4j_settings, graph):
    other = MemoryGraph(neo4j_settings, embedder=OtherModel())
    try:
        with pytest.raises(SchemaMismatchError) as err:
            other.init_schema()
        message = str(err.value)
        assert "1280" in message and "512" in message
        assert graph.embedder.name in message and "some-512d-model" in message
        assert "graphmem reembed" in message
        with pytest.raises(SchemaMismatchError):
            other.create_memory("t-mismatch", "我", "事件", "吃饭")
    finally:
        other.store.close()
    # nothing was changed by the refused attempt
    assert graph.store.read("meta_read")[0]["dimension"] == 1280
    dims = {r["name"]: r["dimension"] for r in graph.store.read("vector_index_dimensions")}
    assert dims["memory_embedding"] == 1280


def test_cli_init_is_idempotent(neo4j_settings, graph):
    out = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "init", "--json"],
        env=_cli_env(neo4j_settings),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert '"changed": false' in out.stdout


def test_cli_wrong_password_is_one_line(neo4j_settings):
    env = _cli_env(neo4j_settings)
    env["NEO4J_PASSWORD"] = "definitely-wrong"
    out = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "init"], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 1
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), out.stderr
    assert "credentials" in lines[0]
