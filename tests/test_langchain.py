"""LangChain tools and retriever, and the LangGraph store, on the real database. The agent is a
LangGraph ReAct loop driven by LangChain's own scripted fake chat model (no LLM here): it is the
wiring that is tested, against real memories."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.tools import create_retriever_tool  # noqa: E402
from langgraph.store.base import InvalidNamespaceError  # noqa: E402

from graphmem.integrations.langchain import GraphmemRetriever, GraphmemStore, graphmem_tools  # noqa: E402

REF = "2025-11-05T10:00:00+08:00"
SLEEP = {"subject": "我", "memory_type": "事件", "topic": "睡眠", "object": "不好", "attributes": {"时间": "昨晚"}}
MOOD = {"subject": "我", "memory_type": "事实", "topic": "心情", "object": "不好", "attributes": {"时间": "今天"}}


class ScriptedModel(FakeMessagesListChatModel):
    """LangChain's fake chat model, plus the bind_tools a ReAct agent asks for."""

    def bind_tools(self, tools, **kwargs):
        return self


def call(name: str, i: int, **args) -> dict:
    return {"name": name, "args": args, "id": f"call_{i}", "type": "tool_call"}


def react_agent(model, tools):
    """The ReAct loop: the model speaks, ToolNode runs the tool calls it made, until it answers."""
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    bound = model.bind_tools(tools)
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [bound.invoke(state["messages"])]})
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile()


def test_a_langgraph_agent_writes_links_and_recalls_through_graphmem_tools_and_retriever(graph, group_id):
    tools = graphmem_tools(graph, group_id)
    assert [t.name for t in tools] == [
        "create_memory",
        "link_memories",
        "search_memories",
        "update_memory_importance",
        "forget_memory",
        "ingest_conversation",
        "get_memory",
        "memory_stats",
    ]
    assert [t.name for t in graphmem_tools(graph, group_id, tools="core")] == [t.name for t in tools][:4]
    recall = create_retriever_tool(
        GraphmemRetriever(graph=graph, group_id=group_id, max_results=5),
        "recall",
        "Recall memories relevant to a question.",
    )
    other = "other-" + group_id
    model = ScriptedModel(
        responses=[
            AIMessage("", tool_calls=[call("create_memory", 1, **SLEEP), call("create_memory", 2, **MOOD)]),
            AIMessage(
                "",
                tool_calls=[
                    call(
                        "link_memories",
                        3,
                        source_memory_description="我昨晚睡眠不好",
                        target_memory_description="我今天心情不好",
                        relation_type="导致",
                    )
                ],
            ),
            AIMessage(
                "",
                tool_calls=[
                    call("search_memories", 4, query="我为什么今天不开心？"),
                    call("recall", 5, query="我为什么今天不开心？"),
                    call("create_memory", 6, subject="我", memory_type="事实", topic="秘密", group_id=other),
                ],
            ),
            AIMessage("因为你昨晚没睡好。"),
        ]
    )
    agent = react_agent(model, tools + [recall])
    out = agent.invoke({"messages": [HumanMessage("我昨晚没睡好，所以今天心情不好。我为什么不开心？")]})
    answers = {m.tool_call_id: m.content for m in out["messages"] if isinstance(m, ToolMessage)}
    assert json.loads(answers["call_1"])["success"] and json.loads(answers["call_2"])["success"]
    assert json.loads(answers["call_3"])["edge_type"] == "CAUSALITY"
    found = json.loads(answers["call_4"])
    sleep = next(r for r in found["results"] if "睡眠" in r["text"])
    assert sleep["path"][0]["edge"] == "CAUSALITY"  # the cause, through the graph
    assert "睡眠" in answers["call_5"] and "心情" in answers["call_5"]
    refused = json.loads(answers["call_6"])
    assert refused["success"] is False and refused["field"] == "group_id"
    assert out["messages"][-1].content == "因为你昨晚没睡好。"
    assert len(graph.list_memories(group_id)) == 2 and graph.list_memories(other) == []


