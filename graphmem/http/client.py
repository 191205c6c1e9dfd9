"""The CLI's side of a running ``graphmem serve``: the few MemoryGraph methods its commands call
(search, create, show, stats, ingest), answered by the server.

Standard library only, and little of it: a command sent to a warm server must start in a fraction
of a second, so nothing here imports pydantic, the Neo4j driver or a model, and plain HTTP is
spoken over a socket (``http.client`` would bring the email package and ssl; it is used for https). Answers come
back as ``Reply`` objects (the JSON, with its keys also readable as attributes) that the CLI
prints as it prints the library's own models; the server's errors come back as the library's
named errors, raised here.

>>> graph = server_graph()            # None when no server is configured or running
>>> graph.search_memories("alice", "我住哪？").results[0].text
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from .. import errors
from .runtime import FoundServer, find_server

GROUP_HEADER = "X-Graphmem-Group"
CONNECT_TIMEOUT_S = 2.0  # a server found on this machine that does not accept within this is not used
REQUEST_TIMEOUT_S = 3600.0  # an ingest of 200,000 characters or a consolidation may take minutes


class Reply(dict):
    """A JSON object from the server; ``reply.results[0].text`` reads like the library's models."""

    def __getattr__(self, name: str) -> Any:
        try:
            return _reply(self[name])
        except KeyError:
            raise AttributeError(name) from None

    def model_dump(self, mode: str = "json") -> dict[str, Any]:
        return dict(self)


def _reply(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, Reply):
        return Reply(value)
    if isinstance(value, list):
        return [_reply(v) for v in value]
    return value


def _error(status: int, data: Any) -> errors.GraphmemError:
    """The named error the server reported (its class from graphmem.errors), else a GraphmemError."""
    if not isinstance(data, dict):
        return errors.GraphmemError(f"the graphmem server answered HTTP {status} without a graphmem error")
    name, message = str(data.get("error") or ""), str(data.get("message") or f"HTTP {status}")
    kind = getattr(errors, name, None)
    if not (isinstance(kind, type) and issubclass(kind, errors.GraphmemError)):
        return errors.GraphmemError(message)
    if issubclass(kind, errors.ValidationError):
        return kind(message, field=data.get("field"), allowed=data.get("allowed"), errors=data.get("errors"))
    if issubclass(kind, errors.AmbiguousMatchError):
        return kind(message, data.get("candidates") or [])
    if kind is errors.MissingExtraError:
        return errors.GraphmemError(message)
    return kind(message)


class Connection:
    """HTTP/1.1 over one kept-open socket: a request with a JSON body, the status and body back."""

    def __init__(self, host: str, port: int, timeout: float):
        self.address, self.timeout = (host, port), timeout
        self.sock: socket.socket | None = None

    def connect(self) -> None:
        host, port = self.address
        # an ASCII host as bytes: the name is then not run through the idna codec (its import and
        # unicodedata's cost a new process more than the connection)
        name = host.encode() if host.isascii() else host  # getaddrinfo takes bytes (typeshed says str)
        self.sock = socket.create_connection((name, port), timeout=self.timeout)  # type: ignore[arg-type]

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def request(self, method: str, target: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        reused = self.sock is not None
        try:
            return self._exchange(method, target, body, headers)
        except ConnectionError:
            if not reused:
                raise
            # the server closed an idle kept-open connection before reading this request: send it again
            self.close()
            return self._exchange(method, target, body, headers)

    def _exchange(self, method: str, target: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        if self.sock is None:
            self.connect()
        assert self.sock is not None
        host = f"{self.address[0]}:{self.address[1]}"
        lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body or b'')}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b""))
        reader = self.sock.makefile("rb")
        try:
            status_line = reader.readline(65537)
            if not status_line:
                raise ConnectionError("the server closed the connection")
            status = int(status_line.split()[1])
            fields: dict[str, str] = {}
            while (line := reader.readline(65537)) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                fields[name.strip().lower()] = value.strip()
            if fields.get("transfer-encoding", "").lower() == "chunked":
                data = b"".join(iter(lambda: _chunk(reader), b""))
            else:
                data = reader.read(int(fields.get("content-length", "0")))
        finally:
            reader.close()
        if fields.get("connection", "").lower() == "close":
            self.close()
        return status, data


def _chunk(reader: Any) -> bytes:
    size = int(reader.readline(65537).split(b";")[0], 16)
    data = reader.read(size) if size else b""
    reader.readline(65537)  # the CRLF after the chunk (or the empty trailer)
    return data


