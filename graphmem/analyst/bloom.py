"""The Neo4j Bloom perspective (``bloom/graphmem.json``), generated from the graph model below
and the library's ``graph_*`` queries (graphmem/cypher/explore/bloom.cypher), so the two never
drift apart. Regenerate with ``python -m graphmem.analyst.bloom bloom/graphmem.json``.

A category per node label (caption, colour, icon, the properties graphmem writes), every
relationship type styled (CAUSALITY coloured by its relation word), and search phrases for the
common questions, each running one library query.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Any

from .library import get

PERSPECTIVE_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "graphmem/bloom/perspective"))
STAMP = 1764547200000  # a fixed createdAt (2025-12-01): the file is reproducible
BLOOM_VERSION = "2.21.0"
ICON = "no-icon"  # Bloom's default; its icon set is addressed by internal ids

# what a concept node (Subject, Topic, Object, Value: one node per name) may hold, whatever its roles
CONCEPT_PROPS = [
    "id",
    "group_id",
    "name",
    "normalized_name",
    "aliases",
    "kind",
    "created_at",
    "loose_key",
    "merged_ids",
    "merge_history",
    "iso",
    "parsed",
]
# label -> (caption property, colour, properties graphmem writes on it, besides `embedding`)
LABELS: dict[str, tuple[str, str, list[str]]] = {
    "Memory": (
        "text",
        "#F79767",
        [
            "id",
            "group_id",
            "memory_type",
            "text",
            "embedded_text",
            "importance",
            "status",
            "occurred_at",
            "created_at",
            "reference_time",
            "updated_at",
            "last_accessed_at",
            "access_count",
            "source",
            "session_id",
            "subject_name",
            "topic_name",
            "object_name",
            "episode_ids",
            "job_id",
            "extract_key",
            "archived_at",
            "status_before_archive",
            "superseded_by",
            "invalid_at",
            "valid_from",
            "valid_until",
            # the lifecycle (graphmem/lifecycle): decay, consolidation, merges, summaries
            "strength",
            "strength_at",
            "consolidated_at",
            "consolidated_by",
            "archived_reason",
            "archived_by",
            "duplicate_of",
            "merged_memory_ids",
            "summary_of",
            "summarized_period",
            "summarized_by",
            "kind",
            "slot",
            "slot_ends",
        ],
    ),
    # One node per name whatever roles it plays: the role labels' categories come first (a node is
    # styled by its first role), then :Concept, the label every one of them carries.
    "Subject": ("name", "#4C8EDA", CONCEPT_PROPS),
    "Topic": ("name", "#8DCC93", CONCEPT_PROPS),
    "Object": ("name", "#FFC454", CONCEPT_PROPS),
    "Attribute": ("key", "#D9C8AE", ["id", "group_id", "key", "name", "original", "memory_id"]),
    "Value": ("name", "#C990C0", CONCEPT_PROPS),
    "Concept": ("name", "#A0B4C8", CONCEPT_PROPS),
    "Episode": (
        "content",
        "#57C7E3",
        [
            "id",
            "group_id",
            "session_id",
            "role",
            "speaker",
            "content",
            "timestamp",
            "order",
            "chunk",
            "chunks",
            "external_id",
            "source",
            "created_at",
        ],
    ),
    "Sentence": ("text", "#ECB5C9", ["group_id", "text", "position"]),
    "ExtractionJob": (
        "state",
        "#959AA1",
        [
            "id",
            "group_id",
            "session_id",
            "episode_ids",
            "extractor",
            "state",
            "attempts",
            "max_attempts",
            "last_error",
            "next_attempt_at",
            "lease_until",
            "claim",
            "plan",
            "memories",
            "links",
            "created_at",
            "updated_at",
            "finished_at",
            "touched_at",
        ],
    ),
    "GraphmemMeta": ("key", "#D9D9D9", ["key", "schema_version", "model", "dimension", "created_at", "updated_at"]),
    # working memory and the LangGraph store (graphmem/cypher/agents.cypher), idempotency keys (requests.cypher)
    "ScratchNote": (
        "key",
        "#B8D6A6",
        ["group_id", "session_id", "key", "value", "created_at", "created_ms", "updated_at", "expires_ms"],
    ),
    "BufferedTurn": (
        "content",
        "#A6C8D6",
        ["group_id", "session_id", "order", "role", "content", "speaker", "timestamp", "created_at"],
    ),
    "StoreItem": (
        "key",
        "#D6C6A6",
        ["group_id", "ns", "key", "namespace", "value", "text", "created_at", "updated_at"],
    ),
    "WriteRequest": (
        "id",
        "#BFBFBF",
        ["group_id", "id", "kind", "fingerprint", "created_at", "claimed_by", "result", "finished_at"],
    ),
    # the lifecycle's records (graphmem/cypher/lifecycle.cypher)
    "ConceptMerge": (
        "merged_name",
        "#E0A458",
        [
            "group_id",
            "id",
            "label",
            "survivor_id",
            "survivor_name",
            "merged_id",
            "merged_name",
            "merged_key",
            "merged_labels",
            "merged_props",
            "undoable",
            "reason",
            "similarity",
            "run_id",
            "merged_at",
            "added_aliases",
            "undone_at",
        ],
    ),
    "ConsolidationRun": (
        "status",
        "#9B9BD6",
        [
            "group_id",
            "id",
            "started_at",
            "as_of",
            "status",
            "host",
            "pid",
            "finished_at",
            "counts",
            "errors",
            "processed",
            "seconds",
        ],
    ),
    "ConsolidationLock": ("owner", "#CFCFCF", ["group_id", "touched_at", "owner", "expires_at", "host", "pid"]),
    # marks of a whole-group operation under way (graphmem delete-group, rename-group)
    "GroupDeletion": ("group_id", "#CFCFCF", ["group_id", "started_at", "resumed_at"]),
    "GroupRename": ("from_group_id", "#CFCFCF", ["from_group_id", "to_group_id", "started_at"]),
}
# also carry `embedding` (a Value that is also a Topic or an Object has one)
VECTOR_LABELS = {"Memory", "Subject", "Topic", "Object", "Value", "Concept", "Episode", "Sentence", "StoreItem"}

# type -> (colour, caption property or None for the type's name, properties, source label, target label)
RELATIONSHIPS: dict[str, tuple[str, str | None, list[str], str, str]] = {
    "HAS_SUBJECT": ("#A5ABB6", None, ["merged_from"], "Memory", "Subject"),
    "HAS_TOPIC": ("#A5ABB6", None, ["merged_from"], "Memory", "Topic"),
    "HAS_OBJECT": ("#A5ABB6", None, ["merged_from"], "Memory", "Object"),
    "MEMORY_TYPE": (
        "#4C8EDA",
        "memory_type",
        ["memory_id", "memory_type", "group_id", "merged_from"],
        "Subject",
        "Topic",
    ),
    "CORE_RELATION": ("#8DCC93", None, ["memory_id", "group_id", "merged_from"], "Topic", "Object"),
    "ATTRIBUTE": ("#D9C8AE", "key", ["key"], "Memory", "Attribute"),
    "VALUE": ("#C990C0", None, [], "Attribute", "Value"),
    "CAUSALITY": (
        "#F16667",
        "relation",
        ["relation", "importance", "strength", "discovered", "confidence", "created_at", "group_id", "run_id"],
        "Memory",
        "Memory",
    ),
    "REFERENCE": (
        "#569480",
        "relation",
        ["relation", "importance", "strength", "discovered", "confidence", "created_at", "group_id", "run_id"],
        "Memory",
        "Memory",
    ),
    "SUPERSEDES": (
        "#DA7194",
        "reason",
        ["group_id", "reason", "run_id", "created_at", "discovered"],
        "Memory",
        "Memory",
    ),
    "SUMMARIZES": ("#B58FD6", None, ["group_id", "created_at", "run_id"], "Memory", "Memory"),
    "EXTRACTED_FROM": ("#57C7E3", None, [], "Memory", "Episode"),
    "NEXT": ("#959AA1", None, [], "Episode", "Episode"),
    "PART_OF": ("#ECB5C9", None, [], "Sentence", "Episode"),
}
# CAUSALITY's colour by relation word (the words link_memories writes)
CAUSAL_COLOURS = {"causes": "#F16667", "because": "#E8684A", "so": "#C0392B"}
REFERENCE_COLOURS = {"references": "#569480", "based_on": "#3E7D6B", "related": "#8FB8A8"}

# search phrase -> library query (its parameters become the phrase's $parameters)
PHRASES: list[tuple[str, str]] = [
    ("memories of $subject in group $group_id", "graph_memories_of"),
    ("why $memory in group $group_id", "graph_why"),
    ("timeline of $subject in group $group_id", "graph_timeline"),
    ("where did $memory come from in group $group_id", "graph_sources"),
    ("history of $subject in group $group_id", "graph_history"),
    ("everything about $name in group $group_id", "graph_about"),
]
SUGGESTIONS = {
    "subject": ("Subject", "name"),
    "name": ("Concept", "name"),
    "memory": ("Memory", "text"),
    "group_id": ("Memory", "group_id"),
}


def _data_type(prop: str) -> str:
    if prop in {"importance", "strength", "confidence"}:
        return "number"
    if prop in {
        "access_count",
        "order",
        "chunk",
        "chunks",
        "position",
        "attempts",
        "max_attempts",
        "memories",
        "links",
        "schema_version",
        "dimension",
    }:
        return "integer"
    if prop in {"parsed", "discovered", "undoable"}:
        return "boolean"
    if prop in {"aliases", "episode_ids", "merged_labels"}:
        return "array"
    return "string"


def _category(i: int, label: str) -> dict[str, Any]:
    caption, colour, props = LABELS[label]
    return {
        "id": i,
        "name": label,
        "labels": [label],
        "color": colour,
        "icon": ICON,
        "size": 1,
        "textSize": 1,
        "textAlign": "top",
        "createdAt": STAMP,
        "lastEditedAt": STAMP,
        "properties": [
            {"name": p, "exclude": False, "isCaption": p == caption, "dataType": _data_type(p)} for p in props
        ],
        "captionKeys": [caption],
        "captions": [
            {"key": caption, "type": "property", "isCaption": True, "inTooltip": True, "styles": [], "isGdsData": False}
        ],
        "styleRules": []
        if label != "Memory"
        else [
            {
                "basedOn": "importance",
                "dataType": "number",
                "condition": "range",
                "minValue": 0,
                "maxValue": 1,
                "applyColor": False,
                "applySize": True,
                "applyCaption": False,
                "isRange": True,
                "existingProperty": True,
                "minSize": 1,
                "maxSize": 3,
                "style": {},
            },
            {
                "basedOn": "status",
                "dataType": "string",
                "condition": "equals",
                "conditionValue": "archived",
                "applyColor": True,
                "applySize": False,
                "applyCaption": False,
                "isRange": False,
                "existingProperty": True,
                "style": {"color": "#D9D9D9"},
            },
        ],
    }


def _relationship(kind: str) -> dict[str, Any]:
    colour, caption, props, _, _ = RELATIONSHIPS[kind]
    rules = []
    words = CAUSAL_COLOURS if kind == "CAUSALITY" else REFERENCE_COLOURS if kind == "REFERENCE" else {}
    for word, word_colour in words.items():
        rules.append(
            {
                "basedOn": "relation",
                "dataType": "string",
                "condition": "equals",
                "conditionValue": word,
                "applyColor": True,
                "applySize": False,
                "applyCaption": True,
                "isRange": False,
                "existingProperty": True,
                "style": {"color": word_colour},
            }
        )
    key = caption or kind
    return {
        "id": kind,
        "name": kind,
        "color": colour,
        "size": 3 if kind in ("CAUSALITY", "SUPERSEDES") else 1,
        "textSize": 1,
        "textAlign": "top",
        "properties": [{"propertyKey": p, "type": kind, "dataType": _data_type(p)} for p in props],
        "captionKeys": [key],
        "captions": [
            {
                "key": key,
                "type": "property" if caption else "relationship",
                "isCaption": True,
                "inTooltip": True,
                "styles": [],
            }
        ],
        "styleRules": rules,
    }


def _template(text: str, query_name: str) -> dict[str, Any]:
    query = get(query_name)
    params = []
    for p in query.params:
        if p.name not in SUGGESTIONS:  # limits and the like keep their defaults in the Cypher
            continue
        label, prop = SUGGESTIONS[p.name]
        params.append(
            {
                "name": f"${p.name}",
                "dataType": "String",
                "collapsed": False,
                "suggestionLabel": label,
                "suggestionProp": prop,
                "suggestionBoolean": False,
                "cypher": None,
            }
        )
    cypher = query.cypher
    for p in query.params:  # Bloom asks only for the phrase's own parameters
        if p.name not in SUGGESTIONS:
            cypher = cypher.replace(f"${p.name}", json.dumps(p.default))
    return {
        "name": text,
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"graphmem/bloom/{query_name}")),
        "createdAt": STAMP,
        "text": text,
        "cypher": cypher,
        "params": params,
        "hasCypherErrors": False,
        "isUpdateQuery": False,
        "description": f"{query.en} / {query.zh}",
        "library_query": query_name,
    }


def perspective() -> dict[str, Any]:
    labels = {
        label: [
            {"propertyKey": p, "type": label, "dataType": _data_type(p)}
            for p in props + (["embedding"] if label in VECTOR_LABELS else [])
        ]
        for label, (_, _, props) in LABELS.items()
    }
    return {
        "name": "graphmem",
        "id": PERSPECTIVE_ID,
        "version": BLOOM_VERSION,
        "type": "STANDARD_PERSPECTIVE",
        "createdAt": STAMP,
        "lastEditedAt": STAMP,
        "categories": [_category(i, label) for i, label in enumerate(LABELS, 1)],
        "labels": labels,
        "relationshipTypes": [_relationship(kind) for kind in RELATIONSHIPS],
        "templates": [_template(text, name) for text, name in PHRASES],
        "sceneActions": [],
        "hiddenRelationshipTypes": [],
        "hiddenCategories": [],
        "hideUncategorisedData": False,
        "maxLimitToastMsgEnabled": False,
        "parentPerspectiveId": None,
        "palette": {"colors": [c for _, c, _ in LABELS.values()], "currentIndex": len(LABELS) % 10},
        "metadata": {
            "pathSegments": [
                {"source": s, "relationshipType": kind, "target": t} for kind, (_, _, _, s, t) in RELATIONSHIPS.items()
            ],
            "indexes": [
                {"label": label, "type": "native", "propertyKeys": [{"key": "group_id", "metadataProp": False}]}
                for label in LABELS
                if label != "GraphmemMeta"
            ],
        },
    }


def write(path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(perspective(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        sys.exit(
            "usage: python -m graphmem.analyst.bloom [OUTPUT.json]  (default bloom/graphmem.json): writes the "
            "Bloom perspective generated from graphmem/analyst/bloom.py"
        )
    print(write(sys.argv[1] if len(sys.argv) > 1 else "bloom/graphmem.json"))
