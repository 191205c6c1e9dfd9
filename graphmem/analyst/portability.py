"""Move a group between databases: export to JSON Lines, import (idempotent, batched).

The file::

    {"format": "graphmem-export", "version": 1, "group_id": ..., "model": ..., "dimension": ...,
     "vectors": true, "exported_at": ..., "counts": {"nodes": {...}, "edges": {...}}}
    {"kind": "node", "label": "Memory", "props": {...}}                 one line per node
    {"kind": "node", "label": "Subject", "labels": ["Subject", "Object"], "props": {...}}
    {"kind": "node", "label": "Sentence", "episode_id": ..., "props": {...}}
    {"kind": "edge", "type": "CAUSALITY", "start_label": "Memory", "start": id,
     "end_label": "Memory", "end": id, "props": {...}}                  one line per relationship

Every node of the group with all its properties (``embedding`` only with vectors), every
relationship that starts at one of them. A concept node (one per name, version 2) is one line
with the roles it plays (``labels``); a version 1 file (graphmem before one node per name) had a
node per role: importing one folds a name's nodes into one, as the schema migration does. Import writes nodes, then relationships, in batches
(one transaction each) with MERGE on ids, so running it twice changes nothing. Importing under
another group name gives every node a new id derived from (new group, old id): the same file
imported twice into the same new group is still idempotent, and ids never collide with the
source group when both live in one database. Vectors are reused when the file has them and was
written with the model the target uses; otherwise every embedding is computed again, the way
the write path computes it.
"""

from __future__ import annotations

import json
import re
import tempfile
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from ..errors import GraphmemError, ImportFormatError, ValidationError
from ..store.cypher import q
from ..store.driver import tx_run

FORMAT = "graphmem-export"
VERSION = 2  # 2: one concept node per name, its roles in "labels"
READABLE = (1, 2)
BATCH = 500  # rows per import transaction

# Node labels in the order they are imported (a sentence needs its episode).
NODE_QUERIES = {
    "Memory": "import_memory",
    "Subject": "import_subject",
    "Topic": "import_topic",
    "Object": "import_object",
    "Attribute": "import_attribute",
    "Value": "import_value",
    "Episode": "import_episode",
    "ExtractionJob": "import_extractionjob",
    "Sentence": "import_sentence",
}
# A concept node (version 2): written with its role labels by one query, whatever its first role.
ROLE_LABELS = ("Subject", "Topic", "Object", "Value")
CONCEPT_QUERY = "import_concept"
# Relationship type -> (start label, end label, import query). PART_OF is written with its sentence.
EDGE_QUERIES = {
    "HAS_SUBJECT": ("Memory", "Subject", "import_has_subject"),
    "HAS_TOPIC": ("Memory", "Topic", "import_has_topic"),
    "HAS_OBJECT": ("Memory", "Object", "import_has_object"),
    "MEMORY_TYPE": ("Subject", "Topic", "import_memory_type"),
    "CORE_RELATION": ("Topic", "Object", "import_core_relation"),
    "ATTRIBUTE": ("Memory", "Attribute", "import_attribute_edge"),
    "VALUE": ("Attribute", "Value", "import_value_edge"),
    "EXTRACTED_FROM": ("Memory", "Episode", "import_extracted_from"),
    "NEXT": ("Episode", "Episode", "import_next"),
    "CAUSALITY": ("Memory", "Memory", "import_causality"),
    "REFERENCE": ("Memory", "Memory", "import_reference"),
    "SUPERSEDES": ("Memory", "Memory", "import_supersedes"),
    "SUMMARIZES": ("Memory", "Memory", "import_summarizes"),
    "PART_OF": ("Sentence", "Episode", None),
}
# Properties that hold another node's id (rewritten with the ids when importing under a new group).
ID_REFS = {"memory_id", "superseded_by", "job_id", "duplicate_of", "summarized_by"}
ID_LISTS = {"episode_ids", "summary_of", "merged_memory_ids"}
VECTOR_LABELS = {"Memory", "Subject", "Topic", "Object", "Episode", "Sentence"}


@dataclass
class ExportReport:
    group_id: str
    path: str
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    vectors: bool = True


