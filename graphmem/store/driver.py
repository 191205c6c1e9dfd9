"""The connection to Neo4j: one routing driver, named queries, errors that say what to do.

``submit`` runs a named read on a small thread pool and returns a Future: the read path sends
round trips that do not depend on each other at the same time (the group probe while the
query is embedded, fulltext seeds while the vector index answers), so a search waits for the
slower of them, not their sum.

Faults: until a query has succeeded (and again after a connection failure) a call first checks
that the server's port answers within ``CONNECT_CHECK_TIMEOUT_S``, so a stopped server is
reported at once; a lost connection or an unavailable server during a call (a restart, a
leader switch) is retried for at most ``neo4j.retry_budget_s`` in all, a live server's contention
(deadlocks) for ``neo4j.contention_retry_s``. A commit whose outcome is
unknown is never retried here: it raises ``WriteOutcomeUnknownError`` (graphmem's writes take a
``request_id`` that makes a retry safe).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, RoutingControl
from neo4j import exceptions as neo4j_exc

from ..config import Settings
from ..errors import (
    GraphmemError,
    Neo4jAuthError,
    Neo4jDatabaseNotFoundError,
    Neo4jPermissionError,
    Neo4jUnavailableError,
    WriteOutcomeUnknownError,
)
from .cypher import q

T = TypeVar("T")

READ_THREADS = 16  # concurrent reads submitted by searches (each takes one pooled connection)
RETRY_FIRST_DELAY_S = 0.2  # pause before the first retry of a transient error; doubled each time
RETRY_MAX_DELAY_S = 1.0  # longest pause between two attempts
# Until a query has succeeded (a new client, or one whose connection failed) the server must answer
# a trivial query within the rest of the retry budget plus this: no call waits for a starting server.
RECOVERY_GRACE_S = 2.0
PING = "RETURN 1 AS ok"  # the readiness check (a constant, not a named query: it reads nothing)
VECTOR_MIN = 32  # a list of at least this many floats is sent as a ``Vector`` (an embedding)
CONNECTION_TIMEOUT_S = 10.0  # the driver's timeout for opening a connection
MAX_CONNECTION_POOL_SIZE = 50  # connections the driver keeps (READ_THREADS reads and the writers share them)
# before the first query after a failure (or the first ever), the server's port must answer a TCP
# connect within this many seconds, else the call fails at once naming the URI
CONNECT_CHECK_TIMEOUT_S = 2.0

log = logging.getLogger(__name__)
# The driver logs its routing failures ("Unable to retrieve routing information") and retries;
# without a handler they would reach the terminal through logging.lastResort, before the one-line
# error. They still reach whatever handlers an application configures.
logging.getLogger("neo4j").addHandler(logging.NullHandler())


class Store:
    """Runs named queries from ``graphmem/cypher/``: writes in managed transactions, reads in
    auto-commit ones (each retried on transient errors, ``_attempts``)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.uri = settings.effective_uri()
        self.database = settings.neo4j.database
        password = settings.effective_password()
        if password is None:
            where = (
                f"the local server's password file {settings.password_file} does not exist yet: run "
                f"`graphmem neo4j start`"
                if settings.neo4j.uri is None
                else "set NEO4J_PASSWORD"
            )
            raise Neo4jUnavailableError(f"no password for Neo4j at {self.uri}: {where}")
        try:
            self.driver = GraphDatabase.driver(
                self.uri,
                auth=(settings.neo4j.user, password),
                connection_timeout=CONNECTION_TIMEOUT_S,
                max_connection_pool_size=MAX_CONNECTION_POOL_SIZE,
                # one attempt per managed transaction: Store retries, within neo4j.retry_budget_s
                max_transaction_retry_time=0,
                notifications_min_severity="OFF",
            )
        except (neo4j_exc.ConfigurationError, ValueError) as exc:
            raise Neo4jUnavailableError(f"invalid Neo4j URI {self.uri!r}: {exc}") from exc
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._healthy = False  # a query succeeded since the last connection failure

    def close(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
        self.driver.close()

    def verify(self) -> tuple[str, str]:
        """(version, edition) of the server; a one-line Neo4jUnavailableError when unreachable."""
        rows = self.read("server_components")
        return rows[0]["version"], rows[0]["edition"]

    def unreachable_message(self, reason: str) -> str:
        """One line naming the URI, why it failed and what to do."""
        fix = (
            "start the local server with `graphmem neo4j start`"
            if self.settings.neo4j.uri is None
            else "check that the server runs and NEO4J_URI is right (or unset it and run `graphmem neo4j start`)"
        )
        return f"cannot reach Neo4j at {self.uri}: {reason}; {fix}"

    def ensure_reachable(self) -> None:
        """Raise Neo4jUnavailableError at once when the server's port does not answer within
        ``CONNECT_CHECK_TIMEOUT_S``. Checked only while no query has succeeded since the
        last connection failure: a healthy connection costs nothing."""
        if self._healthy:
            return
        from ..server.probe import unreachable_reason

        reason = unreachable_reason(self.uri, CONNECT_CHECK_TIMEOUT_S)
        if reason is not None:
            raise Neo4jUnavailableError(self.unreachable_message(reason))

    def credentials_hint(self) -> str:
        return (
            f"the local server's password is in {self.settings.password_file}"
            if self.settings.neo4j.uri is None
            else "check NEO4J_USER and NEO4J_PASSWORD"
        )

    def _errors(self, exc: BaseException) -> BaseException:
        """The graphmem error a driver error stands for (``exc`` itself when there is none)."""
        access = access_error(
            exc,
            uri=self.uri,
            user=self.settings.neo4j.user,
            database=self.database,
            credentials_hint=self.credentials_hint(),
        )
        if access is not None:
            return access
        if isinstance(exc, neo4j_exc.IncompleteCommit):
            return WriteOutcomeUnknownError(
                f"the connection to Neo4j at {self.uri} was lost while a write was committing: it may or may "
                f"not have been applied. Retry the call with the same request_id to apply it exactly once"
            )
        budget = f"retried for {self.settings.neo4j.retry_budget_s:g} s"
        if isinstance(exc, _Stalled):
            return Neo4jUnavailableError(
                self.unreachable_message(f"it accepts connections but does not answer yet (starting?; {budget})")
            )
        if _unavailable(exc):
            code = getattr(exc, "code", None)
            what = code.rsplit(".", 1)[-1] if code else exc.__class__.__name__
            return Neo4jUnavailableError(self.unreachable_message(f"{what} ({budget})"))
        if isinstance(exc, neo4j_exc.TransientError):  # still busy after the retries
            code = (exc.code or type(exc).__name__).rsplit(".", 1)[-1]
            return Neo4jUnavailableError(
                f"Neo4j at {self.uri} could not serve the call ({code}) for "
                f"{self.settings.neo4j.contention_retry_s:g} s: retry it later (with the same request_id "
                f"for a write), or raise neo4j.contention_retry_s"
            )
        return exc

    def _attempts(self, attempt: Callable[[], T]) -> T:
        """``attempt()``, again after a transient error until its budget is spent; driver errors
        become graphmem's (``_errors``).

        A lost connection or an unavailable server is retried for ``neo4j.retry_budget_s``, a live
        server's contention for ``neo4j.contention_retry_s``. Until a query has succeeded (at the
        start, and again after a connection failure) the server must first answer a trivial query
        within the rest of the budget plus RECOVERY_GRACE_S: a server that is starting accepts
        connections and may answer a query a minute later, and no call waits for that. A call to a
        server that answers is never cut short (a long query is not a fault)."""
        self.ensure_reachable()
        start = time.monotonic()
        delay = RETRY_FIRST_DELAY_S
        budget_s = self.settings.neo4j.retry_budget_s
        while True:
            try:
                if not self._healthy:
                    _bounded(self._ping, max(0.0, start + budget_s - time.monotonic()) + RECOVERY_GRACE_S)
                    self._healthy = True
                result = attempt()
            except (neo4j_exc.Neo4jError, neo4j_exc.DriverError, OSError, _Stalled) as raised:
                exc = _underlying(raised)
                unavailable = _unavailable(exc)
                if unavailable:
                    self._healthy = False
                budget = budget_s if unavailable else self.settings.neo4j.contention_retry_s
                remaining = start + budget - time.monotonic()
                retryable = not isinstance(exc, (_Stalled, neo4j_exc.IncompleteCommit)) and (
                    unavailable or (isinstance(exc, neo4j_exc.Neo4jError) and exc.is_retryable())
                )
                if not retryable or remaining <= 0:
                    mapped = self._errors(exc)
                    if mapped is exc:
                        raise
                    raise mapped from (None if isinstance(exc, _Stalled) else exc)
                pause = min(delay * random.uniform(0.8, 1.2), remaining)  # jitter: contenders drift apart
                log.info("Neo4j at %s: %s; retrying in %.1f s", self.uri, exc.__class__.__name__, pause)
                time.sleep(pause)
                delay = min(2 * delay, RETRY_MAX_DELAY_S)
                continue
            self._healthy = True
            return result

    def _ping(self) -> None:
        """A trivial query on the configured database: the server is up and serving it."""
        self.driver.execute_query(PING, database_=self.database, routing_=RoutingControl.READ)

    def run(self, name: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Run the named query with ``params``; return its rows as dicts."""
        return self.run_text(q(name), write=write, **params)

    def run_text(self, query: str, /, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        sent = lean_params(params)

        def attempt() -> list[dict[str, Any]]:
            if write:
                records, _, _ = self.driver.execute_query(
                    query, sent, database_=self.database, routing_=RoutingControl.WRITE
                )
            else:
                # a read in an auto-commit transaction: one round trip (run and pull), where a managed
                # one adds a second for its commit; the bookmarks execute_query keeps (what this driver
                # wrote) are waited for as before, so a read still sees this process's writes in a cluster
                with self.driver.session(
                    database=self.database,
                    default_access_mode=neo4j.READ_ACCESS,
                    bookmark_manager=self.driver.execute_query_bookmark_manager,
                ) as session:
                    records = list(session.run(query, sent))
            return [_row(r) for r in records]

        return self._attempts(attempt)

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.run(name, **params)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.run(name, write=True, **params)

    def submit(self, name: str, /, **params: Any) -> Future[list[dict[str, Any]]]:
        """``read(name, **params)`` on the read pool; ``.result()`` returns its rows or raises
        what ``read`` would have raised."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="graphmem-read")
            return self._pool.submit(self.read, name, **params)

    def transaction(self, work: Callable[[neo4j.ManagedTransaction], T], *, write: bool = True) -> T:
        """Run ``work(tx)`` in one managed transaction: all of it commits, or none of it (a
        transient failure runs ``work`` again in a new transaction, within the retry budget)."""

        def attempt() -> T:
            with self.driver.session(database=self.database) as session:
                return (session.execute_write if write else session.execute_read)(work)

        return self._attempts(attempt)


class _Stalled(Exception):
    """An attempt made while the server recovers did not answer within its time."""


def _bounded(attempt: Callable[[], T], seconds: float) -> T:
    """``attempt()`` run in a daemon thread and waited for at most ``seconds``; _Stalled after that
    (the thread finishes on its own when the server answers, and its result is dropped)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = attempt()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc

    worker = threading.Thread(target=run, name="graphmem-recovering", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _Stalled()
    if "error" in box:
        raise box["error"]
    return box["result"]


def _underlying(exc: BaseException) -> BaseException:
    """The error that failed a result, when the driver raises ``ResultFailedError`` for it: on
    rolling back a transaction whose query failed (a deadlock, say) the driver may drain the
    failed result again and raise that wrapper, which hides a retryable error under one that
    is not."""
    while isinstance(exc, neo4j_exc.ResultFailedError) and isinstance(
        exc.__cause__, (neo4j_exc.Neo4jError, neo4j_exc.DriverError)
    ):
        exc = exc.__cause__
    return exc


def _unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means the server (or its database) cannot serve now: a lost or refused
    connection, a restart, a leader switch, a database still starting. A live server's
    contention (deadlocks, lock timeouts: ``Neo.TransientError.Transaction.*``) is not."""
    if isinstance(exc, (neo4j_exc.ServiceUnavailable, neo4j_exc.SessionExpired, OSError, _Stalled)):
        return True
    if isinstance(exc, neo4j_exc.ConnectionAcquisitionTimeoutError):
        return True
    if isinstance(exc, neo4j_exc.TransientError):
        return ".Transaction." not in (exc.code or "")
    return False


def access_error(
    exc: BaseException, *, uri: str, user: str, database: str, credentials_hint: str
) -> GraphmemError | None:
    """The named error of a refusal a user can cause and fix (credentials, a login rate limit,
    a missing privilege, a missing database), with the fix in one line; None for anything else."""
    code = getattr(exc, "code", None) or ""
    if (
        isinstance(exc, (neo4j_exc.AuthError, neo4j_exc.TokenExpired))
        or code.endswith(".AuthenticationRateLimit")
        or code.endswith(".Unauthorized")
    ):
        # the same line whether this was the first wrong password or one of several in a row (which
        # Neo4j answers with AuthenticationRateLimit, refusing even the right one for a few seconds)
        return Neo4jAuthError(
            f"Neo4j at {uri} refused the credentials for user {user!r} (after several failures it refuses "
            f"every login for a few seconds): {credentials_hint}"
        )
    if code.endswith(".CredentialsExpired"):
        return Neo4jAuthError(
            f"Neo4j at {uri}: the password of user {user!r} has expired and must be changed before use: "
            f"ALTER CURRENT USER SET PASSWORD FROM 'old' TO 'new' (cypher-shell or Neo4j Browser), then set "
            f"NEO4J_PASSWORD"
        )
    if isinstance(exc, neo4j_exc.ForbiddenOnReadOnlyDatabase) or code.endswith(".ForbiddenOnReadOnlyDatabase"):
        return Neo4jPermissionError(
            f"Neo4j at {uri}: database {database!r} is read-only: point NEO4J_URI at a server where it is "
            f"writable, or make it writable (ALTER DATABASE {database} SET ACCESS READ WRITE)"
        )
    if isinstance(exc, neo4j_exc.Forbidden) or code.startswith("Neo.ClientError.Security."):
        what = code.rsplit(".", 1)[-1] if code else type(exc).__name__
        return Neo4jPermissionError(
            f"Neo4j at {uri}: user {user!r} may not do this on database {database!r} ({what}): grant it "
            f"read and write access to the database (e.g. the architect role), or connect as a user who has it"
        )
    if code.endswith(".DatabaseNotFound"):
        return Neo4jDatabaseNotFoundError(
            f"Neo4j at {uri} has no database {database!r}: set NEO4J_DATABASE (neo4j.database) to one "
            f"that exists (SHOW DATABASES; Community Edition has only 'neo4j')"
        )
    return None


_PLAIN = (str, int, float, bool, type(None))


def _plain(value: Any) -> bool:
    """True when ``value`` holds only strings, numbers, booleans, nulls, lists and maps."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in _PLAIN:
            return False
    return True


def _row(record: neo4j.Record) -> dict[str, Any]:
    """``record.data()``, without its recursive rebuild when every value is already plain (map
    projections, scalars, lists): on the read path that rebuild cost more than some queries."""
    values = record.values()
    if _plain(values):
        return dict(zip(record.keys(), values))
    return record.data()


def tx_run(tx: neo4j.ManagedTransaction | neo4j.Transaction, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named query inside a transaction function (or an explicit transaction)."""
    return [r.data() for r in tx.run(q(name), lean_params(params))]


class Vector(list):
    """An embedding as a query parameter: a list of floats to the driver's encoder, a short name
    to its debug log. The driver formats every query's parameters for a debug log line even when
    debug logging is off (``" ".join(map(repr, fields))`` in its Bolt ``run``): 0.3 ms of CPU for
    one 768-float vector, on every memory and new concept written and every search that sends
    the query's embedding. Packed and stored as a plain list."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)} floats>"


def lean_params(value: Any) -> Any:
    """``value`` with its lists of floats (embeddings, wherever they sit: ``$embedding``,
    ``$rows[i].subject.embedding``) as ``Vector``; everything else as it is. Lists are looked
    into only when they hold maps or lists (a list of ids or scores is taken as it is)."""
    kind = type(value)
    if kind is list:
        if not value:
            return value
        first = type(value[0])
        if first is float and len(value) >= VECTOR_MIN:
            return Vector(value)
        if first is dict or first is list:
            return [lean_params(v) for v in value]
        return value
    if kind is dict:
        return {k: lean_params(v) for k, v in value.items()}
    return value
