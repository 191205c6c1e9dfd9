"""`graphmem reembed` moves a database from one embedding model to another, on a server of its
own (a model change is database-wide): searches keep working on the old vectors while it runs,
a run killed half-way is finished by the next, and no node is left without a vector."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.config import load_settings
from graphmem.embed import DEFAULT_MODEL, PAIR_MODEL
from graphmem.errors import SchemaMismatchError
from graphmem.graph import MemoryGraph
from graphmem.server import LocalNeo4j, free_port
from graphmem.server.launcher import SHORT_LIVED_CONF
from graphmem.store.reembed import LABELS, reembed

pytestmark = pytest.mark.system  # system: a server of its own, a process killed half-way

GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))
GROUP = "reembed-test"


@pytest.fixture(scope="module")
def server():
    root = Path(tempfile.mkdtemp(prefix="graphmem-reembed-test-"))
    (root / "graphmem.toml").write_text("")
    (root / "neo4j" / "conf").mkdir(parents=True)
    (root / "neo4j" / "conf" / "extra.conf").write_text(
        "db.tx_log.preallocate=false\ndb.tx_log.rotation.size=16M\n" + SHORT_LIVED_CONF
    )
    env = {k: v for k, v in os.environ.items() if k.startswith("GRAPHMEM_SERVER__")}
    settings = load_settings(
        root / "graphmem.toml",
        environ=env,
        server={"home": str(root / "neo4j"), "heap": "512m", "pagecache": "128m", "bolt_port": free_port()},
    )
    srv = LocalNeo4j(settings)
    info = srv.start()
    try:
        yield root, info
    finally:
        srv.stop()
        shutil.rmtree(root, ignore_errors=True)


def _graph(root: Path, info, model: str) -> MemoryGraph:
    settings = load_settings(
        root / "graphmem.toml",
        environ={},
        neo4j={"uri": info.uri, "user": info.user, "password": info.password},
        embedding={"model": model},
    )
    return MemoryGraph(settings)


def _counts(graph: MemoryGraph) -> dict:
    return graph.store.run_text(
        "MATCH (n) WHERE n.embedding IS NOT NULL RETURN count(n) AS with_vector, "
        "count(CASE WHEN n.embedding_next IS NOT NULL THEN 1 END) AS staged, "
        "collect(DISTINCT size(n.embedding)) AS dims"
    )[0]


@pytest.mark.real_models  # both models real: the moved database must still answer by meaning
def test_reembed_moves_a_database_to_another_model_and_survives_a_kill(server):
    """From the default before the Chinese model (e5 + bge-small-en, 768 floats) to today's
    (e5 + bge-small-en + bge-small-zh, 1280)."""
    root, info = server
    old = _graph(root, info, PAIR_MODEL)
    old.init_schema()
    at = datetime(2025, 11, 5, 21, 0, tzinfo=UTC)
    old.create_memory(
        GROUP,
        subject="我",
        memory_type="事件",
        topic="购物",
        object="水果",
        attributes={"时间": "昨天"},
        reference_time=at,
    )
    old.create_memory(
        GROUP,
        subject="我",
        memory_type="事件",
        topic="睡眠",
        object="不好",
        attributes={"时间": "昨晚"},
        reference_time=at,
    )
    old.create_memories(
        GROUP,
        [
            {"subject": "I", "memory_type": "fact", "topic": f"topic {i}", "object": f"thing number {i}"}
            for i in range(60)
        ],
        reference_time=at,
    )
    old.ingest(
        GROUP,
        [
            {"role": "user", "content": "I went hiking with Anna last weekend. " * 6},
            {"role": "assistant", "content": "That sounds lovely!"},
        ],
        session_id="s1",
        reference_time=at,
    )
    before = _counts(old)
    assert before["dims"] == [768] and before["with_vector"] > 100

    new = _graph(root, info, DEFAULT_MODEL)
    with pytest.raises(SchemaMismatchError) as refused:  # init on another model's database refuses
        new.init_schema()
    assert f"model {PAIR_MODEL!r} (dimension 768)" in str(refused.value) and DEFAULT_MODEL in str(refused.value)
    assert "graphmem reembed" in str(refused.value)

    # a run killed half-way (kill -9 of the CLI process)
    config = root / "reembed.toml"
    config.write_text(f'[embedding]\nmodel = "{DEFAULT_MODEL}"\n')
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))},
        "NEO4J_URI": info.uri,
        "NEO4J_USER": info.user,
        "NEO4J_PASSWORD": info.password,
        "GRAPHMEM_CONFIG": str(config),
    }
    proc = subprocess.Popen(
        [GRAPHMEM, "reembed", "--batch", "1", "--json"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None and _counts(old)["staged"] < 20:
            time.sleep(0.1)
        assert proc.poll() is None, f"reembed ended before it could be killed: {proc.stderr.read()!r}"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    half = _counts(old)
    assert 0 < half["staged"] < half["with_vector"]
    # meanwhile the old model's processes search on the old vectors as before
    assert old.search_memories(GROUP, "fruit shopping", reference_time=at).results

    report = reembed(new.store, new.embedder)  # the second run finishes the first
    assert report.resumed and report.swapped
    assert sum(report.embedded.values()) < before["with_vector"]  # it did not start over
    after = _counts(new)
    assert after == {"with_vector": before["with_vector"], "staged": 0, "dims": [new.embedder.dimension]}
    missing = new.store.run_text(
        " UNION ALL ".join(
            f"MATCH (n:{label}) WHERE n.embedding IS NULL RETURN '{label}' AS label, count(n) AS n" for label in LABELS
        )
    )
    assert all(r["n"] == 0 for r in missing), missing
    dims = {r["name"]: r["dimension"] for r in new.store.read("vector_index_dimensions")}
    assert dims and set(dims.values()) == {new.embedder.dimension}
    new.init_schema()  # the database now belongs to the new model
    assert new.search_memories(GROUP, "我昨天买了什么？", reference_time=at).results[0].text.startswith("我 购物 水果")
    with pytest.raises(SchemaMismatchError):  # and the old model is the one refused now
        _graph(root, info, PAIR_MODEL).init_schema()
    old.close()
    new.close()
