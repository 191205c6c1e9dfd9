"""`graphmem add`, `graphmem link`, `graphmem show`: the write path from the command line."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from ._common import ConfigOption, console, open_graph, open_graph_or_server, print_json

GroupOption = typer.Option("default", "--group", "-g", help="Group (tenant) the memory belongs to.")


def register(app: typer.Typer) -> None:
    app.command("add")(add)
    app.command("link")(link)
    app.command("show")(show)


def add(
    subject: str | None = typer.Option(
        None, "--subject", "-s", help="Who: 我 / I for the user, 你 / you for the agent, or a name."
    ),
    memory_type: str | None = typer.Option(
        None, "--type", "-t", help="事件/事实/关系/观点 or event/fact/relation/opinion."
    ),
    topic: str | None = typer.Option(None, "--topic", help="What: 吃饭, 情绪, eat, mood …"),
    obj: str | None = typer.Option(None, "--object", "-o", help="Optional object: 白米饭, 不开心, rice …"),
    attrs: list[str] | None = typer.Option(
        None, "--attr", "-a", help="KEY=VALUE, repeatable: --attr 时间=昨晚 --attr place=home."
    ),
    importance: float | None = typer.Option(None, "--importance", "-i", help="0–1 (default 0.5)."),
    group: str = GroupOption,
    session: str | None = typer.Option(None, "--session", help="Session id to record with the memory."),
    time_ref: str | None = typer.Option(
        None, "--time-ref", help="Reference time for 今天/昨晚/yesterday (ISO 8601; default now)."
    ),
    json_input: str | None = typer.Option(
        None,
        "--json",
        help="The memory as JSON (one object or a list; '-' reads stdin), "
        "with the create_memory fields: subject, memory_type, topic, object, attributes, importance.",
    ),
    json_output: bool = typer.Option(False, "--json-output", help="Print the result as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Write a memory (or, with --json, several) and say which concept nodes were reused and why.

    Example: graphmem add -s 我 -t 事件 --topic 吃饭 -o 白米饭 --attr 时间=今天
    """
    from ..errors import ValidationError
    from ..types import MemoryInput, as_reference_time, validate

    fields = {
        "subject": subject,
        "memory_type": memory_type,
        "topic": topic,
        "object": obj,
        "attributes": _attributes(attrs or []),
        "importance": importance,
    }
    if json_input is not None:
        given = [f"--{k.replace('memory_type', 'type')}" for k, v in fields.items() if v not in (None, {})]
        if given:
            raise ValidationError(
                f"--json cannot be combined with {', '.join(given)}: put every field in the JSON", field="json"
            )
        memories, as_list = _read_json(json_input)
    else:
        as_list = False
        missing = [
            f"--{name}"
            for name, key in (("subject", "subject"), ("type", "memory_type"), ("topic", "topic"))
            if fields[key] is None
        ]
        if missing:
            raise ValidationError(
                f"missing {', '.join(missing)}: give --subject, --type and --topic (or the whole memory with --json)",
                field=missing[0].lstrip("-"),
            )
        memories = [{k: v for k, v in fields.items() if v is not None}]
    checked = []
    for i, memory in enumerate(memories):  # before connecting: a bad call fails fast, writes nothing
        try:
            checked.append(validate(MemoryInput, memory))
        except ValidationError as exc:
            where = f"memory {i + 1}: " if len(memories) > 1 else ""
            raise ValidationError(f"{where}{exc}", field=exc.field, allowed=exc.allowed, errors=exc.errors) from None
    reference = as_reference_time(time_ref)
    with open_graph_or_server(config) as graph:
        results = graph.create_memories(group, checked, session_id=session, reference_time=reference, source="cli")
    if json_output:
        data = [r.model_dump(mode="json") for r in results]
        print_json(data if as_list else data[0])
        return
    for result in results:
        _print_created(result, group)


