"""The write path end to end on a real Neo4j: the seed 004 examples, replayed as an LLM would
call the tools, leave exactly the nodes and edges the design describes (checked by Cypher),
in Chinese and in English; concepts are reused or merged as the thresholds say."""

from __future__ import annotations

import json

import pytest

from graphmem.errors import NotFoundError, ValidationError
from graphmem.graph import MemoryGraph
from graphmem.tools import dispatch

pytestmark = pytest.mark.real_models  # real models: concepts reused or merged by meaning

REF = "2025-11-05T10:00:00+08:00"  # the seed's "today": 2025-11-05, 10:00 in China


def call(graph, group_id, name, reference_time=REF, **arguments):
    """One tool call in the shape an OpenAI-compatible model produces (arguments as a JSON string)."""
    tool_call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }
    result = dispatch(graph, tool_call, group_id=group_id, reference_time=reference_time)
    json.dumps(result)  # what goes back to the model must serialise
    assert result["success"], result
    return result


def counts(driver, group_id) -> dict[str, int]:
    """Nodes of the memory graph by label (not the :WriteRequest keys dispatch stores for tool calls with an id)."""
    rows, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.group_id = $g AND NOT n:WriteRequest RETURN labels(n)[0] AS label, count(*) AS n", g=group_id
    )
    return {r["label"]: r["n"] for r in rows}


def chains(driver, group_id) -> set[tuple]:
    """(subject)-[MEMORY_TYPE {type}]->(topic)[-[CORE_RELATION]->(object)] per memory, as names."""
    rows, _, _ = driver.execute_query(
        """
        MATCH (s:Subject {group_id: $g})-[mt:MEMORY_TYPE]->(t:Topic)
        OPTIONAL MATCH (t)-[cr:CORE_RELATION {memory_id: mt.memory_id}]->(o:Object)
        RETURN s.name AS s, mt.memory_type AS type, t.name AS t, o.name AS o""",
        g=group_id,
    )
    return {(r["s"], r["type"], r["t"], r["o"]) for r in rows}


def memory_edges(driver, group_id) -> set[tuple]:
    """(from topic, edge type, relation, to topic) for every memory → memory edge."""
    rows, _, _ = driver.execute_query(
        """
        MATCH (a:Memory {group_id: $g})-[e:CAUSALITY|REFERENCE]->(b:Memory {group_id: $g})
        RETURN a.topic_name AS a, type(e) AS type, e.relation AS relation, b.topic_name AS b""",
        g=group_id,
    )
    return {(r["a"], r["type"], r["relation"], r["b"]) for r in rows}


def values(driver, group_id) -> dict[str, dict]:
    """attribute key → {original, value, iso} (keys are unique within these scenarios)."""
    rows, _, _ = driver.execute_query(
        """
        MATCH (m:Memory {group_id: $g})-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
        RETURN m.topic_name + '.' + a.key AS key, a.original AS original, v.name AS value, v.iso AS iso""",
        g=group_id,
    )
    return {r["key"]: {"original": r["original"], "value": r["value"], "iso": r["iso"]} for r in rows}


# --- seed 004 §4.5.2 示例1: a basic event ---------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_basic_event_becomes_one_sentence_shaped_subgraph(graph, neo4j_driver, group_id, lang):
    if lang == "zh":  # 用户："我今天早上8点吃了面包"
        r = call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="事件",
            topic="吃早餐",
            object="面包",
            attributes={"时间": "2025-11-05 08:00", "餐次": "早餐"},
            importance=0.3,
        )
        subject, topic, obj, tkey, mkey, meal = "我", "吃早餐", "面包", "时间", "餐次", "早餐"
    else:  # "I had bread for breakfast at 8 this morning"
        r = call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="event",
            topic="eat breakfast",
            object="bread",
            attributes={"time": "this morning at 8", "meal": "breakfast"},
            importance=0.3,
        )
        subject, topic, obj, tkey, mkey, meal = "I", "eat breakfast", "bread", "time", "meal", "breakfast"

    assert counts(neo4j_driver, group_id) == {
        "Memory": 1,
        "Subject": 1,
        "Topic": 1,
        "Object": 1,
        "Attribute": 2,
        "Value": 2,
    }
    assert chains(neo4j_driver, group_id) == {(subject, "EVENT", topic, obj)}
    assert r["occurred_at"].startswith("2025-11-05T08:00")
    v = values(neo4j_driver, group_id)
    assert v[f"{topic}.{tkey}"]["value"] == "2025-11-05 08:00"
    assert v[f"{topic}.{mkey}"]["value"] == meal
    memory = graph.get_memory(group_id, r["memory_id"])
    assert (memory.memory_type.value, memory.importance, memory.status.value) == ("EVENT", 0.3, "staged")
    assert memory.subject == subject and memory.object == obj


