"""A question that takes back what came before it is searched for what follows the marker.

People talk to an agent the way they talk: some chatter, then "不对，我真正想问的是：…" or "scratch
that, …". The chatter is not what they look for: its words must not choose the memories, and its
time words (上周, last weekend) must not narrow the search. A plain 我想问的是 / "what I want to
know is" takes nothing back, and a query of several questions (另外; "also") keeps each, searched
question by question: each question's answer comes near the top, not only the longer one's.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.cues import taken_back
from graphmem.retriever.plan import RulePlanner

REF = "2025-11-05T10:00:00+08:00"
ZH_QUESTION = "上周去公园看花展，人好多，花也很漂亮，拍了好多照片。不对，我真正想问的是：我住在哪个小区？"
EN_QUESTION = (
    "I went hiking with Priya last weekend, the trail was muddy and beautiful. "
    "Scratch that, what instrument does Priya play?"
)


@pytest.mark.parametrize(
    "query, sought",
    [
        (ZH_QUESTION, "我住在哪个小区？"),
        (EN_QUESTION, "what instrument does Priya play?"),
        ("最近好忙。哎，我本来想说的是，那个职业是教师的人，兴趣爱好是什么？", "那个职业是教师的人，兴趣爱好是什么？"),
        ("天气真好。等等，诶，等等，那个联系电话是123的人，姓名是什么？", "那个联系电话是123的人，姓名是什么？"),
        ("鞋子好舒服。额，实际上我那个问题是这个，我拥有的手机怎么样？", "我拥有的手机怎么样？"),
        ("Lovely day. What I really wanted to ask is where Tom works.", "where Tom works."),
        # each part of a question of several keeps its own question
        (
            "天气好冷。不对，我真正想问的是：小王的邮箱是什么？另外，书店好有趣。我真正想要了解的是：那个活动在哪？",
            "小王的邮箱是什么？ 那个活动在哪？",
        ),
    ],
)
def test_the_chatter_before_a_retraction_is_not_sought(query, sought):
    hints = RulePlanner().plan(query, datetime(2025, 11, 5))
    assert hints.sought == sought
    assert any("takes back what came before it" in w for w in hints.why)


@pytest.mark.parametrize(
    "query",
    [
        "我想问的是，上周的活动在哪？",  # no retraction: what precedes may be the question's context
        "苹果、香蕉等等，我都喜欢吃。",  # 等等 as "and so on", not "wait"
        "What did I eat yesterday? Never mind.",  # nothing after the marker: nothing to search instead
        "What I want to know is where Tom works.",
    ],
)
def test_a_question_that_takes_nothing_back_is_searched_whole(query):
    assert taken_back(query) is None
    assert RulePlanner().plan(query, datetime(2025, 11, 5)).sought is None


@pytest.mark.parametrize(
    "memories, question, answer",
    [
        (
            [
                ("我", "事件", "去公园看", "花展", {"时间": "2025-10-29"}),
                ("我", "事件", "拍了", "很多花展的照片", {"时间": "2025-10-29"}),
                ("我", "事实", "住在", "绿洲家园小区", None),
            ],
            ZH_QUESTION,
            "我住在绿洲家园小区",
        ),
        (
            [
                ("Priya", "event", "went hiking with me on", "a muddy trail", {"time": "2025-11-01"}),
                ("I", "opinion", "found", "the muddy trail beautiful", {"time": "2025-11-01"}),
                ("Priya", "fact", "plays", "the cello", None),
            ],
            EN_QUESTION,
            "Priya plays the cello",
        ),
    ],
)
def test_the_memory_asked_for_comes_first_not_the_chatters(graph, group_id, memories, question, answer):
    for subject, kind, topic, obj, attributes in memories:
        graph.create_memory(group_id, subject, kind, topic, obj, attributes=attributes, reference_time=REF)
    response = graph.search_memories(group_id, question, reference_time=REF)
    first = response.results[0].text.replace(" ", "") if response.results else ""
    assert first.startswith(answer.replace(" ", "")), [r.text for r in response.results]
    assert response.plan.time_range is None  # the chatter's 上周 / last weekend narrows nothing


@pytest.mark.parametrize(
    "memories, question, answers",
    [
        (
            [
                ("小王", "事实", "邮箱是", "wang@example.com", None),
                ("小王", "事实", "电话是", "13800001111", None),
                ("小王", "事实", "公司是", "绿洲科技", None),
                ("小王", "事实", "生日是", "5月3日", None),
                ("阿杰", "事实", "在学", "吉他", None),
            ],
            "我有点忘了，小王的邮箱地址到底是什么来着？另外，阿杰在学什么？",
            ["小王邮箱是wang@example.com", "阿杰在学吉他"],
        ),
        (
            [
                ("Tom", "fact", "email is", "tom@example.com", None),
                ("Tom", "fact", "phone number is", "555 0100", None),
                ("Tom", "fact", "works at", "Vantage Media", None),
                ("Tom", "fact", "birthday is", "May 3", None),
                ("Priya", "fact", "plays", "the cello", None),
            ],
            "I keep forgetting: Tom, the one who works at Vantage Media, what is his email address again? "
            "Also, what does Priya play?",
            ["Tom email is tom@example.com", "Priya plays the cello"],
        ),
    ],
)
def test_each_question_of_several_gets_its_answer_near_the_top(graph, group_id, memories, question, answers):
    for subject, kind, topic, obj, attributes in memories:
        graph.create_memory(group_id, subject, kind, topic, obj, attributes=attributes, reference_time=REF)
    response = graph.search_memories(group_id, question, reference_time=REF)
    first_two = {r.text.replace(" ", "") for r in response.results[:2]}
    assert first_two == {a.replace(" ", "") for a in answers}, [r.text for r in response.results]
    assert any("a query of 2 questions" in w for w in response.plan.why)
