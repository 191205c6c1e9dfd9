"""Shared by the lifecycle tests: a small life log in Chinese and English, and a snapshot of a
group's graph that does not depend on ids (two groups given the same log compare equal when
their graphs say the same)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

# (day, subject, type, topic, object, attributes, importance)
LIFE = [
    (0, "我", "FACT", "住在", "北京", {}, 0.6),
    (1, "I", "FACT", "work at", "Acme", {}, 0.6),
    (2, "我", "OPINION", "喜欢", "咖啡", {}, 0.5),
    (3, "I", "OPINION", "like", "jazz", {}, 0.5),
    (4, "我", "EVENT", "去", "臺灣", {"时间": "昨天"}, 0.5),
    (5, "我", "EVENT", "去", "台湾", {"时间": "今天"}, 0.5),
    (6, "I", "OPINION", "like", "apples", {}, 0.5),
    (7, "I", "OPINION", "like", "pears", {}, 0.5),
    (8, "我", "EVENT", "去过", "北京", {}, 0.5),
    (9, "我", "EVENT", "去过", "上海", {}, 0.5),
    (10, "小明", "FACT", "喜欢", "New York", {}, 0.5),
    (11, "小明", "FACT", "喜欢", "new-york", {}, 0.5),
    (12, "I", "FACT", "own", "a dog", {}, 0.5),
    (14, "I", "FACT", "own", "a dog", {}, 0.5),
    (40, "我", "FACT", "搬到", "上海", {}, 0.6),
    (41, "I", "FACT", "joined", "Globex", {}, 0.6),
    (42, "我", "OPINION", "不喜欢", "咖啡", {}, 0.5),
    (43, "I", "OPINION", "no longer like", "jazz", {}, 0.5),
]


def long_life(events: int = 12) -> list[tuple]:
    """A log of many batches' worth: alternating spellings of one place, a chain of moves, a
    preference turned and turned back (what a run killed half-way must finish the same way)."""
    rows = []
    for i in range(events):
        rows += [
            (3 * i, "我", "EVENT", "去", "臺灣" if i % 2 else "台湾", {"地点": f"第{i}站"}, 0.5),
            (3 * i + 1, "I", "FACT", "live in" if i == 0 else "moved to", f"City{i}", {}, 0.6),
            (3 * i + 2, "I", "OPINION", "like" if i % 2 == 0 else "no longer like", "jazz", {}, 0.5),
        ]
    return rows


def write_life(graph, group_id: str, rows=LIFE) -> list[str]:
    ids = []
    for day, subject, mtype, topic, obj, attrs, importance in rows:
        r = graph.create_memories(
            group_id,
            [
                {
                    "subject": subject,
                    "memory_type": mtype,
                    "topic": topic,
                    "object": obj,
                    "attributes": attrs,
                    "importance": importance,
                }
            ],
            reference_time=START + timedelta(days=day),
        )
        ids.append(r[0].memory_id)
    return ids


def snapshot(graph, group_id: str) -> dict:
    """What the group's graph says, without ids: memories (text, status, what superseded them),
    concept nodes (label and names), every relationship between them (type, and its ends as text)."""
    store = graph.store
    memories = Counter(
        (r["text"], r["status"], r["newer"], r["dup"])
        for r in store.run_text(
            "MATCH (m:Memory {group_id: $g}) OPTIONAL MATCH (n:Memory {group_id: $g, id: m.superseded_by}) "
            "OPTIONAL MATCH (d:Memory {group_id: $g, id: m.duplicate_of}) "
            "RETURN m.text AS text, m.status AS status, n.text AS newer, d.text AS dup",
            g=group_id,
        )
    )
    concepts = Counter(
        (r["label"], tuple(sorted(r["aliases"] or [])))
        for r in store.run_text(
            "MATCH (c {group_id: $g}) WHERE c:Subject OR c:Topic OR c:Object "
            "RETURN labels(c)[0] AS label, c.aliases AS aliases",
            g=group_id,
        )
    )

    def end(text, label, names):
        return text if label == "Memory" else f"{label}:{'|'.join(sorted(n for n in names if n))}"

    edges = Counter(
        (r["type"], end(r["a_text"], r["a_label"], r["a_names"]), end(r["b_text"], r["b_label"], r["b_names"]))
        for r in store.run_text(
            "MATCH (a {group_id: $g})-[e]->(b {group_id: $g}) "
            "WHERE NOT a:ConsolidationRun AND NOT a:ConceptMerge AND NOT a:ConsolidationLock "
            "RETURN type(e) AS type, labels(a)[0] AS a_label, a.text AS a_text, "
            "coalesce(a.aliases, [a.name, a.key]) AS a_names, labels(b)[0] AS b_label, b.text AS b_text, "
            "coalesce(b.aliases, [b.name, b.key]) AS b_names",
            g=group_id,
        )
    )
    return {"memories": memories, "concepts": concepts, "edges": edges}
