"""Schema migrations: what moves a database written by an older graphmem to this schema.

``install_schema`` (``graphmem init``, and the first use of a database whose schema version is
older) runs every step newer than the stored version, then writes the new version: a run that
stops half-way leaves the old version stored, and the next run finishes it. Each step works in
small transactions and finds its remaining work again when it starts, so running it twice, or
two processes running it at once, changes nothing more.

Schema 9, one node per name: schema 8 kept one concept node per role (Marco the Object of "I met
Marco" and Marco the Subject of "Marco flies gliders" were two nodes, so nothing connected the two
sentences). Each set of nodes of one group with one normalised name is folded into one node
(the query consolidation merges with: every edge moved, none lost; the role labels and names
kept), an Object named by a pronoun of the user (me, 我 ...) or the agent (you, 你 ...) into that
person's node, then every concept node gets the :Concept label its uniqueness constraint is on.
Memories get ``valid_from`` and superseded ones ``valid_until`` (the interval in which they
were the current fact).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

import neo4j

from ..lang import AGENT_KEY, OBJECT_AGENT_NAMES, OBJECT_USER_NAMES, USER_KEY
from .driver import Store, tx_run

ONE_NODE_PER_NAME = 9  # the schema version that folds a name's nodes into one
SETS_PER_READ = 2000  # duplicate sets read per scan (each folded in its own transaction)
BATCH = 5000  # nodes labelled, memories dated, per transaction

Progress = Callable[[str, int], None]  # (step, how many so far)


def migrate(store: Store, stored_version: int | None, *, progress: Progress | None = None) -> dict[str, int]:
    """Run the steps newer than ``stored_version`` (None: a database without a meta node, or an
    empty one); returns what each step changed."""
    done: dict[str, int] = {}
    if stored_version is None or stored_version < ONE_NODE_PER_NAME:
        done.update(one_node_per_name(store, progress=progress))
    return {k: v for k, v in done.items() if v}


def one_node_per_name(store: Store, *, progress: Progress | None = None) -> dict[str, int]:
    """Schema 9's step (also run after importing a file of an older graphmem): fold, label, date."""
    return {
        "concepts_folded": fold_concepts(store, progress=progress),
        "concepts_labelled": _repeat(store, "migrate_concept_label", "labelled", "label", progress),
        "valid_from": _repeat(store, "migrate_valid_from", "set", "valid_from", progress),
        "valid_until": _repeat(store, "migrate_valid_until", "set", "valid_until", progress),
    }


def _pronouns() -> dict[str, str]:
    return {**dict.fromkeys(OBJECT_USER_NAMES, USER_KEY), **dict.fromkeys(OBJECT_AGENT_NAMES, AGENT_KEY)}


def fold_concepts(store: Store, *, limit: int | None = None, progress: Progress | None = None) -> int:
    """Fold every set of concept nodes that name one thing into one node; returns how many nodes
    were folded away. ``limit``: stop after that many folds (a test's interrupted run)."""
    folded = 0
    now = datetime.now(UTC).isoformat()
    while True:
        sets = store.read("migrate_concept_duplicates", pronouns=_pronouns(), limit=SETS_PER_READ)
        work = [(s["group_id"], chosen) for s in sets if (chosen := _survivor(s["key"], s["nodes"])) is not None]
        if not work:
            return folded
        for group_id, (keep, gone) in work:
            for node in gone:
                if limit is not None and folded >= limit:
                    return folded
                store.transaction(partial(_fold, group_id=group_id, keep=keep, gone=node, now=now))
                folded += 1
                if progress:
                    progress("fold", folded)


def _survivor(key: str, nodes: list[dict]) -> tuple[dict, list[dict]] | None:
    """The node a set folds into: the one that has the set's name (not a pronoun object), a
    subject before other roles, then the most used, the oldest, the smallest id; None when no
    node has the name (two pronoun objects and no node of the person: left as they are)."""
    ranked = sorted(
        nodes,
        key=lambda n: (n["key"] != key, "Subject" not in n["labels"], -n["uses"], n["created_at"] or "", n["id"]),
    )
    if ranked[0]["key"] != key:
        return None
    return ranked[0], ranked[1:]


def _fold(tx: neo4j.ManagedTransaction, group_id: str, keep: dict, gone: dict, now: str) -> None:
    tx_run(
        tx,
        "lifecycle_merge_concept",
        group_id=group_id,
        label=(gone["labels"] or ["Concept"])[0],
        keep_id=keep["id"],
        gone_id=gone["id"],
        merge_id=uuid.uuid4().hex,
        props_json=None,
        undoable=False,
        reason=f"one node per name (schema {ONE_NODE_PER_NAME})",
        similarity=None,
        run_id=f"schema-{ONE_NODE_PER_NAME}",
        now=now,
    )


def _repeat(store: Store, query: str, column: str, step: str, progress: Progress | None) -> int:
    total = 0
    while True:
        rows = store.write(query, batch=BATCH)
        n = rows[0][column] if rows else 0
        if not n:
            return total
        total += n
        if progress:
            progress(step, total)
