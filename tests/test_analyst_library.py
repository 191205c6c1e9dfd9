"""The analysts' Cypher library (graphmem/cypher/explore/): every query runs on a real Neo4j,
is read-only, stays in its group, and returns the rows an analyst expects on a known graph."""

from __future__ import annotations

import json
import uuid

import pytest
from analyst_graph import fixture_group

from graphmem.analyst.library import get, library, run
from graphmem.errors import NotFoundError, ValidationError

WRITE_OPERATORS = ("Create", "Merge", "Set", "Delete", "Remove", "Foreach", "LoadCSV")
# Procedures the library may call (all read-only; the READ transaction would refuse a write anyway).
READ_PROCEDURES = ("db.index.fulltext.queryNodes",)


@pytest.fixture(scope="module")
def fixture_graph(graph):
    with fixture_group(graph, "t-lib-") as built:
        yield built


def q(graph, fixture_graph, query_name, **params):
    return run(graph.store, query_name, fixture_graph.group_id, params)


def test_every_query_is_documented_in_english_and_chinese():
    book = library()
    assert len(book) >= 25
    for query in book.values():
        assert query.en and query.zh, query.name
        assert any(ord(ch) > 0x3000 for ch in query.zh), query.name
        names = [p.name for p in query.params]
        assert names[0] == "group_id" and get(query.name).params[0].required, query.name
        # every $parameter the Cypher uses is documented, and every documented one is used
        import re

        used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", query.cypher))
        assert used == set(names), (query.name, used ^ set(names))
        assert "$group_id" in query.cypher


def _plan_operators(plan) -> list[str]:
    ops, stack = [], [plan]
    while stack:
        node = stack.pop()
        ops.append(node["operatorType"] if isinstance(node, dict) else node.operator_type)
        stack.extend(node.get("children", []) if isinstance(node, dict) else node.children)
    return ops


def _required_values(fixture_graph) -> dict:
    ids = fixture_graph.ids
    return {"memory_id": ids["delay"], "episode_id": fixture_graph.episodes[0], "session_id": "chat-1", "topic": "住在"}


def test_every_query_is_read_only_and_runs_on_the_fixture(graph, fixture_graph, neo4j_settings):
    """EXPLAIN shows no write operator, and the query runs in a READ transaction (where the
    server refuses any write) returning rows for the fixture group."""
    from graphmem.analyst.library import bind

    required = _required_values(fixture_graph)
    empty = []
    with graph.store.driver.session(database=graph.store.database, default_access_mode="READ") as session:
        for query in library().values():
            values = {p.name: required[p.name] for p in query.params if p.name in required}
            params = bind(query, fixture_graph.group_id, values)
            plan = session.run("EXPLAIN " + query.cypher, params).consume().plan
            ops = _plan_operators(plan)
            assert not [op for op in ops if op.split("@")[0].startswith(WRITE_OPERATORS)], (query.name, ops)
            calls = __import__("re").findall(r"CALL\s+([A-Za-z][\w.]*)\s*\(", query.cypher)
            assert all(c in READ_PROCEDURES for c in calls), (query.name, calls)
            rows = session.execute_read(lambda tx, q=query.cypher, p=params: [r.data() for r in tx.run(q, p)])
            if not rows:
                empty.append(query.name)
    # every query has something to say about this graph
    assert empty == [], empty


def test_queries_do_not_see_other_groups(graph, fixture_graph):
    other = "t-empty-" + uuid.uuid4().hex[:8]
    required = _required_values(fixture_graph)
    for query in library().values():
        values = {p.name: required[p.name] for p in query.params if p.name in required}
        rows = run(graph.store, query.name, other, values)
        if query.name == "group_overview":  # one row of zeros for a group with nothing
            assert rows[0]["memories"] == 0 and rows[0]["episodes"] == 0 and rows[0]["topics"] == 0
        else:
            assert rows == [], (query.name, rows)


def test_subject_timeline_in_time_order(graph, fixture_graph):
    rows = q(graph, fixture_graph, "subject_timeline", subject="我")
    texts = [r["text"] for r in rows]
    assert texts[0].startswith("我 买了 一把雨伞")  # 2019: the oldest first
    assert any("错过 会议" in t for t in texts)
    assert not any("一部电影" in t for t in texts)  # archived: hidden by default
    assert [r["at"] for r in rows] == sorted(r["at"] for r in rows)
    superseded = {r["text"]: r["superseded"] for r in rows}
    assert superseded["我 住在 北京"] and not superseded["我 住在 深圳"]
    # "I" and "我" are the same user subject; archived ones on request
    topic = q(graph, fixture_graph, "topic_timeline", topic="住在")
    assert [r["text"] for r in topic] == ["我 住在 北京", "我 住在 上海", "我 住在 深圳"]
    english = q(graph, fixture_graph, "subject_timeline", subject="I", include_archived=True)
    assert any("一部电影" in r["text"] for r in english) and any("apology" in r["text"] for r in english)