@dataclass
class ImportReport:
    source_group: str
    group_id: str
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    reembedded: int = 0
    skipped: int = 0  # nodes whose id exists in another group: left alone
    reason: str = ""  # why vectors were (or were not) computed again


Progress = Callable[[str, int, int], None]  # (stage, done, total)


def _encode(value: Any) -> Any:
    """Neo4j temporal values as {"$type": ..., "value": iso} (graphmem writes ISO strings, but a
    property set by hand in Browser may be a datetime)."""
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    kind = type(value).__name__
    if kind in ("DateTime", "Date", "Time", "LocalDateTime", "LocalTime"):
        return {"$type": kind, "value": value.iso_format()}
    if kind == "Duration":
        return {"$type": kind, "value": str(value)}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$type", "value"}:
            import neo4j.time as nt

            kind = value["$type"]
            if kind not in ("DateTime", "Date", "Time", "LocalDateTime", "LocalTime"):
                raise ImportFormatError(f"a property of type {kind!r} cannot be imported")
            return getattr(nt, kind).from_iso_format(value["value"])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _meta(store) -> dict:
    rows = store.read("meta_read")
    return rows[0] if rows else {}


def export_group(
    store, group_id: str, out: IO[str] | str | Path, *, vectors: bool = True, progress: Progress | None = None
) -> ExportReport:
    """Write every node and relationship of ``group_id`` to ``out`` (a path or a text stream).

    Read in one transaction (nodes and edges agree) and streamed to a temporary file, then
    written behind the header that counts them: memory use does not grow with the group."""
    from ..types import validate_group_id

    group_id = validate_group_id(group_id)
    if isinstance(out, (str, Path)):
        with open(out, "w", encoding="utf-8") as fh:
            report = export_group(store, group_id, fh, vectors=vectors, progress=progress)
        report.path = str(out)
        return report
    meta = _meta(store)
    from ..store.schema import is_current

    if meta and not is_current(meta):  # concept nodes one per role: the file would not import as written
        raise GraphmemError(
            f"this database holds schema {meta.get('schema_version')} (an older graphmem): run `graphmem init` "
            f"to move it to this version, then export"
        )
    report = ExportReport(group_id=group_id, path=getattr(out, "name", "<stream>"), vectors=vectors)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as body:

        def line(item: dict) -> None:
            body.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")

        def read(tx) -> None:
            body.seek(0)
            body.truncate()  # a retried transaction starts the file again
            report.nodes.clear()
            report.edges.clear()
            for r in tx.run(q("export_nodes"), group_id=group_id, vectors=vectors):
                roles = [x for x in ROLE_LABELS if x in r["labels"]]
                label = next((x for x in r["labels"] if x in NODE_QUERIES), r["labels"][0])
                item = {"kind": "node", "label": label}
                if "Concept" in r["labels"] and roles:  # counted under its first role, like count_group_nodes
                    item.update(label=roles[0], labels=roles)
                    label = roles[0]
                item["props"] = {k: _encode(v) for k, v in r["props"].items() if v is not None}
                if label == "Sentence":
                    item["episode_id"] = r["episode_id"]
                line(item)
                report.nodes[label] = report.nodes.get(label, 0) + 1
            for r in tx.run(q("export_edges"), group_id=group_id):
                if r["end_group"] != group_id:
                    raise GraphmemError(
                        f"a {r['type']} relationship of group {group_id!r} points into group "
                        f"{r['end_group']!r}; it is not exported: report this as a bug"
                    )
                line(
                    {
                        "kind": "edge",
                        "type": r["type"],
                        "start_label": r["start_label"],
                        "start": r["start"],
                        "end_label": r["end_label"],
                        "end": r["end"],
                        "props": _encode(r["props"]),
                    }
                )
                report.edges[r["type"]] = report.edges.get(r["type"], 0) + 1

        store.transaction(read, write=False)
        header = {
            "format": FORMAT,
            "version": VERSION,
            "group_id": group_id,
            "model": meta.get("model"),
            "dimension": meta.get("dimension"),
            "vectors": vectors,
            "exported_at": datetime.now(UTC).isoformat(),
            "counts": {"nodes": dict(sorted(report.nodes.items())), "edges": dict(sorted(report.edges.items()))},
        }
        out.write(json.dumps(header, ensure_ascii=False) + "\n")
        total = sum(report.nodes.values()) + sum(report.edges.values())
        body.seek(0)
        for i, text in enumerate(body, 1):
            out.write(text)
            if progress and (i % BATCH == 0 or i == total):
                progress("export", i, total)
    return report