def test_tools_run_async_too(async_graph, group_id):
    tools = {t.name: t for t in graphmem_tools(async_graph, group_id)}

    async def run():
        created = json.loads(await tools["create_memory"].ainvoke(MOOD))
        got = json.loads(await tools["get_memory"].ainvoke({"memory_id": created["memory_id"]}))
        bad = json.loads(
            await tools["update_memory_importance"].ainvoke({"memory_id": created["memory_id"], "importance": 3})
        )
        return created, got, bad

    created, got, bad = asyncio.run(run())
    assert got["memory"]["topic"] == "心情" and bad["success"] is False and bad["field"] == "importance"


def test_retriever_documents_carry_score_parts_path_and_evidence(graph, group_id):
    graph.ingest(
        group_id,
        [{"role": "user", "content": "我昨晚没睡好。"}],
        session_id="s1",
        reference_time=REF,
        extractor="rules",
    )
    graph.create_memory(group_id, **MOOD, reference_time=REF)
    graph.link_memories(group_id, "我昨晚没睡好", "我今天心情不好", "导致")
    retriever = GraphmemRetriever(graph=graph, group_id=group_id, search_kwargs={"reference_time": REF})
    docs = retriever.invoke("我为什么今天不开心？")
    assert docs and docs[0].metadata["score"] >= docs[-1].metadata["score"]
    cause = next(d for d in docs if "睡好" in d.page_content)
    assert set(cause.metadata["score_parts"]) == {
        "similarity",
        "importance",
        "distance",
        "time_decay",
        "access",
        "rerank",
    }
    assert cause.metadata["evidence"][0]["content"] == "我昨晚没睡好。"
    assert cause.metadata["memory_id"] == cause.id and cause.metadata["group_id"] == group_id
    assert [d.id for d in asyncio.run(retriever.ainvoke("我为什么今天不开心？"))] == [d.id for d in docs]


# --- the LangGraph store -----------------------------------------------------------------------------


@pytest.fixture
def store(graph):
    return GraphmemStore(graph)


def test_store_put_get_overwrite_delete(store, group_id):
    ns = (group_id, "memories")
    store.put(ns, "k1", {"text": "I like green tea", "kind": "preference", "n": 1})
    item = store.get(ns, "k1")
    assert item.value == {"text": "I like green tea", "kind": "preference", "n": 1}
    assert item.namespace == ns and item.key == "k1" and item.created_at == item.updated_at
    store.put(ns, "k1", {"text": "I like black coffee", "kind": "preference", "n": 2})
    again = store.get(ns, "k1")
    assert again.value["n"] == 2 and again.created_at == item.created_at and again.updated_at > item.updated_at
    assert store.get((group_id, "other"), "k1") is None
    store.delete(ns, "k1")
    assert store.get(ns, "k1") is None


def test_store_search_by_meaning_filter_prefix_and_paging(store, group_id):
    store.put((group_id, "memories"), "tea", {"text": "I drink green tea every morning", "kind": "habit", "n": 1})
    store.put((group_id, "memories"), "bus", {"text": "I missed the bus to work", "kind": "event", "n": 2})
    store.put((group_id, "memories", "zh"), "sleep", {"text": "我昨晚没睡好", "kind": "event", "n": 3})
    store.put((group_id, "prefs"), "secret", {"text": "tea"}, index=False)
    hits = store.search((group_id, "memories"), query="what do I drink?")
    assert [h.key for h in hits][0] == "tea" and len(hits) == 3 and hits[0].score > hits[-1].score
    assert {h.key for h in store.search((group_id, "memories"), filter={"kind": "event"})} == {"bus", "sleep"}
    assert [h.key for h in store.search((group_id, "memories"), filter={"n": {"$gte": 2, "$lt": 3}})] == ["bus"]
    assert [h.key for h in store.search((group_id, "memories", "zh"))] == ["sleep"]
    assert len(store.search((group_id,), limit=2)) == 2 and len(store.search((group_id,), offset=3)) == 1
    secret = store.search((group_id, "prefs"), query="tea")
    assert [h.key for h in secret] == ["secret"] and secret[0].score is None  # stored, not indexed
    everything = store.search((group_id,), query="what do I drink?")
    assert everything[0].key == "tea" and everything[-1].key == "secret"  # unscored ones last