def test_causal_chains_in_and_out(graph, fixture_graph):
    ids = fixture_graph.ids
    causes = q(graph, fixture_graph, "causes_of", memory_id=ids["missed"])
    assert [(r["hops"], r["relations"]) for r in causes] == [(1, ["so"]), (2, ["causes", "so"])]
    assert causes[1]["chain"][0].startswith("天气 下大雨") and causes[1]["chain"][-1].startswith("我 错过 会议")
    assert q(graph, fixture_graph, "causes_of", memory_id=ids["missed"], max_depth=1)[0]["hops"] == 1
    assert len(q(graph, fixture_graph, "causes_of", memory_id=ids["missed"], max_depth=1)) == 1
    effects = q(graph, fixture_graph, "effects_of", memory_id=ids["rain"])
    assert [r["effect_id"] for r in effects] == [ids["delay"], ids["missed"]]
    links = q(graph, fixture_graph, "memory_links", memory_id=ids["missed"])
    assert {(r["edge_type"], r["relation"], r["direction"]) for r in links} == {
        ("CAUSALITY", "so", "in"),
        ("REFERENCE", "references", "in"),
    }


def test_provenance_from_episodes(graph, fixture_graph):
    assert fixture_graph.ingested, "the rules extractor found nothing in the conversation"
    mid = fixture_graph.ingested[0]
    rows = q(graph, fixture_graph, "memory_sources", memory_id=mid)
    assert rows[0]["content"] == "我昨天晚上没睡好，所以今天心情很差。"
    assert rows[0]["turn_after"] == "听起来很累，要不要早点休息？" and rows[0]["turn_before"] is None
    evidence = q(graph, fixture_graph, "episode_evidence_of", episode_id=fixture_graph.episodes[0])
    assert mid in {r["memory_id"] for r in evidence}
    transcript = q(graph, fixture_graph, "session_transcript", session_id="chat-1")
    assert [r["turn"] for r in transcript] == [0, 1, 2] and transcript[1]["memories"] == 0
    direct = {r["memory_id"] for r in q(graph, fixture_graph, "memories_without_evidence")}
    assert fixture_graph.ids["rain"] in direct and mid not in direct


def test_concepts_hubs_and_duplicates(graph, fixture_graph):
    top = q(graph, fixture_graph, "top_concepts", label="Subject", limit=1)
    assert top[0]["name"] == "我" and top[0]["memories"] >= 8
    hubs = q(graph, fixture_graph, "hub_nodes", limit=3)
    assert hubs[0]["name"] == "我"
    hub_memories = q(graph, fixture_graph, "hub_memories")
    assert hub_memories[0]["memory_id"] in (fixture_graph.ids["missed"], fixture_graph.ids["delay"])
    pairs = {
        frozenset((r["name_a"], r["name_b"])): set(r["roles_a"] + r["roles_b"])
        for r in q(graph, fixture_graph, "duplicate_concepts")
    }
    # "hiking" is a Topic (Alice hiking with Bob) and an Object (I love hiking): one node, both roles
    assert pairs[frozenset(("hiking", "hiking trips"))] == {"Topic", "Object"}
    about_me = q(graph, fixture_graph, "concept_neighbourhood", name="我")
    assert {"住在", "喜欢喝", "错过"} <= {r["topic"] for r in about_me}
    # 上海 is one node: the place the user lived (an Object) and where it rained (a Value)
    shanghai = q(graph, fixture_graph, "concept_neighbourhood", name="上海")
    assert {(r["role"], r["text"]) for r in shanghai} == {
        ("OBJECT", "我 住在 上海"),
        ("VALUE (地点)", "天气 下大雨 (时间: 2025-11-03; 地点: 上海)"),
    }
    assert all(r["roles"] == ["Object", "Value"] for r in shanghai)


def test_conflicts_and_supersede_chains(graph, fixture_graph):
    ids = fixture_graph.ids
    pairs = q(graph, fixture_graph, "supersessions")
    assert {(r["older_id"], r["newer_id"]) for r in pairs} == {
        (ids["beijing"], ids["shanghai"]),
        (ids["shanghai"], ids["shenzhen"]),
    }
    assert all(sorted(r["recorded_as"]) == ["edge", "property"] for r in pairs)
    chains = q(graph, fixture_graph, "supersede_chains")
    assert chains[0]["history"] == ["我 住在 深圳", "我 住在 上海", "我 住在 北京"] and chains[0]["replaced"] == 2
    assert len(chains) == 1
    conflicts = q(graph, fixture_graph, "possible_conflicts")
    assert [(r["older_object"], r["newer_object"]) for r in conflicts] == [("绿茶", "咖啡")]


