"""Chinese, English and mixed memories are equally findable, on the real database, with the
default embedding model (multilingual-e5-small beside bge-small-en-v1.5 and bge-small-zh-v1.5)."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem import dispatch
from graphmem.embed import MULTILINGUAL_MODEL, embed_array, embed_query_array, get_embedder
from graphmem.retriever.plan import RulePlanner, dialogue_turns

pytestmark = pytest.mark.real_models  # real models: findable in both languages and across them

# the day the memories are written and asked about: 今天 / 昨晚 / today read against a fixed time,
# not the clock (near midnight in one zone the clock's "today" and "last night" swap places)
REF = "2025-11-05T10:00:00+08:00"


def _write_day(graph, group_id: str) -> None:
    """Seed 004 §12.5's evening, a purchase, and an English memory beside them."""
    graph.create_memory(
        group_id,
        subject="我",
        memory_type="事实",
        topic="心情",
        object="不好",
        attributes={"时间": "今天"},
        reference_time=REF,
    )
    graph.create_memory(
        group_id,
        subject="我",
        memory_type="事件",
        topic="睡眠",
        object="不好",
        attributes={"时间": "昨晚"},
        reference_time=REF,
    )
    graph.create_memory(
        group_id,
        subject="我",
        memory_type="事件",
        topic="购物",
        object="水果",
        attributes={"时间": "昨天"},
        reference_time=REF,
    )
    graph.create_memory(
        group_id,
        subject="I",
        memory_type="event",
        topic="play",
        object="basketball",
        attributes={"time": "last weekend"},
        reference_time=REF,
    )


def _top(graph, group_id: str, query: str) -> str:
    return graph.search_memories(group_id, query, reference_time=REF).results[0].text


@pytest.mark.parametrize("question", ["我昨天买了什么？", "what did I buy yesterday?", "我昨天 buy 了什么东西？"])
def test_a_chinese_memory_is_found_in_chinese_english_and_mixed_questions(graph, group_id, question):
    _write_day(graph, group_id)
    assert _top(graph, group_id, question).startswith("我 购物 水果")


def test_an_english_memory_is_found_by_a_chinese_question(graph, group_id):
    for topic, obj in (("bought", "a new guitar"), ("went jogging", "in the park"), ("cooked", "tomato soup")):
        graph.create_memory(group_id, subject="I", memory_type="event", topic=topic, object=obj)
    graph.create_memory(group_id, subject="我", memory_type="事件", topic="看", object="电影")
    assert "guitar" in _top(graph, group_id, "我买了什么乐器？")
    assert "jogging" in _top(graph, group_id, "我在公园里做了什么运动？")


def test_a_chinese_paraphrase_is_found_first_where_e5_alone_ranks_another_memory_higher(graph, group_id):
    """The Chinese model beside e5 reads a question that says none of the memory's words ("what
    happened while I walked the dog?" for "my dog got lost"); e5 alone puts the dog's trick first."""
    for topic, obj in (
        ("狗", "走丢了"),
        ("狗", "会握手"),
        ("跑步", "膝盖受伤了"),
        ("手机", "屏幕摔碎了"),
        ("朋友", "请我吃饭"),
        ("工作", "被老板批评了"),
    ):
        graph.create_memory(group_id, subject="我", memory_type="事件", topic=topic, object=obj, reference_time=REF)
    question = "我遛狗的时候出什么事了？"
    results = graph.search_memories(group_id, question, reference_time=REF).results
    assert results[0].text.startswith("我 狗 走丢了"), [r.text for r in results]
    texts = [r.text for r in results]
    e5 = get_embedder(MULTILINGUAL_MODEL)
    by_e5 = embed_array(e5, texts) @ embed_query_array(e5, [question])[0]
    assert not texts[int(np.argmax(by_e5))].startswith("我 狗 走丢了")


@pytest.mark.parametrize(
    "cause, effect",
    [
        ("昨晚没睡好", "今天心情不好"),  # the words an LLM writes, not the stored ones
        ("I slept badly last night", "I'm in a bad mood today"),  # English descriptions of Chinese memories
        ("昨晚没睡好", "I'm in a bad mood today"),  # one of each
    ],
)
def test_link_memories_resolves_descriptions_in_either_language(graph, group_id, cause, effect):
    _write_day(graph, group_id)
    linked = dispatch(
        graph,
        {
            "name": "link_memories",
            "arguments": {
                "source_memory_description": cause,
                "target_memory_description": effect,
                "relation_type": "导致",
            },
        },
        group_id=group_id,
    )
    assert linked["success"], linked
    assert linked["source_text"].startswith("我 睡眠 不好") and linked["target_text"].startswith("我 心情 不好")
    for question in ("我为什么今天不开心？", "why am I unhappy today?"):
        # the first question's reads are counted in the background: let them land before the next
        # search, so its seeds and its walk read the same counts
        graph._get_retriever().recorder.flush()
        results = graph.search_memories(group_id, question, reference_time=REF).results
        by_text = {r.text.split(" (")[0]: r for r in results}
        assert results[0].text.startswith("我 心情 不好")
        cause_hit = by_text["我 睡眠 不好"]  # the cause, reached through the graph
        assert cause_hit.distance == 1 and cause_hit.path[-1].edge == "CAUSALITY"