class TlsConnection:
    """The same, for an https URL (http.client, imported only then)."""

    def __init__(self, host: str, port: int | None, timeout: float):
        import http.client

        self._inner = http.client.HTTPSConnection(host, port, timeout=timeout)

    def connect(self) -> None:
        self._inner.connect()

    def close(self) -> None:
        self._inner.close()

    def request(self, method: str, target: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        self._inner.request(method, target, body=body, headers=headers)
        response = self._inner.getresponse()
        return response.status, response.read()


class RemoteGraph:
    """What the CLI asks of a MemoryGraph, sent to a running server (one connection, kept open)."""

    def __init__(self, server: FoundServer, connection: Connection | TlsConnection):
        self.server = server
        self._connection = connection
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if server.token:
            self._headers["Authorization"] = f"Bearer {server.token}"

    def __enter__(self) -> RemoteGraph:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._connection.close()

    @property
    def ingestor(self) -> RemoteGraph:  # ``ingestor_for(graph).ingest(...)`` reaches ``ingest`` below
        return self

    def call(self, method: str, path: str, group_id: str | None, body: Any = None, **query: Any) -> Any:
        """One request; the decoded JSON answer, or the server's error raised."""
        headers = dict(self._headers)
        if group_id is not None:
            headers[GROUP_HEADER] = group_id
        params = {k: v for k, v in query.items() if v is not None}
        target = urlsplit(self.server.url).path.rstrip("/") + path + (f"?{urlencode(params)}" if params else "")
        payload = None if body is None else json.dumps(body, ensure_ascii=False, default=str).encode("utf-8")
        try:
            status, raw = self._connection.request(method, target, payload, headers)
        except (OSError, ValueError, IndexError) as exc:
            raise errors.ConfigError(
                f"the graphmem server at {self.server.url} stopped answering ({exc}); run the command "
                f"again (without a server it works directly) or set GRAPHMEM_HTTP__CLIENT=off"
            ) from None
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        if status >= 400:
            raise _error(status, data)
        return _reply(data)

    # --- the MemoryGraph methods the CLI uses --------------------------------------------------
    def search_memories(self, group_id: str, query: str, **options: Any) -> Any:
        return self.call("POST", "/v1/search", group_id, {"query": query, **_given(options)})

    def create_memories(
        self,
        group_id: str,
        memories: list[Any],
        *,
        session_id: str | None = None,
        reference_time: Any = None,
        source: str = "cli",
        request_id: str | None = None,
    ) -> list[Any]:
        items = [m.model_dump(mode="json") if hasattr(m, "model_dump") else m for m in memories]
        body = {"memories": items, "session_id": session_id, "reference_time": reference_time, "request_id": request_id}
        return self.call("POST", "/v1/memories/batch", group_id, _given(body))

    def get_memory(self, group_id: str, memory_id: str) -> Any:
        from ..types import MemoryRecord  # the CLI prints its enums (memory_type.zh)

        return MemoryRecord.model_validate(self.call("GET", f"/v1/memories/{_segment(memory_id)}", group_id))

    def supersede_chain(self, group_id: str, memory_id: str) -> list[Any]:
        return self.call("GET", f"/v1/memories/{_segment(memory_id)}/supersede-chain", group_id)

    def stats(self, group_id: str | None = None) -> Any:
        """One group's counts, or (``None``: an admin's call) the whole database's."""
        return self.call("GET", "/v1/stats", group_id, whole_database="true" if group_id is None else None)

    def ingest(
        self,
        group_id: str,
        messages: list[Any] | None = None,
        text: str | None = None,
        *,
        session_id: str | None = None,
        reference_time: Any = None,
        extractor: Any = None,
        request_id: str | None = None,
        source: str | None = None,
        progress: Any = None,
    ) -> Any:
        """``Ingestor.ingest`` over HTTP (``progress`` is told nothing until the call returns)."""
        turns = None if messages is None else [_turn(m) for m in messages]
        body = {
            "messages": turns,
            "text": text,
            "session_id": session_id,
            "reference_time": reference_time,
            "extractor": extractor,
            "request_id": request_id,
        }
        return self.call("POST", "/v1/ingest", group_id, _given(body))


def _turn(message: Any) -> Any:
    """A turn as the server reads it: a dict as given, a parsed turn (graphmem.ingest.models.Message)
    back to {role, content, speaker, timestamp, id}."""
    if isinstance(message, dict):
        return message
    fields = {
        "role": message.role,
        "content": message.content,
        "speaker": getattr(message, "speaker", None),
        "timestamp": getattr(message, "timestamp", None),
        "id": getattr(message, "external_id", None),
    }
    return _given(fields)


def _given(options: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in options.items() if v is not None}


def _segment(value: str) -> str:
    from urllib.parse import quote

    return quote(str(value), safe="")


def connect(server: FoundServer) -> Connection | TlsConnection | None:
    """An open connection to ``server``; None when a found (not configured) server does not answer."""
    parts = urlsplit(server.url)
    host = parts.hostname or "127.0.0.1"
    connection: Connection | TlsConnection
    if parts.scheme == "https":
        connection = TlsConnection(host, parts.port, CONNECT_TIMEOUT_S)
    else:
        connection = Connection(host, parts.port or 80, CONNECT_TIMEOUT_S)
    try:
        connection.connect()
    except OSError as exc:
        if not server.configured:
            return None  # a server that died without removing its file: work directly
        raise errors.ConfigError(
            f"http.url is {server.url}, where no graphmem server answers ({exc}): start `graphmem serve` "
            "there, or unset http.url (GRAPHMEM_HTTP__URL) to work directly"
        ) from None
    if isinstance(connection, Connection) and connection.sock is not None:
        connection.timeout = REQUEST_TIMEOUT_S  # for the requests (and a reconnection) from now on
        connection.sock.settimeout(REQUEST_TIMEOUT_S)
    return connection


def server_graph(config: str | Path | None = None) -> RemoteGraph | None:
    """A RemoteGraph on the configured or running server, or None (the command works directly)."""
    server = find_server(config)
    if server is None:
        return None
    connection = connect(server)
    return None if connection is None else RemoteGraph(server, connection)
