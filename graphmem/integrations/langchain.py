"""LangChain and LangGraph on graphmem: tools, a retriever and a long-term store.

- ``graphmem_tools(graph, group_id)``: ``BaseTool``s (sync and async) for create_memory,
  link_memories, search_memories, update_memory_importance, forget_memory, ingest_conversation,
  get_memory and memory_stats, with the same schemas and ``dispatch`` as every other surface.
  The group is bound to the tools, never an argument: a model that adds ``group_id`` gets a
  validation error back.
- ``GraphmemRetriever``: a ``BaseRetriever`` over ``search_memories``; each ``Document`` carries
  the memory id, type, score, the parts of the score, the path that found it and the evidence
  (the conversation turns it came from) in ``metadata``.
- ``GraphmemStore``: a LangGraph ``BaseStore`` (put/get/search/delete/list_namespaces): the
  first element of a namespace is the graphmem group, so ``("alice", "memories")`` lives in
  group ``alice`` next to alice's memory graph and is invisible from any other group.

>>> tools = graphmem_tools(graph, "alice")                      # hand them to any LangChain agent
>>> retriever = GraphmemRetriever(graph=graph, group_id="alice", max_results=5)
>>> store = GraphmemStore(graph)                                # create_react_agent(..., store=store)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from pydantic import ConfigDict

from ..errors import MissingExtraError, ValidationError

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.tools import BaseTool
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ModuleNotFoundError as exc:  # the extra is not installed
    raise MissingExtraError("graphmem.integrations.langchain", "langchain", exc.name) from None

from ..tools import AGENT_TOOLS, TOOLS, adispatch, dispatch
from ..types import MAX_ID, validate_group_id

PROFILES = {"core": TOOLS, "all": AGENT_TOOLS}


# --- tools ---------------------------------------------------------------------------------------


class GraphmemTool(BaseTool):
    """One graphmem tool bound to a graph and a group. Returns the tool's JSON answer as text;
    errors (invalid arguments, no matching memory) come back as ``{"success": false, ...}``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    graph: Any
    group_id: str
    session_id: str | None = None

    def _call(self, kwargs: dict) -> dict:
        kwargs.pop("run_manager", None)
        return {"name": self.name, "arguments": kwargs}

    def _run(self, *args: Any, **kwargs: Any) -> str:
        out = dispatch(self.graph, self._call(kwargs), group_id=self.group_id, session_id=self.session_id)
        return json.dumps(out, ensure_ascii=False, default=str)

    async def _arun(self, *args: Any, **kwargs: Any) -> str:
        out = await adispatch(self.graph, self._call(kwargs), group_id=self.group_id, session_id=self.session_id)
        return json.dumps(out, ensure_ascii=False, default=str)


def graphmem_tools(graph: Any, group_id: str, *, tools: str = "all", session_id: str | None = None) -> list[BaseTool]:
    """The graphmem tools for one group: ``tools="core"`` for the four core tools, ``"all"`` for eight."""
    group_id = validate_group_id(group_id)
    if tools not in PROFILES:
        raise ValidationError(f"tools: must be one of {', '.join(PROFILES)}", field="tools", allowed=list(PROFILES))
    return [
        GraphmemTool(
            name=t["function"]["name"],
            description=t["function"]["description"],
            args_schema=t["function"]["parameters"],
            graph=graph,
            group_id=group_id,
            session_id=session_id,
        )
        for t in PROFILES[tools]
    ]


# --- retriever -----------------------------------------------------------------------------------


