"""A small bilingual memory graph for the analyst-facing features (library, export, markdown).

Built through the public API (create_memory, link_memory_ids, ingest with the rules extractor,
forget), plus what the engine does not write yet: a supersede chain (SUPERSEDES edges and the
superseded_by / invalid_at properties consolidation will set) and access statistics.
"""

from __future__ import annotations

import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field

REFERENCE_TIME = "2025-11-05T10:00:00+00:00"

CONVERSATION = [
    {"role": "user", "content": "我昨天晚上没睡好，所以今天心情很差。"},
    {"role": "assistant", "content": "听起来很累，要不要早点休息？"},
    {"role": "user", "content": "I moved to Berlin last year and I love hiking."},
]

# A turn long enough to be embedded sentence by sentence too (:Sentence nodes).
LONG_TURN = (
    "今天是很长的一天。早上七点起床以后我先去跑步，然后赶地铁去公司开会。"
    "中午和同事一起吃了拉面，下午一直在写季度报告，晚上回家以后又做了晚饭。"
)

# Written by the test (the engine's consolidation will write these): newer -> older.
SUPERSEDE = """
UNWIND $pairs AS p
MATCH (newer:Memory {group_id: $group_id, id: p.newer}), (older:Memory {group_id: $group_id, id: p.older})
MERGE (newer)-[:SUPERSEDES]->(older)
SET older.superseded_by = newer.id, older.invalid_at = newer.created_at
"""


@dataclass
class AnalystGraph:
    group_id: str
    ids: dict[str, str] = field(default_factory=dict)  # a short name -> memory id
    episodes: list[str] = field(default_factory=list)
    ingested: list[str] = field(default_factory=list)  # memory ids extracted from the conversation


def build(graph, group_id: str, *, long_turn: bool = False) -> AnalystGraph:
    """The fixture graph in ``group_id``; ``long_turn`` adds a second session whose one turn has sentences."""
    out = AnalystGraph(group_id)
    ref = REFERENCE_TIME

    def add(key: str, *args, **kwargs) -> str:
        kwargs.setdefault("reference_time", ref)
        out.ids[key] = graph.create_memory(group_id, *args, **kwargs).memory_id
        return out.ids[key]

    # a causal chain: rain -> flight delayed -> missed the meeting (zh), and a reference
    add("rain", "天气", "事件", "下大雨", attributes={"时间": "2025-11-03", "地点": "上海"}, importance=0.6)
    add("delay", "航班", "事件", "延误", "三小时", attributes={"时间": "2025-11-03"}, importance=0.7)
    add("missed", "我", "事件", "错过", "会议", attributes={"时间": "2025-11-03"}, importance=0.9)
    add("apology", "I", "EVENT", "wrote", "an apology to the team", attributes={"time": "2025-11-04"}, importance=0.5)
    graph.link_memory_ids(group_id, out.ids["rain"], out.ids["delay"], "causes", 0.8)
    graph.link_memory_ids(group_id, out.ids["delay"], out.ids["missed"], "so", 0.9)
    graph.link_memory_ids(group_id, out.ids["apology"], out.ids["missed"], "references", 0.5)
    # where the user lives: Beijing, then Shanghai, now Shenzhen (a supersede chain of two steps)
    add("beijing", "我", "事实", "住在", "北京", importance=0.7, reference_time="2025-01-01T09:00:00+00:00")
    add("shanghai", "我", "事实", "住在", "上海", importance=0.7, reference_time="2025-06-01T09:00:00+00:00")
    add("shenzhen", "我", "事实", "住在", "深圳", importance=0.8, reference_time="2025-10-01T09:00:00+00:00")
    graph.store.run_text(
        SUPERSEDE,
        write=True,
        group_id=group_id,
        pairs=[
            {"newer": out.ids["shanghai"], "older": out.ids["beijing"]},
            {"newer": out.ids["shenzhen"], "older": out.ids["shanghai"]},
        ],
    )
    # two opinions on the same topic, not resolved: a possible conflict for review
    add("tea", "我", "观点", "喜欢喝", "绿茶", importance=0.6)
    add("coffee", "我", "观点", "喜欢喝", "咖啡", importance=0.6, reference_time="2025-11-05T11:00:00+00:00")
    # two topics that name one thing twice (one name contains the other)
    add("alice", "Alice", "RELATION", "hiking", "with Bob", importance=0.4)
    add("bob", "Bob", "EVENT", "hiking trips", "in the Alps", importance=0.4)
    # an old, unimportant event (fading) and a forgotten one (archived)
    add("old", "我", "事件", "买了", "一把雨伞", attributes={"时间": "2019-03-01"}, importance=0.2)
    add("forgotten", "我", "事件", "看了", "一部电影", attributes={"时间": "2025-10-20"}, importance=0.3)
    graph.forget(group_id, out.ids["forgotten"])
    # access statistics: the Shenzhen fact was returned by searches three times
    for _ in range(3):
        graph.store.write(
            "record_access", group_id=group_id, ids=[out.ids["shenzhen"]], now="2025-11-05T12:00:00+00:00"
        )
    report = graph.ingest(group_id, messages=CONVERSATION, session_id="chat-1", reference_time=ref, extractor="rules")
    out.episodes = list(report.episodes)
    out.ingested = list(report.memories)
    if long_turn:
        graph.ingest(
            group_id,
            messages=[{"role": "user", "content": LONG_TURN}],
            session_id="chat-2",
            reference_time="2025-11-06T21:00:00+00:00",
            extractor="rules",
        )
    return out


@contextmanager
def fixture_group(graph, prefix: str, **kwargs):
    """The fixture graph in a fresh group named ``prefix…``, deleted afterwards."""
    from graphmem.store.admin import delete_group

    group = prefix + uuid.uuid4().hex[:10]
    try:
        yield build(graph, group, **kwargs)
    finally:
        delete_group(graph.store, group)