def test_store_list_namespaces_and_group_isolation(graph, group_id):
    other = "other-" + group_id
    store = GraphmemStore(graph, groups=[group_id, other])
    store.put((group_id, "a", "x"), "1", {"v": 1})
    store.put((group_id, "b"), "1", {"v": 1})
    store.put((other, "a", "x"), "1", {"v": "theirs"})
    assert store.list_namespaces(prefix=(group_id,)) == [(group_id, "a", "x"), (group_id, "b")]
    assert store.list_namespaces(prefix=(group_id,), max_depth=2) == [(group_id, "a"), (group_id, "b")]
    assert store.list_namespaces(suffix=("x",)) == sorted([(group_id, "a", "x"), (other, "a", "x")])
    assert store.search((group_id,), query="theirs") and all(
        h.namespace[0] == group_id for h in store.search((group_id,), query="theirs")
    )
    assert store.get((group_id, "a", "x"), "1").value == {"v": 1}
    with pytest.raises(InvalidNamespaceError):
        store.put(("intruder", "a"), "1", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.get((), "1")
    # a store not limited to some groups lists one group's namespaces only when asked for that group
    anywhere = GraphmemStore(graph)
    assert anywhere.list_namespaces(prefix=(other,)) == [(other, "a", "x")]
    with pytest.raises(InvalidNamespaceError, match="prefix"):
        anywhere.list_namespaces()
    # the store lives beside the memory graph of the same group and leaves it alone
    assert graph.list_memories(group_id) == []


def test_store_async_api(store, group_id):
    async def run():
        await store.aput((group_id, "m"), "k", {"text": "我喜欢绿茶"})
        got = await store.aget((group_id, "m"), "k")
        hits = await store.asearch((group_id,), query="我喜欢喝什么茶？")
        spaces = await store.alist_namespaces(prefix=(group_id,))
        await store.adelete((group_id, "m"), "k")
        return got, hits, spaces, await store.aget((group_id, "m"), "k")

    got, hits, spaces, gone = asyncio.run(run())
    assert got.value == {"text": "我喜欢绿茶"} and hits[0].key == "k" and spaces == [(group_id, "m")] and gone is None


def test_a_langgraph_agent_keeps_long_term_memory_in_the_store(graph, group_id):
    """A LangGraph graph whose node reads and writes ``store`` (injected by LangGraph) keeps what it
    learnt across threads, in graphmem."""
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.store.base import BaseStore

    def remember(state: MessagesState, config, *, store: BaseStore):
        user = config["configurable"]["user_id"]
        text = state["messages"][-1].content
        if text.startswith("remember:"):
            store.put((user, "facts"), uuid.uuid4().hex, {"text": text.removeprefix("remember:").strip()})
            return {"messages": [AIMessage("noted")]}
        hits = store.search((user, "facts"), query=text, limit=1)
        return {"messages": [AIMessage(hits[0].value["text"] if hits else "I don't know")]}

    builder = StateGraph(MessagesState)
    builder.add_node("remember", remember)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", END)
    app = builder.compile(store=GraphmemStore(graph))
    cfg = {"configurable": {"user_id": group_id}}
    app.invoke({"messages": [HumanMessage("remember: my sister lives in Chengdu")]}, cfg)
    app.invoke({"messages": [HumanMessage("remember: 我对花生过敏")]}, cfg)
    answer = app.invoke({"messages": [HumanMessage("我对什么过敏？")]}, cfg)["messages"][-1].content
    assert answer == "我对花生过敏"
    stranger = app.invoke(
        {"messages": [HumanMessage("我对什么过敏？")]}, {"configurable": {"user_id": "stranger-" + group_id}}
    )["messages"][-1].content
    assert stranger == "I don't know"
