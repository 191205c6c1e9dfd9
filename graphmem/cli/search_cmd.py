"""`graphmem search` and `graphmem stats`: the read path from the command line."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ._plain import count, embedder_loading, load, print_json, server_graph, suggested
from .options import CONFIG, Argument, Option, typed


def register(app: Any) -> None:
    app.command("search")(typed(search))
    app.command("stats")(typed(stats))


def _reference(at: str | None) -> datetime:
    """--at as the reference time of --since/--until/--as-of expressions (now by default)."""
    from ..types import as_reference_time

    return as_reference_time(at)


def _when(value: str | None, option: str, edge: str, reference: datetime | None) -> str | None:
    """--since/--until: an ISO date or datetime, or an expression such as 昨天 or "last week"
    (--since takes the start of that period, --until its end)."""
    if value is None:
        return None
    from ..errors import ValidationError
    from ..timeparse import normalize_time

    tv = normalize_time(value, reference or _reference(None))
    if not tv.parsed or tv.start is None:
        raise ValidationError(
            f"{option}: cannot read {value!r} as a time; use an ISO date (2025-11-05) "
            f"or an expression such as 昨天, 上周, yesterday, 'last week'",
            field=option,
        )
    moment = tv.start if edge == "start" or tv.end is None else tv.end
    return moment.isoformat()


def _as_of(value: str | None, reference: datetime | None) -> str | None:
    """--as-of: an ISO date or datetime, or an expression such as 去年三月 or "last March" (a
    period means its first moment)."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value.strip()).isoformat()  # read as parse_as_of reads it
    except ValueError:
        pass
    from ..errors import ValidationError
    from ..timeparse import normalize_time
    from ..types import AS_OF_FORMAT

    tv = normalize_time(value, reference or _reference(None))
    if not tv.parsed or tv.start is None:
        raise ValidationError(
            f"--as-of: cannot read {value!r} as a time; use {AS_OF_FORMAT}, or an expression such as "
            "去年三月, 2024年, 'last March'",
            field="as_of",
        )
    return tv.start.isoformat()


def _valid(result, as_of: bool) -> str:
    """ "  valid 2023-03-10 → 2024-05-01": when a memory was the current fact (a replaced one, or any
    memory of a search as of a time)."""
    if result.kind != "memory" or not (result.valid_until or (as_of and result.valid_from)):
        return ""
    return f"  valid {(result.valid_from or '?')[:10]} → {(result.valid_until or 'now')[:10]}"


def _path_text(result, ranks: dict[str, int]) -> str:
    """ "direct match", or the walk from the result it started at: "#1 ←causes←" (the edge
    points back: #1's cause), "#2 →related→", "#1 ~topic 吃饭~" (a shared concept)."""
    if not result.path:
        return "direct match"
    parts = []
    for step in result.path:
        if step.edge in ("CAUSALITY", "REFERENCE"):
            arrow = "→" if step.direction == "out" else "←"
            parts.append(f"{arrow}{step.relation or step.edge.lower()}{arrow}")
        else:
            parts.append(f"~{(step.via_label or step.edge).lower()} {step.via}~")
    start = result.path[0].from_id
    origin = f"#{ranks[start]}" if start in ranks else start[:8]
    return f"{origin} " + " ".join(parts)


