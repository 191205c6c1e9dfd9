"""One consolidation per group at a time: a lock node in the database.

``ConsolidationLock {group_id}`` holds the running run's id, host, pid and an expiry. A run
refreshes it after each batch. A second run on the group fails with ConsolidationLockedError,
unless the lock expired or its owner is a process on this host that no longer exists (a run
killed with kill -9), or a run of this very process that ended without releasing it (its server
went away): then the new run takes it over and marks the old run interrupted.

The test of whether a holder is alive is ``graphmem.holders.Holders`` (extraction jobs use it too).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from ..errors import ConsolidationLockedError
from ..holders import HOST, Holders
from .work import Work

RUNS = Holders()  # the consolidation runs of this process that hold a lock now


class RunLock:
    def __init__(self, work: Work, group_id: str, run_id: str, ttl_s: float):
        self.work, self.group_id, self.run_id, self.ttl_s = work, group_id, run_id, ttl_s
        self.stolen_from: str | None = None

    def _take(self, stale: str | None) -> dict:
        now = datetime.now(UTC)
        return self.work.write(
            "lifecycle_lock_take",
            group_id=self.group_id,
            run_id=self.run_id,
            stale=stale,
            now=now.isoformat(),
            expires_at=(now + timedelta(seconds=self.ttl_s)).isoformat(),
            host=HOST,
            pid=os.getpid(),
        )[0]

    def acquire(self) -> None:
        # counted as running before the lock is taken: another run of this process that finds the
        # lock just committed must see its owner alive, not a run that ended without releasing it
        RUNS.add(self.run_id)
        try:
            row = self._take(None)
            if row["acquired"]:
                return
            if row["host"] == HOST and not RUNS.alive(row["host"], row["pid"], row["owner"]):
                dead = row["owner"]
                row = self._take(dead)
                if row["acquired"]:
                    self.stolen_from = dead
                    return
        except BaseException:
            RUNS.discard(self.run_id)
            raise
        RUNS.discard(self.run_id)
        raise ConsolidationLockedError(
            f"group {self.group_id!r} is being consolidated by run {row['owner']} (host {row['host']}, pid "
            f"{row['pid']}) until {row['expires_at']}: wait for it to finish, or for the lock to expire "
            f"(consolidation.lock_ttl_s)"
        )

    def refresh(self) -> None:
        row = self._take(None)
        if not row["acquired"]:
            raise ConsolidationLockedError(
                f"run {self.run_id} lost group {self.group_id!r}'s consolidation lock to run {row['owner']}: "
                f"its lock expired (raise consolidation.lock_ttl_s for longer batches)"
            )

    def abandon(self) -> None:
        """This run ends without releasing the lock (its server is gone): the next run of this
        process may take the lock over."""
        RUNS.discard(self.run_id)

    def release(self) -> None:
        RUNS.discard(self.run_id)
        self.work.write("lifecycle_lock_release", group_id=self.group_id, run_id=self.run_id)