def link(
    source: str = typer.Argument(
        ..., help="The source memory, described: 我失眠 / I had insomnia (the cause, for causal relations)."
    ),
    target: str = typer.Argument(..., help="The target memory, described: 我很困 / I am sleepy (the effect)."),
    relation: str = typer.Argument(
        ..., help="因为/所以/导致/引用/基于/相关 or because/so/causes/references/based_on/related."
    ),
    importance: float = typer.Option(0.6, "--importance", "-i", help="Strength of the link, 0–1."),
    group: str = GroupOption,
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Link two memories found by meaning; causal relations point from cause to effect.

    Example: graphmem link 我失眠 我很困 导致
    """
    from ..errors import AmbiguousMatchError
    from ..types import LinkInput, validate

    checked = validate(
        LinkInput,
        {
            "source_memory_description": source,
            "target_memory_description": target,
            "relation_type": relation,
            "importance": importance,
        },
    )
    with open_graph(config) as graph:
        try:
            result = graph.link_memories(
                group,
                checked.source_memory_description,
                checked.target_memory_description,
                checked.relation_type,
                checked.importance,
            )
        except AmbiguousMatchError as exc:
            if as_json:
                print_json(
                    {"success": False, "error": type(exc).__name__, "message": str(exc), "candidates": exc.candidates}
                )
                raise typer.Exit(1) from None
            shown = "; ".join(f"{c['text']!r} ({c['score']:.2f}, id {c['id'][:8]})" for c in exc.candidates[:3])
            raise type(exc)(f"{exc} Candidates: {shown or 'none'}", exc.candidates) from None
    if as_json:
        print_json(result.model_dump(mode="json"))
        return
    arrow = f"-[{result.edge_type.value} {result.relation.zh}/{result.relation.value}]->"
    console.print(f"linked {result.source_text!r} {arrow} {result.target_text!r}", highlight=False)
    console.print(
        f"  source {result.source_id} (match {result.source_score:.2f})\n"
        f"  target {result.target_id} (match {result.target_score:.2f})",
        highlight=False,
    )
    if result.cause_id:
        console.print("  cause → effect: source → target", highlight=False)


def show(
    memory_id: str = typer.Argument(..., help="The memory's id (from add, search or list)."),
    group: str = GroupOption,
    as_json: bool = typer.Option(False, "--json", help="Print the memory as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Show one memory as its subgraph: subject -[type]-> topic -> object, attributes, links."""
    with open_graph_or_server(config) as graph:
        memory = graph.get_memory(group, memory_id)
        chain = graph.supersede_chain(group, memory_id)
    if as_json:
        print_json({**memory.model_dump(mode="json"), "supersede_chain": chain if len(chain) > 1 else []})
        return
    tree = memory_tree(memory)
    if len(chain) > 1:
        branch = tree.add("supersede chain (current first; each SUPERSEDES the next)")
        for row in chain:
            mark = "current" if not row["superseded_by"] else "superseded"
            style = "bold" if row["id"] == memory.id else ""
            valid = f"valid {str(row['valid_from'] or '?')[:10]} → {str(row['valid_until'] or 'now')[:10]}, "
            branch.add(
                Text.assemble(
                    ("  " * row["depth"]) + f"{row['text']}",
                    (f"  [{mark}", style or "dim"),
                    (f", {valid}said {str(row['said_at'])[:10]}, {row['id'][:8]}]", "dim"),
                )
            )
    console.print(tree)


def memory_tree(memory: Any) -> Tree:
    """The memory as a rich Tree, readable like the sentence it stores."""
    head = Text.assemble(
        (f"{memory.memory_type.value} {memory.memory_type.zh}", "bold cyan"),
        "  ",
        (memory.text, "bold"),
        f"   [{memory.status.value}, importance {memory.importance:g}]",
    )
    tree = Tree(head)
    if getattr(memory, "valid_until", None):  # superseded: the interval in which it was the current fact
        tree.add(Text(f"valid {str(memory.valid_from or '?')[:10]} → {str(memory.valid_until)[:10]} (replaced)", "dim"))
    sentence = Text.assemble(
        (memory.subject or "?", "green"),
        " -[",
        (memory.memory_type.value, "cyan"),
        "]-> ",
        (memory.topic or "?", "yellow"),
    )
    if memory.object:
        sentence.append_text(Text.assemble(" -[CORE_RELATION]-> ", (memory.object, "magenta")))
    tree.add(sentence)
    if memory.attribute_details:
        attributes = tree.add("attributes")
        for a in sorted(memory.attribute_details, key=lambda a: a["key"]):
            line = Text.assemble((a["key"], "bold"), ": ", a.get("original") or "")
            if a.get("value") and a.get("value") != a.get("original"):
                line.append(f"  → {a['value']}")
            if a.get("iso"):
                line.append(f"  (iso {a['iso']})", style="dim")
            elif a.get("parsed") is False:
                line.append("  (time not understood: kept as written)", style="dim")
            attributes.add(line)
    out = [x for x in memory.links if x.get("direction") == "out"]
    into = [x for x in memory.links if x.get("direction") == "in"]
    for title, links, fmt in (("links out", out, "-[{e} {r}]-> {t}"), ("links in", into, "<-[{e} {r}]- {t}")):
        if links:
            branch = tree.add(title)
            for x in links:
                text = fmt.format(e=x.get("edge_type"), r=_relation(x.get("relation")), t=x.get("other_text"))
                branch.add(Text.assemble(text, (f"  ({str(x.get('other_id'))[:8]})", "dim")))
    when = [f"id {memory.id}", f"group {memory.group_id}"]
    if memory.occurred_at:
        when.append(f"occurred {memory.occurred_at}")
    if memory.created_at:
        when.append(f"created {memory.created_at}")
    if memory.session_id:
        when.append(f"session {memory.session_id}")
    tree.add(Text(", ".join(when), style="dim"))
    return tree


# --- helpers -------------------------------------------------------------------------------------


def _relation(value: Any) -> str:
    """导致/causes for a stored relation value, the value itself when it is not one of ours."""
    from ..types import RelationType

    try:
        rel = RelationType(value)
    except ValueError:
        return str(value)
    return f"{rel.zh}/{rel.value}"


def _read_json(source: str) -> tuple[list[dict], bool]:
    """The memories in --json, and whether they came as a list."""
    from ..errors import ValidationError

    text = sys.stdin.read() if source == "-" else source
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            f"--json is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})", field="json"
        ) from None
    if isinstance(data, dict):
        return [data], False
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        return data, True
    raise ValidationError("--json must be a memory object or a non-empty list of them", field="json")


