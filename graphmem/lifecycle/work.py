"""Where a consolidation's queries run: each step's change in its own small transaction, or, for
a dry run, everything in one transaction that is rolled back at the end.

A dry run makes the same decisions as a real one (each step reads what the steps before it
changed, inside the transaction) and changes nothing: exactly what a run would change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import neo4j

from ..store.driver import Store, tx_run

T = TypeVar("T")


class Work:
    """``read(name, **params)`` and ``commit(fn)``: ``fn(tx)`` runs in one transaction."""

    def __init__(self, store: Store, *, dry_run: bool = False):
        self.store = store
        self.dry_run = dry_run
        self._session: neo4j.Session | None = None
        self._tx: neo4j.Transaction | None = None
        if dry_run:
            store.ensure_reachable()
            self._session = store.driver.session(database=store.database)
            self._tx = self._session.begin_transaction()

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        if self._tx is not None:
            return tx_run(self._tx, name, **params)
        return self.store.read(name, **params)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.commit(lambda tx: tx_run(tx, name, **params))

    def commit(self, fn: Callable[[Any], T]) -> T:
        if self._tx is not None:
            return fn(self._tx)
        return self.store.transaction(fn)

    def close(self) -> None:
        """A dry run's transaction is rolled back: nothing it did remains."""
        if self._tx is not None and self._session is not None:
            try:
                self._tx.rollback()
            finally:
                self._tx.close()
                self._session.close()
                self._tx = self._session = None