def search(
    query: str = Argument(..., help="What to look for: a question or keywords, in Chinese or English."),
    group: str = Option("default", "--group", "-g", help="Group (tenant) to search."),
    deep: bool = Option(False, "--deep", help="Always walk the graph (depth ≥ 1)."),
    fast: bool = Option(False, "--fast", help="Direct matches only: never walk the graph."),
    types: list[str] | None = Option(
        None,
        "--type",
        "-t",
        help="Only these memory types (事件/事实/关系/观点 or event/fact/relation/opinion); repeatable.",
    ),
    since: str | None = Option(None, "--since", help="Only memories from this time on: ISO date or 上周, yesterday…"),
    until: str | None = Option(None, "--until", help="Only memories up to the end of this time."),
    depth: int = Option(1, "--depth", min=0, max=2, help="How many memory hops to walk (0–2)."),
    max_results: int = Option(10, "--max", "-n", min=1, max=200, help="How many results."),
    relations: list[str] | None = Option(
        None,
        "--relation",
        "-r",
        help="Walk only these relations (因为/所以/导致/引用/基于/相关 or because/so/causes/…); repeatable.",
    ),
    subject: str | None = Option(None, "--subject", help="Only memories about this subject (我/I for the user)."),
    archived: bool = Option(False, "--archived", help="Include archived (forgotten) memories."),
    superseded: str | None = Option(
        None,
        "--superseded",
        help="Memories replaced by newer ones: "
        "current_first (default: the current version just before each), "
        "hide, or keep (rank them as any other).",
    ),
    at: str | None = Option(None, "--at", help="Reference time (ISO) for 'today', 'last week' and decay."),
    as_of: str | None = Option(
        None,
        "--as-of",
        help="What was true then: ISO date or datetime (2024-03-01), or 去年三月, 'last March' (a period: its "
        "first day). Memories valid at that time, replaced ones included, later ones left out.",
    ),
    profile: str = Option(
        "default",
        "--profile",
        "-p",
        help="Score weights: default (relevance, "
        "importance, recency, use) or recall (relevance only), or one from the config.",
    ),
    rerank: bool | None = Option(
        None,
        "--rerank/--no-rerank",
        help="Reorder the best results with the reranker of [rerank] in the config (default: when one is set).",
    ),
    json_output: bool = Option(False, "--json", help="Print the full response as JSON."),
    config: str | None = CONFIG,
) -> None:
    """Search a group's memories: direct matches (vector + fulltext), then the graph around them
    (causes, effects, shared people and things), ranked by one score whose parts are shown.

    Modes: --fast (direct matches only), --deep (always walk), default auto (walk when the
    query asks why/about something or the best match is weak)."""
    from ..errors import ValidationError

    if deep and fast:
        raise ValidationError("--deep and --fast exclude each other; pick one", field="mode")
    graph = server_graph(config)  # a running `graphmem serve`: no model or driver to load here
    if graph is None:
        settings = load(config)
        embedder = embedder_loading(settings, [query])
        from ..graph import MemoryGraph

        graph = MemoryGraph(settings, embedder=embedder)
    reference = _reference(at) if since or until or as_of else None
    time_range = None
    if since or until:
        time_range = {
            "start": _when(since, "--since", "start", reference),
            "end": _when(until, "--until", "end", reference),
        }
    mode = "deep" if deep else "fast" if fast else None
    with graph:
        response = graph.search_memories(
            group,
            query,
            memory_types=types or None,
            time_range=time_range,
            max_results=max_results,
            expand_depth=depth,
            mode=mode,
            relation_filters=relations or None,
            subject=subject,
            include_archived=archived,
            reference_time=reference or at,
            profile=profile,
            superseded=superseded,
            rerank=rerank,
            as_of=_as_of(as_of, reference),
        )
    if json_output:
        print_json(response.model_dump(mode="json"))
        return
    from ._console import console

    plan = response.plan
    console.print(
        f"[bold]{query}[/bold]  [dim]group {group!r}, mode {response.mode_used}, depth {plan.depth}"
        + (f", relations {plan.relation_filters}" if plan.relation_filters else "")
        + (
            f", time {plan.time_range.start} – {plan.time_range.end} ({plan.time_range.source})"
            if plan.time_range
            else ""
        )
        + (f", as of {plan.as_of.start[:10]}" if plan.as_of and plan.as_of.source == "argument" else "")
        + (
            f", as of {plan.as_of.start[:10]} – {plan.as_of.end[:10]} ({plan.as_of.matched})"
            if plan.as_of and plan.as_of.source == "query"
            else ""
        )
        + f", {response.timings_ms.get('total', 0):.0f} ms[/dim]",
        highlight=False,
    )
    for reason in plan.why:
        console.print(f"  [dim]· {reason}[/dim]", highlight=False)
    if not response.results:
        console.print("no memories found")
        return
    _print_results(response, plan)


WIDE = 120  # a terminal at least this wide shows every part of the score, and how each result was found
MEMORY_MIN = 36  # the memory column's least width in cells (18 Chinese characters a line)


def state_of(result) -> str:
    """What a result is now: a turn, or a memory that is current, superseded (no longer true) or archived."""
    if result.kind != "memory":
        return "turn"
    if not result.current:
        return "superseded"
    return "archived" if result.status == "archived" else "current"


STATE_STYLE = {"current": "green", "superseded": "yellow", "archived": "dim", "turn": "dim"}