def _attributes(pairs: list[str]) -> dict[str, str]:
    from ..errors import ValidationError

    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValidationError(f"--attr {pair!r}: write KEY=VALUE, e.g. --attr 时间=昨晚", field="attributes")
        out[key.strip()] = value.strip()
    return out


def _print_created(result: Any, group: str) -> None:
    console.print(
        f"[green]saved[/green] memory {result.memory_id} ({result.status}) in group {group!r}", highlight=False
    )
    console.print(f"  {result.text}", highlight=False)
    if result.occurred_at:
        console.print(f"  occurred at {result.occurred_at}", highlight=False)
    for key, tv in result.time_values.items():
        if tv.get("parsed"):
            pod = f", {tv['part_of_day']}" if tv.get("part_of_day") else ""
            console.print(f"  {key}: {tv['original']} → {tv['iso']}{pod}", highlight=False)
        else:
            console.print(f"  {key}: {tv['original']} (not understood as a time: kept as written)", highlight=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col in ("role", "input", "node", "reused", "why"):
        table.add_column(col)
    for c in result.concepts:
        why = {
            "new": "new node",
            "exact": "same name",
            "user": "the user",
            "agent": "the agent",
            "user (new)": "the user (new node)",
            "agent (new)": "the agent (new node)",
            "concurrent": "created by a concurrent write",
        }.get(c.reason, c.reason)
        if c.reason.startswith("vector"):
            why = f"similar name ({c.reason})"
        elif c.reason.startswith("context"):
            why = f"similar name, same context ({c.reason})"
        table.add_row(c.role, c.input, c.name, "yes" if c.reused else "no", why)
    console.print(table)
