"""The tool surface for LLMs: OpenAI-format function schemas and a dispatcher.

``TOOLS`` is plain data: hand it to any chat-completions API. ``dispatch(graph, tool_call, group_id=...)``
runs one call the model made and returns a JSON-serialisable dict. Whatever the model got
wrong (bad JSON, an unknown tool, a missing or invalid argument, a description that matches
no memory or several) comes back as ``{"success": false, "error": ..., "message": ...}`` with
the field, the allowed values or the candidate memories, so the model can correct itself;
``dispatch`` itself never raises.

>>> from graphmem import MemoryGraph, TOOLS, dispatch
>>> reply = client.chat.completions.create(model=..., messages=..., tools=TOOLS)
>>> for call in reply.choices[0].message.tool_calls or []:
...     result = dispatch(graph, call.model_dump(), group_id="alice")
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
from datetime import datetime
from typing import Any

from pydantic import field_validator, model_validator

from .embed import embed_query
from .errors import AmbiguousMatchError, GraphmemError, ValidationError, WriteOutcomeUnknownError
from .types import (
    MAX_ATTRIBUTES,
    MAX_ID,
    MAX_INGEST_CHARS,
    MAX_KEY,
    MAX_NAME,
    MAX_QUERY,
    MAX_TEXT,
    MAX_VALUE,
    MEMORY_TYPE_VALUES,
    RELATION_TYPE_VALUES,
    SHOWN_VALUE,
    LinkInput,
    MemoryInput,
    SearchInput,
    _clean,
    _importance,
    _Input,
    validate,
    validate_group_id,
)

log = logging.getLogger(__name__)

_TYPE_HELP = (
    "记忆类型 memory type. 事件/event = 有时间的动作 an action at a time; 事实/fact = 稳定状态 a stable state; "
    "关系/relation = 人际关系 a relationship between people; 观点/opinion = 主观评价 a subjective view."
)
_REL_HELP = (
    "关系类型 relation type. 因为/because, 所以/so, 导致/causes: 因果 causal, always from the cause (source) "
    "to the effect (target); 引用/references, 基于/based_on: the source is what the target refers to or "
    "is based on; 相关/related: loosely related."
)
_IMPORTANCE_HELP = (
    "重要性 importance 0-1: 0.3 日常琐事 trivia, 0.5 一般事件 ordinary, 0.8 重要事件 important, 1.0 关键记忆 critical."
)

CREATE_MEMORY = {
    "type": "function",
    "function": {
        "name": "create_memory",
        "description": (
            "创建一条新的记忆 Create one memory: 主体 subject + 类型 memory_type + 主题 topic (+ 客体 object), "
            "with optional attributes such as 时间/地点/原因 (time/place/reason). Times like 今天, 昨晚, "
            "yesterday, this morning are normalised to dates automatically. 我/I/用户/user is the user, "
            "你/you/助手/assistant is you, the assistant. Split a complex sentence into several memories and "
            "connect them with link_memories."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "subject": {
                    "type": "string",
                    "maxLength": MAX_NAME,
                    "description": "记忆的主体（谁） who: '我', '小明', 'I', 'Alice'",
                },
                "memory_type": {"type": "string", "enum": MEMORY_TYPE_VALUES, "description": _TYPE_HELP},
                "topic": {
                    "type": "string",
                    "maxLength": MAX_NAME,
                    "description": "记忆的主题（做什么/什么状态） what: '吃饭', '情绪', 'eat', 'mood'",
                },
                "object": {
                    "type": "string",
                    "maxLength": MAX_NAME,
                    "description": "记忆的客体（什么东西/什么状态）, optional: '白米饭', '不开心', 'rice'",
                },
                "attributes": {
                    "type": "object",
                    "maxProperties": MAX_ATTRIBUTES,
                    "additionalProperties": {"type": "string", "maxLength": MAX_VALUE},
                    "description": (
                        "额外属性 extra attributes as key/value strings, e.g. "
                        '{"时间": "昨晚", "地点": "超市"} or {"time": "yesterday", '
                        f'"place": "home"}}. Keys at most {MAX_KEY} characters.'
                    ),
                },
                "importance": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1,
                    "default": 0.5,
                    "description": _IMPORTANCE_HELP,
                },
            },
            "required": ["subject", "memory_type", "topic"],
            "additionalProperties": False,
        },
    },
}

LINK_MEMORIES = {
    "type": "function",
    "function": {
        "name": "link_memories",
        "description": (
            "在两条已存在的记忆之间建立关联 Link two memories that already exist (create them first). "
            "Each is found by its description, e.g. '我今天不开心' / 'I was unhappy today'. If a description "
            "matches no memory or several, the answer lists the candidates: describe it more precisely."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "source_memory_description": {
                    "type": "string",
                    "maxLength": MAX_QUERY,
                    "description": "源记忆的描述 the source memory (the cause, for causal relations)",
                },
                "target_memory_description": {
                    "type": "string",
                    "maxLength": MAX_QUERY,
                    "description": "目标记忆的描述 the target memory (the effect, for causal relations)",
                },
                "relation_type": {"type": "string", "enum": RELATION_TYPE_VALUES, "description": _REL_HELP},
                "importance": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1,
                    "default": 0.6,
                    "description": "关联强度 strength of the link, 0-1",
                },
            },
            "required": ["source_memory_description", "target_memory_description", "relation_type"],
            "additionalProperties": False,
        },
    },
}

SEARCH_MEMORIES = {
    "type": "function",
    "function": {
        "name": "search_memories",
        "description": (
            "搜索相关记忆 Search memories by meaning to answer a question or recall the past, e.g. "
            "'我什么时候吃过饭？' or 'why was I tired today?'. Related memories (causes, references, shared "
            "subjects) are added by following the graph."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "maxLength": MAX_QUERY, "description": "搜索查询 a question or keywords"},
                "memory_types": {
                    "type": "array",
                    "items": {"type": "string", "enum": MEMORY_TYPE_VALUES},
                    "description": "限定记忆类型 only these memory types",
                },
                "time_range": {
                    "type": "object",
                    "properties": {
                        "start": {"type": "string", "description": "ISO 8601 date or datetime"},
                        "end": {"type": "string", "description": "ISO 8601 date or datetime"},
                    },
                    "additionalProperties": False,
                    "description": "时间范围过滤 only memories that happened in this range",
                },
                "max_results": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 200,
                    "default": 10,
                    "description": "最多返回多少条记忆 how many memories at most",
                },
                "expand_depth": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 2,
                    "default": 1,
                    "description": "关联扩展深度 0 = direct matches only, 1 = one hop, 2 = two hops",
                },
                "mode": {
                    "type": "string",
                    "enum": ["auto", "fast", "deep"],
                    "default": "auto",
                    "description": "fast = vector seeds only, deep = graph expansion, auto = decide from the query",
                },
                "relation_filters": {
                    "type": "array",
                    "items": {"type": "string", "enum": RELATION_TYPE_VALUES},
                    "description": "only follow these relations when expanding, e.g. ['导致'] for 'why'",
                },
                "subject": {
                    "type": "string",
                    "maxLength": MAX_NAME,
                    "description": "only memories about this subject, e.g. '小明' or '我'",
                },
                "profile": {
                    "type": "string",
                    "default": "default",
                    "description": "score weights: 'default' (relevance, importance, recency and use), "
                    "'recall' (relevance only: anything ever said, however old)",
                },
                "as_of": {
                    "type": "string",
                    "maxLength": 64,
                    "description": "截至某时 what was true then: ISO 8601 date or datetime (e.g. 2024-03-01); "
                    "memories valid at that moment, replaced ones included, later ones left out. Each result "
                    "shows valid_from / valid_until. A question with a past time ('去年三月我住在哪？', "
                    "'where did I work in 2024?') is answered this way without it",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}

UPDATE_MEMORY_IMPORTANCE = {
    "type": "function",
    "function": {
        "name": "update_memory_importance",
        "description": (
            "修改一条记忆的重要性 Change how important a memory is. Name the memory by its id "
            "(from create_memory or search_memories) or by a description such as '我失眠'."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "memory_id": {"type": "string", "maxLength": MAX_ID, "description": "the memory's id"},
                "memory_description": {
                    "type": "string",
                    "maxLength": MAX_QUERY,
                    "description": "记忆的描述 a description, used when no id is given",
                },
                "importance": {"type": "number", "minimum": 0, "maximum": 1, "description": _IMPORTANCE_HELP},
            },
            "required": ["importance"],
            "additionalProperties": False,
        },
    },
}

TOOLS: list[dict] = [CREATE_MEMORY, LINK_MEMORIES, SEARCH_MEMORIES, UPDATE_MEMORY_IMPORTANCE]
TOOL_NAMES = [t["function"]["name"] for t in TOOLS]


class UpdateImportanceInput(_Input):
    """The arguments of ``update_memory_importance``: a memory (id or description) and a new importance."""

    memory_id: str | None = None
    memory_description: str | None = None
    importance: float

    @field_validator("memory_id", mode="before")
    @classmethod
    def _id(cls, v: Any) -> str | None:
        return None if v is None else _clean(v, "memory_id", MAX_ID)

    @field_validator("memory_description", mode="before")
    @classmethod
    def _desc(cls, v: Any) -> str | None:
        return None if v is None else _clean(v, "memory_description", MAX_QUERY)

    @field_validator("importance", mode="before")
    @classmethod
    def _imp(cls, v: Any) -> float:
        return _importance(v)

    @model_validator(mode="after")
    def _one_memory(self) -> UpdateImportanceInput:
        if self.memory_id is None and self.memory_description is None:
            raise ValueError("give memory_id or memory_description")
        return self


# --- dispatch ----------------------------------------------------------------------------------


def tool_error(exc: BaseException, tool: str | None = None) -> dict:
    """A failure as a dict an LLM can read: what went wrong, where, and what would work."""
    if isinstance(exc, ValidationError):
        out = {
            "success": False,
            "error": "ValidationError",
            "message": str(exc),
            "field": exc.field,
            "allowed": exc.allowed,
            "errors": _jsonable(exc.errors),
        }
    elif isinstance(exc, AmbiguousMatchError):
        out = {
            "success": False,
            "error": type(exc).__name__,
            "message": str(exc),
            "candidates": _jsonable(exc.candidates),
        }
    elif isinstance(exc, GraphmemError):
        out = {"success": False, "error": type(exc).__name__, "message": str(exc)}
    elif isinstance(exc, NotImplementedError):
        out = {"success": False, "error": "NotImplemented", "message": str(exc) or "not available yet"}
    else:
        out = {
            "success": False,
            "error": "InternalError",
            "exception": type(exc).__name__,
            "message": f"graphmem failed unexpectedly ({type(exc).__name__}: {str(exc)[: SHOWN_VALUE * 4]}); "
            "the call may be retried",
        }
    if tool:
        out["tool"] = tool
    return out


# A tool call's arguments, in characters (of their JSON, or of the strings in them): every field
# at its own cap, its characters escaped as JSON (\\uXXXX: 6 for one CJK character), fits with room.
# A longer call is refused before it is parsed or hashed, so a 5 MB value costs nothing.
MAX_ARGUMENTS_CHARS = 200_000
# ingest_conversation carries up to MAX_INGEST_CHARS characters of turns
MAX_INGEST_ARGUMENTS_CHARS = 6 * MAX_INGEST_CHARS + MAX_ARGUMENTS_CHARS


def _arguments_cap(name: str | None) -> int:
    return MAX_INGEST_ARGUMENTS_CHARS if name == "ingest_conversation" else MAX_ARGUMENTS_CHARS


def _oversize(size: int, cap: int, name: str | None, field: str, *, exact: bool = True) -> ValidationError:
    what = f"a {name} call's arguments" if name else "a tool call"
    return ValidationError(
        f"{field}: {'' if exact else 'at least '}{size} characters; {what} may have at most {cap} "
        "(each argument has its own cap, "
        f"e.g. query {MAX_QUERY}, subject {MAX_NAME}); send less",
        field=field,
    )


def _chars_over(value: Any, cap: int) -> int:
    """The characters of the strings (keys included) in ``value``, counted until they pass ``cap``
    (a count above ``cap`` means too long: the rest is not looked at)."""
    total = 0
    stack = [value]
    while stack and total <= cap:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, (bytes, bytearray)):
            total += len(item)
        elif isinstance(item, dict):
            total += len(item)
            for key, val in item.items():
                stack.append(key)
                stack.append(val)
        elif isinstance(item, (list, tuple)):
            total += len(item)
            stack.extend(item)
    return total


def parse_tool_call(tool_call: Any) -> tuple[str, dict, str | None]:
    """(name, arguments, call id) from an OpenAI tool call, a bare {"name", "arguments"} or their JSON.

    The length is checked before anything else: arguments longer than their tool's cap are refused
    (a ValidationError naming the cap) before they are parsed."""
    call = tool_call
    if isinstance(call, (str, bytes, bytearray)) and len(call) > MAX_INGEST_ARGUMENTS_CHARS:
        raise _oversize(len(call), MAX_INGEST_ARGUMENTS_CHARS, None, "tool_call")
    if isinstance(call, (bytes, bytearray)):
        call = call.decode("utf-8", errors="replace")
    if isinstance(call, str):
        call = _loads(call, "tool_call")
    if hasattr(call, "model_dump"):  # an openai SDK object
        call = call.model_dump()
    if not isinstance(call, dict):
        raise ValidationError(
            f"a tool call must be an object with name and arguments, got {type(call).__name__}", field="tool_call"
        )
    call_id = call.get("id") if isinstance(call.get("id"), str) else None
    inner = call.get("function", call)
    if not isinstance(inner, dict):
        raise ValidationError("tool_call.function must be an object with name and arguments", field="function")
    name = inner.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValidationError("the tool call has no name", field="name", allowed=TOOL_NAMES)
    args = inner.get("arguments", inner.get("parameters", {}))
    cap = _arguments_cap(name.strip())
    if (size := _chars_over(args, cap)) > cap:
        raise _oversize(size, cap, name.strip(), "arguments", exact=isinstance(args, (str, bytes, bytearray)))
    if isinstance(args, (bytes, bytearray)):
        args = args.decode("utf-8", errors="replace")
    if isinstance(args, str):
        args = _loads(args, "arguments") if args.strip() else {}
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ValidationError(f"arguments must be a JSON object, got {type(args).__name__}", field="arguments")
    return name.strip(), args, call_id


def dispatch(
    graph: Any,
    tool_call: Any,
    *,
    group_id: str,
    session_id: str | None = None,
    reference_time: datetime | str | None = None,
) -> dict:
    """Run one tool call against ``graph`` (MemoryGraph or AsyncMemoryGraph) for ``group_id``.

    Returns the result as a JSON-serialisable dict with ``success``; never raises for anything
    the model or the data did wrong (``success: false`` with ``error`` and ``message`` instead).

    A write (create_memory, link_memories) from a tool call that has an id gets an idempotency key
    derived from that id and its arguments: the same call dispatched twice writes once, and a
    write whose commit outcome was unknown (the connection dropped while committing) is retried
    once with that key.
    """
    graph = getattr(graph, "sync", graph)
    name: str | None = None
    call_id: str | None = None
    try:
        name, args, call_id = parse_tool_call(tool_call)
        handler = _HANDLERS.get(name)
        if handler is None:
            out = {
                "success": False,
                "error": "UnknownTool",
                "field": "name",
                "allowed": list(_HANDLERS),
                "message": f"there is no tool {name[:80]!r}; use one of {', '.join(_HANDLERS)}",
            }
        else:
            kwargs: dict[str, Any] = dict(group_id=group_id, session_id=session_id, reference_time=reference_time)
            if name in _KEYED and call_id:
                kwargs["request_id"] = tool_request_id(call_id, name, args)
            try:
                out = handler(graph, args, **kwargs)
            except WriteOutcomeUnknownError:
                if "request_id" not in kwargs:
                    raise  # without a key a second attempt could write twice: the caller decides
                log.info("tool call %s: commit outcome unknown; retrying once with its request_id", name)
                out = handler(graph, args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the model gets a readable error, never a traceback
        if not isinstance(exc, (GraphmemError, NotImplementedError)):
            log.exception("tool call %s failed", name)
        out = tool_error(exc, name)
    if call_id:
        out["tool_call_id"] = call_id
    return out


async def adispatch(
    graph: Any,
    tool_call: Any,
    *,
    group_id: str,
    session_id: str | None = None,
    reference_time: datetime | str | None = None,
) -> dict:
    """``dispatch`` for async code: the same work in a worker thread."""
    return await asyncio.to_thread(
        dispatch, graph, tool_call, group_id=group_id, session_id=session_id, reference_time=reference_time
    )


def tool_request_id(call_id: str, name: str, args: dict) -> str:
    """The idempotency key of a tool call: its id and what it asks (a framework that reuses ids such
    as "call_0" for different calls gets different keys)."""
    text = json.dumps([call_id, name, args], sort_keys=True, ensure_ascii=False, default=str)
    return "tool:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _create(
    graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any, request_id: str | None = None
) -> dict:
    memory = validate(MemoryInput, args)
    keyed = {} if request_id is None else {"request_id": request_id}
    result = graph.create_memories(
        group_id, [memory], session_id=session_id, reference_time=reference_time, source="tool", **keyed
    )[0]
    return {"tool": "create_memory", **result.model_dump(mode="json")}


def _link(
    graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any, request_id: str | None = None
) -> dict:
    link = validate(LinkInput, args)
    keyed = {} if request_id is None else {"request_id": request_id}
    result = graph.link_memories(
        group_id,
        link.source_memory_description,
        link.target_memory_description,
        link.relation_type,
        link.importance,
        **keyed,
    )
    return {"tool": "link_memories", **result.model_dump(mode="json")}


def _search(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    validate_group_id(group_id)
    validate(SearchInput, args)
    found = graph.search_memories(group_id, **args, reference_time=reference_time)
    found = _jsonable(found)
    if isinstance(found, dict):
        return {"tool": "search_memories", "success": True, **found}
    return {"tool": "search_memories", "success": True, "results": found}


def _update_importance(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    group_id = validate_group_id(group_id)
    update = validate(UpdateImportanceInput, args)
    match: dict | None = None
    memory_id = update.memory_id
    if memory_id is None:
        assert update.memory_description is not None  # the input holds an id or a description
        graph.ensure_schema()
        embedding = embed_query(graph.embedder, [update.memory_description])[0]
        match = graph.linker.pick(group_id, update.memory_description, "memory_description", embedding)
        memory_id = match["id"]
    out = {"tool": "update_memory_importance", **graph.update_memory_importance(group_id, memory_id, update.importance)}
    if match is not None:
        out.update(text=match["text"], match_score=match["score"])
    return out


_KEYED = {"create_memory", "link_memories"}  # tools that write: keyed by their call id
_HANDLERS = {
    "create_memory": _create,
    "link_memories": _link,
    "search_memories": _search,
    "update_memory_importance": _update_importance,
}


def _loads(text: str, field: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise ValidationError(f"{field} is not valid JSON ({detail}); send a JSON object", field=field) from None


def _jsonable(value: Any) -> Any:
    """Pydantic models, datetimes, enums, NaN and the like made safe for json.dumps."""
    if hasattr(value, "model_dump"):
        return _jsonable(value.model_dump(mode="json"))
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if hasattr(value, "value") and isinstance(value.value, (str, int)):
        return value.value
    return str(value)


# --- the agent tools beyond the four core tools (MCP server, LangChain) -----------------------------

FORGET_MEMORY = {
    "type": "function",
    "function": {
        "name": "forget_memory",
        "description": (
            "忘记一条记忆 Forget a memory by its id: it is archived (hidden from search, never deleted) and "
            "can be restored by an operator. Use it when the user asks you to forget something or a memory "
            "is wrong."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "memory_id": {
                    "type": "string",
                    "maxLength": MAX_ID,
                    "description": "the memory's id (from create_memory or search_memories)",
                }
            },
            "required": ["memory_id"],
            "additionalProperties": False,
        },
    },
}

GET_MEMORY = {
    "type": "function",
    "function": {
        "name": "get_memory",
        "description": (
            "读取一条记忆 Read one memory by id: its parts, attributes, status and its links to other "
            "memories (causes, effects, references)."
        ),
        "parameters": {
            "type": "object",
            "properties": {"memory_id": {"type": "string", "maxLength": MAX_ID, "description": "the memory's id"}},
            "required": ["memory_id"],
            "additionalProperties": False,
        },
    },
}

MEMORY_STATS = {
    "type": "function",
    "function": {
        "name": "memory_stats",
        "description": "记忆统计 How many memories there are, by type and status, and the size of the graph.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}

INGEST_CONVERSATION = {
    "type": "function",
    "function": {
        "name": "ingest_conversation",
        "description": (
            "保存对话 Hand over conversation turns (or a text): they are stored as episodes and memories are "
            "extracted from them and linked to the turns they came from. Use it at the end of a conversation "
            "or for a document the user shares."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "messages": {
                    "type": "array",
                    "maxItems": 500,
                    "items": {
                        "type": "object",
                        "properties": {
                            "role": {"type": "string", "maxLength": 32, "description": "user or assistant"},
                            "content": {"type": "string", "maxLength": MAX_TEXT},
                            "speaker": {"type": "string", "maxLength": MAX_NAME},
                            "timestamp": {"type": "string", "description": "ISO 8601"},
                        },
                        "required": ["role", "content"],
                        "additionalProperties": False,
                    },
                    "description": 'the turns in order, e.g. [{"role": "user", "content": "我昨晚没睡好"}]',
                },
                "text": {"type": "string", "maxLength": MAX_TEXT, "description": "a text instead of turns"},
            },
            "additionalProperties": False,
        },
    },
}

AGENT_TOOLS: list[dict] = TOOLS + [FORGET_MEMORY, INGEST_CONVERSATION, GET_MEMORY, MEMORY_STATS]
AGENT_TOOL_NAMES = [t["function"]["name"] for t in AGENT_TOOLS]


class MemoryIdInput(_Input):
    """The arguments of ``forget_memory`` and ``get_memory``."""

    memory_id: str

    @field_validator("memory_id", mode="before")
    @classmethod
    def _id(cls, v: Any) -> str:
        return _clean(v, "memory_id", MAX_ID)


class NoInput(_Input):
    """A tool without arguments (``memory_stats``): anything given is refused."""


class IngestInput(_Input):
    """The arguments of ``ingest_conversation``: turns or a text, not both."""

    messages: list[dict] | None = None
    text: str | None = None

    @field_validator("text", mode="before")
    @classmethod
    def _text(cls, v: Any) -> str | None:
        return None if v is None else _clean(v, "text", MAX_TEXT)

    @model_validator(mode="after")
    def _one_source(self) -> IngestInput:
        if (self.messages is None) == (self.text is None):
            raise ValueError("give either messages or text")
        return self


def _forget(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    inp = validate(MemoryIdInput, args)
    return {"tool": "forget_memory", **graph.forget(group_id, inp.memory_id)}


def _get(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    inp = validate(MemoryIdInput, args)
    return {"tool": "get_memory", "success": True, "memory": _jsonable(graph.get_memory(group_id, inp.memory_id))}


def _stats(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    validate(NoInput, args)
    return {"tool": "memory_stats", "success": True, **_jsonable(graph.stats(validate_group_id(group_id)))}


def _ingest(graph: Any, args: dict, *, group_id: str, session_id: str | None, reference_time: Any) -> dict:
    inp = validate(IngestInput, args)
    report = graph.ingest(group_id, inp.messages, inp.text, session_id=session_id, reference_time=reference_time)
    return {"tool": "ingest_conversation", "success": not report.errors, **_jsonable(report)}


_HANDLERS.update({"forget_memory": _forget, "ingest_conversation": _ingest, "get_memory": _get, "memory_stats": _stats})
