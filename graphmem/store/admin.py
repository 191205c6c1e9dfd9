"""Whole-group administration: delete a group's nodes in batches (benchmarks, tests, offboarding)."""

from __future__ import annotations

from .cypher import q
from .driver import Store


def delete_group(store: Store, group_id: str, *, batch: int = 1000) -> int:
    """Delete every node of ``group_id`` (memories first, then concepts, values, episodes, jobs).

    Runs as auto-commit queries with ``CALL ... IN TRANSACTIONS``: no transaction grows with the
    group. Returns how many nodes were deleted. Nothing outside the group is touched.
    """
    if not isinstance(group_id, str) or not group_id.strip():
        from ..errors import ValidationError

        raise ValidationError("group_id: must be a non-empty string", field="group_id")
    deleted = 0
    with store.driver.session(database=store.database) as session:
        for name in ("delete_group_memories", "delete_group_nodes"):
            record = session.run(q(name), group_id=group_id, batch=int(batch)).single()
            deleted += record["deleted"] if record else 0
    return deleted


def count_group_nodes(store: Store, group_id: str) -> dict[str, int]:
    """Nodes per label in one group (a scan: for tests and reports, not hot paths)."""
    return {r["label"]: r["n"] for r in store.read("count_group_nodes", group_id=group_id)}
