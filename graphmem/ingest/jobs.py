"""The persisted extraction queue: one ``:ExtractionJob`` per batch of episodes.

A job is created ``pending`` in the same transaction as its episodes. An attempt claims it
(``running``, attempts + 1, the claim's token, host and pid, and a lease); success makes it
``done``; a failure puts it back to ``pending`` with ``last_error`` and an exponential backoff
(``next_attempt_at``), and the ``max_attempts``-th failure makes it ``failed``, where it stays
visible (``graphmem stats``, ``graphmem extract --retry --failed``).

A running job whose attempt can never end is *stranded*: its process was killed, or its server
went away so that the attempt could not be recorded. It is taken up again at once when its holder
is known to be dead (a process of this host that no longer exists, or an attempt of this very
process that ended), else when its lease expires (a holder on another host). The next ingest of
its group and every retry round (``graphmem extract --retry``, the consolidation scheduler) take
stranded jobs up.
"""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from ..holders import HOST, Holders
from ..store.driver import Store

STATES = ("pending", "running", "done", "failed")
MAX_ERROR = 2000
MAX_STRANDED_SCAN = 1000  # running jobs looked at per search for stranded ones
ATTEMPTS = Holders()  # the claims of this process whose attempt is still going


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """UTC ISO strings compare in time order, which the due-job query relies on."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def backoff_delay(attempts: int, base_s: float, cap_s: float) -> float:
    """Seconds to wait after the ``attempts``-th failure: base, 2·base, 4·base … up to cap."""
    return float(min(cap_s, base_s * (2 ** max(0, attempts - 1))))


def job_counts(store: Store, group_id: str | None = None) -> dict[str, int]:
    """Extraction jobs by state (pending, running, done, failed) for one group or all, and how
    many of the running ones are stranded (their process or server died)."""
    counts = {state: 0 for state in STATES}
    for row in store.read("job_counts", group_id=group_id):
        counts[row["state"]] = counts.get(row["state"], 0) + int(row["count"])
    counts["stranded"] = len(stranded_jobs(store, group_id)) if counts["running"] else 0
    return counts


def stranded_jobs(store: Store, group_id: str | None, *, limit: int = MAX_STRANDED_SCAN) -> list[dict]:
    """The running jobs (one group, or all) whose attempt can never end: their lease expired, or
    their holder is known to be dead. Each: group_id, id, and the claim to take it over from."""
    now = iso(utcnow())
    return [
        r
        for r in store.read("jobs_running", group_id=group_id, limit=max(1, int(limit)))
        if (r["lease_until"] or "") < now or not ATTEMPTS.alive(r["host"], r["pid"], r["claim"])
    ]


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

    def claim(
        self, group_id: str, job_id: str, *, include_failed: bool = False, stale: str | None = None
    ) -> dict | None:
        """Take the job for one attempt; None when it is not claimable (done, or someone else's).
        ``stale``: the claim of a dead holder, which may be taken over. The claim's token counts
        as a live attempt of this process until ``release``."""
        now = utcnow()
        token = uuid.uuid4().hex
        ATTEMPTS.add(token)
        try:
            rows = self.store.write(
                "job_claim",
                group_id=group_id,
                id=job_id,
                token=token,
                now=iso(now),
                lease_until=iso(now + timedelta(seconds=self.lease_s)),
                include_failed=include_failed,
                stale=stale,
                host=HOST,
                pid=os.getpid(),
            )
        except BaseException:
            ATTEMPTS.discard(token)
            raise
        if not rows:
            ATTEMPTS.discard(token)
            return None
        return rows[0]["job"]

    @staticmethod
    def release(job: dict) -> None:
        """The attempt on ``job`` is over (recorded or not): if its end could not be recorded, the
        job is stranded and the next round takes it up."""
        ATTEMPTS.discard(job.get("claim") or "")

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
    ) -> list[tuple[str, str, str | None]]:
        """(group_id, job_id, stale claim) of the jobs a retry should take now: the stranded ones
        first, then the due ones, oldest due first."""
        out = [(r["group_id"], r["id"], r["claim"]) for r in stranded_jobs(self.store, group_id)][: max(1, int(limit))]
        seen = {job_id for _, job_id, _ in out}
        rows = self.store.read(
            "jobs_due",
            group_id=group_id,
            now=iso(utcnow()),
            force=force,
            include_failed=include_failed,
            limit=max(1, int(limit)),
        )
        out += [(r["group_id"], r["id"], None) for r in rows if r["id"] not in seen]
        return out[: max(1, int(limit))]

    def list(self, group_id: str, *, state: str | None = None, limit: int = 100) -> list[dict]:
        return [r["job"] for r in self.store.read("jobs_list", group_id=group_id, state=state, limit=limit)]
