"""A database written by the previous release (schema 8: one concept node per role) moves to one
node per name: `graphmem init` (or the first use) folds a name's nodes into one without losing a
memory or an edge, finishes a run that stopped half-way, and changes nothing the second time; an
export file of that release imports the same way."""

from __future__ import annotations

import io

import pytest
from schema8_graph import FIXTURE, edge_counts, load_schema8, memory_parts

from graphmem.analyst.portability import export_group, import_group
from graphmem.errors import GraphmemError
from graphmem.store.migrate import fold_concepts
from graphmem.store.schema import SCHEMA_VERSION

# under pytest-xdist, alone on the shared server: it rewrites the schema's version and runs the migration
pytestmark = pytest.mark.exclusive

USER_PRONOUN = ("Ruth called me (time: 2024-02-03)", "me")  # an Object that is the user now


def _node(graph, group_id: str, name: str) -> list[dict]:
    """The concept nodes called ``name`` (or with it as an alias): their roles and the memories
    that use them, with the edge each uses."""
    rows = graph.store.run_text(
        """
        MATCH (n:Concept {group_id: $g}) WHERE n.name = $name OR $name IN n.aliases
        RETURN [l IN labels(n) WHERE l <> 'Concept'] AS roles, [(m:Memory)-[r]->(n) | [m.text, type(r)]] AS uses""",
        g=group_id,
        name=name,
    )
    return [{"roles": sorted(r["roles"]), "uses": sorted(tuple(u) for u in r["uses"])} for r in rows]


def _names_of(graph, group_id: str) -> dict[str, list[str]]:
    """Every concept's name -> its aliases (what a memory's part may be called now)."""
    rows = graph.store.run_text(
        "MATCH (n:Concept {group_id: $g}) RETURN n.name AS name, coalesce(n.aliases, [n.name]) AS aliases",
        g=group_id,
    )
    return {r["name"]: r["aliases"] for r in rows}


def _check_one_node_per_name(graph, group_id: str) -> None:
    marco = _node(graph, group_id, "Marco")
    assert marco == [
        {
            "roles": ["Object", "Subject"],
            "uses": [
                ("Marco 周末开 滑翔机", "HAS_SUBJECT"),
                ("我 认识了 Marco (地点: 波尔图; 时间: 2023-09-02)", "HAS_OBJECT"),
            ],
        }
    ]
    assert [n["roles"] for n in _node(graph, group_id, "Ruth")] == [["Object", "Subject"]]
    assert [n["roles"] for n in _node(graph, group_id, "杭州")] == [["Object", "Value"]]
    assert [n["roles"] for n in _node(graph, group_id, "跑步")] == [["Object", "Topic"]]
    user = _node(graph, group_id, "me")  # the user, as the Subject of many and the Object of one
    assert len(user) == 1 and user[0]["roles"] == ["Object", "Subject"]
    assert (USER_PRONOUN[0], "HAS_OBJECT") in user[0]["uses"]
    # no two concept nodes of the group share a name
    rows = graph.store.run_text(
        "MATCH (n {group_id: $g}) WHERE n:Subject OR n:Topic OR n:Object OR n:Value "
        "RETURN count(n) AS nodes, count(DISTINCT n.normalized_name) AS names, count(n:Concept) AS labelled",
        g=group_id,
    )[0]
    assert rows["nodes"] == rows["names"] == rows["labelled"]


def test_a_schema8_database_is_migrated_without_losing_a_memory_or_an_edge(graph, group_id):
    wrote = load_schema8(graph.store, group_id)
    parts, edges = memory_parts(graph.store, group_id), edge_counts(graph.store, group_id)
    assert edges == wrote["edges"] and sorted(parts) == wrote["memories"]
    assert len(_node(graph, group_id, "Marco")) == 0  # no :Concept label yet
    graph.store.write("meta_write", schema_version=8, model=graph.embedder.name, dimension=graph.embedder.dimension)

    # an export now would write a name's nodes apart: refused until the database is migrated
    with pytest.raises(GraphmemError, match="graphmem init"):
        export_group(graph.store, group_id, io.StringIO())
    # a run that stops after its first fold (the process killed): still schema 8
    assert fold_concepts(graph.store, limit=1) == 1
    assert graph.store.read("meta_read")[0]["schema_version"] == 8
    report = graph.init_schema()  # the next start finishes it
    assert report.migrated["concepts_folded"] >= 4 and report.migrated["concepts_labelled"] > 0
    assert graph.store.read("meta_read")[0]["schema_version"] == SCHEMA_VERSION

    # every memory and every edge is still there, each memory with the same parts
    assert edge_counts(graph.store, group_id) == edges
    after = memory_parts(graph.store, group_id)
    assert sorted(after) == wrote["memories"]
    names = _names_of(graph, group_id)
    for text, (s, t, o, values) in parts.items():
        s2, t2, o2, values2 = after[text]
        assert values2 == values and t2 == t, text
        for old, new in ((s, s2), (o, o2)):
            assert old == new or old in names[new], (text, old, new)  # "me" is the user's node: 我
    _check_one_node_per_name(graph, group_id)
    # supersede intervals: the old residence was valid from when it was said until the new one
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g, text: '我 住在 杭州'}) RETURN m.valid_from AS f, m.valid_until AS u, "
        "m.invalid_at AS i",
        g=group_id,
    )[0]
    assert rows["f"].startswith("2023-05-01") and rows["u"] == rows["i"]
    missing = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) WHERE m.valid_from IS NULL RETURN count(m) AS n", g=group_id
    )
    assert missing == [{"n": 0}]

    # run again: nothing to do
    again = graph.init_schema()
    assert not again.migrated and not again.changed
    # a new memory naming Ruth as its Object finds the one node
    created = graph.create_memory(group_id, "I", "EVENT", "met", "Ruth", reference_time="2024-03-05T10:00:00+00:00")
    ruth = next(c for c in created.concepts if c.role == "object")
    assert ruth.reused and ruth.reason == "exact"
    assert [n["roles"] for n in _node(graph, group_id, "Ruth")] == [["Object", "Subject"]]


@pytest.mark.parametrize("target", ["same", "renamed"])
def test_an_export_of_the_previous_release_imports_as_one_node_per_name(graph, group_id, target):
    report = import_group(graph, FIXTURE, group_id if target == "renamed" else None)
    group = report.group_id
    try:
        assert report.nodes["Memory"] == 14 and report.reembedded > 0
        _check_one_node_per_name(graph, group)
        rows = graph.store.run_text(
            "MATCH (n:Concept {group_id: $g}) WHERE (n:Topic OR n:Object) AND n.embedding IS NULL RETURN n.name AS n",
            g=group,
        )
        assert rows == []  # topics and objects are found by meaning: each has its embedding
    finally:
        from graphmem.store.admin import delete_group

        delete_group(graph.store, group)