def _print_results(response, plan) -> None:
    """The results as a table: rank, score (and its parts on a wide terminal), type, state, the
    memory's text (wrapped on characters, never narrower than MEMORY_MIN cells) and how it was
    found (on a narrow terminal, under the text)."""
    from rich.table import Table
    from rich.text import Text

    from ._console import console

    ranks = {r.memory_id: rank for rank, r in enumerate(response.results, 1)}
    w = plan.weights
    reranked = "rerank" in w  # the reranker's part is a column of its own
    wide = console.width >= WIDE
    table = Table(
        caption=(
            f"score = {w.get('similarity')}·sim + {w.get('importance')}·imp + "
            f"{w.get('distance')}·1/(1+d) + {w.get('time_decay')}·time + {w.get('access')}·access"
            + (f" + {w['rerank']}·rerank" if reranked else "")
        )
        if wide
        else "score: similarity, importance, distance, time, access"
        + (", rerank" if reranked else "")
        + f" (each part on a terminal of {WIDE} columns, or with --json)",
        caption_justify="left",
    )
    parts = ("sim", "imp", "dist", "time", "acc", *(("rerank",) if reranked else ())) if wide else ()
    for column in ("#", "score", *parts, "type", "state"):
        table.add_column(column, no_wrap=True, justify="right" if column == "#" else "left")
    table.add_column("memory", overflow="fold", min_width=MEMORY_MIN, ratio=1)
    if wide:
        table.add_column("found", overflow="fold")
    for rank, r in enumerate(response.results, 1):
        p = r.score_parts
        values = {
            "sim": f"{p.similarity:.2f}",
            "imp": f"{p.importance:.2f}",
            "dist": f"{p.distance:.2f}",
            "time": f"{p.time_decay:.2f}",
            "acc": f"{p.access:.2f}",
            "rerank": f"{p.rerank:.2f}" if p.rerank is not None else "–",
        }
        state = state_of(r)
        found = _path_text(r, ranks) + (f" (d {r.distance})" if r.distance else "")
        memory = Text(r.text + _valid(r, plan.as_of is not None))
        if not wide:
            memory.append(f"\n↳ {found}", style="dim")
        table.add_row(
            str(rank),
            f"{r.score:.3f}",
            *(values[c] for c in parts),
            r.memory_type,
            Text(state, style=STATE_STYLE[state]),
            memory,
            *((found,) if wide else ()),
        )
    console.print(table)