# --- 示例2: a causal chain ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_causal_chain_points_from_cause_to_effect(graph, neo4j_driver, group_id, lang):
    if lang == "zh":  # 用户："昨晚我失眠了，所以今天很困，没心情工作"
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="事件",
            topic="失眠",
            attributes={"时间": "昨晚"},
            importance=0.6,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="事实",
            topic="身体状态",
            object="很困",
            attributes={"时间": "今天"},
            importance=0.5,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="事实",
            topic="工作状态",
            object="没心情",
            attributes={"时间": "2025-11-05"},
            importance=0.5,
        )
        l1 = call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="我失眠",
            target_memory_description="我很困",
            relation_type="导致",
        )
        call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="我很困",
            target_memory_description="我没心情工作",
            relation_type="导致",
        )
        me, t1, t2, t3, o2, o3, night, key = (
            "我",
            "失眠",
            "身体状态",
            "工作状态",
            "很困",
            "没心情",
            "2025-11-04 夜间",
            "时间",
        )
    else:  # "I couldn't sleep last night, so I'm very sleepy today and not in the mood to work"
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="event",
            topic="insomnia",
            attributes={"time": "last night"},
            importance=0.6,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="fact",
            topic="physical state",
            object="very sleepy",
            attributes={"time": "today"},
            importance=0.5,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="me",
            memory_type="FACT",
            topic="work motivation",
            object="none",
            attributes={"time": "2025-11-05"},
            importance=0.5,
        )
        l1 = call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="I had insomnia",
            target_memory_description="I am very sleepy",
            relation_type="causes",
        )
        call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="I am very sleepy",
            target_memory_description="I have no motivation for work",
            relation_type="causes",
        )
        me, t1, t2, t3, o2, o3, night, key = (
            "I",
            "insomnia",
            "physical state",
            "work motivation",
            "very sleepy",
            "none",
            "2025-11-04 night",
            "time",
        )

    # one user subject for three memories; "today" and "2025-11-05" are one shared Value node
    assert counts(neo4j_driver, group_id) == {
        "Memory": 3,
        "Subject": 1,
        "Topic": 3,
        "Object": 2,
        "Attribute": 3,
        "Value": 2,
    }
    assert chains(neo4j_driver, group_id) == {(me, "EVENT", t1, None), (me, "FACT", t2, o2), (me, "FACT", t3, o3)}
    assert memory_edges(neo4j_driver, group_id) == {(t1, "CAUSALITY", "causes", t2), (t2, "CAUSALITY", "causes", t3)}
    assert l1["edge_type"] == "CAUSALITY" and l1["cause_id"] == l1["source_id"]
    v = values(neo4j_driver, group_id)
    assert v[f"{t1}.{key}"]["value"] == night and v[f"{t1}.{key}"]["iso"] == "2025-11-04"
    assert v[f"{t2}.{key}"]["value"] == v[f"{t3}.{key}"]["value"] == "2025-11-05"


