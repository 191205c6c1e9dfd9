"""`graphmem mcp`: the memory as a Model Context Protocol server (official ``mcp`` SDK, 2.x).

Tools are the ones in ``graphmem.tools`` (same schemas, same ``dispatch``): the four core tools
(``--tools core``) or those plus forget_memory, ingest_conversation, get_memory and
memory_stats (``--tools all``). Resources: ``graphmem://memory/{memory_id}`` (one memory) and
``graphmem://memories/recent`` (the group's newest memories).

The group (tenant) is never the model's to choose. It is fixed by the server (``--group``) or,
over HTTP, by a header the client's connection sends (``--group-header X-Graphmem-Group``). A
call whose arguments name a group (``group_id``, ``group``, ``tenant`` ...) is refused with a
tool error, as is any argument the tool's schema does not list; another group's memory ids are
simply not found. Invalid calls come back as tool errors (``isError``) carrying the validation
message; the server keeps running.

>>> server = build_server(graph, group_id="alice")          # then run_stdio(server) or run_http(...)
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from typing import Any

from ..errors import ConfigError, GraphmemError, MissingExtraError, NotFoundError, ValidationError
from ..http.auth import GROUP_ARGUMENTS, is_loopback

try:
    import mcp_types as types
    from jsonschema import Draft202012Validator
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError
except ModuleNotFoundError as exc:  # the extra is not installed
    raise MissingExtraError("the MCP server (graphmem mcp)", "mcp", exc.name) from None

from ..tools import AGENT_TOOLS, TOOLS, adispatch, tool_error
from ..types import shown, validate_group_id, validate_optional_id

log = logging.getLogger(__name__)

PROFILES = {"core": TOOLS, "all": AGENT_TOOLS}
DEFAULT_GROUP_HEADER = "X-Graphmem-Group"
RECENT_URI = "graphmem://memories/recent"
MEMORY_URI_PREFIX = "graphmem://memory/"
RECENT_LIMIT = 20  # memories the recent-memories resource lists
# Argument names that would choose a tenant: refused outright, whatever the tool.
RESOURCE_NOT_FOUND = -32002
# A request body above this is refused by the HTTP transport (413) before it reaches a tool; below
# it, any bad value comes back as a tool error quoting at most a short prefix of it (SHOWN_VALUE).
MAX_REQUEST_BYTES = 4 * 1024 * 1024
# A tool result is sent twice (as text and as structured content) in one message, and MCP clients
# cap one message (the SDK's HTTP client: 1 MiB per server-sent event): a longer result loses its
# last search results (saying so), or becomes a tool error.
MAX_RESULT_BYTES = 400_000
# Hints for clients (MCP tool annotations): which tools only read, which may hide a memory.
READ_ONLY = frozenset({"search_memories", "get_memory", "memory_stats"})
DESTRUCTIVE = frozenset({"forget_memory"})


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)


def _error_result(out: dict) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=_json(out))], structured_content=out, is_error=True
    )


def _schema_problem(error: Any) -> str:
    """What a JSON-schema error says, without the offending value (it may be 100 kB): its size,
    its type or a short prefix of it."""
    kind, limit, value = error.validator, error.validator_value, error.instance
    if kind == "maxLength":
        return f"is {len(value)} characters long; at most {limit} are allowed"
    if kind == "minLength":
        return f"must be at least {limit} characters long"
    if kind in ("maxItems", "maxProperties"):
        return f"has {len(value)} {'items' if kind == 'maxItems' else 'properties'}; at most {limit} are allowed"
    if kind == "type":
        return f"must be of type {limit}, not {type(value).__name__}"
    if kind == "enum":
        return f"{shown(value)} is not one of {', '.join(map(str, limit))}"
    if kind in ("minimum", "maximum"):
        return f"{shown(value) if isinstance(value, str) else value!r} must be {'>=' if kind == 'minimum' else '<='} {limit}"
    if kind == "additionalProperties":
        extra = [k for k in value if k not in (error.schema.get("properties") or {})] if isinstance(value, dict) else []
        return f"{', '.join(shown(k) for k in extra[:5]) or 'an argument'} is not a known argument"
    if kind == "required":
        return str(error.message)[:200]
    return f"is not valid ({kind})"


def _fits(out: dict) -> dict:
    """``out`` when its JSON is at most MAX_RESULT_BYTES; else its last results dropped until it
    fits (``truncated`` says how many), or a tool error saying what to ask for instead."""
    size = len(_json(out).encode())
    if size <= MAX_RESULT_BYTES:
        return out
    results = out.get("results")
    if isinstance(results, list) and results:
        kept = list(results)
        while kept and len(_json({**out, "results": kept}).encode()) > MAX_RESULT_BYTES:
            kept = kept[: len(kept) * 3 // 4]
        dropped = len(results) - len(kept)
        return {**out, "results": kept, "truncated": {"results_dropped": dropped, "max_bytes": MAX_RESULT_BYTES}}
    return {
        "success": False,
        "error": "ResultTooLarge",
        "tool": out.get("tool"),
        "message": f"the result is {size} bytes, above the {MAX_RESULT_BYTES} bytes one answer may carry: ask for less",
    }


class GraphmemMCP:
    """The handlers of one MCP server bound to one MemoryGraph and one way of fixing the group."""

    def __init__(
        self,
        graph: Any,
        *,
        group_id: str | None = "default",
        tools: str = "all",
        group_header: str | None = None,
        session_id: str | None = None,
    ):
        if tools not in PROFILES:
            raise ConfigError(f"--tools must be one of {', '.join(PROFILES)}, not {tools!r}")
        if group_header is None:
            group_id = validate_group_id(group_id)
        self.graph = graph
        self.group_id = group_id
        self.group_header = group_header
        self.session_id = validate_optional_id(session_id, "session_id")
        self.tools = {t["function"]["name"]: t["function"] for t in PROFILES[tools]}
        self._validators = {name: Draft202012Validator(f["parameters"]) for name, f in self.tools.items()}

    # --- the group of a request --------------------------------------------------------------
    def group_of(self, ctx: Any) -> str:
        """The server's fixed group, or the group header of this HTTP request."""
        if self.group_header is None and self.group_id is not None:  # fixed: validated when the server was made
            return self.group_id
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        value = headers.get(self.group_header) if headers is not None else None
        if not value:
            raise ValidationError(
                f"this server takes the group from the {self.group_header} header and the "
                f"request has none: configure your MCP client to send it",
                field="group",
            )
        return validate_group_id(value)

    # --- tools -------------------------------------------------------------------------------
    async def list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=name,
                    description=f["description"],
                    input_schema=f["parameters"],
                    annotations=types.ToolAnnotations(
                        read_only_hint=name in READ_ONLY,
                        destructive_hint=name in DESTRUCTIVE,
                        idempotent_hint=name in READ_ONLY,
                        open_world_hint=False,
                    ),
                )
                for name, f in self.tools.items()
            ]
        )

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name, args = params.name, dict(params.arguments or {})
        try:
            out = await self._call(ctx, name, args)
        except Exception as exc:  # noqa: BLE001 - a bad call is the model's to fix, never the server's end
            if not isinstance(exc, GraphmemError):
                log.exception("MCP tool %s failed", name)
            return _error_result(tool_error(exc, name))
        out = _fits(out)
        if not out.get("success", False):
            return _error_result(out)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_json(out))], structured_content=out, is_error=False
        )

    async def _call(self, ctx: Any, name: str, args: dict) -> dict:
        if name not in self.tools:
            return {
                "success": False,
                "error": "UnknownTool",
                "field": "name",
                "allowed": list(self.tools),
                "message": f"there is no tool {name[:80]!r} on this server; use one of {', '.join(self.tools)}",
            }
        smuggled = sorted(k for k in args if k.casefold().replace("-", "_") in GROUP_ARGUMENTS)
        if smuggled:
            raise ValidationError(
                f"{smuggled[0]}: the group is fixed by the server's configuration, not by "
                f"tool arguments; call {name} without it",
                field=smuggled[0],
            )
        errors = sorted(self._validators[name].iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            details = [
                {"field": ".".join(str(p) for p in e.absolute_path)[:200] or None, "message": _schema_problem(e)}
                for e in errors[:10]
            ]
            first = details[0]
            where = f"{first['field']}: " if first["field"] else ""
            raise ValidationError(
                f"invalid arguments for {name}: {where}{first['message']}", field=first["field"], errors=details
            )
        group = self.group_of(ctx)
        return await adispatch(
            self.graph, {"name": name, "arguments": args}, group_id=group, session_id=self.session_id
        )

    # --- resources ---------------------------------------------------------------------------
    async def list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    name="recent-memories",
                    uri=RECENT_URI,
                    mime_type="application/json",
                    description=f"the {RECENT_LIMIT} newest memories of this server's group (archived ones left out)",
                )
            ]
        )

    async def list_resource_templates(self, ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    name="memory",
                    uri_template=MEMORY_URI_PREFIX + "{memory_id}",
                    mime_type="application/json",
                    description="one memory by id: its parts, attributes, status and links",
                )
            ]
        )

    async def read_resource(self, ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            group = self.group_of(ctx)
            if uri == RECENT_URI:
                rows = await asyncio.to_thread(self.graph.list_memories, group, limit=RECENT_LIMIT * 3)
                data = [r.model_dump(mode="json") for r in rows if r.status != "archived"][:RECENT_LIMIT]
            elif uri.startswith(MEMORY_URI_PREFIX):
                memory_id = validate_optional_id(uri[len(MEMORY_URI_PREFIX) :], "memory_id")
                data = (await asyncio.to_thread(self.graph.get_memory, group, memory_id)).model_dump(mode="json")
            else:
                raise NotFoundError(f"no resource {shown(uri)}: use {RECENT_URI} or {MEMORY_URI_PREFIX}<memory_id>")
        except NotFoundError as exc:
            raise MCPError(code=RESOURCE_NOT_FOUND, message=str(exc)) from None
        except GraphmemError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=_json(data))]
        )


