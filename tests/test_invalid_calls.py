"""Whatever an LLM sends, nothing breaks: random invalid tool calls come back as structured
errors (never an exception, never a Cypher error) and leave the graph exactly as it was;
the Python API raises only ValidationError for the same arguments. Cypher-looking text in a
valid call is stored as text, never run."""

from __future__ import annotations

import json
import math
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import ValidationError
from graphmem.tools import dispatch
from graphmem.types import MAX_ATTRIBUTES, MAX_KEY, MAX_NAME, MAX_QUERY, MAX_VALUE

INJECTIONS = [
    "'}) DETACH DELETE n //",
    '") MATCH (n) DETACH DELETE n //',
    "$group_id",
    "` RETURN 1 //",
    "1}) WITH 1 AS x CALL db.clearQueryCaches() //",
    "{group_id: 'other'}",
    "\\u0027; DROP",
    "MATCH (n) RETURN n",
    "*:* OR group_id:*",
    'group_id:"t-other"',
    "') RETURN 1 UNION MATCH (m) RETURN m //",
]
GOOD_ERRORS = {"ValidationError", "UnknownTool"}

texts = st.one_of(
    st.sampled_from(INJECTIONS),
    st.sampled_from(["我", "I", "小明", "吃饭", "basketball"]),
    st.text(min_size=1, max_size=30).filter(str.strip),
)
wrong_types = st.one_of(
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
bad_numbers = st.one_of(
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
    st.floats(max_value=-1e-9),
    st.floats(min_value=1.000001, allow_infinity=False),
    st.integers(min_value=2),
    st.integers(max_value=-1),
    st.just(10**400),
    st.sampled_from(["high", "", "0.5x", "NaN"]),
    st.booleans(),
    st.lists(st.floats(), max_size=2),
)
bad_enums = st.one_of(
    st.sampled_from(["心情", "memory", "EVENTS", "事 件", "事", "因此", "cause-effect", "", "DELETE"]),
    st.sampled_from(INJECTIONS),
    wrong_types,
)
too_long = st.sampled_from([MAX_NAME + 1, MAX_QUERY + 1, 10_000]).map(lambda n: "长" * n)
blank = st.sampled_from(["", "   ", "\n\t", "a\x00b", "\x1b[31m"])


def base_create(draw) -> dict:
    args = {
        "subject": draw(texts),
        "memory_type": draw(st.sampled_from(["事件", "fact", "Opinion", "关系"])),
        "topic": draw(texts),
    }
    if draw(st.booleans()):
        args["object"] = draw(texts)
    if draw(st.booleans()):
        args["attributes"] = {"时间": draw(st.sampled_from(["昨晚", "last Friday", "'})//"])), "地点": draw(texts)}
    if draw(st.booleans()):
        args["importance"] = draw(st.floats(min_value=0, max_value=1))
    return args


@st.composite
def invalid_create(draw) -> dict:
    args = base_create(draw)
    kind = draw(
        st.sampled_from(["subject", "topic", "object", "memory_type", "importance", "attributes", "missing", "extra"])
    )
    if kind in ("subject", "topic", "object"):
        # an empty or missing object is allowed (None): only the other bad values for it
        args[kind] = draw(
            st.one_of(
                too_long,
                blank.filter(lambda b: kind != "object" or b.strip()),
                wrong_types.filter(lambda v: v is not None or kind != "object"),
            )
        )
    elif kind == "memory_type":
        args["memory_type"] = draw(bad_enums)
    elif kind == "importance":
        args["importance"] = draw(bad_numbers)
    elif kind == "attributes":
        args["attributes"] = draw(
            st.one_of(
                st.sampled_from(["时间=昨晚", ["时间", "昨晚"], 42]),
                st.just({f"k{i}": "v" for i in range(MAX_ATTRIBUTES + 1)}),
                st.just({"k" * (MAX_KEY + 1): "v"}),
                st.just({"时间": "晚" * (MAX_VALUE + 1)}),
                st.builds(
                    lambda v: {"时间": v},
                    st.one_of(
                        st.lists(st.text(), max_size=2),
                        st.none(),
                        st.booleans(),
                        st.dictionaries(st.text(max_size=2), st.text(max_size=2)),
                    ),
                ),
                st.just({"": "x"}),
                st.just({"时间": ""}),
            )
        )
    elif kind == "missing":
        del args[draw(st.sampled_from(["subject", "memory_type", "topic"]))]
    else:
        args[draw(st.sampled_from(["group_id", "query", "subjectt", "DETACH DELETE n"]))] = draw(texts)
    return args


@st.composite
def invalid_call(draw) -> tuple[object, dict | None]:
    """(the tool call as sent, the create_memory arguments when it is one)."""
    which = draw(st.sampled_from(["create", "create", "create", "link", "update", "search", "junk"]))
    if which == "create":
        args = draw(invalid_create())
        as_text = draw(st.booleans())
        payload = json.dumps(args, ensure_ascii=False) if as_text else args  # NaN survives json.dumps
        return {"type": "function", "function": {"name": "create_memory", "arguments": payload}}, args
    if which == "link":
        args = {
            "source_memory_description": draw(texts),
            "target_memory_description": draw(texts),
            "relation_type": draw(st.sampled_from(["导致", "based_on", "related"])),
        }
        kind = draw(st.sampled_from(["relation_type", "importance", "source_memory_description", "missing"]))
        if kind == "relation_type":
            args["relation_type"] = draw(bad_enums)
        elif kind == "importance":
            args["importance"] = draw(bad_numbers)
        elif kind == "source_memory_description":
            args[kind] = draw(st.one_of(st.just("长" * (MAX_QUERY + 1)), blank, wrong_types))
        else:
            del args["target_memory_description"]
        return {"name": "link_memories", "arguments": args}, None
    if which == "update":
        args = draw(
            st.sampled_from(
                [
                    {"importance": 0.5},
                    {"memory_id": "x", "importance": math.nan},
                    {"memory_description": "我", "importance": 2},
                    {"memory_id": 5, "importance": 0.1},
                    {"memory_id": "x"},
                    {"memory_id": "x", "importance": 0.1, "extra": 1},
                ]
            )
        )
        return {"name": "update_memory_importance", "arguments": args}, None
    if which == "search":
        args = draw(
            st.sampled_from(
                [
                    {},
                    {"query": ""},
                    {"query": 5},
                    {"query": "x", "max_results": 0},
                    {"query": "x", "max_results": 10**6},
                    {"query": "x", "expand_depth": -1},
                    {"query": "x", "mode": "turbo"},
                    {"query": "x", "memory_types": ["心情"]},
                    {"query": "x", "relation_filters": ["因此"]},
                    {"query": "x", "unknown": 1},
                    {"query": "x", "time_range": {"start": "not a date"}},
                    {"query": "长" * (MAX_QUERY + 1)},
                ]
            )
        )
        return {"name": "search_memories", "arguments": args}, None
    junk = draw(
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(INJECTIONS),
            st.integers(),
            st.none(),
            st.sampled_from(
                [
                    '{"name": "create_memory", "arguments": "{\\"subject\\": "}',
                    '{"function": {"name": "create_memory", "arguments": [1, 2]}}',
                    '{"name": "drop_database", "arguments": {}}',
                    "[]",
                    "{}",
                    '{"name": "create_memory", "arguments": "' + "[" * 5000 + '"}',
                ]
            ),
        )
    )
    return junk, None