def stats(
    group: str | None = Option(None, "--group", "-g", help="One group; default: the whole database."),
    all_groups: bool = Option(
        False, "--all", help="Also list every group any node belongs to, with its nodes (a scan of every node)."
    ),
    legacy: bool = Option(
        False,
        "--legacy",
        help="Only list the groups whose stored id breaks the group id rule (written by an older "
        "version), with what is wrong and how to rename them.",
    ),
    json_output: bool = Option(False, "--json", help="Print JSON."),
    config: str | None = CONFIG,
) -> None:
    """Memories by type and status; nodes by label and relationships by type; extraction jobs
    by state (pending and failed ones are retried by `graphmem extract --retry`; running ones whose
    process or server died are taken up by the next ingest or consolidation, or by `--retry`)."""
    from ..errors import ValidationError

    if group is not None and (all_groups or legacy):
        raise ValidationError("--all and --legacy list every group: leave out --group", field="group")
    remote = None if (legacy or all_groups) else server_graph(config)
    if remote is not None:
        with remote:
            data = remote.stats(group)
    else:
        from ..graph import MemoryGraph

        with MemoryGraph(load(config)) as graph:
            if legacy:
                from ..store.admin import legacy_groups

                _print_legacy(legacy_groups(graph.store), json_output)
                return
            data = graph.stats(group)
            if all_groups:
                from ..store.admin import group_census

                data["groups_census"] = group_census(graph.store)
    if json_output:
        print_json(data)
        return
    from rich.markup import escape
    from rich.table import Table

    from ._console import console

    mem = data["memories"]
    where = f"group {group!r}" if group else f"the whole database ({count(data.get('groups', 0), 'group')})"
    console.print(f"[bold]{count(mem['total'], 'memory', 'memories')}[/bold] in {where}", highlight=False)
    odd = data.get("nonconforming_group_ids") or {}
    if odd.get("count"):
        names = ", ".join(repr(e["group_id"]) for e in odd["examples"])
        console.print(
            f"[yellow]warning:[/yellow] {odd['count']} stored group ids do not follow the group id "
            f"rule ({names}{', ...' if odd['count'] > len(odd['examples']) else ''}): no call reads "
            f"or writes them; `graphmem stats --legacy` lists them and `graphmem rename-group OLD NEW` "
            f"gives each a valid id (see docs/reliability.md)",
            highlight=False,
            soft_wrap=True,
        )
    console.print("memories by type and status")
    table = Table()
    statuses = list(mem["by_status"])
    for column in ["type", *statuses, "total"]:
        table.add_column(column)
    cells = {(r["memory_type"], r["status"]): r["count"] for r in mem["by_type_and_status"]}
    for memory_type, total in mem["by_type"].items():
        table.add_row(memory_type, *[str(cells.get((memory_type, s), 0)) for s in statuses], str(total))
    console.print(table)
    last = data.get("last_consolidation")
    if last:
        style = "green" if last.get("status") == "finished" else "yellow"
        console.print(
            f"last consolidation: [{style}]{last.get('status')}[/{style}] {last.get('started_at', '')[:19]}"
            + (f" (group {last.get('group_id')})" if not group else "")
            + f", {count(last.get('processed') or 0, 'memory', 'memories')}, {last.get('seconds') or 0:.1f} s; "
            f"{last.get('counts') or ''}",
            highlight=False,
            soft_wrap=True,
        )
    else:
        console.print(f"[dim]never consolidated ({escape(suggested('consolidate', group=group, config=config))})[/dim]")
    jobs = data.get("extraction_jobs") or {}
    waiting = jobs.get("pending", 0) + jobs.get("failed", 0) + jobs.get("running", 0)
    style = "yellow" if waiting else "dim"
    stranded = jobs.get("stranded", 0)
    console.print(
        f"[{style}]extraction jobs: "
        + ", ".join(f"{k} {v}" for k, v in jobs.items() if k != "stranded")
        + (f" (of the running, {stranded} stranded: their process or server died)" if stranded else "")
        + (f" ({escape(suggested('extract', '--retry', group=group, config=config))})" if waiting else "")
        + f"[/{style}]",
        highlight=False,
    )
    for title, key in (("nodes by label", "nodes"), ("relationships by type", "edges")):
        console.print(title)
        t = Table()
        t.add_column("label" if key == "nodes" else "type")
        t.add_column("count", justify="right")
        for name, number in data[key].items():
            t.add_row(name, str(number))
        console.print(t)
    census = data.get("groups_census")
    if census is not None:
        _print_census(census)


def _print_census(census: list[dict]) -> None:
    from rich.table import Table

    from ._console import console

    table = Table(title=f"{count(len(census), 'group')} (every group id a node carries)", title_justify="left")
    for column in ("group", "nodes", "memories", "turns", "other", "note"):
        table.add_column(column, justify="right" if column in ("nodes", "memories", "turns", "other") else "left")
    for g in census:
        n = g["nodes"]
        other = g["total"] - n.get("Memory", 0) - n.get("Episode", 0)
        note = []
        if g["problem"]:
            note.append(f"legacy id: {g['problem']}")
        if g["deleting"]:
            note.append("deletion unfinished: run graphmem delete-group again")
        table.add_row(
            repr(g["group_id"]) if g["problem"] else str(g["group_id"]),
            str(g["total"]),
            str(n.get("Memory", 0)),
            str(n.get("Episode", 0)),
            str(other),
            "; ".join(note),
        )
    console.print(table)


def _print_legacy(groups: list[dict], json_output: bool) -> None:
    if json_output:
        print_json({"legacy_groups": groups})
        return
    from ._console import console

    if not groups:
        console.print("every stored group id follows the group id rule", highlight=False)
        return
    console.print(
        f"[yellow]{len(groups)} stored group ids break the group id rule[/yellow] (written by an older "
        "version): no call reads or writes them until they are renamed",
        highlight=False,
        soft_wrap=True,
    )
    for g in groups:
        console.print(
            f"  {g['group_id']!r}: {g['problem']}; {count(g['total'], 'node')}", highlight=False, soft_wrap=True
        )
    console.print(
        "rename each with `graphmem rename-group OLD NEW` (NEW: letters, digits and _ - . : @), or delete it "
        "with `graphmem delete-group -g OLD`",
        highlight=False,
        soft_wrap=True,
    )
