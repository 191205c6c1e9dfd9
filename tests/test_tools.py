"""The tool surface an LLM sees: schemas as plain data, and a dispatcher that takes whatever
shape of tool call a model or SDK produces and always answers with something readable."""

from __future__ import annotations

import asyncio
import json

import pytest

import graphmem
from graphmem.tools import TOOLS, adispatch, dispatch
from graphmem.types import MemoryType, RelationType, parse_memory_type, parse_relation_type

REF = "2025-11-05T10:00:00+08:00"


def schema(name: str) -> dict:
    return next(t["function"] for t in TOOLS if t["function"]["name"] == name)


def test_tools_are_openai_function_schemas_matching_the_seed():
    assert [t["type"] for t in TOOLS] == ["function"] * 4
    assert [t["function"]["name"] for t in TOOLS] == [
        "create_memory",
        "link_memories",
        "search_memories",
        "update_memory_importance",
    ]
    json.loads(json.dumps(TOOLS, ensure_ascii=False))  # plain data, nothing to call
    create = schema("create_memory")["parameters"]
    assert create["required"] == ["subject", "memory_type", "topic"]
    assert create["properties"]["memory_type"]["enum"][:4] == ["事件", "事实", "关系", "观点"]
    assert {"event", "fact", "relation", "opinion"} <= set(create["properties"]["memory_type"]["enum"])
    assert create["properties"]["attributes"]["additionalProperties"] == {"type": "string", "maxLength": 500}
    assert (create["properties"]["importance"]["minimum"], create["properties"]["importance"]["maximum"]) == (0, 1)
    link = schema("link_memories")["parameters"]
    assert link["properties"]["relation_type"]["enum"][:6] == ["因为", "所以", "导致", "引用", "基于", "相关"]
    search = schema("search_memories")["parameters"]
    assert {
        "query",
        "memory_types",
        "time_range",
        "max_results",
        "expand_depth",
        "mode",
        "relation_filters",
        "subject",
        "profile",
        "as_of",
    } == set(search["properties"])
    assert schema("update_memory_importance")["parameters"]["required"] == ["importance"]
    assert graphmem.TOOLS is TOOLS and graphmem.dispatch is dispatch


def test_every_enum_value_the_schemas_advertise_is_accepted():
    for value in schema("create_memory")["parameters"]["properties"]["memory_type"]["enum"]:
        assert isinstance(parse_memory_type(value), MemoryType)
    for value in schema("link_memories")["parameters"]["properties"]["relation_type"]["enum"]:
        assert isinstance(parse_relation_type(value), RelationType)
    assert parse_relation_type("因为").edge_type.value == "CAUSALITY"
    assert parse_relation_type("基于").edge_type.value == "REFERENCE"


@pytest.mark.parametrize("shape", ["openai", "bare-dict-arguments", "raw-json", "parameters-key"])
def test_dispatch_accepts_the_shapes_models_produce(graph, group_id, shape):
    args = {"subject": "我", "memory_type": "事件", "topic": "吃饭", "object": "白米饭", "attributes": {"时间": "今天"}}
    call = {
        "openai": {
            "id": "call_abc",
            "type": "function",
            "function": {"name": "create_memory", "arguments": json.dumps(args, ensure_ascii=False)},
        },
        "bare-dict-arguments": {"name": "create_memory", "arguments": args},
        "raw-json": json.dumps({"name": "create_memory", "arguments": args}, ensure_ascii=False),
        "parameters-key": {"name": "create_memory", "parameters": args},
    }[shape]
    result = dispatch(graph, call, group_id=group_id, session_id="s1", reference_time=REF)
    assert result["success"] and result["tool"] == "create_memory"
    assert result["text"] == "我 吃饭 白米饭 (时间: 2025-11-05)"
    assert result.get("tool_call_id") == ("call_abc" if shape == "openai" else None)
    memory = graph.get_memory(group_id, result["memory_id"])
    assert (memory.session_id, memory.source) == ("s1", "tool")


def test_update_importance_by_id_or_by_description(graph, group_id):
    a = dispatch(
        graph,
        {
            "name": "create_memory",
            "arguments": {"subject": "我", "memory_type": "事件", "topic": "失眠", "attributes": {"时间": "昨晚"}},
        },
        group_id=group_id,
        reference_time=REF,
    )
    dispatch(
        graph,
        {
            "name": "create_memory",
            "arguments": {"subject": "我", "memory_type": "事实", "topic": "工作", "object": "程序员"},
        },
        group_id=group_id,
    )
    by_id = dispatch(
        graph,
        {"name": "update_memory_importance", "arguments": {"memory_id": a["memory_id"], "importance": 0.9}},
        group_id=group_id,
    )
    assert by_id["success"] and graph.get_memory(group_id, a["memory_id"]).importance == 0.9
    by_text = dispatch(
        graph,
        {"name": "update_memory_importance", "arguments": {"memory_description": "我失眠", "importance": 0.2}},
        group_id=group_id,
    )
    assert by_text["success"] and by_text["id"] == a["memory_id"] and by_text["text"].startswith("我 失眠")
    assert graph.get_memory(group_id, a["memory_id"]).importance == 0.2
    neither = dispatch(graph, {"name": "update_memory_importance", "arguments": {"importance": 0.2}}, group_id=group_id)
    assert neither["error"] == "ValidationError" and "memory_id" in neither["message"]
    missing = dispatch(
        graph,
        {"name": "update_memory_importance", "arguments": {"memory_id": "no-such-id", "importance": 0.2}},
        group_id=group_id,
    )
    assert missing["error"] == "NotFoundError" and "no-such-id" in missing["message"]


