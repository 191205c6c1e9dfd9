"""`graphmem stats`: memories by type and status, nodes by label, edges by type."""

from __future__ import annotations

from collections import defaultdict

from .store.driver import Store
from .types import group_id_problem

MAX_LISTED_GROUP_IDS = 20  # nonconforming group ids named in the report (all are counted)


def graph_stats(store: Store, group_id: str | None = None) -> dict:
    """For one group (every count through the group's indexes), or for the whole database
    (node and edge counts from Neo4j's count store)."""
    if group_id is None:
        rows = store.read("stats_memories_all")
        counts = store.read("stats_graph_counts")[0]
        nodes = {n["label"]: n["count"] for n in counts["nodes"]}
        edges = {e["type"]: e["count"] for e in counts["edges"]}
        groups = store.read("stats_groups")[0]["groups"]
    else:
        rows = store.read("stats_memories_group", group_id=group_id)
        nodes = {r["label"]: r["count"] for r in store.read("stats_nodes_group", group_id=group_id)}
        edges = {r["type"]: r["count"] for r in store.read("stats_edges_group", group_id=group_id)}
        groups = None
    by_type: dict[str, int] = defaultdict(int)
    by_status: dict[str, int] = defaultdict(int)
    for r in rows:
        by_type[r["memory_type"] or "?"] += r["count"]
        by_status[r["status"] or "?"] += r["count"]
    out = {
        "group_id": group_id,
        "memories": {
            "total": sum(by_type.values()),
            "by_type": dict(sorted(by_type.items())),
            "by_status": dict(sorted(by_status.items())),
            "by_type_and_status": [
                {"memory_type": r["memory_type"], "status": r["status"], "count": r["count"]} for r in rows
            ],
        },
        "nodes": dict(sorted((k, v) for k, v in nodes.items() if v)),
        "edges": dict(sorted((k, v) for k, v in edges.items() if v)),
    }
    if groups is not None:
        out["groups"] = groups
        out["nonconforming_group_ids"] = nonconforming_group_ids(store)
    return out


def nonconforming_group_ids(store: Store) -> dict:
    """Stored group ids outside the group id rule (written before it existed): how many, and the
    first MAX_LISTED_GROUP_IDS of them, each with what is wrong. They stay readable."""
    bad = sorted(
        (g, p)
        for r in store.read("stored_group_ids")
        if (p := group_id_problem(g := r["group_id"])) is not None and g is not None
    )
    return {"count": len(bad), "examples": [{"group_id": g, "problem": p} for g, p in bad[:MAX_LISTED_GROUP_IDS]]}