def test_a_dialogue_is_read_as_what_the_user_said():
    history = (
        '<BOD>\n<Bart>:"我今天在圣诞晚会上跳舞了！"\n'
        '<Assistant>:"真棒！你吃蛋糕了吗？蛋糕好吃吗？"\n<Bart>:"跳得我好开心。"\n'
    )
    assert dialogue_turns(history) == [
        ("Bart", "我今天在圣诞晚会上跳舞了！"),
        ("Assistant", "真棒！你吃蛋糕了吗？蛋糕好吃吗？"),
        ("Bart", "跳得我好开心。"),
    ]
    hints = RulePlanner().plan(history, __import__("datetime").datetime(2024, 1, 1))
    assert hints.sought == "我今天在圣诞晚会上跳舞了！\n跳得我好开心。"
    # one line, or lines that are not all turns, are a question, not a dialogue
    assert dialogue_turns("Caroline: what did Melanie paint?") is None
    assert dialogue_turns("note: buy milk\nand eggs") is None
    assert dialogue_turns("User: I moved to Berlin\nAI: Nice!") == [("User", "I moved to Berlin"), ("AI", "Nice!")]


def test_the_agents_lines_of_a_dialogue_do_not_decide_what_is_found(graph, group_id):
    for event in (
        "Bart在圣诞节晚会上跳舞，感觉非常开心。",
        "Bart第一次自己烤了巧克力蛋糕，味道很好。",
        "Bart在学校的运动会上跑了第一名。",
    ):
        graph.create_memory(group_id, subject="Bart", memory_type="事件", topic=event[4:10], object=event)
    history = (
        '<Bart>:"我今天又去跳舞了！"\n<Assistant>:"真棒！你上次烤的巧克力蛋糕还有吗？蛋糕味道好吗？"\n'
        '<Bart>:"跳舞的时候我特别开心，像圣诞晚会那次一样。"\n'
    )
    top = graph.search_memories(group_id, history, profile="recall").results[0]
    assert "跳舞" in top.text
    assert any("dialogue" in why for why in graph.search_memories(group_id, history).plan.why)


@pytest.mark.parametrize(
    "memories, history, first",
    [
        (
            ("I went hiking in the Alps and climbed to a glacier.", "My cat Pixel has been sick and sees the vet."),
            "User: The mountain trail was steep but I loved the hike.\nAI: Wonderful! How high did you climb?\n"
            "User: Up to the glacier, the views from the peak were amazing.\nAI: What a trip!\n"
            "User: We hiked back down past the glacier at sunset.\nAI: Lovely!\n"
            "User: Anyway, my cat Pixel is sick, coughing a lot this week.",
            True,
        ),
        (
            ("我去阿尔卑斯山徒步，一直爬到了冰川。", "我的猫咪小白生病了，带它去看兽医。"),
            '<我>:"山路很陡，但是徒步真开心。"\n<助手>:"太好了！你爬了多高？"\n'
            '<我>:"一直爬到冰川，山顶的风景特别美。"\n<助手>:"真棒！"\n<我>:"对了，小白生病了，这周一直咳嗽。"',
            False,  # bge-small-zh reads the two hike lines as closer to the hike than e5 alone did
        ),
    ],
)
def test_a_dialogue_is_answered_for_its_latest_line(make_settings, graph, group_id, memories, history, first):
    # Two user lines are about the hike; the latest, what the next reply must serve, is about the
    # cat: it weighs more than each earlier line, so the cat gains on the hike (and comes first where
    # the earlier lines are not much closer to the hike); weighed like the others, the hike leads.
    from graphmem.graph import MemoryGraph

    hike, cat = (
        graph.create_memory(
            group_id, subject="我" if "我" in m else "I", memory_type="event", topic=m[:12], object=m
        ).memory_id
        for m in memories
    )
    found = graph.search_memories(group_id, history, profile="recall", mode="fast")
    if first:
        assert found.results[0].memory_id == cat, [r.text for r in found.results]
    assert any("latest user line" in why for why in found.plan.why)
    flat = make_settings(retrieval={"ranking": {"conversation": {"latest_turn_weight": 0.0}}})
    with MemoryGraph(flat, embedder=graph.embedder) as g:
        evenly = g.search_memories(group_id, history, profile="recall", mode="fast")
    assert evenly.results[0].memory_id == hike, [r.text for r in evenly.results]

    def lead(response) -> float:
        score = {r.memory_id: r.score for r in response.results}
        return score[cat] - score[hike]

    assert lead(found) > lead(evenly) + 0.05, (lead(found), lead(evenly))