# --- 示例3: a reported statement and an opinion based on it ------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_opinion_based_on_a_report_is_a_reference(graph, neo4j_driver, group_id, lang):
    if lang == "zh":  # 用户："小明告诉我他考了满分，但我觉得他在吹牛"
        call(
            graph,
            group_id,
            "create_memory",
            subject="小明",
            memory_type="事件",
            topic="考试",
            object="满分",
            attributes={"来源": "小明本人陈述"},
            importance=0.4,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="观点",
            topic="怀疑",
            object="小明考满分的真实性",
            attributes={"评价": "可能在吹牛"},
            importance=0.5,
        )
        link = call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="小明考试满分",
            target_memory_description="我怀疑真实性",
            relation_type="基于",
        )
        chain = {("小明", "EVENT", "考试", "满分"), ("我", "OPINION", "怀疑", "小明考满分的真实性")}
        edges = {("考试", "REFERENCE", "based_on", "怀疑")}
    else:  # "Xiaoming told me he got full marks, but I think he is bragging"
        call(
            graph,
            group_id,
            "create_memory",
            subject="Xiaoming",
            memory_type="event",
            topic="exam",
            object="full marks",
            attributes={"source": "Xiaoming's own words"},
            importance=0.4,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="opinion",
            topic="doubt",
            object="the truth of Xiaoming's full marks",
            attributes={"judgement": "probably bragging"},
            importance=0.5,
        )
        link = call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="Xiaoming got full marks in the exam",
            target_memory_description="I doubt the truth of it",
            relation_type="based_on",
        )
        chain = {
            ("Xiaoming", "EVENT", "exam", "full marks"),
            ("I", "OPINION", "doubt", "the truth of Xiaoming's full marks"),
        }
        edges = {("exam", "REFERENCE", "based_on", "doubt")}
    assert counts(neo4j_driver, group_id) == {
        "Memory": 2,
        "Subject": 2,
        "Topic": 2,
        "Object": 2,
        "Attribute": 2,
        "Value": 2,
    }
    assert chains(neo4j_driver, group_id) == chain
    assert memory_edges(neo4j_driver, group_id) == edges
    assert link["edge_type"] == "REFERENCE" and link["cause_id"] is None


# --- §4.5.1 system-prompt examples -----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_system_prompt_examples(graph, neo4j_driver, group_id, lang):
    if lang == "zh":
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="事件",
            topic="购物",
            object="水果",
            attributes={"时间": "2025-11-04", "地点": "超市", "物品": "苹果,香蕉"},
            importance=0.4,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="关系",
            topic="朋友关系",
            object="小明",
            attributes={"程度": "好朋友"},
            importance=0.7,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="我",
            memory_type="观点",
            topic="讨厌",
            object="下雨天",
            importance=0.6,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="下雨天",
            memory_type="事实",
            topic="影响",
            object="我的心情",
            importance=0.5,
        )
        call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="下雨天影响心情",
            target_memory_description="我讨厌下雨天",
            relation_type="因为",
        )
        chain = {
            ("我", "EVENT", "购物", "水果"),
            ("我", "RELATION", "朋友关系", "小明"),
            ("我", "OPINION", "讨厌", "下雨天"),
            ("下雨天", "FACT", "影响", "我的心情"),
        }
        edges = {("影响", "CAUSALITY", "because", "讨厌")}
    else:
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="event",
            topic="shopping",
            object="fruit",
            attributes={"time": "2025-11-04", "place": "supermarket", "items": "apples, bananas"},
            importance=0.4,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="relation",
            topic="friendship",
            object="Xiaoming",
            attributes={"degree": "good friends"},
            importance=0.7,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="I",
            memory_type="opinion",
            topic="hate",
            object="rainy days",
            importance=0.6,
        )
        call(
            graph,
            group_id,
            "create_memory",
            subject="rainy days",
            memory_type="fact",
            topic="affect",
            object="my mood",
            importance=0.5,
        )
        call(
            graph,
            group_id,
            "link_memories",
            source_memory_description="rainy days affect my mood",
            target_memory_description="I hate rainy days",
            relation_type="because",
        )
        chain = {
            ("I", "EVENT", "shopping", "fruit"),
            ("I", "RELATION", "friendship", "Xiaoming"),
            ("I", "OPINION", "hate", "rainy days"),
            ("rainy days", "FACT", "affect", "my mood"),
        }
        edges = {("affect", "CAUSALITY", "because", "hate")}
    # the user and 下雨天 / "rainy days" as subjects; 下雨天 is also an Object: one node with both
    # labels (counted under its first, Subject)
    assert counts(neo4j_driver, group_id) == {
        "Memory": 4,
        "Subject": 2,
        "Topic": 4,
        "Object": 3,
        "Attribute": 4,
        "Value": 4,
    }
    rainy = "下雨天" if lang == "zh" else "rainy days"
    rows, _, _ = neo4j_driver.execute_query(
        "MATCH (n:Concept {group_id: $g, name: $name}) RETURN labels(n) AS labels", g=group_id, name=rainy
    )
    assert [sorted(r["labels"]) for r in rows] == [["Concept", "Object", "Subject"]]
    assert chains(neo4j_driver, group_id) == chain
    assert memory_edges(neo4j_driver, group_id) == edges


