"""The connection to Neo4j: one routing driver, named queries, errors that say what to do."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

import neo4j
from neo4j import GraphDatabase, RoutingControl
from neo4j import exceptions as neo4j_exc

from ..config import Settings
from ..errors import Neo4jUnavailableError
from .cypher import q

T = TypeVar("T")


class Store:
    """Runs named queries from ``cypher/`` in managed transactions (retried on transient errors)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.uri = settings.effective_uri()
        self.database = settings.neo4j.database
        password = settings.effective_password()
        if password is None:
            where = (f"the local server's password file {settings.password_file} does not exist yet: run "
                     f"`graphmem neo4j start`" if settings.neo4j.uri is None else "set NEO4J_PASSWORD")
            raise Neo4jUnavailableError(f"no password for Neo4j at {self.uri}: {where}")
        try:
            self.driver = GraphDatabase.driver(
                self.uri, auth=(settings.neo4j.user, password),
                connection_timeout=settings.neo4j.connection_timeout_s,
                max_connection_pool_size=settings.neo4j.max_connection_pool_size,
                notifications_min_severity="OFF")
        except (neo4j_exc.ConfigurationError, ValueError) as exc:
            raise Neo4jUnavailableError(f"invalid Neo4j URI {self.uri!r}: {exc}") from exc

    def close(self) -> None:
        self.driver.close()

    def verify(self) -> tuple[str, str]:
        """(version, edition) of the server; a one-line Neo4jUnavailableError when unreachable."""
        rows = self.read("server_components")
        return rows[0]["version"], rows[0]["edition"]

    def _errors(self, exc: Exception) -> Exception:
        if isinstance(exc, neo4j_exc.AuthError):
            hint = (f"the local server's password is in {self.settings.password_file}"
                    if self.settings.neo4j.uri is None else "check NEO4J_USER and NEO4J_PASSWORD")
            return Neo4jUnavailableError(
                f"Neo4j at {self.uri} refused the credentials for user {self.settings.neo4j.user!r}: {hint}")
        if isinstance(exc, (neo4j_exc.ServiceUnavailable, neo4j_exc.SessionExpired, OSError)):
            return Neo4jUnavailableError(
                f"cannot reach Neo4j at {self.uri}: {exc.__class__.__name__}. Start one with "
                f"`graphmem neo4j start`, or set NEO4J_URI to a running server")
        return exc

    def run(self, name: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Run the named query with ``params``; return its rows as dicts."""
        return self.run_text(q(name), write=write, **params)

    def run_text(self, query: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        try:
            records, _, _ = self.driver.execute_query(
                query, params, database_=self.database,
                routing_=RoutingControl.WRITE if write else RoutingControl.READ)
        except neo4j_exc.Neo4jError as exc:
            if isinstance(exc, neo4j_exc.AuthError):
                raise self._errors(exc) from exc
            raise
        except Exception as exc:  # noqa: BLE001 - mapped to a named error when it is a connection problem
            mapped = self._errors(exc)
            if mapped is exc:
                raise
            raise mapped from exc
        return [r.data() for r in records]

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.run(name, **params)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.run(name, write=True, **params)

    def transaction(self, work: Callable[[neo4j.ManagedTransaction], T], *, write: bool = True) -> T:
        """Run ``work(tx)`` in one managed transaction: all of it commits, or none of it."""
        try:
            with self.driver.session(database=self.database) as session:
                return (session.execute_write if write else session.execute_read)(work)
        except neo4j_exc.Neo4jError as exc:
            if isinstance(exc, neo4j_exc.AuthError):
                raise self._errors(exc) from exc
            raise
        except Exception as exc:  # noqa: BLE001
            mapped = self._errors(exc)
            if mapped is exc:
                raise
            raise mapped from exc


def tx_run(tx: neo4j.ManagedTransaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named query inside a transaction function."""
    return [r.data() for r in tx.run(q(name), params)]
