"""The local Neo4j Community server graphmem fetches (Maven Central) and runs (Java 17+).

``LocalNeo4j(settings).start()`` returns a ``ConnectionInfo``; ``check_connection`` turns any
connection failure into a one-line ``Neo4jUnavailableError``.
"""

from __future__ import annotations

from .errors import MissingToolError, PortInUseError
from .fetch import fetch_jars, is_fetched, lib_dir
from .java import Java, find_java, required_java_major
from .launcher import ConnectionInfo, LocalNeo4j, ServerStatus, free_port, port_is_free
from .probe import check_connection

__all__ = [
    "LocalNeo4j",
    "ConnectionInfo",
    "ServerStatus",
    "check_connection",
    "find_java",
    "required_java_major",
    "Java",
    "fetch_jars",
    "is_fetched",
    "lib_dir",
    "free_port",
    "port_is_free",
    "MissingToolError",
    "PortInUseError",
]