class GraphmemRetriever(BaseRetriever):
    """``search_memories`` as a LangChain retriever for one group."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    graph: Any
    group_id: str
    max_results: int = 10
    expand_depth: int = 1
    search_kwargs: dict = {}

    def _search(self, query: str) -> list[Document]:
        found = getattr(self.graph, "sync", self.graph).search_memories(
            self.group_id, query, max_results=self.max_results, expand_depth=self.expand_depth, **self.search_kwargs
        )
        return [
            Document(
                page_content=r.text,
                id=r.memory_id,
                metadata={
                    "memory_id": r.memory_id,
                    "kind": r.kind,
                    "memory_type": r.memory_type,
                    "score": r.score,
                    "score_parts": r.score_parts.model_dump(),
                    "distance": r.distance,
                    "path": [p.model_dump() for p in r.path],
                    "evidence": [e.model_dump() for e in r.evidence],
                    "occurred_at": r.occurred_at,
                    "valid_from": r.valid_from,  # the interval in which it was the current fact
                    "valid_until": r.valid_until,
                    "importance": r.importance,
                    "group_id": self.group_id,
                },
            )
            for r in found.results
        ]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return self._search(query)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return await asyncio.to_thread(self._search, query)


# --- LangGraph store -----------------------------------------------------------------------------

_SEP = "\x1f"  # joins namespace parts into one property (a unit separator never typed in a name)
_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _matches(value: dict, filter: dict | None) -> bool:
    for key, want in (filter or {}).items():
        have = value.get(key)
        if isinstance(want, dict) and want and all(k in _OPS for k in want):
            try:
                if not all(_OPS[op](have, arg) for op, arg in want.items()):
                    return False
            except TypeError:
                return False
        elif have != want:
            return False
    return True


def _text_of(value: Any, fields: list[str] | None) -> str:
    """The words of an item that are embedded: the named top-level fields, or every string in it."""
    if fields is not None:
        value = {k: value.get(k) for k in fields if k in value}
    parts: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(list(item)))
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            parts.append(str(item))
    return " ".join(parts)[:4000]


class GraphmemStore(BaseStore):
    """LangGraph's long-term store on graphmem. ``namespace[0]`` is the group: every read and write
    is scoped to it, so one user's namespace never sees another's. ``groups`` (optional) is the
    list of groups this store may touch; it is also what ``list_namespaces`` lists when no prefix
    names a group (without it, such a call is refused: no query crosses groups). Items are
    searchable by meaning (embedded with
    the graph's model; ``index=False`` on ``put`` keeps one out) and by ``filter`` on their fields."""

    def __init__(self, graph: Any, *, groups: Iterable[str] | None = None):
        self.graph = getattr(graph, "sync", graph)
        self.groups = None if groups is None else [validate_group_id(g) for g in groups]
        self._ready = False

    def _group(self, namespace: tuple[str, ...]) -> str:
        if not namespace or not all(isinstance(p, str) and p and _SEP not in p for p in namespace):
            raise InvalidNamespaceError(
                f"namespace {namespace!r}: a non-empty tuple of non-empty strings, the first one the graphmem group"
            )
        group = validate_group_id(namespace[0])
        if self.groups is not None and group not in self.groups:
            raise InvalidNamespaceError(f"group {group!r} is not one of this store's groups ({', '.join(self.groups)})")
        return group

    def _ensure(self) -> None:
        if not self._ready:
            self.graph.store.write("agents_store_unique")
            self._ready = True

    # LangGraph calls batch/abatch with a mix of operations; each runs on its own, in order.
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        self._ensure()
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise ValueError(f"unknown store operation {type(op).__name__}")

    def _get(self, op: GetOp) -> Item | None:
        group = self._group(op.namespace)
        rows = self.graph.store.read("store_get", group_id=group, ns=_SEP.join(op.namespace), key=str(op.key))
        return _item(rows[0]) if rows else None

    def _put(self, op: PutOp) -> None:
        group = self._group(op.namespace)
        key = str(op.key)
        if not key or len(key) > MAX_ID:
            raise ValidationError(f"key: 1 to {MAX_ID} characters", field="key")
        ns = _SEP.join(op.namespace)
        if op.value is None:
            self.graph.store.write("store_delete", group_id=group, ns=ns, key=key)
            return None
        value = dict(op.value)
        encoded = json.dumps(value, ensure_ascii=False, default=str)
        text = "" if op.index is False else _text_of(value, op.index if isinstance(op.index, list) else None)
        embedding = self.graph.embedder.embed([text])[0] if text else None
        self.graph.store.write(
            "store_put",
            group_id=group,
            ns=ns,
            key=key,
            namespace=list(op.namespace),
            value=encoded,
            text=text or None,
            embedding=None if embedding is None else [float(x) for x in embedding],
            now=datetime.now(UTC).isoformat(),
        )
        return None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        group = self._group(op.namespace_prefix)
        ns = _SEP.join(op.namespace_prefix)
        embedding = None
        if op.query:
            embedding = [float(x) for x in self.graph.embedder.embed([op.query])[0]]
        rows = self.graph.store.read("store_search", group_id=group, ns=ns, ns_prefix=ns + _SEP, embedding=embedding)
        items = [_search_item(r) for r in rows]
        items = [i for i in items if _matches(i.value, op.filter)]
        return items[op.offset : op.offset + op.limit]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        prefix = next((tuple(c.path) for c in conditions if c.match_type == "prefix"), ())
        if prefix and prefix[0] != "*":
            groups: list[str] | None = [self._group(prefix)]
        else:
            groups = self.groups
        if groups is None:  # every query names its group: there is no "all groups" listing
            raise InvalidNamespaceError(
                "list_namespaces: give a prefix whose first part is the group, e.g. "
                "prefix=('alice',), or create the store with groups=[...] to list theirs"
            )
        rows = [r for g in groups for r in self.graph.store.read("store_namespaces_group", group_id=g)]
        found = {tuple(r["namespace"]) for r in rows}
        for c in conditions:
            path = tuple(c.path)
            found = {ns for ns in found if _path_match(ns, path, c.match_type == "suffix")}
        if op.max_depth is not None:
            found = {ns[: op.max_depth] for ns in found}
        return sorted(found)[op.offset : op.offset + op.limit]


def _path_match(ns: tuple[str, ...], path: tuple[str, ...], suffix: bool) -> bool:
    if len(path) > len(ns):
        return False
    part = ns[len(ns) - len(path) :] if suffix else ns[: len(path)]
    return all(p == "*" or p == n for p, n in zip(path, part))


def _fields(row: dict) -> dict[str, Any]:
    return dict(
        namespace=tuple(row["namespace"]),
        key=row["key"],
        value=json.loads(row["value"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
    )


def _item(row: dict) -> Item:
    return Item(**_fields(row))


def _search_item(row: dict) -> SearchItem:
    return SearchItem(**_fields(row), score=row.get("score"))
