"""Memory subgraphs as networkx graphs, for notebooks (draw them with matplotlib)."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import MissingExtraError
from .types import validate_group_id


def memory_subgraph(graph, group_id: str, memory_ids: Iterable[str]):
    """A ``networkx.MultiDiGraph`` of the memories, their concepts/values and the links among them.

    Nodes carry ``label`` (Memory, Subject, Topic, Object, Value) and ``name``; edges carry ``type``
    (HAS_SUBJECT…, ATTRIBUTE:<key>, CAUSALITY, REFERENCE) and ``relation`` for memory links.
    """
    try:
        import networkx as nx
    except ModuleNotFoundError as exc:
        raise MissingExtraError("memory_subgraph", "notebooks", exc.name) from None

    group_id = validate_group_id(group_id)
    rows = graph.store.read("memory_subgraph", group_id=group_id, ids=list(memory_ids))
    g = nx.MultiDiGraph()
    for row in rows:
        g.add_node(row["memory_id"], label="Memory", name=row["text"], memory_type=row["memory_type"])
        for c in row["concepts"]:
            if c["id"]:
                g.add_node(c["id"], label=c["label"], name=c["name"])
                g.add_edge(row["memory_id"], c["id"], type=c["rel"])
        for a in row["attributes"]:
            if a["value_id"]:
                g.add_node(a["value_id"], label="Value", name=a["value"])
                g.add_edge(row["memory_id"], a["value_id"], type=f"ATTRIBUTE:{a['key']}")
    for row in rows:
        for link in row["links"]:
            if (
                link["source"] in g
                and link["target"] in g
                and not g.has_edge(link["source"], link["target"], key=link["type"])
            ):
                g.add_edge(
                    link["source"], link["target"], key=link["type"], type=link["type"], relation=link["relation"]
                )
    return g
