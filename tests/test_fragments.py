"""The extraction's quality gate (graphmem/ingest/fragments.py): a memory that is a fragment of its
turn is not written, whichever extractor read it; the rest of the turn's memories are, and a turn
nothing is left of is found by itself. On a real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.ingest.fragments import fragment
from graphmem.types import MemoryInput

SAID = datetime(2024, 4, 5, 9, 0, tzinfo=UTC)


def _texts(graph, group_id) -> list[str]:
    rows = graph.store.run_text("MATCH (m:Memory {group_id: $g}) RETURN m.text AS text", g=group_id)
    return [r["text"] for r in rows]


def test_fragments_of_chinese_turns_are_not_written_and_the_rest_is(graph, group_id):
    turns = [
        "王丽娟是我的表姐，其教育背景是专科。",  # 其教育背景 是 专科: 其 resolved to no one
        "我同事的生日是在6月13号。",  # 我同事 | 的生日是在: a dangling 的
        "这个公园真不错，尤其是湖边的步道。",  # 尤其 是 湖边的步道: an adverb as subject
        "我的上司名字叫陈静雯。",  # 陈静雯 是 字: half of 名字 as object
        "我表哥就念到高中毕业。",  # 我表哥 毕业于 念
    ]
    graph.ingest(
        group_id,
        [{"role": "user", "content": t, "timestamp": SAID.isoformat()} for t in turns],
        extractor="rules",
    )
    written = _texts(graph, group_id)
    assert not [t for t in written if t.startswith(("其", "尤其")) or "的生日是在" in t]
    assert not [t for t in written if t.endswith((" 字", " 念"))]
    assert any("王丽娟" in t and "表姐" in t for t in written)  # the turn's sound memory is kept
    assert any("陈静雯" in t for t in written)
    # the birthday turn comes first, read whole as 我同事's birthday (生日 6月13号), not as a fragment
    found = graph.search_memories(group_id, "我同事的生日是哪天？", reference_time=SAID, max_results=3).results
    assert found[0].kind == "memory" and "6月13号" in found[0].text
    assert [e.content for e in found[0].evidence] == [turns[1]]


def test_fragments_of_an_english_turn_are_not_written(graph, group_id):
    graph.ingest(
        group_id,
        [{"role": "user", "content": "My cousin lives in the", "timestamp": SAID.isoformat()}],
        extractor="rules",
    )
    assert not [t for t in _texts(graph, group_id) if t.endswith(" the")]
    found = graph.search_memories(group_id, "Where does my cousin live?", reference_time=SAID).results
    assert found and found[0].kind == "episode"


@pytest.mark.parametrize(
    "subject, topic, obj, attributes, refused",
    [
        ("其年龄", "是", "44岁", {}, True),
        ("尤其", "是", "户外跑步记录轨迹", {}, True),
        ("学历", "是", "硕士", {}, True),  # whose, cut off
        ("我", "住在", "的那个小区叫绿洲家园", {}, True),
        ("我", "是", "嘛", {}, True),
        ("李梓轩的生日", "是", "在", {}, True),
        ("我", "是", "如果透气性再好点", {}, True),
        ("就只", "有", "高中学历", {}, True),
        ("都没有获奖", "是", "感觉非常开心", {}, True),  # an adverb the cut left in front
        ("与老师", "进行有效沟通", None, {}, True),  # a preposition whose doer was cut off
        ("我", "就是有时候高峰期", None, {}, True),  # a remark's clause kept whole
        ("跟我", "一起", "去", {}, True),
        ("干的", "工作于", "上海", {}, True),
        ("she", "is", "a nurse", {}, True),
        ("It", "is", "nice", {}, True),
        ("Dana", "loves", "the", {}, True),
        ("Dana", "went", "to a concert with", {}, True),
        ("Dana", "went to", "the park", {"place": "x"}, True),  # a one-letter value
        # sound ones, one character or a word that is also a function word elsewhere included
        ("我", "喜欢", "猫", {}, False),
        ("小雯", "将", "结婚", {"时间": "2025-12"}, False),
        ("我", "得重新找工作", None, {}, False),
        ("我", "打算", "参加泳购狂欢派对", {}, False),
        ("my son", "age", "6", {}, False),
        ("我", "住在", "上海", {"地点": "家"}, False),
        ("都江堰", "是", "景区", {}, False),  # a place's name begins with 都
        ("I", "live in", "Berlin", {}, False),
    ],
)
def test_the_gate_reads_both_languages_as_listed(subject, topic, obj, attributes, refused):
    memory = MemoryInput(subject=subject, memory_type="FACT", topic=topic, object=obj, attributes=attributes)
    assert (fragment(memory) is not None) is refused, fragment(memory)
