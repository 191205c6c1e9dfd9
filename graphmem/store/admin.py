"""Whole-group administration: delete a group, rename one, list every group the database holds.

An operator's path only (the CLI and ``MemoryGraph.delete_group``): no agent tool and no MCP tool
reaches it. Every operation runs in batches of at most ``batch`` nodes, each its own transaction
(``cypher/admin.cypher``), repeated until nothing is left: a run that is killed half-way has
committed its batches, and running it again finishes the job. A mark node (``GroupDeletion``,
``GroupRename``) says while one is under way, so ``graphmem stats --all`` can name an unfinished one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from ..errors import ValidationError, WriteOutcomeUnknownError
from ..types import GroupDeletion, GroupRename, group_id_problem, validate_group_id, validate_stored_group_id
from .driver import Store

# Every label under which graphmem keeps a group's data (each node carries ``group_id``).
# tests/test_admin.py checks that every label a query in graphmem/cypher/ creates is listed here
# (or is database-wide, like GraphmemMeta); delete_group's last sweep also removes any other label.
GROUP_LABELS = (
    "Memory",
    "Attribute",
    "Value",
    "Subject",
    "Topic",
    "Object",
    "Episode",
    "Sentence",
    "ExtractionJob",
    "WriteRequest",
    "ScratchNote",
    "BufferedTurn",
    "StoreItem",
    "ConsolidationRun",
    "ConsolidationLock",
    "ConceptMerge",
)
MARK_LABELS = ("GroupDeletion", "GroupRename")  # an operation under way
# Labels a node carries beside one of GROUP_LABELS, never alone: a name's node is :Concept with the
# labels of its roles (Subject, Topic, Object, Value), counted and deleted as the first of those.
BESIDE_LABELS = ("Concept",)
DELETE_BATCH = 2000  # nodes per transaction: a memory takes its attributes and a dozen edges along
RENAME_BATCH = 5000
Progress = Callable[[int], None]  # nodes done so far


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _batches(store: Store, name: str, progress: Progress | None, done: int, **params) -> list[dict]:
    """Run the batch query ``name`` until it changes nothing; every row it returned."""
    rows: list[dict] = []
    while True:
        try:
            got = store.write(name, **params)
        except WriteOutcomeUnknownError:
            continue  # a batch is idempotent: what it did is done, what it did not is found again
        changed = sum(int(r["changed"]) for r in got)
        if not changed:
            return rows
        rows.extend(got)
        done += changed
        if progress:
            progress(done)


def delete_group(store: Store, group_id: str, *, batch: int = DELETE_BATCH, progress: Progress | None = None):
    """Delete every node of ``group_id`` and their relationships: memories with their attributes,
    concepts and values, episodes and sentences, extraction jobs, idempotency keys, working memory,
    LangGraph store items, consolidation runs, locks and merge records, then whatever else carries
    the id. Nothing of another group is touched. Returns a ``GroupDeletion`` (nodes by label).

    An id stored before the group id rule is accepted here (so such a group can be deleted)."""
    group_id = validate_stored_group_id(group_id)
    batch = max(1, int(batch))
    t0 = time.monotonic()
    mark = store.write("group_deletion_start", group_id=group_id, now=_now())[0]
    report = GroupDeletion(group_id=group_id, resumed=bool(mark["resumed"]))
    deleted: dict[str, int] = {}
    for row in _batches(store, "group_delete_memories", progress, 0, group_id=group_id, batch=batch):
        deleted["Memory"] = deleted.get("Memory", 0) + int(row["memories"])
        if row["attributes"]:
            deleted["Attribute"] = deleted.get("Attribute", 0) + int(row["attributes"])
    for name in ("group_delete_batch", "group_delete_sweep"):
        for row in _batches(store, name, progress, sum(deleted.values()), group_id=group_id, batch=batch):
            deleted[row["label"]] = deleted.get(row["label"], 0) + int(row["changed"])
    store.write("group_deletion_finish", group_id=group_id)
    report.deleted = dict(sorted(deleted.items()))
    report.nodes = sum(deleted.values())
    report.seconds = round(time.monotonic() - t0, 3)
    return report


def group_contents(store: Store, group_id: str) -> dict:
    """What ``delete_group`` would remove: nodes by label and the relationships touching them."""
    group_id = validate_stored_group_id(group_id)
    nodes = count_group_nodes(store, group_id)
    edges = store.read("count_group_edges", group_id=group_id)[0]["n"]
    return {"group_id": group_id, "nodes": nodes, "total": sum(nodes.values()), "edges": edges}


def count_group_nodes(store: Store, group_id: str) -> dict[str, int]:
    """Nodes per label in one group (a scan: for tests and reports, not hot paths)."""
    return {r["label"]: r["n"] for r in store.read("count_group_nodes", group_id=group_id)}


def group_census(store: Store) -> list[dict]:
    """Every group id any node carries, sorted: its nodes by label, how many, what is wrong with
    the id when it breaks the group id rule (None when it follows it), and whether a deletion or a
    rename of it did not finish. A scan of every node."""
    groups: dict[str, dict] = {}
    for r in store.read("group_census"):
        gid = r["group_id"]
        entry = groups.setdefault(
            gid if isinstance(gid, str) else repr(gid),
            {"group_id": gid, "nodes": {}, "total": 0, "problem": group_id_problem(gid)},
        )
        entry["nodes"][r["label"]] = r["n"]
        entry["total"] += r["n"]
    for entry in groups.values():
        entry["deleting"] = entry["nodes"].pop("GroupDeletion", 0) > 0
        entry["total"] -= int(entry["deleting"])
    return [groups[k] for k in sorted(groups)]


def legacy_groups(store: Store) -> list[dict]:
    """The groups whose stored id breaks the group id rule (written before it), from the census."""
    return [g for g in group_census(store) if g["problem"] is not None]


def rename_group(
    store: Store, old: str, new: str, *, batch: int = RENAME_BATCH, progress: Progress | None = None
) -> GroupRename:
    """Move every node of group ``old`` (and the relationships that carry the group id) to group
    ``new``, which must follow the group id rule and hold nothing yet. For ids stored before the
    rule: ``graphmem stats --legacy`` lists them. Killed half-way, run it again with the same ids."""
    old = validate_stored_group_id(old)
    new = validate_group_id(new)
    if old == new:
        raise ValidationError("new: the new group id is the old one", field="new")
    t0 = time.monotonic()
    pending = store.read("group_rename_pending", new=new)
    resumed = any(p["old"] == old for p in pending)
    if pending and not resumed:
        raise ValidationError(
            f"new: a rename of {pending[0]['old']!r} into {new!r} did not finish: run it again with those ids first",
            field="new",
        )
    if not resumed and store.read("group_has_nodes", group_id=new):
        raise ValidationError(
            f"new: group {new!r} already holds data; rename into a new group id (or delete {new!r} first "
            f"with `graphmem delete-group`)",
            field="new",
        )
    if not resumed and not store.read("group_has_nodes", group_id=old):
        raise ValidationError(f"old: no node carries the group id {old!r}", field="old")
    store.write("group_rename_start", old=old, new=new, now=_now())
    rows = _batches(store, "group_rename_batch", progress, 0, old=old, new=new, batch=max(1, int(batch)))
    store.write("group_rename_finish", old=old, new=new)
    return GroupRename(
        old=old,
        new=new,
        nodes=sum(int(r["changed"]) for r in rows),
        resumed=resumed,
        seconds=round(time.monotonic() - t0, 3),
    )