# --- §12.5 the full scenario ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_section_12_5_scenario(graph, neo4j_driver, group_id, lang):
    t1, t2 = "2025-11-05T10:00:00+08:00", "2025-11-05T10:05:00+08:00"
    if lang == "zh":  # [10:00] "我今天心情不好"  [10:05] "因为昨晚没睡好"
        first = call(
            graph,
            group_id,
            "create_memory",
            reference_time=t1,
            subject="我",
            memory_type="事实",
            topic="心情",
            object="不好",
            attributes={"时间": "今天"},
        )
        second = call(
            graph,
            group_id,
            "create_memory",
            reference_time=t2,
            subject="我",
            memory_type="事件",
            topic="睡眠",
            object="不好",
            attributes={"时间": "昨晚"},
        )
        link = call(
            graph,
            group_id,
            "link_memories",
            reference_time=t2,
            source_memory_description="睡眠不好",
            target_memory_description="心情不好",
            relation_type="导致",
        )
        mood, sleep, bad, key = "心情", "睡眠", "不好", "时间"
    else:  # [10:00] "I'm in a bad mood today"  [10:05] "because I slept badly last night"
        first = call(
            graph,
            group_id,
            "create_memory",
            reference_time=t1,
            subject="I",
            memory_type="fact",
            topic="mood",
            object="bad",
            attributes={"time": "today"},
        )
        second = call(
            graph,
            group_id,
            "create_memory",
            reference_time=t2,
            subject="I",
            memory_type="event",
            topic="sleep",
            object="bad",
            attributes={"time": "last night"},
        )
        link = call(
            graph,
            group_id,
            "link_memories",
            reference_time=t2,
            source_memory_description="bad sleep",
            target_memory_description="bad mood",
            relation_type="causes",
        )
        mood, sleep, bad, key = "mood", "sleep", "bad", "time"

    # the object 不好 / bad is one shared node, reused by exact name
    assert counts(neo4j_driver, group_id) == {
        "Memory": 2,
        "Subject": 1,
        "Topic": 2,
        "Object": 1,
        "Attribute": 2,
        "Value": 2,
    }
    objects = {c["role"]: c for c in second["concepts"]}
    assert objects["object"]["reused"] and objects["object"]["reason"] == "exact"
    assert objects["subject"]["reused"] and objects["subject"]["reason"] == "user"
    assert (link["cause_id"], link["effect_id"]) == (second["memory_id"], first["memory_id"])
    assert memory_edges(neo4j_driver, group_id) == {(sleep, "CAUSALITY", "causes", mood)}
    # 昨晚 at 2025-11-05 10:05 (+08:00) is the night of 2025-11-04
    assert second["time_values"][key]["iso"] == "2025-11-04"
    assert second["time_values"][key]["part_of_day"] == "night"
    assert second["occurred_at"].startswith("2025-11-04")
    assert first["occurred_at"].startswith("2025-11-05")
    v = values(neo4j_driver, group_id)
    assert v[f"{sleep}.{key}"]["original"] in ("昨晚", "last night")
    assert v[f"{mood}.{key}"]["value"] == "2025-11-05"
    assert chains(neo4j_driver, group_id) == {
        (first["concepts"][0]["name"], "FACT", mood, bad),
        (first["concepts"][0]["name"], "EVENT", sleep, bad),
    }


# --- concept resolution -----------------------------------------------------------------------