def build_server(
    graph: Any,
    *,
    group_id: str | None = "default",
    tools: str = "all",
    group_header: str | None = None,
    session_id: str | None = None,
) -> Server:
    """An MCP ``Server`` over ``graph`` whose every call is scoped to one group (see module doc)."""
    handlers = GraphmemMCP(graph, group_id=group_id, tools=tools, group_header=group_header, session_id=session_id)
    scope = f"group from the {group_header} header" if group_header else f"group {handlers.group_id!r}"
    return Server(
        "graphmem",
        version=_version(),
        instructions=(
            "Long-term memory on a knowledge graph. Write what the user tells you with "
            "create_memory (split complex sentences) and connect memories with link_memories; "
            f"answer from search_memories. This server's memories belong to the {scope}."
        ),
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("graphmem")
    except PackageNotFoundError:
        return "0"


async def serve_stdio(server: Server) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


class BearerGuard:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "unauthorized: send Authorization: Bearer <token>"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: Server, *, host: str = "127.0.0.1", token: str | None = None, path: str = "/mcp") -> Any:
    """The streamable-HTTP ASGI app; refuses to exist without a token when bound beyond loopback."""
    if not is_loopback(host) and not token:
        raise ConfigError(
            f"binding to {host} exposes the memory beyond this machine: give --token (or "
            f"GRAPHMEM_MCP_TOKEN) so clients must send Authorization: Bearer <token>"
        )
    app = server.streamable_http_app(streamable_http_path=path, host=host, max_request_body_size=MAX_REQUEST_BYTES)
    return BearerGuard(app, token) if token else app


def run_http(server: Server, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None) -> None:
    try:
        import uvicorn
    except ModuleNotFoundError as exc:
        raise MissingExtraError("graphmem mcp --http", "mcp", exc.name) from None

    app = http_app(server, host=host, token=token)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")).run()