def read_header(path: str | Path) -> dict:
    """The header line of an export file; a clear error for anything else."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportFormatError(
            f"{path} is not a graphmem export (its first line is not a "
            f"{FORMAT!r} header): write one with `graphmem export`"
        )
    if header.get("version") not in READABLE:
        raise ImportFormatError(
            f"{path} is export version {header.get('version')}; this graphmem reads "
            f"versions {', '.join(map(str, READABLE))}: upgrade graphmem to import it"
        )
    return header


def iter_items(path: str | Path) -> Iterator[dict]:
    """The node and edge lines after the header, checked one by one."""
    with open(path, encoding="utf-8") as fh:
        fh.readline()
        for number, line in enumerate(fh, 2):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ImportFormatError(f"{path}:{number}: not JSON ({exc.msg}); the file is damaged") from None
            kind = item.get("kind")
            if kind == "node":
                if item.get("label") not in NODE_QUERIES or not set(item.get("labels") or []) <= set(ROLE_LABELS):
                    raise ImportFormatError(
                        f"{path}:{number}: unknown node label {item.get('label')!r}"
                        f"{' (' + ', '.join(item['labels']) + ')' if item.get('labels') else ''}: "
                        f"the file comes from a newer graphmem; upgrade to import it"
                    )
            elif kind == "edge":
                if item.get("type") not in EDGE_QUERIES:
                    raise ImportFormatError(
                        f"{path}:{number}: unknown relationship type {item.get('type')!r}: "
                        f"the file comes from a newer graphmem; upgrade to import it"
                    )
            else:
                raise ImportFormatError(f"{path}:{number}: a line of kind {kind!r} (expected node or edge)")
            yield item


def read_export(path: str | Path) -> tuple[dict, list[dict], list[dict]]:
    """(header, node lines, edge lines) of an export file, all in memory."""
    header = read_header(path)
    nodes: list[dict] = []
    edges: list[dict] = []
    for item in iter_items(path):
        (nodes if item["kind"] == "node" else edges).append(item)
    return header, nodes, edges


def _remapper(source: str, target: str) -> Callable[[Any], Any]:
    if source == target:
        return lambda value: value
    namespace = uuid.uuid5(uuid.NAMESPACE_URL, "graphmem:import:" + target)
    return lambda value: value if value is None else uuid.uuid5(namespace, str(value)).hex


_ID = re.compile(r"\b[0-9a-f]{32}\b")


def _rewrite(props: dict, target: str, remap: Callable[[Any], Any], renamed: bool) -> dict:
    out = dict(props)
    if "group_id" in out:
        out["group_id"] = target
    if "id" in out:
        out["id"] = remap(out["id"])
    for key in ID_REFS & out.keys():
        out[key] = remap(out[key])
    for key in ID_LISTS & out.keys():
        out[key] = [remap(v) for v in out[key] or []]
    if renamed and isinstance(out.get("plan"), str):  # an unfinished extraction job's plan names episodes
        out["plan"] = _ID.sub(lambda m: remap(m.group(0)), out["plan"])
    return _decode(out)


class _Writer:
    """Batches of import rows, one transaction each: nodes by label, then edges by type."""

    def __init__(
        self, graph, target: str, batch: int, report: ImportReport, step: Callable[[int], None], concepts: bool
    ):
        self.graph, self.target, self.batch, self.report, self.step = graph, target, batch, report, step
        self.concepts = concepts  # concept nodes come with their role labels (version 2)
        self.nodes: dict[str, list[dict]] = defaultdict(list)
        self.edges: dict[str, list[dict]] = defaultdict(list)
        self.given: dict[str, int] = defaultdict(int)
        self.last_label: str | None = None

    def _flush(self, buffers: dict[str, list[dict]], key: str, query: str, written: dict[str, int]) -> int:
        """Write one buffer in one transaction; returns how many rows the query did not write."""
        rows, buffers[key] = buffers[key], []
        if not rows:
            return 0
        n = self.graph.store.transaction(lambda tx: tx_run(tx, query, group_id=self.target, rows=rows)[0]["written"])
        written[key] = written.get(key, 0) + n
        self.step(len(rows))
        return len(rows) - n

    def _node_query(self, label: str) -> str:
        return CONCEPT_QUERY if self.concepts and label in ROLE_LABELS else NODE_QUERIES[label]

    def _flush_nodes(self) -> None:
        for label in NODE_QUERIES:
            self.report.skipped += self._flush(self.nodes, label, self._node_query(label), self.report.nodes)

    def node(self, label: str, row: dict) -> None:
        if label != self.last_label:  # a sentence needs its episode written first
            self._flush_nodes()
            self.last_label = label
        self.nodes[label].append(row)
        if len(self.nodes[label]) >= self.batch:
            self.report.skipped += self._flush(self.nodes, label, self._node_query(label), self.report.nodes)

    def edge(self, kind: str, row: dict) -> None:
        if self.last_label is not None:  # every node is written before the first edge
            self._flush_nodes()
            self.last_label = None
        self.given[kind] += 1
        query = EDGE_QUERIES[kind][2]
        if query is None:  # PART_OF: written with its sentence
            self.report.edges[kind] = self.report.edges.get(kind, 0) + 1
            self.step(1)
            return
        self.edges[kind].append(row)
        if len(self.edges[kind]) >= self.batch:
            self._flush(self.edges, kind, query, self.report.edges)

    def close(self) -> None:
        self._flush_nodes()
        for kind in list(self.edges):
            query = EDGE_QUERIES[kind][2]
            if query is not None:  # only kinds with a query are buffered
                self._flush(self.edges, kind, query, self.report.edges)


def import_group(
    graph, path: str | Path, group_id: str | None = None, *, batch: int = BATCH, progress: Progress | None = None
) -> ImportReport:
    """Import an export file into ``group_id`` (default: the group it was exported from).

    With reusable vectors the file is streamed (memory does not grow with it); when embeddings
    must be computed again it is read whole, since a memory's text needs its attributes and an
    episode's vector its neighbours."""
    from ..types import validate_group_id

    header = read_header(path)
    source = header["group_id"]
    target = validate_group_id(group_id or source)
    graph.ensure_schema()
    remap = _remapper(source, target)
    renamed = source != target
    report = ImportReport(source_group=source, group_id=target)
    model = graph.embedder.name
    reuse = (
        bool(header.get("vectors"))
        and header.get("model") == model
        and header.get("dimension") in (None, graph.embedder.dimension)
    )
    counts = header.get("counts") or {}
    total = sum((counts.get("nodes") or {}).values()) + sum((counts.get("edges") or {}).values())
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress("import", done, max(total, done))

    def node_row(item: dict) -> dict:
        props = _rewrite(item["props"], target, remap, renamed)
        row = {"id": props.get("id"), "props": props, "labels": item.get("labels")}
        if item["label"] == "Sentence":
            row["episode_id"] = remap(item["episode_id"])
        return row

    def edge_row(item: dict) -> dict:
        return {
            "start": remap(item["start"]) if item["start_label"] != "Sentence" else item["start"],
            "end": remap(item["end"]),
            "props": _rewrite(item["props"], target, remap, False),
        }

    concepts = header.get("version", VERSION) >= 2
    writer = _Writer(graph, target, batch, report, step, concepts)
    if reuse:
        report.reason = f"vectors from the file ({model})"
        for item in iter_items(path):
            if item["kind"] == "node":
                writer.node(item["label"], node_row(item))
            else:
                writer.edge(item["type"], edge_row(item))
    else:
        report.reason = (
            "the file has no vectors"
            if not header.get("vectors")
            else f"the file's vectors are from {header.get('model')!r}, this database uses {model!r}"
        )
        _, nodes, edges = read_export(path)
        rows: dict[str, list[dict]] = defaultdict(list)
        for item in nodes:
            rows[item["label"]].append(node_row(item))
        report.reembedded = reembed(graph.embedder, rows, edges, remap, progress)
        for label in NODE_QUERIES:
            for row in rows.get(label, []):
                writer.node(label, row)
        for item in edges:
            writer.edge(item["type"], edge_row(item))
    writer.close()
    if not concepts:  # a file from before one node per name: a name's nodes become one
        from ..store.migrate import one_node_per_name

        one_node_per_name(graph.store)
    missing = {k: n - report.edges.get(k, 0) for k, n in writer.given.items() if n > report.edges.get(k, 0)}
    if report.skipped:
        raise ValidationError(
            f"{report.skipped} nodes of {path} have ids that belong to another group of this "
            f"database and were left alone: import under a new group name (-g NEW_GROUP)",
            field="group_id",
        )
    if missing:
        raise ImportFormatError(
            f"{sum(missing.values())} relationships of {path} ({', '.join(sorted(missing))}) "
            f"point to nodes the file does not hold; the file is damaged or was edited"
        )
    return report