def test_user_is_one_subject_in_both_languages(graph, neo4j_driver, group_id):
    first = graph.create_memory(group_id, "我", "事实", "喜好", "打篮球")  # 我喜欢打篮球
    second = graph.create_memory(group_id, "I", "fact", "like", "basketball")  # I like basketball
    s1, s2 = first.concepts[0], second.concepts[0]
    assert (s1.reused, s1.reason) == (False, "user (new)")
    assert (s2.reused, s2.reason) == (True, "user") and s2.id == s1.id
    assert counts(neo4j_driver, group_id)["Subject"] == 1
    rows, _, _ = neo4j_driver.execute_query(
        "MATCH (s:Subject {group_id: $g}) RETURN s.normalized_name AS key, s.aliases AS aliases", g=group_id
    )
    assert rows[0]["key"] == "@user" and set(rows[0]["aliases"]) == {"我", "I"}
    agent = graph.create_memory(group_id, "助手", "fact", "name", "graphmem")
    assert agent.concepts[0].reason == "agent (new)" and agent.concepts[0].id != s1.id


@pytest.mark.parametrize("old,new,low", [("情绪", "心情", 0.5), ("emotion", "mood", 0.6)])
def test_similar_topic_merges_only_above_the_threshold(graph, make_settings, neo4j_driver, group_id, old, new, low):
    graph.create_memory(group_id, "我", "事实", old, "不好")
    default = graph.create_memory(group_id, "我", "事实", new, "不好")
    topic = default.concepts[1]
    assert (topic.reused, topic.reason, topic.name) == (False, "new", new)  # default 0.95: not the same

    lenient = MemoryGraph(make_settings(resolution={"merge_threshold": low}))
    try:
        merged = lenient.create_memory(group_id + "-b", "我", "事实", old, "不好")
        merged = lenient.create_memory(group_id + "-b", "我", "事实", new, "不好")
    finally:
        lenient.close()
    topic = merged.concepts[1]
    assert topic.reused and topic.reason.startswith("vector 0.") and topic.name == old
    assert low < topic.similarity < 0.95
    assert f"{new}→{old}" in merged.message
    rows, _, _ = neo4j_driver.execute_query(
        "MATCH (t:Topic {group_id: $g}) RETURN t.name AS name, t.aliases AS aliases", g=group_id + "-b"
    )
    assert len(rows) == 1 and rows[0]["name"] == old and new in rows[0]["aliases"]
    neo4j_driver.execute_query("MATCH (n) WHERE n.group_id = $g DETACH DELETE n", g=group_id + "-b")


def test_unreadable_names_are_not_merged_by_their_embeddings(graph, neo4j_driver, group_id):
    """all-MiniLM-L6-v2 reads 购物 and 讨厌 as the same unknown tokens (cosine 1.0): still two topics."""
    graph.create_memory(group_id, "我", "事件", "购物", "水果")
    r = graph.create_memory(group_id, "我", "事件", "讨厌", "水果")
    assert r.concepts[1].reason == "new"
    assert counts(neo4j_driver, group_id)["Topic"] == 2


def test_a_batch_shares_new_concepts_and_embeds_once(graph, neo4j_driver, group_id):
    batch = [
        {
            "subject": "Alice",
            "memory_type": "event",
            "topic": "run",
            "object": "park",
            "attributes": {"time": f"2025-11-0{d}"},
        }
        for d in range(1, 4)
    ]
    results = graph.create_memories(group_id, batch, reference_time=REF)
    assert len({r.concepts[0].id for r in results}) == 1
    assert [r.concepts[1].reason for r in results] == ["new", "new", "new"]
    assert counts(neo4j_driver, group_id) == {
        "Memory": 3,
        "Subject": 1,
        "Topic": 1,
        "Object": 1,
        "Attribute": 3,
        "Value": 3,
    }


def test_a_large_batch_is_written_in_several_transactions_and_once(graph, neo4j_driver, group_id):
    """More than one transaction's worth: the concepts are shared across the transactions, the
    results come back in the order given, and a retry with the same request_id writes nothing."""
    from graphmem.builder.create import chunk_bounds

    laps = [f"lap {i % 7}" for i in range(650)]
    batch = [{"subject": "I", "memory_type": "event", "topic": "run", "object": lap} for lap in laps]
    results = graph.create_memories(group_id, batch, reference_time=REF, request_id="big")
    assert len(chunk_bounds(len(batch))) > 2
    assert [r.concepts[2].name for r in results] == laps
    assert len({r.concepts[0].id for r in results}) == len({r.concepts[1].id for r in results}) == 1
    assert len({r.concepts[2].id for r in results}) == 7
    assert {r.concepts[2].reason for r in results[-64:]} == {"exact"}  # the last transaction's
    assert counts(neo4j_driver, group_id) == {"Memory": 650, "Subject": 1, "Topic": 1, "Object": 7}
    again = graph.create_memories(group_id, batch, reference_time=REF, request_id="big")
    assert [r.memory_id for r in again] == [r.memory_id for r in results]
    assert counts(neo4j_driver, group_id)["Memory"] == 650