def test_access_decay_and_archive(graph, fixture_graph):
    ids = fixture_graph.ids
    never = {r["memory_id"] for r in q(graph, fixture_graph, "never_accessed")}
    assert ids["rain"] in never and ids["shenzhen"] not in never and ids["forgotten"] not in never
    fading = q(graph, fixture_graph, "fading_memories", as_of="2025-11-06T00:00:00Z")
    assert fading[0]["memory_id"] == ids["old"] and fading[0]["retention"] < 0.01
    # of the memories written through the API, the 2019 umbrella and Beijing (a fact said in January:
    # ten months of decay from when it was said, not from when the fixture wrote it) have faded this far
    assert {r["memory_id"] for r in fading} & set(ids.values()) == {ids["old"], ids["beijing"]}
    # a stricter floor a few weeks on: facts fade more slowly than events
    later = {
        r["memory_id"] for r in q(graph, fixture_graph, "fading_memories", floor=0.3, as_of="2025-12-01T00:00:00Z")
    }
    assert ids["rain"] in later and ids["shenzhen"] not in later
    archived = q(graph, fixture_graph, "archived_memories")
    assert [(r["memory_id"], r["status_before"]) for r in archived] == [(ids["forgotten"], "staged")]
    top = q(graph, fixture_graph, "most_accessed")
    assert top[0]["memory_id"] == ids["shenzhen"] and top[0]["accesses"] == 3


def test_group_shape(graph, fixture_graph):
    overview = q(graph, fixture_graph, "group_overview")[0]
    n = len(fixture_graph.ids) + len(fixture_graph.ingested)
    assert overview["memories"] == n and overview["archived"] == 1 and overview["live"] == n - 1
    assert overview["episodes"] == 3 and overview["sessions"] == 1 and overview["causal_links"] >= 2
    labels = {r["label"]: r["count"] for r in q(graph, fixture_graph, "nodes_by_label")}
    assert labels["Memory"] == n and labels["Episode"] == 3 and labels["ExtractionJob"] == 1
    types = {r["type"]: r["count"] for r in q(graph, fixture_graph, "relationships_by_type")}
    assert types["SUPERSEDES"] == 2 and types["NEXT"] == 2 and types["HAS_SUBJECT"] == n
    assert types["EXTRACTED_FROM"] >= len(fixture_graph.ingested)
    by_status = {
        (r["memory_type"], r["status"]): r["count"] for r in q(graph, fixture_graph, "memories_by_type_and_status")
    }
    assert by_status[("EVENT", "archived")] == 1
    months = {r["month"] for r in q(graph, fixture_graph, "memories_by_month")}
    assert {"2019-03", "2025-11"} <= months
    sources = {r["source"] for r in q(graph, fixture_graph, "memories_by_source")}
    assert {"api", "extract:rules"} <= sources


def test_bad_calls_say_what_to_do(graph, fixture_graph):
    with pytest.raises(NotFoundError, match="graphmem cypher list"):
        q(graph, fixture_graph, "no_such_query")
    with pytest.raises(ValidationError, match="memory_id"):
        q(graph, fixture_graph, "causes_of")
    with pytest.raises(ValidationError, match="takes no parameter colour"):
        q(graph, fixture_graph, "group_overview", colour="red")


def test_cli_lists_and_runs(cli_env, fixture_graph, monkeypatch):
    from typer.testing import CliRunner

    from graphmem.cli.app import app

    runner = CliRunner()
    listed = runner.invoke(app, ["cypher", "list", "--json"])
    assert listed.exit_code == 0
    assert "subject_timeline" in {q["name"] for q in json.loads(listed.stdout)}
    for k, v in cli_env.items():
        monkeypatch.setenv(k, v)
    out = runner.invoke(
        app,
        [
            "cypher",
            "run",
            "causes_of",
            "-g",
            fixture_graph.group_id,
            "--param",
            f"memory_id={fixture_graph.ids['missed']}",
            "--param",
            "max_depth=2",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    assert [r["hops"] for r in json.loads(out.stdout)] == [1, 2]
    table = runner.invoke(
        app, ["cypher", "run", "subject_timeline", "-g", fixture_graph.group_id, "--param", "subject=我"]
    )
    assert table.exit_code == 0 and "住在" in table.stdout and "subject_timeline" in table.stdout
    shown = runner.invoke(app, ["cypher", "show", "causes_of", "-g", "alice", "-p", "memory_id=abc"])
    assert ":param group_id => 'alice'" in shown.stdout and ":param max_depth => 3" in shown.stdout
