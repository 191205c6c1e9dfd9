"""Check that a Neo4j server answers, with one-line errors saying what to do."""

from __future__ import annotations

import logging
import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

from neo4j import READ_ACCESS, GraphDatabase
from neo4j.exceptions import (
    AuthError,
    ClientError,
    ConfigurationError,
    DatabaseUnavailable,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from ..errors import ConfigError, Neo4jUnavailableError

# The driver logs connection failures itself; without a handler they would reach stderr
# through logging.lastResort and break one-line errors. Applications may still add handlers.
logging.getLogger("neo4j").addHandler(logging.NullHandler())

_COMPONENTS = "CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition"


def query_components(
    uri: str, user: str, password: str | None, database: str = "neo4j", *, timeout: float = 10.0
) -> tuple[str, str]:
    """``(version, edition)`` of the server; raises the driver's own exceptions."""
    auth = (user, password) if password is not None else None
    with GraphDatabase.driver(
        uri, auth=auth, connection_timeout=timeout, connection_acquisition_timeout=timeout, max_connection_pool_size=2
    ) as driver:
        driver.verify_connectivity()
        with driver.session(database=database, default_access_mode=READ_ACCESS) as session:
            rows = session.run(_COMPONENTS).data()
    if not rows:
        return ("unknown", "unknown")
    # 5.x returns one row ("Neo4j Kernel"); 2025+ adds e.g. a Cypher component.
    row = next((r for r in rows if r["name"] == "Neo4j Kernel"), rows[0])
    return (str(row["version"]), str(row["edition"]))


def _reason(exc: Exception) -> str:
    text = str(exc)
    low = text.lower()
    if "connection refused" in low:
        return "connection refused"
    if "timed out" in low or "timeout" in low:
        return "connection timed out"
    if (
        "name or service not known" in low
        or "temporary failure in name resolution" in low
        or "nodename nor servname" in low
        or "failed to dns resolve" in low
    ):
        return "host name does not resolve"
    if "ssl" in low or "certificate" in low:
        return "TLS handshake failed (check the scheme: neo4j:// vs neo4j+s://)"
    first = re.sub(r"\s+", " ", text.strip().splitlines()[0] if text.strip() else type(exc).__name__)
    return first[:200]


def _tcp_check(uri: str, timeout: float) -> None:
    """Raise OSError (refused, timeout, DNS) if the URI's host:port does not accept TCP."""
    parts = urlsplit(uri)
    if parts.scheme.split("+")[0] not in ("neo4j", "bolt") or not parts.hostname:
        raise ValueError("unsupported scheme or missing host")
    port = parts.port or 7687
    with socket.create_connection((parts.hostname, port), timeout=timeout):
        pass


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "connection timed out"
    if isinstance(exc, socket.gaierror):
        return "host name does not resolve"
    return _one(exc.strerror or str(exc))


def _one(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()[:200]


def unreachable_reason(uri: str, timeout: float) -> str | None:
    """Why the URI's host:port does not accept a TCP connection within ``timeout`` s ("connection
    refused", "connection timed out", ...), or None when it does (or the URI is not a bolt one:
    the driver reports that itself)."""
    try:
        _tcp_check(uri, timeout)
    except ValueError:
        return None
    except OSError as exc:
        return _os_reason(exc)
    return None


def check_connection(
    uri: str,
    user: str,
    password: str | None,
    database: str = "neo4j",
    *,
    password_file: Path | str | None = None,
    timeout: float = 10.0,
) -> tuple[str, str]:
    """Connect, run ``dbms.components()`` on ``database``; return ``(version, edition)``.

    Every failure is a one-line Neo4jUnavailableError (or ConfigError for a malformed URI).
    """
    try:
        _tcp_check(uri, timeout)
    except ValueError as exc:
        raise ConfigError(
            f"invalid Neo4j URI {uri!r}: {exc} (expected e.g. neo4j://127.0.0.1:7687 or neo4j+s://host)"
        ) from exc
    except OSError as exc:
        raise Neo4jUnavailableError(
            f"cannot reach Neo4j at {uri}: {_os_reason(exc)}. Start one with `graphmem neo4j start` or set NEO4J_URI"
        ) from exc
    try:
        return query_components(uri, user, password, database, timeout=timeout)
    except AuthError as exc:
        where = f"the local server's password is in {password_file}" if password_file else "or NEO4J_USER"
        if password is None:
            raise Neo4jUnavailableError(
                f"Neo4j at {uri} needs a password for user '{user}': set NEO4J_PASSWORD ({where})"
            ) from exc
        raise Neo4jUnavailableError(
            f"Neo4j at {uri} refused the credentials for user '{user}': check NEO4J_PASSWORD ({where})"
        ) from exc
    except (ConfigurationError, ValueError) as exc:
        raise ConfigError(
            f"invalid Neo4j URI {uri!r}: {_reason(exc)} (expected e.g. neo4j://127.0.0.1:7687 or neo4j+s://host)"
        ) from exc
    except (ServiceUnavailable, SessionExpired, OSError) as exc:
        raise Neo4jUnavailableError(
            f"cannot reach Neo4j at {uri}: {_reason(exc)}. Start one with `graphmem neo4j start` or set NEO4J_URI"
        ) from exc
    except DatabaseUnavailable as exc:
        raise Neo4jUnavailableError(
            f"Neo4j at {uri} is up but database '{database}' is not available yet: retry in a moment"
        ) from exc
    except ClientError as exc:
        if "DatabaseNotFound" in (exc.code or ""):
            raise Neo4jUnavailableError(f"Neo4j at {uri} has no database '{database}': check NEO4J_DATABASE") from exc
        raise Neo4jUnavailableError(f"Neo4j at {uri} rejected the check query: {_reason(exc)}") from exc
    except (Neo4jError, DriverError) as exc:
        raise Neo4jUnavailableError(f"Neo4j at {uri} failed: {_reason(exc)}") from exc


__all__ = ["check_connection", "query_components", "unreachable_reason"]
