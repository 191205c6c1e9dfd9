"""One node per name: a name is one concept node within a group whatever role it plays (Subject in
one memory, Object or an attribute's Value in another), with each role's label on it; the walk of
a search crosses from one fact to the other through it; concurrent writers and consolidation keep
it one node."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

REF = "2025-11-05T10:00:00+08:00"

# everyday memories around the case, so a search has something to rank against
DISTRACTORS = {
    "zh": [
        ("我", "事件", "吃了", "拉面"),
        ("我", "观点", "喜欢", "绿茶"),
        ("妈妈", "事实", "住在", "成都"),
        ("我", "事件", "买了", "一把雨伞"),
        ("同事小王", "事件", "去了", "健身房"),
        ("我", "事实", "养了", "一只猫"),
        ("我", "事件", "看了", "一部电影"),
        ("我", "观点", "讨厌", "堵车"),
    ],
    "en": [
        ("I", "EVENT", "ate", "ramen"),
        ("I", "OPINION", "like", "green tea"),
        ("my mother", "FACT", "lives in", "Leeds"),
        ("I", "EVENT", "bought", "an umbrella"),
        ("my colleague Sam", "EVENT", "went to", "the gym"),
        ("I", "FACT", "have", "a cat"),
        ("I", "EVENT", "watched", "a film"),
        ("I", "OPINION", "hate", "traffic jams"),
    ],
}
# (the memory that names Marco as its Object, the one where he is the Subject, a question about
# the first that the second answers, a memory where the place is an Object)
CASES = {
    "zh": (
        ("我", "事件", "认识了", "Marco", {"地点": "波尔图"}),
        ("Marco", "事实", "周末开", "滑翔机", {}),
        "我在波尔图认识了谁？",
        ("我", "事件", "去了", "波尔图", {}),
    ),
    "en": (
        ("I", "EVENT", "met", "Marco", {"place": "Porto"}),
        ("Marco", "FACT", "flies", "gliders at weekends", {}),
        "who did I meet in Porto?",
        ("I", "EVENT", "travelled to", "Porto", {}),
    ),
}


def _labels(graph, group_id: str, name: str) -> list[list[str]]:
    rows = graph.store.run_text(
        "MATCH (n:Concept {group_id: $g}) WHERE n.name = $name OR $name IN n.aliases "
        "RETURN labels(n) AS labels, COUNT { (n)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT|VALUE]-() } AS uses",
        g=group_id,
        name=name,
    )
    return [sorted(r["labels"]) for r in rows]


def _write(graph, group_id, lang):
    met, flies, _, went = CASES[lang]
    for s, t, topic, o in DISTRACTORS[lang]:
        graph.create_memory(group_id, s, t, topic, o, reference_time=REF)
    first = graph.create_memory(group_id, *met[:4], attributes=met[4], reference_time=REF)
    second = graph.create_memory(group_id, *flies[:4], reference_time=REF)
    third = graph.create_memory(group_id, *went[:4], reference_time=REF)
    return first, second, third


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_name_is_one_node_whatever_role_it_plays(graph, group_id, lang):
    first, second, third = _write(graph, group_id, lang)
    place = "波尔图" if lang == "zh" else "Porto"
    # Marco: the Object of the first memory and the Subject of the second, one node
    assert _labels(graph, group_id, "Marco") == [["Concept", "Object", "Subject"]]
    marco = {c.id for r in (first, second) for c in r.concepts if c.name == "Marco"}
    assert len(marco) == 1
    assert [c.reason for c in second.concepts if c.role == "subject"] == ["exact"]
    # the place: an attribute Value of the first memory and the Object of the third, one node
    assert _labels(graph, group_id, place) == [["Concept", "Object", "Value"]]
    # a name first written as a Value gets the embedding a Topic or Object needs when it becomes one
    rows = graph.store.run_text(
        "MATCH (n:Object {group_id: $g, name: $name}) RETURN n.embedding IS NOT NULL AS embedded",
        g=group_id,
        name=place,
    )
    assert rows == [{"embedded": True}]
    # the role each plays is read from the memory's edges
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[r]->(c:Concept {name: 'Marco'}) RETURN m.id AS id, type(r) AS role",
        g=group_id,
    )
    assert {(r["id"], r["role"]) for r in rows} == {(first.memory_id, "HAS_OBJECT"), (second.memory_id, "HAS_SUBJECT")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_user_is_one_node_as_subject_and_as_object(graph, group_id, lang):
    if lang == "zh":
        a = graph.create_memory(group_id, "我", "事件", "喝了", "咖啡", reference_time=REF)
        b = graph.create_memory(group_id, "Ruth", "事件", "打电话给", "我", reference_time=REF)
        c = graph.create_memory(group_id, "我", "事实", "学习", "AI", reference_time=REF)
    else:
        a = graph.create_memory(group_id, "I", "EVENT", "drank", "coffee", reference_time=REF)
        b = graph.create_memory(group_id, "Ruth", "EVENT", "called", "me", reference_time=REF)
        c = graph.create_memory(group_id, "I", "FACT", "study", "AI", reference_time=REF)
    user = {x.id for x in a.concepts if x.role == "subject"}
    assert {x.id for x in b.concepts if x.role == "object"} == user
    # the agent's other names are things a user talks about: "AI" as an object is not the agent
    ai = next(x for x in c.concepts if x.role == "object")
    assert ai.id not in user and ai.reason == "new"
    rows = graph.store.run_text("MATCH (n:Concept {group_id: $g, kind: 'user'}) RETURN labels(n) AS l", g=group_id)
    assert [sorted(r["l"]) for r in rows] == [["Concept", "Object", "Subject"]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_search_walks_from_the_object_of_one_fact_to_the_subject_of_another(graph, group_id, lang):
    first, second, _ = _write(graph, group_id, lang)
    question = CASES[lang][2]
    for mode in ("auto", "deep"):
        response = graph.search_memories(group_id, question, expand_depth=1, mode=mode, reference_time=REF)
        by_id = {r.memory_id: r for r in response.results}
        if mode == "auto" and second.memory_id not in by_id:
            continue  # the planner may keep a plain question flat; deep always walks
        assert first.memory_id in by_id and by_id[first.memory_id].distance == 0
        reached = by_id[second.memory_id]
        assert reached.distance == 1, reached
        step = reached.path[-1]
        assert step.from_id == first.memory_id and step.via == "Marco" and step.edge == "HAS_OBJECT"
    flat = graph.search_memories(group_id, question, expand_depth=0, mode="fast", reference_time=REF)
    assert all(r.distance == 0 for r in flat.results)


def test_concurrent_writers_naming_one_person_in_two_roles_make_one_node(graph, group_id):
    def writer(t: int) -> None:
        for i in range(10):
            if (t + i) % 2:
                graph.create_memory(group_id, "Ruth", "EVENT", "went to", f"place {t}-{i}", reference_time=REF)
            else:
                graph.create_memory(group_id, "I", "EVENT", "met", "Ruth", {"time": f"day {i}"}, reference_time=REF)

    with ThreadPoolExecutor(6) as pool:
        for f in [pool.submit(writer, t) for t in range(6)]:
            f.result()
    assert _labels(graph, group_id, "Ruth") == [["Concept", "Object", "Subject"]]
    rows = graph.store.run_text(
        "MATCH (n:Concept {group_id: $g, name: 'Ruth'}) RETURN COUNT { (n)<-[:HAS_SUBJECT|HAS_OBJECT]-() } AS uses",
        g=group_id,
    )
    assert rows == [{"uses": 60}]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_consolidation_merges_spellings_across_roles_and_unmerge_restores_the_role(graph, group_id, lang):
    if lang == "zh":
        graph.create_memory(group_id, "我", "事件", "去了", "臺灣", reference_time=REF)
        graph.create_memory(group_id, "台湾", "事实", "有", "很多夜市", reference_time=REF)
        names = ("臺灣", "台湾")
    else:
        graph.create_memory(group_id, "I", "EVENT", "flew to", "New-York", reference_time=REF)
        graph.create_memory(group_id, "New York", "FACT", "has", "many museums", reference_time=REF)
        names = ("New-York", "New York")
    report = graph.consolidate(group_id)
    merge = next(m for m in report.concept_merges if {m.merged_name, m.survivor_name} == set(names))
    assert (
        _labels(graph, group_id, names[0]) == _labels(graph, group_id, names[1]) == [["Concept", "Object", "Subject"]]
    )
    graph.unmerge(group_id, merge.merge_id)
    # each is back in the role it had: the first an Object, the second a Subject
    assert _labels(graph, group_id, names[0]) == [["Concept", "Object"]]
    assert _labels(graph, group_id, names[1]) == [["Concept", "Subject"]]
    # a name written again after the unmerge goes to its own node again
    again = graph.create_memory(
        group_id, *(("我", "事件", "想去") if lang == "zh" else ("I", "EVENT", "miss")), names[0]
    )
    assert next(c for c in again.concepts if c.role == "object").reason == "exact"


def test_the_demo_answers_a_bridge_question_through_the_graph_and_prints_the_path(graph, group_id):
    import io

    from rich.console import Console

    from graphmem.demo import _bridges

    out = io.StringIO()
    _bridges(graph, group_id, Console(file=out, width=200))
    text = out.getvalue()
    assert "not reached" not in text
    assert "path: I met Marco (place: Porto; job: pilot)  —[HAS_OBJECT Marco]→  Marco flies gliders" in text
    assert "path: 我 认识了 阿杰 (地点: 成都; 职业: 消防员)  —[HAS_OBJECT 阿杰]→  阿杰 养了 两只柯基" in text