@pytest.fixture(scope="module")
def fuzz_group(graph):
    group = "fuzz-" + uuid.uuid4().hex[:10]
    graph.create_memory(group, "我", "事件", "吃饭", "白米饭", {"时间": "今天"})  # something to protect
    return group


def node_count(driver, group: str) -> int:
    rows, _, _ = driver.execute_query("MATCH (n) WHERE n.group_id = $g RETURN count(n) AS n", g=group)
    return rows[0]["n"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(case=invalid_call())
def test_invalid_tool_calls_answer_with_a_structured_error_and_write_nothing(graph, neo4j_driver, fuzz_group, case):
    call, create_args = case
    before = node_count(neo4j_driver, fuzz_group)
    result = dispatch(graph, call, group_id=fuzz_group)
    assert result["success"] is False, result
    assert result["error"] in GOOD_ERRORS, result  # never InternalError / a Cypher error
    assert result["message"] and "Neo.ClientError" not in result["message"]
    json.dumps(result, allow_nan=False)  # the model can read it back
    assert node_count(neo4j_driver, fuzz_group) == before

    if create_args is not None:  # the Python API: only ValidationError
        with pytest.raises(ValidationError):
            graph.create_memories(fuzz_group, [create_args])
        assert node_count(neo4j_driver, fuzz_group) == before


@pytest.mark.parametrize("text", INJECTIONS)
def test_cypher_looking_text_is_stored_verbatim(graph, neo4j_driver, group_id, text):
    other = graph.create_memory(group_id + "-other", "我", "事件", "吃饭", "白米饭")
    result = dispatch(
        graph,
        {
            "name": "create_memory",
            "arguments": {
                "subject": text,
                "memory_type": "事实",
                "topic": text,
                "object": text,
                "attributes": {text: text},
            },
        },
        group_id=group_id,
    )
    assert result["success"], result
    memory = graph.get_memory(group_id, result["memory_id"])
    assert (memory.subject, memory.topic, memory.object, memory.attributes) == (text, text, text, {text: text})
    linked = dispatch(
        graph,
        {
            "name": "link_memories",
            "arguments": {
                "source_memory_description": text,
                "target_memory_description": text,
                "relation_type": "相关",
            },
        },
        group_id=group_id,
    )
    assert linked["error"] in ("ValidationError", "NoMatchError", "AmbiguousMatchError")
    assert graph.get_memory(group_id + "-other", other.memory_id).text == "我 吃饭 白米饭"  # untouched
    # memory, attribute, and the one node of the name, which is subject, topic, object and value at once
    assert node_count(neo4j_driver, group_id) == 3
    neo4j_driver.execute_query(
        "MATCH (n) WHERE n.group_id IN [$a, $b] DETACH DELETE n", a=group_id, b=group_id + "-other"
    )
