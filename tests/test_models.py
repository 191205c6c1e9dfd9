"""The neomodel classes describe what the engine writes: an analyst can read a memory, its
concepts, attributes and causal links as objects, and the classes agree with the schema."""

from __future__ import annotations

import pytest

from graphmem.store import models
from graphmem.store.models import Memory, Subject, Topic, connect

REF = "2025-11-05T10:05:00+08:00"


@pytest.fixture(scope="module")
def neomodel_db(neo4j_settings, neo4j_driver):
    connect(neo4j_settings, driver=neo4j_driver)
    return neo4j_driver


def test_a_memory_written_by_the_engine_reads_back_through_neomodel(graph, neomodel_db, group_id):
    cause = graph.create_memory(
        group_id, "我", "事件", "睡眠", "不好", {"时间": "昨晚"}, importance=0.6, reference_time=REF
    )
    effect = graph.create_memory(group_id, "I", "fact", "心情", "不好", {"时间": "今天"}, reference_time=REF)
    graph.link_memory_ids(group_id, cause.memory_id, effect.memory_id, "导致")

    memories = Memory.nodes.filter(group_id=group_id).order_by("created_at")
    assert len(memories) == 2
    m = Memory.nodes.get(group_id=group_id, uid=cause.memory_id)
    assert (m.memory_type, m.text, m.importance, m.status) == (
        "EVENT",
        "我 睡眠 不好 (时间: 2025-11-04 夜间)",
        0.6,
        "staged",
    )
    assert m.occurred_at.startswith("2025-11-04") and len(m.embedding) == models.EMBEDDING_DIMENSIONS
    subject = m.subject.single()
    assert (subject.normalized_name, subject.kind, sorted(subject.aliases)) == ("@user", "user", ["I", "我"])
    assert m.topic.single().name == "睡眠" and m.object.single().name == "不好"
    assert m.attribute_map() == {"时间": "2025-11-04 夜间"}
    assert m.attributes.all()[0].original == "昨晚"

    effects = m.causes.all()
    assert [e.uid for e in effects] == [effect.memory_id]
    edge = m.causes.relationship(effects[0])
    assert (edge.relation, edge.importance, edge.discovered) == ("causes", 0.6, False)
    assert [c.uid for c in effects[0].caused_by.all()] == [cause.memory_id]

    # the sentence shape: (我)-[MEMORY_TYPE]->(睡眠)-[CORE_RELATION]->(不好), one edge per memory
    user = Subject.nodes.get(group_id=group_id, normalized_name="@user")
    assert sorted(t.name for t in user.topics.all()) == ["心情", "睡眠"]
    sleep = Topic.nodes.get(group_id=group_id, normalized_name="睡眠")
    assert user.topics.relationship(sleep).memory_type == "EVENT"
    assert [o.name for o in sleep.objects.all()] == ["不好"]
    assert len(sleep.objects.all()[0].memories.all()) == 2  # 不好 is one shared node
    assert Memory.nodes.filter(group_id=group_id + "-other").all() == []


def _schema(driver) -> tuple[set, set, set]:
    rows, _, _ = driver.execute_query(
        "SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type "
        "WHERE type = 'UNIQUENESS' RETURN labelsOrTypes, properties"
    )
    unique = {(r["labelsOrTypes"][0], tuple(r["properties"])) for r in rows}
    rows, _, _ = driver.execute_query(
        "SHOW INDEXES YIELD labelsOrTypes, properties, type "
        "WHERE labelsOrTypes IS NOT NULL RETURN labelsOrTypes, properties, type"
    )
    vector = {(label, r["properties"][0]) for r in rows if r["type"] == "VECTOR" for label in r["labelsOrTypes"]}
    fulltext = {(label, r["properties"][0]) for r in rows if r["type"] == "FULLTEXT" for label in r["labelsOrTypes"]}
    return unique, vector, fulltext


def test_the_classes_agree_with_the_installed_schema(graph, neomodel_db):
    unique, vector, fulltext = _schema(neomodel_db)
    for cls in models.NODE_CLASSES:
        label = cls.__label__
        for name, prop in cls.defined_properties(aliases=False, rels=False).items():
            column = prop.get_db_property_name(name)
            if prop.unique_index:
                assert (label, (column,)) in unique, f"{label}.{column}: no uniqueness constraint"
            if getattr(prop, "vector_index", None):
                assert (label, column) in vector, f"{label}.{column}: no vector index"
            if getattr(prop, "fulltext_index", None):
                assert (label, column) in fulltext, f"{label}.{column}: no fulltext index"
    for label in ("Subject", "Topic", "Object", "Value"):
        assert (label, ("group_id", "normalized_name")) in unique
