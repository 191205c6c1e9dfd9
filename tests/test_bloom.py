"""The Bloom perspective (bloom/graphmem.json) names exactly the labels and relationship types the
engine's Cypher creates and the properties it writes, and every search phrase's Cypher runs on a
real graph and draws what the phrase promises."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from analyst_graph import fixture_group

from graphmem.analyst.bloom import LABELS, RELATIONSHIPS, VECTOR_LABELS, perspective

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "bloom" / "graphmem.json"


def _engine_cypher() -> str:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "graphmem" / "cypher").glob("*.cypher"))
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))


def _names(pattern: str, text: str) -> set[str]:
    return {x.strip() for m in re.finditer(pattern, text) for x in m.group(1).split("|")}


def test_the_file_is_the_generated_perspective():
    """bloom/graphmem.json is regenerated from graphmem/analyst/bloom.py (python -m graphmem.analyst.bloom)."""
    assert json.loads(FILE.read_text(encoding="utf-8")) == perspective()


def test_it_names_exactly_the_labels_and_relationship_types_of_the_schema():
    cypher = _engine_cypher()
    labels = _names(r"\(\s*\w*\s*:\s*([A-Z]\w*(?:\s*\|\s*[A-Z]\w*)*)", cypher)
    types = _names(r"\[\s*\w*\s*:\s*([A-Z][A-Z_]*(?:\s*\|\s*[A-Z][A-Z_]*)*)", cypher)
    p = perspective()
    assert {c["labels"][0] for c in p["categories"]} == labels == set(p["labels"])
    assert {r["name"] for r in p["relationshipTypes"]} == types
    for category in p["categories"]:
        caption = category["captionKeys"][0]
        assert caption in {x["name"] for x in category["properties"]}, category["name"]
        assert re.fullmatch(r"#[0-9A-F]{6}", category["color"])
    causal = next(r for r in p["relationshipTypes"] if r["name"] == "CAUSALITY")
    assert causal["captionKeys"] == ["relation"]
    assert {rule["conditionValue"] for rule in causal["styleRules"]} == {"causes", "because", "so"}


@pytest.fixture(scope="module")
def fixture_graph(graph):
    with fixture_group(graph, "t-bloom-", long_turn=True) as built:
        yield built


def test_it_names_the_properties_graphmem_writes(graph, fixture_graph):
    group = fixture_graph.group_id
    nodes = graph.store.run_text(
        "MATCH (n) WHERE n.group_id = $g UNWIND keys(n) AS k RETURN labels(n)[0] AS label, collect(DISTINCT k) AS keys",
        g=group,
    ) + graph.store.run_text(
        "MATCH (n:GraphmemMeta) UNWIND keys(n) AS k RETURN 'GraphmemMeta' AS label, collect(DISTINCT k) AS keys"
    )
    edges = graph.store.run_text(
        "MATCH (n)-[r]->() WHERE n.group_id = $g UNWIND keys(r) AS k RETURN type(r) AS type, collect(DISTINCT k) AS keys",
        g=group,
    )
    declared = {
        label: set(props) | ({"embedding"} if label in VECTOR_LABELS else set())
        for label, (_, _, props) in LABELS.items()
    }
    for row in nodes:  # everything written is in the perspective...
        assert set(row["keys"]) <= declared[row["label"]], (row["label"], set(row["keys"]) - declared[row["label"]])
    for row in edges:
        assert set(row["keys"]) <= set(RELATIONSHIPS[row["type"]][2]), row
    # ...and everything in the perspective is written by graphmem (seen here, or named in its code:
    # job leases, errors and plans exist only while a job runs or after it failed)
    seen = {row["label"]: set(row["keys"]) for row in nodes}
    source = (
        "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "graphmem").rglob("*.py") if "analyst" not in p.parts)
        + _engine_cypher()
    )
    for label, props in declared.items():
        for prop in props - seen.get(label, set()):
            assert re.search(rf"\b{prop}\b", source), (label, prop)


def test_every_search_phrase_runs_and_draws_its_answer(graph, fixture_graph):
    group = fixture_graph.group_id
    values = {"$group_id": group, "$subject": "我", "$memory": "会议", "$name": "上海"}
    drawn = {}
    with graph.store.driver.session(database=graph.store.database, default_access_mode="READ") as session:
        for template in perspective()["templates"]:
            given = {**values, **({"$memory": "心情"} if template["library_query"] == "graph_sources" else {})}
            params = {p["name"][1:]: given[p["name"]] for p in template["params"]}
            assert set(re.findall(r"\$(\w+)", template["cypher"])) == set(params), template["name"]
            assert all(p["name"] in template["text"] for p in template["params"])
            result = session.execute_read(lambda tx, q=template["cypher"], p=params: list(tx.run(q, p)))
            assert result, template["name"]
            names = set()
            for record in result:
                for value in record.values():
                    for node in getattr(value, "nodes", [value] if hasattr(value, "labels") else []):
                        names.add(node.get("name") or node.get("text") or node.get("content"))
            drawn[template["library_query"]] = names
    assert {"住在", "深圳", "喜欢喝"} <= drawn["graph_memories_of"]
    assert {"天气 下大雨 (时间: 2025-11-03; 地点: 上海)", "我 错过 会议 (时间: 2025-11-03)"} <= drawn["graph_why"]
    assert "2025-11-03" in drawn["graph_timeline"]
    assert {"我昨天晚上没睡好，所以今天心情很差。", "听起来很累，要不要早点休息？"} <= drawn["graph_sources"]
    assert {"我 住在 深圳", "我 住在 上海", "我 住在 北京"} <= drawn["graph_history"]
    # 上海 is one node: where the user lived (an Object) and where it rained (a Value), in one picture
    assert {"上海", "我 住在 上海", "天气 下大雨 (时间: 2025-11-03; 地点: 上海)"} <= drawn["graph_about"]
