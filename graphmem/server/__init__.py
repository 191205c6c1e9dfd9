"""The local Neo4j Community server graphmem fetches (Maven Central) and runs (Java 17+).

``LocalNeo4j(settings).start()`` returns a ``ConnectionInfo``; ``check_connection`` turns any
connection failure into a one-line ``Neo4jUnavailableError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
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

# imported on first use: a client that only probes the port (store/driver.py) loads no launcher
_HOME = {
    "MissingToolError": "errors",
    "PortInUseError": "errors",
    "fetch_jars": "fetch",
    "is_fetched": "fetch",
    "lib_dir": "fetch",
    "Java": "java",
    "find_java": "java",
    "required_java_major": "java",
    "ConnectionInfo": "launcher",
    "LocalNeo4j": "launcher",
    "ServerStatus": "launcher",
    "free_port": "launcher",
    "port_is_free": "launcher",
    "check_connection": "probe",
}

__getattr__ = exports(__name__, _HOME)