def reembed(embedder, rows: dict[str, list[dict]], edges: list[dict], remap, progress: Progress | None) -> int:
    """Compute every embedding the way the write path does: a memory from its parts without the
    times that were understood, a concept from its name, an episode from "speaker: content" mixed
    with its neighbours' (ingest/episodes.with_context), a sentence from "speaker: text"."""
    from ..builder.create import render_text
    from ..ingest.episodes import embedding_text, with_context

    attributes: dict[str, list[tuple[str, str]]] = defaultdict(list)
    values = {r["id"]: r["props"] for r in rows.get("Value", [])}
    attr_value = {remap(e["start"]): remap(e["end"]) for e in edges if e["type"] == "VALUE"}
    for a in rows.get("Attribute", []):
        v = values.get(attr_value.get(a["id"]), {})
        if not v.get("parsed"):  # understood times are left out of the embedding
            attributes[a["props"].get("memory_id")].append((a["props"].get("key"), v.get("name")))
    texts: list[str] = []
    targets: list[dict] = []

    def want(row: dict, text: str) -> None:
        targets.append(row)
        texts.append(text)

    for m in rows.get("Memory", []):
        p = m["props"]
        if p.get("embedded_text"):  # what the write path embedded, kept since 0.1
            want(m, p["embedded_text"])
            continue
        order = p.get("text") or ""
        pairs = sorted(attributes.get(p["id"], []), key=lambda kv: order.find(f"{kv[0]}: "))
        subject, topic, kind = p.get("subject_name") or "", p.get("topic_name") or "", p.get("memory_type")
        want(m, render_text(subject, topic, p.get("object_name"), dict(pairs), kind))
    for label in ("Subject", "Topic", "Object"):
        for c in rows.get(label, []):
            want(c, c["props"].get("name") or "")
    episodes = rows.get("Episode", [])
    speakers = {e["id"]: e["props"].get("speaker") for e in episodes}
    for e in episodes:
        want(e, embedding_text(e["props"].get("content") or "", e["props"].get("speaker")))
    for s in rows.get("Sentence", []):
        want(s, embedding_text(s["props"].get("text") or "", speakers.get(s["episode_id"])))
    if progress:
        progress("embed", 0, len(texts))
    vectors = embedder.embed(texts) if texts else []
    for row, vector in zip(targets, vectors):
        row["props"]["embedding"] = [float(x) for x in vector]
    if progress:
        progress("embed", len(texts), len(texts))
    # an episode's vector takes in its neighbours', session by session, in conversation order
    sessions: dict[Any, list[dict]] = defaultdict(list)
    for e in episodes:
        sessions[e["props"].get("session_id")].append(e)
    for session in sessions.values():
        session.sort(key=lambda e: (e["props"].get("order") or 0, e["props"].get("chunk") or 0))
        mixed = with_context(
            [e["props"]["embedding"] for e in session],
            [e["props"]["content"] for e in session],
            [(e["props"].get("speaker"), e["props"].get("role"), e["props"].get("timestamp")) for e in session],
        )
        for e, vector in zip(session, mixed):
            e["props"]["embedding"] = vector
    return len(texts)