@pytest.mark.real_models  # whether a description matches nothing is a question of meaning
def test_link_errors_list_the_candidates_with_scores(real_graph, group_id):
    graph = real_graph
    for day in ("2025-11-03", "2025-11-04"):
        dispatch(
            graph,
            {
                "name": "create_memory",
                "arguments": {
                    "subject": "我",
                    "memory_type": "事件",
                    "topic": "吃饭",
                    "object": "白米饭",
                    "attributes": {"时间": day},
                },
            },
            group_id=group_id,
        )
    dispatch(
        graph,
        {
            "name": "create_memory",
            "arguments": {"subject": "我", "memory_type": "事实", "topic": "身体状态", "object": "很困"},
        },
        group_id=group_id,
    )
    ambiguous = dispatch(
        graph,
        {
            "name": "link_memories",
            "arguments": {
                "source_memory_description": "我吃白米饭",
                "target_memory_description": "我很困",
                "relation_type": "导致",
            },
        },
        group_id=group_id,
    )
    assert ambiguous["success"] is False and ambiguous["error"] == "AmbiguousMatchError"
    assert "source_memory_description" in ambiguous["message"]
    texts = [c["text"] for c in ambiguous["candidates"]]
    assert {"我 吃饭 白米饭 (时间: 2025-11-03)", "我 吃饭 白米饭 (时间: 2025-11-04)"} <= set(texts[:2])
    assert all(isinstance(c["score"], float) and c["id"] for c in ambiguous["candidates"])

    missing = dispatch(
        graph,
        {
            "name": "link_memories",
            "arguments": {
                "source_memory_description": "quarterly revenue forecast for the Berlin office",
                "target_memory_description": "我很困",
                "relation_type": "related",
            },
        },
        group_id=group_id,
    )
    assert missing["error"] == "NoMatchError" and "source_memory_description" in missing["message"]
    from graphmem.builder.link import MIN_SCORE

    assert missing["candidates"] and all(c["score"] < MIN_SCORE for c in missing["candidates"])
    scores = [c["score"] for c in missing["candidates"]]
    assert scores == sorted(scores, reverse=True)


def test_structured_errors_for_what_a_model_gets_wrong(graph, group_id):
    unknown = dispatch(graph, {"name": "delete_everything", "arguments": "{}"}, group_id=group_id)
    assert unknown["error"] == "UnknownTool" and "create_memory" in unknown["allowed"]
    bad_json = dispatch(graph, {"name": "create_memory", "arguments": '{"subject": "我", '}, group_id=group_id)
    assert bad_json["error"] == "ValidationError" and bad_json["field"] == "arguments"
    bad_type = dispatch(
        graph,
        {"name": "create_memory", "arguments": {"subject": "我", "memory_type": "心情", "topic": "x"}},
        group_id=group_id,
    )
    assert bad_type["field"] == "memory_type" and "事件" in bad_type["allowed"] and "event" in bad_type["allowed"]
    bad_rel = dispatch(
        graph,
        {
            "name": "link_memories",
            "arguments": {"source_memory_description": "a", "target_memory_description": "b", "relation_type": "因此"},
        },
        group_id=group_id,
    )
    assert bad_rel["field"] == "relation_type" and "导致" in bad_rel["allowed"]
    not_a_call = dispatch(graph, "just some text the model wrote", group_id=group_id)
    assert not_a_call["error"] == "ValidationError"
    no_group = dispatch(
        graph,
        {"name": "create_memory", "arguments": {"subject": "我", "memory_type": "事件", "topic": "x"}},
        group_id="",
    )
    assert no_group["error"] == "ValidationError" and no_group["field"] == "group_id"
    for result in (unknown, bad_json, bad_type, bad_rel, not_a_call, no_group):
        assert result["success"] is False and result["message"]
        json.dumps(result)


def test_search_through_dispatch(graph, group_id):
    created = dispatch(
        graph,
        {
            "name": "create_memory",
            "arguments": {
                "subject": "我",
                "memory_type": "事实",
                "topic": "心情",
                "object": "不好",
                "attributes": {"时间": "今天"},
            },
        },
        group_id=group_id,
        reference_time=REF,
    )
    result = dispatch(
        graph,
        {
            "name": "search_memories",
            "arguments": {"query": "我的心情怎么样", "max_results": 5, "mode": "fast", "memory_types": ["事实"]},
        },
        group_id=group_id,
        reference_time=REF,
    )
    if result.get("error") == "NotImplemented":
        pytest.skip("graphmem/retriever is not there yet")
    assert result["success"], result
    json.dumps(result)
    assert created["memory_id"] in json.dumps(result)
    bad = dispatch(
        graph, {"name": "search_memories", "arguments": {"query": "x", "expand_depth": 7}}, group_id=group_id
    )
    assert bad["error"] == "ValidationError" and bad["field"] == "expand_depth"


def test_adispatch_runs_the_same_calls_from_async_code(async_graph, group_id):
    async def main():
        calls = [
            {
                "name": "create_memory",
                "arguments": {"subject": "I", "memory_type": "event", "topic": "run", "object": f"{k} km"},
            }
            for k in (3, 5, 10)
        ]
        return await asyncio.gather(*(adispatch(async_graph, c, group_id=group_id) for c in calls))

    results = asyncio.run(main())
    assert all(r["success"] for r in results)
    assert len({r["concepts"][0]["id"] for r in results}) == 1  # one user subject