def test_vectors_reach_the_server_whole_and_the_debug_log_names_them(graph, neo4j_driver, group_id, caplog):
    """A memory's vector is stored as the embedder made it, written alone or in a batch, and a
    search's query vector reaches the server whole; the driver's debug log (which formats every
    query's parameters, on or off) shows each vector as a short name, not 768 numbers."""
    import logging
    import re

    with caplog.at_level(logging.DEBUG, logger="neo4j"):
        graph.create_memory(group_id, "小明", "事实", "喜欢", "篮球", reference_time=REF)
        graph.create_memories(
            group_id,
            [{"subject": "Alice", "memory_type": "event", "topic": "run", "object": obj} for obj in ("park", "beach")],
            reference_time=REF,
        )
        found = graph.search_memories(group_id, "小明喜欢什么运动？", mode="fast")
    assert found.results and found.results[0].text.startswith("小明")
    runs = [r.getMessage() for r in caplog.records if "C: RUN" in r.getMessage()]
    assert sum("<vector of" in m for m in runs) >= 3  # two writes and the search's scan
    numbers = re.compile(r"(-?\d\.\d+(e-?\d+)?, ){50}")
    assert not [m[:200] for m in runs if numbers.search(m)]
    rows, _, _ = neo4j_driver.execute_query(
        "MATCH (m:Memory {group_id: $g}) RETURN m.text AS text, m.embedding AS embedding", g=group_id
    )
    assert len(rows) == 3
    for row in rows:
        assert type(row["embedding"]) is list and row["embedding"] == graph.embedder.embed([row["text"]])[0]


# --- the rest of the API ------------------------------------------------------------------------


def test_forget_is_soft_and_restorable(graph, group_id):
    r = graph.create_memory(group_id, "我", "事件", "吃饭", "白米饭", {"时间": "今天"}, reference_time=REF)
    assert graph.forget(group_id, r.memory_id)["status"] == "archived"
    assert graph.get_memory(group_id, r.memory_id).status.value == "archived"
    assert [m.id for m in graph.list_memories(group_id, status="archived")] == [r.memory_id]
    hidden = dispatch(
        graph,
        {"name": "update_memory_importance", "arguments": {"memory_description": "我吃饭白米饭", "importance": 0.4}},
        group_id=group_id,
    )
    assert hidden["error"] == "NoMatchError"  # a forgotten memory is not matched
    assert graph.restore(group_id, r.memory_id)["status"] == "staged"  # back to what it was
    assert graph.get_memory(group_id, r.memory_id).status.value == "staged"
    graph.update_memory_importance(group_id, r.memory_id, 0.9)
    assert graph.get_memory(group_id, r.memory_id).importance == 0.9
    with pytest.raises(NotFoundError):
        graph.get_memory(group_id + "-other", r.memory_id)  # never across groups
    with pytest.raises(ValidationError) as err:
        graph.update_memory_importance(group_id, r.memory_id, 1.5)
    assert err.value.field == "importance"


def test_a_topic_said_of_anyone_reads_in_the_first_person_after_i(graph, group_id):
    # "I is a nurse" was how "I'm a nurse" read and was searched by; the topic stays as written
    r = graph.create_memory(group_id, "I", "FACT", "is a", "nurse", {})
    memory = graph.get_memory(group_id, r.memory_id)
    assert memory.text == "I am a nurse" and memory.topic == "is a"
    other = graph.create_memory(group_id, "Priya", "FACT", "is a", "nurse", {})
    assert graph.get_memory(group_id, other.memory_id).text == "Priya is a nurse"
