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
    """The pid of the Neo4j ``graph`` talks to when it runs on this machine, else None (a remote
    or Docker server's CPU cannot be read from here): graphmem's configured local server, or the
    process listening on the URI's port (a server started with ``graphmem neo4j start --home``)."""
    from ..server.launcher import LocalNeo4j

    try:
        uri = urlparse(graph.store.uri)
        if uri.hostname not in LOCAL_HOSTS or uri.port is None:
            return None
        server = LocalNeo4j(graph.settings)
        pid = server.pid()
        if pid is not None and uri.port == server.port:
            return pid
        return listening_pid(uri.port)
    except (OSError, ValueError):
        return None


def listening_pid(port: int) -> int | None:
    """The pid of the process with a TCP socket listening on ``port`` (read from /proc: the
    socket's inode, then the process holding it), None when none can be seen."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                next(fh)
                for line in fh:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                        inodes.add(f"socket:[{fields[9]}]")
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    if not inodes:
        return None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{entry}/fd"):
                if os.readlink(f"/proc/{entry}/fd/{fd}") in inodes:
                    return int(entry)
        except OSError:
            continue  # gone, or another user's
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
