"""Idempotency keys: a write done once, however often it is retried.

``create_memory``, ``create_memories``, ``link_memories`` and ``ingest`` take a ``request_id``.
Inside the write's own transaction a ``:WriteRequest {group_id, id}`` node is claimed (MERGE on
a uniqueness constraint, so two concurrent retries serialise) and given the write's result. A
call whose key is already there writes nothing and returns that result: a caller that lost the
answer (a commit whose outcome is unknown, a timeout, a crash) retries with the same key and
gets the first answer. Keys are per group; reusing one for a different write is refused.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from typing import Any

from ..errors import ValidationError
from ..store.driver import Store, tx_run
from ..types import validate_optional_id


def validate_request_id(value: Any) -> str | None:
    """None, or the key unchanged (1-128 characters, no control characters or surrounding spaces)."""
    key = validate_optional_id(value, "request_id")
    if key is not None and key != value:
        raise ValidationError("request_id: must not start or end with whitespace", field="request_id")
    return key


def fingerprint(kind: str, payload: Any) -> str:
    """A digest of what a request asks for: the same key with other arguments is another request."""
    text = json.dumps([kind, payload], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _check(row: dict, request_id: str, kind: str, digest: str) -> Any:
    if row["kind"] != kind or row["fingerprint"] != digest:
        raise ValidationError(
            f"request_id: {request_id!r} was already used in this group for another "
            f"{row['kind']} call with other arguments; use a new request_id for a new write",
            field="request_id",
        )
    return json.loads(row["result"]) if row["result"] is not None else None


def stored(store: Store, group_id: str, request_id: str, kind: str, digest: str) -> Any:
    """The result of a request already applied (None when it was not): a cheap read before any work."""
    rows = store.read("write_request_get", group_id=group_id, id=request_id)
    return _check(rows[0], request_id, kind, digest) if rows else None


def claim(tx: Any, group_id: str, request_id: str, kind: str, digest: str) -> tuple[bool, Any]:
    """Inside the write's transaction: (True, None) when this transaction owns the key and must
    write; (False, result) when the request was applied before."""
    token = uuid.uuid4().hex
    row = tx_run(
        tx,
        "write_request_claim",
        group_id=group_id,
        id=request_id,
        kind=kind,
        fingerprint=digest,
        now=_now(),
        token=token,
    )[0]
    if row["claimed"]:
        return True, None
    return False, _check(row, request_id, kind, digest)


def finish(tx: Any, group_id: str, request_id: str, result: Any) -> None:
    """Store the result (JSON) with the key, in the same transaction as the write."""
    tx_run(
        tx,
        "write_request_finish",
        group_id=group_id,
        id=request_id,
        now=_now(),
        result=json.dumps(result, ensure_ascii=False, default=str),
    )


def record(store: Store, group_id: str, request_id: str, result: Any) -> None:
    """Replace the stored result of an applied request (an ingest's final report, after extraction)."""
    store.write(
        "write_request_finish",
        group_id=group_id,
        id=request_id,
        now=_now(),
        result=json.dumps(result, ensure_ascii=False, default=str),
    )
