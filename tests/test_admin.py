"""Day-two administration against the real database: deleting a group whole (every label, nothing
of another group, resumable after kill -9), the one group id rule (legacy ids listed and renamed),
and the operator commands that do it (`graphmem delete-group`, `rename-group`, `stats --all/--legacy`)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli.app import app
from graphmem.errors import ValidationError
from graphmem.store.admin import BESIDE_LABELS, GROUP_LABELS, MARK_LABELS, count_group_nodes, delete_group, group_census
from graphmem.store.cypher import CYPHER_DIR, cypher_files

REPO = Path(__file__).resolve().parents[1]
SCAN = "MATCH (n) WHERE n.group_id = $g RETURN count(n) AS n"
EDGE_SCAN = "MATCH ()-[r]->() WHERE r.group_id = $g RETURN count(r) AS n"
EDGES_OF = "MATCH (n)-[r]-() WHERE n.group_id = $g RETURN count(DISTINCT r) AS n"


def scan(graph, group: str) -> tuple[int, int]:
    """Nodes and relationships carrying the group id, found by scanning everything."""
    return (
        graph.store.run_text(SCAN, g=group)[0]["n"],
        graph.store.run_text(EDGE_SCAN, g=group)[0]["n"],
    )


def fill(graph, group: str) -> None:
    """A group as real use leaves it: memories with attributes and links, ingested turns (episodes,
    sentences, jobs), idempotency keys, working memory, LangGraph store items, a consolidation run
    with its lock, and one node of every other label graphmem writes."""
    graph.create_memory(group, "我", "事件", "吃饭", "白米饭", {"时间": "今天", "地点": "家"}, request_id="k-1")
    graph.create_memory(group, "I", "fact", "live in", "Lyon", {"since": "2020"})
    graph.create_memory(group, "I", "fact", "live in", "lyon")
    graph.link_memories(group, "我今天吃了白米饭", "I live in Lyon", "related")
    graph.ingest(
        group,
        [
            {"role": "user", "content": "I visited the museum in Paris yesterday with my sister Alice. It was great."},
            {"role": "user", "content": "我昨晚没睡好，今天很累。明天要早起去上班，所以今晚要早点睡。"},
        ],
        extractor="rules",
        request_id="k-2",
    )
    graph.set_note(group, "s1", "plan", {"step": 1})
    graph.add_turns(group, "s1", [{"role": "user", "content": "hello"}])
    graph.consolidate(group)
    present = set(count_group_nodes(graph.store, group))
    for label in set(GROUP_LABELS) - present:  # labels this data did not happen to produce
        graph.store.run_text(f"CREATE (:{label} {{group_id: $g}})", write=True, g=group)


def test_every_label_a_query_creates_is_one_delete_group_knows():
    """A label added to graphmem/cypher/ without a place in GROUP_LABELS would be left to the sweep."""
    created = set()
    for path in cypher_files(CYPHER_DIR):
        created |= set(re.findall(r"(?:CREATE|MERGE)\s*\(\w*:(\w+)", path.read_text(encoding="utf-8")))
    assert created - set(GROUP_LABELS) - set(MARK_LABELS) - set(BESIDE_LABELS) == {
        "GraphmemMeta"
    }  # the one database-wide node


def test_delete_group_leaves_no_node_of_the_group_and_nothing_else_changes(graph):
    group, other = f"t-del-{uuid.uuid4().hex[:8]}", f"t-keep-{uuid.uuid4().hex[:8]}"
    try:
        fill(graph, group)
        fill(graph, other)
        before = count_group_nodes(graph.store, group)
        assert set(GROUP_LABELS) <= set(before)
        kept = (count_group_nodes(graph.store, other), graph.store.run_text(EDGES_OF, g=other)[0]["n"])
        kept_stats = graph.stats(other)["memories"]

        report = graph.delete_group(group)

        assert scan(graph, group) == (0, 0)  # no node, no relationship, under any label
        assert report.nodes == sum(before.values()) and report.deleted == before and not report.resumed
        assert (count_group_nodes(graph.store, other), graph.store.run_text(EDGES_OF, g=other)[0]["n"]) == kept
        assert graph.stats(other)["memories"] == kept_stats
        assert group not in [g["group_id"] for g in group_census(graph.store)]
        assert graph.search_memories(group, "where do I live?").results == []
        assert graph.delete_group(group).nodes == 0  # a second delete finds nothing
    finally:
        delete_group(graph.store, group)
        delete_group(graph.store, other)


DELETER = """
import sys
from graphmem.config import load_settings
from graphmem.store.driver import Store
from graphmem.store.admin import delete_group
delete_group(Store(load_settings()), sys.argv[1], batch=25)
"""


def settled_count(graph, group: str) -> int:
    """The group's nodes once the server has settled what the killed process left: a commit sent just
    before the kill may land a moment after it."""
    last = graph.store.run_text(SCAN, g=group)[0]["n"]
    for _ in range(40):
        time.sleep(0.25)
        now = graph.store.run_text(SCAN, g=group)[0]["n"]
        if now == last:
            return now
        last = now
    return last


def test_a_delete_killed_half_way_is_finished_by_running_it_again(graph, cli_env):
    group, other = f"t-kill-{uuid.uuid4().hex[:8]}", f"t-keep-{uuid.uuid4().hex[:8]}"
    rows = 6000
    write = """
        UNWIND range(1, $n) AS i
        CREATE (m:Memory {group_id: $g, id: $g + '-' + toString(i), status: 'staged', text: 'm' + toString(i)})
        CREATE (m)-[:ATTRIBUTE {key: 'k'}]->(:Attribute {group_id: $g, id: $g + '-a' + toString(i)})"""
    try:
        graph.store.run_text(write, write=True, g=group, n=rows)
        graph.create_memory(other, "I", "fact", "live in", "Lyon", {"since": "2020"})
        kept = count_group_nodes(graph.store, other)
        env = {**os.environ, **cli_env, "PYTHONPATH": str(REPO)}
        proc = subprocess.Popen([sys.executable, "-c", DELETER, group], env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if graph.store.run_text(SCAN, g=group)[0]["n"] < 2 * rows - 200:  # some batches committed
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()[-2000:]
        proc.send_signal(signal.SIGKILL)  # kill -9 of the process doing the delete
        proc.wait(30)

        left = settled_count(graph, group)
        assert 0 < left < 2 * rows
        census = {g["group_id"]: g for g in group_census(graph.store)}
        assert census[group]["deleting"]  # stats --all names the unfinished deletion

        report = graph.delete_group(group)

        assert report.resumed and report.nodes == left - 1  # all that was left but the mark
        assert scan(graph, group) == (0, 0)
        assert count_group_nodes(graph.store, other) == kept
    finally:
        delete_group(graph.store, group)
        delete_group(graph.store, other)


def test_delete_group_cli_asks_dry_runs_and_leaves_no_trace_in_stats_all(graph, cli_env, cli):
    group = f"t-cli-{uuid.uuid4().hex[:8]}"
    try:
        graph.create_memory(group, "我", "事实", "喜欢", "猫")
        graph.set_note(group, "s1", "k", "v")
        dry = cli("delete-group", "-g", group, "--dry-run", "--json")
        assert json.loads(dry.stdout)["nodes"]["Memory"] == 1 and count_group_nodes(graph.store, group)
        asked = cli("delete-group", "-g", group, ok=False)  # no terminal to confirm on
        assert asked.returncode == 1 and "--yes" in asked.stderr and count_group_nodes(graph.store, group)
        done = cli("delete-group", "-g", group, "--yes", "--json")
        assert json.loads(done.stdout)["deleted"]["ScratchNote"] == 1
        census = json.loads(cli("stats", "--all", "--json").stdout)["groups_census"]
        assert group not in [g["group_id"] for g in census]
        again = cli("delete-group", "-g", group, "--yes")
        assert "nothing to delete" in again.stdout
    finally:
        delete_group(graph.store, group)


# --- one group id rule ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["a/b", "a b", "a\tb", "e\u0301", "alice "])
def test_reads_refuse_what_writes_refuse(graph, bad):
    for call in (
        lambda: graph.search_memories(bad, "hello"),
        lambda: graph.stats(bad),
        lambda: graph.consolidate(bad),
        lambda: graph.list_memories(bad),
        lambda: graph.retry_extractions(bad),
        lambda: graph.notes(bad, "s1"),
        lambda: graph.recent_turns(bad, "s1"),
        lambda: graph.ingest(bad, text="hello"),
    ):
        with pytest.raises(ValidationError, match="group_id"):
            call()
    assert scan(graph, bad) == (0, 0)


def test_consolidate_and_search_from_the_cli_refuse_a_bad_id_and_write_nothing(graph, cli):
    consolidate = cli("consolidate", "-g", "a/b", ok=False)
    search = cli("search", "-g", "a b", "hello", ok=False)
    for run in (consolidate, search):
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert run.returncode == 1 and len(lines) == 1 and "group_id" in lines[0], run.stderr
    assert scan(graph, "a/b") == (0, 0)  # no ConsolidationRun or lock under the refused id


def test_identifiers_refuse_control_characters(graph, group_id):
    with pytest.raises(ValidationError, match="request_id"):
        graph.create_memory(group_id, "I", "fact", "like", "tea", request_id="key\nother")
    with pytest.raises(ValidationError, match="session_id"):
        graph.create_memory(group_id, "I", "fact", "like", "tea", session_id="s\t1")
    with pytest.raises(ValidationError, match="memory_id"):
        graph.get_memory(group_id, "abc\n")


def test_a_legacy_id_is_listed_renamed_and_then_readable(graph, cli_env, cli):
    legacy = f"old tenant/{uuid.uuid4().hex[:6]}"  # what the old, trimming check let be stored
    renamed = f"t-renamed-{uuid.uuid4().hex[:6]}"
    written_as = "t-" + uuid.uuid4().hex[:8]
    ok = graph.create_memory(written_as, "I", "fact", "live in", "Lyon", {"since": "2020"})
    graph.store.run_text("MATCH (n {group_id: $old}) SET n.group_id = $g", write=True, old=written_as, g=legacy)
    graph.store.run_text("MATCH ()-[r {group_id: $old}]->() SET r.group_id = $g", write=True, old=written_as, g=legacy)
    try:
        with pytest.raises(ValidationError, match="group_id"):
            graph.get_memory(legacy, ok.memory_id)  # one rule: reads refuse it too
        listed = json.loads(cli("stats", "--legacy", "--json").stdout)["legacy_groups"]
        entry = next(g for g in listed if g["group_id"] == legacy)
        assert "whitespace" in entry["problem"] and entry["nodes"]["Memory"] == 1
        assert legacy not in graph.memory_groups()  # consolidate --all and the scheduler skip it

        out = cli("rename-group", legacy, renamed, "--json")
        assert json.loads(out.stdout)["nodes"] == sum(entry["nodes"].values())
        assert scan(graph, legacy) == (0, 0)
        memory = graph.get_memory(renamed, ok.memory_id)
        assert memory.group_id == renamed and memory.attributes == {"since": "2020"}
        assert graph.search_memories(renamed, "where do I live?").results[0].memory_id == ok.memory_id
    finally:
        for g in (legacy, renamed, written_as):
            delete_group(graph.store, g)


def test_rename_refuses_a_target_that_holds_data(graph):
    a, b = f"t-a-{uuid.uuid4().hex[:6]}", f"t-b-{uuid.uuid4().hex[:6]}"
    try:
        graph.create_memory(a, "I", "fact", "like", "tea")
        graph.create_memory(b, "I", "fact", "like", "coffee")
        from graphmem.store.admin import rename_group

        with pytest.raises(ValidationError, match="already holds"):
            rename_group(graph.store, a, b)
        with pytest.raises(ValidationError, match="group_id"):
            rename_group(graph.store, a, "not valid/")
        assert count_group_nodes(graph.store, a)["Memory"] == 1
    finally:
        delete_group(graph.store, a)
        delete_group(graph.store, b)


def test_the_library_refuses_to_delete_an_empty_or_control_character_id(graph):
    for bad in ("", " ", "a\x00b", None):
        with pytest.raises(ValidationError):
            graph.delete_group(bad)


def test_no_agent_tool_deletes_a_group():
    from graphmem.integrations.mcp import PROFILES
    from graphmem.tools import AGENT_TOOL_NAMES

    names = set(AGENT_TOOL_NAMES) | {t["function"]["name"] for tools in PROFILES.values() for t in tools}
    assert not [n for n in names if "group" in n or "delete" in n]


def test_delete_group_is_awaitable_too(async_graph, group_id):
    import asyncio

    async def run():
        await async_graph.create_memory(group_id, "我", "事实", "喜欢", "猫")
        return await async_graph.delete_group(group_id)

    assert asyncio.run(run()).deleted["Memory"] == 1


def test_stats_cli_names_a_running_deletion_and_legacy_ids(graph, cli_env):
    group = f"t-mark-{uuid.uuid4().hex[:6]}"
    graph.store.run_text("CREATE (:GroupDeletion {group_id: $g, started_at: 'x'})", write=True, g=group)
    graph.store.run_text("CREATE (:Memory {group_id: $g, status: 'staged', id: $id})", write=True, g=group, id=group)
    try:
        from graphmem.cli import _common

        _common.console.width = 400
        out = CliRunner().invoke(app, ["stats", "--all"], env=cli_env).output
        line = next(line for line in out.splitlines() if group in line)
        assert "deletion unfinished" in line
    finally:
        delete_group(graph.store, group)


# --- backup and restore act only on the server they are pointed at ---------------------------------


def test_backup_refuses_a_server_it_was_not_pointed_at_and_stops_nothing(graph, neo4j_settings, tmp_path):
    from graphmem.analyst.backup import backup, restore
    from graphmem.server import LocalNeo4j, free_port

    local = LocalNeo4j(neo4j_settings)
    if not local.is_running() or not (neo4j_settings.neo4j.uri or "").endswith(f":{local.port}"):
        pytest.skip("the session's server is not a local one this test started")
    home, port = local.home, local.port
    elsewhere = free_port()
    with pytest.raises(ValidationError, match=f"no local graphmem server listens on port {elsewhere}"):
        backup(neo4j_settings, tmp_path / "x.dump", port=elsewhere)
    with pytest.raises(ValidationError, match=f"listens on port {port}, not {elsewhere}"):
        backup(neo4j_settings, tmp_path / "x.dump", home=home, port=elsewhere)
    pointed_elsewhere = neo4j_settings.model_copy(deep=True)
    pointed_elsewhere.neo4j.uri = f"neo4j://127.0.0.1:{elsewhere}"  # NEO4J_URI names another port
    (tmp_path / "y.dump").write_bytes(b"not a dump")
    with pytest.raises(ValidationError, match=f"port {elsewhere}"):
        restore(pointed_elsewhere, tmp_path / "y.dump", force=True)
    assert not (tmp_path / "x.dump").exists()
    assert graph.store.verify()  # the session's server was never stopped
