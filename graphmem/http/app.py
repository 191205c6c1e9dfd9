"""The ASGI app of ``graphmem serve``: FastAPI over one MemoryGraph, its OpenAPI schema at
/openapi.json and the interactive page at /docs.

Why FastAPI (docs/http.md): the request and response bodies are the library's pydantic types,
and FastAPI turns them into the OpenAPI schema and checks requests against them; it adds about
1 MB to an install that already has Starlette and uvicorn through the MCP extra.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from .auth import Gate
from .errors import install

MAX_REQUEST_BYTES = 4 * 1024 * 1024  # a larger body is refused (413) before it is read or parsed
DESCRIPTION = """\
graphmem's memory over HTTP: every call of the Python API (`MemoryGraph`) for one group.

The group is never in the body or the path: it is the one of your bearer token, or the server's
(`graphmem serve --group`) on a loopback server without tokens. An admin token names the group
with the `X-Graphmem-Group` header. Errors are graphmem's named errors as JSON
(`{"success": false, "error": "ValidationError", "message": ..., "field": ...}`) with the status
each deserves: 422 invalid input, 404 not found, 409 ambiguous description or locked, 401/403
token, 503 database unavailable (retry; writes carry a `request_id` for that).
"""


class BodyLimit:
    """ASGI middleware: a request whose body is over ``limit`` bytes gets 413 before any work."""

    def __init__(self, app: Any, limit: int = MAX_REQUEST_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send, int(declared))
            return
        seen = 0

        async def counted() -> dict:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge(seen)
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge as exc:
            await self._refuse(send, exc.size)

    async def _refuse(self, send: Callable, size: int) -> None:
        import json

        body = json.dumps(
            {
                "success": False,
                "error": "ValidationError",
                "field": "body",
                "message": f"the request body is {size} bytes; at most {self.limit} are taken: send less per call",
            }
        ).encode()
        await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    def __init__(self, size: int):
        self.size = size


def create_app(graph: Any, gate: Gate, *, version: str = "0") -> FastAPI:
    """The app over ``graph`` (a MemoryGraph) with ``gate`` deciding each request's group."""
    from .routes import router

    app = FastAPI(
        title="graphmem",
        version=version,
        description=DESCRIPTION,
        docs_url="/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.graph = graph
    app.state.gate = gate
    install(app)
    app.include_router(router)
    app.add_middleware(BodyLimit)
    return app
