"""The analysts' Cypher library: ``graphmem/cypher/explore/*.cypher``.

Each query is named like the engine's (``// name: x``, parsed by ``graphmem.store.cypher.parse``)
and documented by the comment lines under its name::

    // name: subject_timeline
    // en: What happened to a subject, in time order ...
    // zh: 某个主体的时间线 ...
    // param: group_id | the group (tenant) | 分组（租户）
    // param: subject = "我" | the subject's name or alias | 主体名称或别名

A parameter with ``= default`` (a JSON value) may be left out: ``graphmem cypher run`` fills it
in, and the docs show it for Neo4j Browser's ``:param``. Every query is read-only and scoped to
``$group_id``; ``run`` executes it in a read transaction, so it could not write even by mistake.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import NotFoundError, ValidationError
from ..store.cypher import CYPHER_DIR, cypher_files, parse

EXPLORE_DIR = CYPHER_DIR / "explore"
_NAME = re.compile(r"^//\s*name:\s*([A-Za-z0-9_]+)\s*$")
_PARAM = re.compile(r"^param:\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*(.*?))?\s*\|\s*(.*?)\s*\|\s*(.*)$")


@dataclass(frozen=True)
class Param:
    name: str
    en: str
    zh: str
    required: bool
    default: Any = None


@dataclass(frozen=True)
class ExploreQuery:
    name: str
    file: str
    en: str
    zh: str
    params: tuple[Param, ...]
    cypher: str = field(repr=False)

    def browser_params(self, values: dict[str, Any] | None = None) -> str:
        """The ``:param`` lines to paste into Neo4j Browser before the query."""
        values = {**self.defaults(), **(values or {})}
        return "\n".join(f":param {p.name} => {_cypher_literal(values.get(p.name))}" for p in self.params)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params if not p.required}


def _cypher_literal(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"`{k}`: {_cypher_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_cypher_literal(v) for v in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _docs(text: str, source: str) -> dict[str, dict]:
    """The en/zh lines and params under each ``// name:`` header."""
    out: dict[str, dict] = {}
    current: dict | None = None
    last_key = None
    for raw in text.splitlines():
        line = raw.strip()
        match = _NAME.match(line)
        if match:
            current = out[match.group(1)] = {"en": [], "zh": [], "params": []}
            last_key = None
            continue
        if current is None or not line.startswith("//"):
            if line:
                current = None  # the body started: comments further down are not docs
            continue
        body = line[2:].strip()
        if body.startswith(("en:", "zh:")):
            last_key = body[:2]
            current[last_key].append(body[3:].strip())
        elif body.startswith("param:"):
            m = _PARAM.match(body)
            if not m:
                raise ValueError(
                    f"{source}: malformed param line {raw!r}: expected '// param: name [= json] | english | 中文'"
                )
            name, default, en, zh = m.groups()
            current["params"].append(
                Param(
                    name=name,
                    en=en,
                    zh=zh,
                    required=default is None,
                    default=None if default is None else json.loads(default),
                )
            )
            last_key = None
        elif last_key and body:
            current[last_key].append(body)
    return out


@lru_cache(maxsize=1)
def library() -> dict[str, ExploreQuery]:
    """Every explore query by name, in file order."""
    book: dict[str, ExploreQuery] = {}
    for path in cypher_files(EXPLORE_DIR):
        text = path.read_text(encoding="utf-8")
        docs = _docs(text, path.name)
        for name, cypher in parse(text, path.name).items():
            if name in book:
                raise ValueError(f"explore query {name!r} is defined in two files of {EXPLORE_DIR}")
            d = docs[name]
            book[name] = ExploreQuery(
                name=name,
                file=path.name,
                en=" ".join(d["en"]),
                zh="".join(d["zh"]),
                params=tuple(d["params"]),
                cypher=cypher,
            )
    return book


def get(name: str) -> ExploreQuery:
    try:
        return library()[name]
    except KeyError:
        raise NotFoundError(f"no explore query named {name!r}: `graphmem cypher list` shows them") from None


def parse_param(text: str) -> tuple[str, Any]:
    """``k=v`` from the command line: v is read as JSON when it parses (numbers, true, null, lists,
    maps), else taken as a string (so ``subject=我`` needs no quotes)."""
    if "=" not in text:
        raise ValidationError(f"--param {text!r}: expected NAME=VALUE", field="param")
    key, value = text.split("=", 1)
    key = key.strip()
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def bind(query: ExploreQuery, group_id: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """The query's parameters: defaults, then ``values``; a missing required one or an unknown
    one is refused with the list of what the query takes."""
    values = dict(values or {})
    known = {p.name for p in query.params}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValidationError(
            f"{query.name} takes no parameter {', '.join(unknown)}; it takes: {', '.join(sorted(known))}",
            field="param",
            allowed=sorted(known),
        )
    params = {**query.defaults(), **values, "group_id": group_id}
    missing = [p.name for p in query.params if p.required and p.name not in params]
    if missing:
        raise ValidationError(
            f"{query.name} needs --param {missing[0]}=... ({_param(query, missing[0]).en})", field=missing[0]
        )
    return params


def _param(query: ExploreQuery, name: str) -> Param:
    return next(p for p in query.params if p.name == name)


def run(store: Any, name: str, group_id: str, values: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Run an explore query in a READ transaction (a write clause would be refused by the server)."""
    from ..types import validate_group_id

    query = get(name)
    params = bind(query, validate_group_id(group_id), values)

    def work(tx) -> list[dict[str, Any]]:
        return [r.data() for r in tx.run(query.cypher, params)]

    return store.transaction(work, write=False)
