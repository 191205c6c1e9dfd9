"""What a benchmark's work costs the machine: CPU seconds of this process and, when the server
is graphmem's local one (``graphmem neo4j start``), of Neo4j.

On a machine where client and server share the cores, their CPU per call bounds throughput
whatever the concurrency: ``cores / (client + server CPU per call)`` calls per second at the
most. The benchmarks print that ceiling beside what they measured, so a figure far below it
says the time goes to waiting, and one near it that only less work (not more clients) helps.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from urllib.parse import urlparse

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _server_pid(graph) -> int | None:
    """The pid of graphmem's local server when ``graph`` talks to it, else None (a remote or
    Docker server's CPU cannot be read from here)."""
    from ..server.launcher import LocalNeo4j

    try:
        uri = urlparse(graph.store.uri)
        server = LocalNeo4j(graph.settings)
        pid = server.pid()
        if pid is None or uri.hostname not in LOCAL_HOSTS or uri.port != server.port:
            return None
        return pid
    except (OSError, ValueError):
        return None


def _process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` (all its threads), from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class CpuMark:
    client_s: float
    server_s: float | None


class CpuMeter:
    """``mark()`` before some calls, ``per_call(mark, n)`` after them."""

    def __init__(self, graph):
        self.pid = _server_pid(graph)
        self.cores = os.cpu_count() or 1

    def mark(self) -> CpuMark:
        return CpuMark(time.process_time(), _process_cpu_s(self.pid) if self.pid else None)

    def per_call(self, start: CpuMark, calls: int) -> dict[str, float | None]:
        """CPU ms per call of the client process (every thread: embedding, driver, background
        work) and of the local server (None when not local), and the ceiling they set on calls/s."""
        end = self.mark()
        client = (end.client_s - start.client_s) / max(calls, 1) * 1000
        server = None
        if start.server_s is not None and end.server_s is not None:
            server = (end.server_s - start.server_s) / max(calls, 1) * 1000
        total = client + (server or 0.0)
        return {
            "client_cpu_ms": round(client, 2),
            "server_cpu_ms": round(server, 2) if server is not None else None,
            "ceiling_per_s": round(self.cores * 1000 / total, 1) if server is not None and total > 0 else None,
        }
