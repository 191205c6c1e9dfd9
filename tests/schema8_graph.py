"""A database as graphmem 0.x wrote it at schema 8 (one concept node per role), for the migration
tests: tests/fixtures/schema8.jsonl (written by tests/fixtures/make_schema8.py with that release)
loaded exactly as it is, node by node and edge by edge, with the old labels, and the schema
version put back to 8."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "schema8.jsonl"
SOURCE_GROUP = "schema8"

_NODE = "CREATE (n:$($label)) SET n = $props"
_EDGE = """
MATCH (a:$($start_label) {id: $start}), (b:$($end_label) {id: $end})
WHERE a.group_id = $group_id AND b.group_id = $group_id
CREATE (a)-[r:$($type)]->(b) SET r = $props
RETURN count(r) AS n
"""


def _items() -> tuple[list[dict], list[dict]]:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()[1:]
    items = [json.loads(line) for line in lines if line.strip()]
    return [i for i in items if i["kind"] == "node"], [i for i in items if i["kind"] == "edge"]


def load_schema8(store, group_id: str) -> dict:
    """Write the fixture into ``group_id`` as schema 8 had it (ids prefixed with the group, so the
    fixture can be loaded more than once in one database); returns what was written: memories by
    text, edges by type and each memory's parts by role."""
    nodes, edges = _items()
    prefix = group_id + "-"

    def ident(value):
        return prefix + value if isinstance(value, str) else value

    for item in nodes:
        props = dict(item["props"])
        props["group_id"] = group_id
        for key in ("id", "memory_id", "superseded_by", "job_id"):
            if key in props:
                props[key] = ident(props[key])
        store.run_text(_NODE, write=True, label=item["label"], props=props)
    for item in edges:
        props = dict(item["props"])
        if "group_id" in props:
            props["group_id"] = group_id
        if "memory_id" in props:
            props["memory_id"] = ident(props["memory_id"])
        rows = store.run_text(
            _EDGE,
            write=True,
            start_label=item["start_label"],
            end_label=item["end_label"],
            type=item["type"],
            start=ident(item["start"]),
            end=ident(item["end"]),
            group_id=group_id,
            props=props,
        )
        assert rows and rows[0]["n"] == 1, item
    return {
        "memories": sorted(i["props"]["text"] for i in nodes if i["label"] == "Memory"),
        "edges": Counter(i["type"] for i in edges),
    }


def memory_parts(store, group_id: str) -> dict[str, tuple]:
    """Each memory's text -> (subject, topic, object, attribute values) as read through its edges."""
    rows = store.run_text(
        """
        MATCH (m:Memory {group_id: $group_id})
        OPTIONAL MATCH (m)-[:HAS_SUBJECT]->(s) OPTIONAL MATCH (m)-[:HAS_TOPIC]->(t)
        OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o)
        RETURN m.text AS text, s.name AS s, t.name AS t, o.name AS o,
               [(m)-[:ATTRIBUTE]->(a)-[:VALUE]->(v) | a.key + '=' + v.name] AS values
        """,
        group_id=group_id,
    )
    return {r["text"]: (r["s"], r["t"], r["o"], tuple(sorted(r["values"]))) for r in rows}


def edge_counts(store, group_id: str) -> Counter:
    """Relationships by type that start at a node of the group."""
    rows = store.run_text(
        "MATCH (n)-[r]->() WHERE n.group_id = $group_id RETURN type(r) AS type, count(r) AS n", group_id=group_id
    )
    return Counter({r["type"]: r["n"] for r in rows})
