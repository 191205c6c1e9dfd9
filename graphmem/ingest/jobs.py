"""The persisted extraction queue: one ``:ExtractionJob`` per batch of episodes.

A job is created ``pending`` in the same transaction as its episodes. An attempt claims it
(``running``, attempts + 1, a lease so that a crashed worker's job is taken again later);
success makes it ``done``; a failure puts it back to ``pending`` with ``last_error`` and an
exponential backoff (``next_attempt_at``), and the ``max_attempts``-th failure makes it
``failed``, where it stays visible (``graphmem stats``, ``graphmem extract --retry --failed``).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from ..store.driver import Store

STATES = ("pending", "running", "done", "failed")
MAX_ERROR = 2000


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """UTC ISO strings compare in time order, which the due-job query relies on."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def backoff_delay(attempts: int, base_s: float, cap_s: float) -> float:
    """Seconds to wait after the ``attempts``-th failure: base, 2·base, 4·base … up to cap."""
    return float(min(cap_s, base_s * (2 ** max(0, attempts - 1))))


def job_counts(store: Store, group_id: str | None = None) -> dict[str, int]:
    """Extraction jobs by state (pending, running, done, failed) for one group or all."""
    counts = {state: 0 for state in STATES}
    for row in store.read("job_counts", group_id=group_id):
        counts[row["state"]] = counts.get(row["state"], 0) + int(row["count"])
    return counts


class JobQueue:
    def __init__(
        self,
        store: Store,
        *,
        max_attempts: int = 5,
        backoff_base_s: float = 30.0,
        backoff_max_s: float = 3600.0,
        lease_s: float = 900.0,
    ):
        self.store = store
        self.max_attempts = max(1, int(max_attempts))
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self.lease_s = float(lease_s)

    def new(self, *, session_id: str, episode_ids: list[str], extractor: str) -> dict[str, Any]:
        """A job row for ``job_create`` (written with the episodes, in their transaction)."""
        now = iso(utcnow())
        return {
            "id": uuid.uuid4().hex,
            "props": {
                "session_id": session_id,
                "episode_ids": list(episode_ids),
                "extractor": extractor,
                "state": "pending",
                "attempts": 0,
                "max_attempts": self.max_attempts,
                "last_error": None,
                "next_attempt_at": now,
                "created_at": now,
                "updated_at": now,
            },
        }

    def claim(self, group_id: str, job_id: str, *, include_failed: bool = False) -> dict | None:
        """Take the job for one attempt; None when it is not claimable (done, or someone else's)."""
        now = utcnow()
        rows = self.store.write(
            "job_claim",
            group_id=group_id,
            id=job_id,
            token=uuid.uuid4().hex,
            now=iso(now),
            lease_until=iso(now + timedelta(seconds=self.lease_s)),
            include_failed=include_failed,
        )
        return rows[0]["job"] if rows else None

    def save_plan(self, group_id: str, job_id: str, plan_json: str) -> None:
        self.store.write("job_save_plan", group_id=group_id, id=job_id, plan=plan_json, now=iso(utcnow()))

    def succeed(self, group_id: str, job_id: str, *, memories: int, links: int) -> dict:
        return self._finish(group_id, job_id, "done", None, None, memories, links)

    def fail(self, group_id: str, job: dict, error: str) -> dict:
        """Record a failed attempt: pending again after the backoff, or failed for good."""
        attempts = int(job.get("attempts") or 1)
        limit = int(job.get("max_attempts") or self.max_attempts)
        if attempts >= limit:
            return self._finish(group_id, job["id"], "failed", error, None, None, None)
        delay = backoff_delay(attempts, self.backoff_base_s, self.backoff_max_s)
        return self._finish(group_id, job["id"], "pending", error, iso(utcnow() + timedelta(seconds=delay)), None, None)

    def _finish(
        self,
        group_id: str,
        job_id: str,
        state: str,
        error: str | None,
        next_at: str | None,
        memories: int | None,
        links: int | None,
    ) -> dict:
        rows = self.store.write(
            "job_finish",
            group_id=group_id,
            id=job_id,
            state=state,
            last_error=(error or None) and error[:MAX_ERROR],
            next_attempt_at=next_at,
            now=iso(utcnow()),
            memories=memories,
            links=links,
        )
        return rows[0]["job"] if rows else {"id": job_id, "state": state}

    def due(
        self, group_id: str | None, *, limit: int, force: bool = False, include_failed: bool = False
    ) -> list[tuple[str, str]]:
        """(group_id, job_id) of the jobs a retry should take now, oldest due first."""
        rows = self.store.read(
            "jobs_due",
            group_id=group_id,
            now=iso(utcnow()),
            force=force,
            include_failed=include_failed,
            limit=max(1, int(limit)),
        )
        return [(r["group_id"], r["id"]) for r in rows]

    def list(self, group_id: str, *, state: str | None = None, limit: int = 100) -> list[dict]:
        return [r["job"] for r in self.store.read("jobs_list", group_id=group_id, state=state, limit=limit)]
