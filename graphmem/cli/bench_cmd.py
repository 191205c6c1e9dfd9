"""`graphmem bench ...`: benchmarks that print numbers (speed is measured here, never in tests).

One function per command; each runs against the configured Neo4j in a throw-away group. The
library's own (write, search, faults) measure a user's deployment; more commands come from
installed packages that declare them under the entry point group ``graphmem.bench`` (the
dataset runners of ``benchmarks/``: graphmem never imports them).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

from ..errors import ConfigError
from ._common import ConfigOption, console, open_graph, print_json, prose_help

if TYPE_CHECKING:  # typer's own copy of click
    from typer._click import Command, Context, HelpFormatter

RUNNER_GROUP = "graphmem.bench"  # entry points: name = "package.module:command function"
GET_RUNNERS = (
    "More benchmarks (retrieval quality on public conversation datasets, consolidation on a "
    "synthetic life log) come with the graphmem-bench package: pip install -e ./benchmarks in a "
    "graphmem checkout (./bootstrap.sh installs it)."
)


class BenchGroup(TyperGroup):
    """The library's bench commands, then each command an installed package declares under the
    entry point group ``graphmem.bench``, imported only when it is run or listed (``graphmem
    bench --help``): other commands never pay for it. A built-in name wins over an entry point."""

    def _runners(self) -> dict[str, importlib.metadata.EntryPoint]:
        """The runners installed and not loaded yet, by command name."""
        found = importlib.metadata.entry_points(group=RUNNER_GROUP)
        return {ep.name: ep for ep in found if ep.name not in self.commands}

    def _none_installed(self) -> bool:
        return not importlib.metadata.entry_points(group=RUNNER_GROUP)

    def list_commands(self, ctx: Context) -> list[str]:
        return [*super().list_commands(ctx), *sorted(self._runners())]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and (entry := self._runners().get(cmd_name)) is not None:
            command = runner_command(entry)
            self.add_command(command, cmd_name)
        elif command is None and self._none_installed() and not ctx.resilient_parsing:
            raise ConfigError(f"graphmem bench {cmd_name}: no such command. {GET_RUNNERS}")
        return command

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        if self._none_installed():
            self.epilog = GET_RUNNERS
        super().format_help(ctx, formatter)


def runner_command(entry: importlib.metadata.EntryPoint) -> Command:
    """The click command of a runner's entry point: its function, declared as a typer command. A
    runner that cannot be imported (a broken install) is listed, and fails when run, saying so."""
    one = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    try:
        one.command(entry.name)(entry.load())
    except Exception as exc:  # noqa: BLE001 - reported by the command, never a traceback
        anything = {"ignore_unknown_options": True, "allow_extra_args": True}  # whatever it is given, it says why
        one.command(entry.name, context_settings=anything)(_unloadable(entry, exc))
    return prose_help(typer.main.get_command(one))


def _unloadable(entry: importlib.metadata.EntryPoint, exc: Exception) -> Callable[[], None]:
    why = f"its entry point {entry.value} could not be loaded ({type(exc).__name__}: {exc})"

    def command() -> None:
        raise ConfigError(f"graphmem bench {entry.name}: {why}; reinstall the package that provides it")

    command.__doc__ = f"Not available: {why}."
    return command


app = typer.Typer(
    cls=BenchGroup,
    no_args_is_help=True,
    help="Benchmarks: print latency and throughput figures with the machine described.",
)


@app.command("write")
def write(
    n_single: int = typer.Option(200, "--n-single", min=1, help="How many single create_memory calls to time."),
    batch_size: int = typer.Option(1000, "--batch-size", min=1, help="Memories per create_memories batch."),
    batches: int = typer.Option(3, "--batches", min=0, help="How many batches to time."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Latency of single creates (p50/p95, embedding included) and throughput of batches of 1,000.

    Writes synthetic zh/en memories into a throw-away group and deletes it afterwards. Targets on a 2-core machine: p50 ≤ 50 ms, batch ≥ 300 memories/s. Also prints the CPU a memory takes (this process, and a local server) and the most memories/s the cores allow at that cost.
    """
    from ..bench.write import run_write_bench

    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    with open_graph(config) as graph:
        report = run_write_bench(graph, n_single=n_single, batch_size=batch_size, batches=batches, progress=progress)
    if as_json:
        print_json(report)
        return
    _print_write(report)


def mark(ok: bool) -> str:
    """A target met or missed, in colour (the benchmarks' tables)."""
    return "[green]meets target[/green]" if ok else "[red]misses target[/red]"


def _print_write(report: dict) -> None:
    m, s, b = report["machine"], report["single"], report["batch"]
    console.print("[bold]graphmem bench write[/bold]", highlight=False)
    if report.get("command"):
        console.print(f"  command:  {report['command']}", highlight=False)
    console.print(
        f"  machine:  {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['cpu']}; load average "
        f"{m['load_average_before']} before, {m['load_average']} after; Python {m['python']}",
        highlight=False,
    )
    console.print(
        f"  Neo4j:    {m['neo4j']} at {m['neo4j_uri']}; embedding model {m['embedding_model']}; "
        f"neo4j-rust-ext {'yes' if m.get('neo4j_rust_ext') else 'no'}",
        highlight=False,
    )
    console.print(
        f"  single create_memory ({s['n']} calls): p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, "
        f"mean {s['mean_ms']} ms (embedding p50 {s['embedding_p50_ms']} ms, client CPU "
        f"{s['client_cpu_ms']} ms, server CPU {s.get('server_cpu_ms')} ms per call)  "
        f"target p50 ≤ {s['target_p50_ms']:g} ms: {mark(s['meets_target'])}",
        highlight=False,
    )
    if b["batches"]:
        console.print(
            f"  create_memories, {b['batches']} batches of {b['size']}: "
            f"{b['overall_memories_per_s']} memories/s (per batch: {b['memories_per_s']}; client CPU "
            f"{b['client_cpu_ms_per_memory']} ms per memory)  "
            f"target ≥ {b['target_memories_per_s']:g}/s: {mark(b['meets_target'])}",
            highlight=False,
        )
        if b.get("ceiling_memories_per_s"):
            console.print(
                f"  server CPU {b['server_cpu_ms_per_memory']} ms per memory: {m['cores']} cores write at most "
                f"{b['ceiling_memories_per_s']} memories/s at that cost",
                highlight=False,
            )


@app.command("search")
def search(
    sizes: str = typer.Option("10000,100000", "--sizes", help="Comma-separated group sizes (memories)."),
    queries: int = typer.Option(200, "--queries", min=10, help="Queries timed per depth."),
    clients: int = typer.Option(10, "--clients", min=1, help="Concurrent clients for the throughput run."),
    scan_queries: int = typer.Option(
        20, "--scan-queries", min=1, help="Queries timed with the exact scan (it is slow at 100,000)."
    ),
    keep: bool = typer.Option(
        False,
        "--keep",
        help="Keep the generated graph: a later run with the same size and --seed reuses it instead of rebuilding.",
    ),
    seed: int = typer.Option(7, "--seed", help="Seed of the synthetic graph and queries."),
    shape: str = typer.Option(
        "memories",
        "--shape",
        help="memories: a synthetic group of that many memories; "
        "conversation: a chat between two friends of that many turns (sessions of 20 "
        "turns, long turns with their sentences, memories extracted by the rule extractor), "
        "written through the real ingest path.",
    ),
    tenants: int = typer.Option(
        0,
        "--tenants",
        min=0,
        help="Also write this many small groups (100 memories "
        "each) first, and time searches in ten of them beside the last size, checking "
        "they return what an exact scan of the group alone returns.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """search_memories latency (p50/p95/p99, query embedding included) at expand_depth 0, 1, 2,
    throughput with concurrent clients, and the exact cosine scan of the group (how Graphiti and
    Mem0 search Neo4j) on the same queries, on a deterministic synthetic graph.

    Targets on a 2-core machine, at every size: depth 1 p50 ≤ 30 ms and p99 ≤ 80 ms, depth 2 p50 ≤ 45 ms, 10 clients ≥ 3× one client's queries/s with p99 ≤ 250 ms, ≥ 20× faster than the scan.

    Each size also prints where a search spends its time (each step's own time, none overlapping: plan, embed_wait (waiting for the query's vector), seeds_own, rank, expand, evidence), the query's embedding alone, and what a search costs the machine: CPU in this process and, when the server runs on this machine (graphmem's local one, one started with --home, any process listening on the URI's port), in Neo4j, and the most searches/s the cores allow at that cost. Timing starts once the group's vectors are held and depth-1 latency has settled (a fresh index takes a while).

    The graph is deleted afterwards unless --keep. A run that finds a kept graph of the same size and seed (group bench-search-n<size>-s<seed>) reuses it instead of rebuilding (a 100,000 build takes minutes), with the access statistics earlier runs left; without --keep it is deleted at the end.
    """
    from ..bench.search import SHAPES, run_search_bench

    try:
        size_list = [int(s) for s in sizes.split(",") if s.strip()]
    except ValueError:
        raise typer.BadParameter("--sizes: comma-separated integers, e.g. 10000,100000") from None
    if any(n < 1 for n in size_list):
        raise typer.BadParameter("--sizes: every size must be at least 1")
    if shape not in SHAPES:
        raise typer.BadParameter(f"--shape: one of {', '.join(SHAPES)}")
    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    with open_graph(config) as graph:
        report = run_search_bench(
            graph,
            size_list,
            n_queries=queries,
            clients=clients,
            scan_queries=scan_queries,
            keep=keep,
            seed=seed,
            shape=shape,
            tenants=tenants,
            progress=progress,
        )
    report["command"] = (
        "graphmem bench search --sizes "
        + ",".join(map(str, size_list))
        + f" --queries {queries} --clients {clients} --scan-queries {scan_queries}"
        + (f" --shape {shape}" if shape != "memories" else "")
        + (f" --tenants {tenants}" if tenants else "")
    )
    if as_json:
        print_json(report)
        return
    _print_search(report)


def _print_search(report: dict) -> None:
    from rich.table import Table

    m = report["machine"]
    console.print("[bold]graphmem bench search[/bold]", highlight=False)
    console.print(f"  command:  {report['command']}", highlight=False)
    console.print(
        f"  machine:  {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['cpu']}; load average "
        f"{m['load_average']} → {m.get('load_average_after')}; Python {m['python']}",
        highlight=False,
    )
    console.print(
        f"  Neo4j:    {m['neo4j']} at {m['neo4j_uri']} (heap {m.get('neo4j_heap')}, page cache "
        f"{m.get('neo4j_pagecache')}); embedding model {m['embedding_model']}",
        highlight=False,
    )
    table = Table(title="latency in ms, query embedding included", title_justify="left")
    unit = "turns" if report.get("shape") == "conversation" else "memories"
    for column in (unit, "search", "p50", "p95", "p99", "× faster than scan"):
        table.add_column(column, justify="right")
    for n, fig in report["sizes"].items():
        for depth in (0, 1, 2):
            d = fig[f"depth{depth}"]
            table.add_row(
                n if depth == 0 else "",
                f"depth {depth}" + (" (fast)" if depth == 0 else ""),
                f"{d['p50_ms']}",
                f"{d['p95_ms']}",
                f"{d['p99_ms']}",
                f"{d['speedup_vs_scan']}",
            )
        c, s = fig["concurrent"], fig["exact_scan"]
        table.add_row(
            "",
            f"depth 1, {c['clients']} clients",
            f"{c['p50_ms']}",
            f"{c['p95_ms']}",
            f"{c['p99_ms']}",
            f"{c['queries_per_s']} q/s",
        )
        table.add_row(
            "", "exact scan (baseline)", f"{s['p50_ms']}", f"{s['p95_ms']}", f"{s['p99_ms']}", "1", end_section=True
        )
    console.print(table)
    t = report["targets"]
    for n, fig in report["sizes"].items():
        ok = fig["targets"]
        stages = fig["depth1"].get("stages_p50_ms", {})
        console.print(
            f"  {n}: depth 1 p50 ≤ {t['depth1_p50_ms']:g} ms {mark(ok['depth1_p50'])}; "
            f"p99 ≤ {t['depth1_p99_ms']:g} ms {mark(ok['depth1_p99'])}; depth 2 p50 ≤ "
            f"{t['depth2_p50_ms']:g} ms {mark(ok['depth2_p50'])}; {fig['concurrent']['clients']} clients "
            f"≥ {t['concurrency']:g}× one client's queries/s ({fig['concurrent']['vs_one_client']}×) "
            f"{mark(ok['concurrency'])}, p99 ≤ {t['concurrent_p99_ms']:g} ms "
            f"{mark(ok['concurrent_p99'])}; ≥ {t['speedup']:g}× the scan {mark(ok['speedup'])}  "
            f"(built in {fig['build_s']} s{', reused' if fig['reused'] else ''})",
            highlight=False,
        )
        for depth in (1, 2):
            d = fig[f"depth{depth}"]
            own = d.get("own_p50_ms") or {}
            cpu = d.get("cpu") or {}
            server = "not on this machine" if cpu.get("server_cpu_ms") is None else f"{cpu['server_cpu_ms']} ms"
            console.print(
                f"     depth {depth}, each step's own time, p50 ms: {', '.join(f'{k} {v}' for k, v in own.items())}; "
                f"CPU a search: client {cpu.get('client_cpu_ms')} ms + server {server}",
                highlight=False,
            )
        console.print(
            f"     depth 1 stages, p50 ms: {', '.join(f'{k} {v}' for k, v in stages.items())} "
            f"(embed overlaps the probe and the word queries); group vectors "
            f"{'held in memory' if fig.get('vectors_held', {}).get('held') else 'not held'}",
            highlight=False,
        )
        if emb := fig.get("embedding"):
            console.print(
                f"     the query's embedding alone: p50 {emb['p50_ms']} ms, CPU {emb['cpu_ms']} ms a query",
                highlight=False,
            )
        cpu, c = fig["depth1"].get("cpu") or {}, fig["concurrent"]
        if cpu.get("ceiling_per_s"):
            console.print(
                f"     depth 1: {report['machine']['cores']} cores serve at most "
                f"{cpu['ceiling_per_s']} searches/s ({c['ceiling_vs_one_client']}× one client) at "
                f"that CPU cost",
                highlight=False,
            )
    ten = report.get("tenants")
    if ten and "p50_ms" in ten:
        console.print(
            f"  tenants: {ten['sampled_groups']} of {ten['tenants']} groups of {ten['memories_each']} "
            f"memories, beside {ten['beside']}: depth 1 p50 {ten['p50_ms']} ms, p95 {ten['p95_ms']} ms, "
            f"p99 {ten['p99_ms']} ms; same results as an exact scan of the group alone "
            f"{ten['same_as_alone']}/{ten['queries']}",
            highlight=False,
        )


@app.command("http")
def http(
    size: int = typer.Option(1000, "--size", min=10, help="Memories in the synthetic group."),
    queries: int = typer.Option(200, "--queries", min=20, help="Queries timed each way."),
    clients: int = typer.Option(10, "--clients", min=1, help="Concurrent HTTP clients, each with its own group."),
    seed: int = typer.Option(7, "--seed", help="Seed of the synthetic graph and queries."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """A search over HTTP (graphmem serve's app on a loopback port) beside the same search in-process:
    depth-1 p50/p95 both ways on the same queries, and CLIENTS concurrent HTTP clients, each with a
    token of its own group, counting errors and answers that hold another group's memories.

    Target on a 2-core machine: HTTP p50 within 10 ms of the in-process p50; no error, no cross-group answer.
    Needs the http extra (pip install 'graphmem[http]')."""
    from ..bench.http import TARGET_OVERHEAD_MS, run_http_bench

    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    with open_graph(config) as graph:
        report = run_http_bench(graph, size, n_queries=queries, clients=clients, seed=seed, progress=progress)
    report["command"] = f"graphmem bench http --size {size} --queries {queries} --clients {clients} --seed {seed}"
    if as_json:
        print_json(report)
        return
    d, c = report["depth1"], report["concurrent"]
    console.print(f"[bold]{report['command']}[/bold]  [dim]{report['machine']}[/dim]", highlight=False)
    console.print(
        f"depth-1 search, {report['memories']} memories, {report['queries']} queries: in-process p50 "
        f"{d['in_process']['p50_ms']} ms (p95 {d['in_process']['p95_ms']}), HTTP p50 {d['http']['p50_ms']} ms "
        f"(p95 {d['http']['p95_ms']}): +{d['overhead_p50_ms']} ms "
        f"{mark(d['target_met'])} (≤ {TARGET_OVERHEAD_MS:g}); same results {d['same_results']}/{report['queries']}",
        highlight=False,
    )
    console.print(
        f"{c['clients']} concurrent HTTP clients: {c['searches']} searches, {c['errors']} errors, "
        f"{c['cross_group_answers']} cross-group answers {mark(not c['errors'] and not c['cross_group_answers'])}, "
        f"{c['queries_per_s']} searches/s, p50 {c['p50_ms']} ms, p99 {c['p99_ms']} ms",
        highlight=False,
    )


@app.command("faults")
def faults(
    fuzz_calls: int = typer.Option(10_000, "--fuzz", min=0, help="Fuzzed tool calls sent through dispatch."),
    cross_ops: int = typer.Option(1_000, "--cross", min=0, help="Random operations among look-alike groups."),
    writers: int = typer.Option(3, "--writers", min=1, help="Concurrent writers during the kill -9."),
    per_writer: int = typer.Option(60, "--per-writer", min=3, help="Memories each writer creates."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Fault injection on a throw-away local Neo4j this command starts (Java 17+; the jars come from
    the usual cache) and deletes afterwards; the configured database is never touched.

    Tries: kill -9 of Neo4j during keyed concurrent creates and ingests, then a restart (every
    acknowledged write present and whole, none duplicated, the same clients finish); a clean
    restart under load; --fuzz random tool calls (no exception escapes dispatch, no invalid call
    succeeds, no partial write); --cross operations among look-alike groups (nothing crosses);
    the server stopped (every API call, tool call and CLI command fails within 5 s, in one line
    naming the URI). Prints what was tried and what held; exit code 1 when something did not hold.
    """
    from ..bench.faults import run_faults_bench, summary_rows
    from ..embed import get_embedder
    from ._common import load

    settings = load(config)
    e = settings.embedding
    embedder = get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)
    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    report = run_faults_bench(
        settings,
        embedder,
        fuzz_calls=fuzz_calls,
        cross_ops=cross_ops,
        writers=writers,
        per_writer=per_writer,
        say=progress or (lambda _: None),
    )
    report["command"] = (
        f"graphmem bench faults --fuzz {fuzz_calls} --cross {cross_ops} --writers {writers} --per-writer {per_writer}"
    )
    if as_json:
        print_json(report)
    else:
        _print_faults(report, summary_rows(report))
    if not report["held"]:
        raise typer.Exit(1)


def _print_faults(report: dict, rows: list) -> None:
    from rich.table import Table

    m = report["machine"]
    console.print("[bold]graphmem bench faults[/bold]", highlight=False)
    console.print(f"  command:  {report['command']}", highlight=False)
    console.print(
        f"  machine:  {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['cpu']}; load average "
        f"{m['load_average_before']} before, {m['load_average']} after; Python {m['python']}; "
        f"throw-away Neo4j {m['neo4j']}; embedding model {m['embedding_model']}",
        highlight=False,
    )
    table = Table(show_lines=True)
    for column in ("scenario", "tried", "result", "held"):
        table.add_column(column)
    for scenario, tried, result, held in rows:
        table.add_row(scenario, tried, result, "[green]yes[/green]" if held else "[red]NO[/red]")
    console.print(table)
    stopped = next((s for s in report["scenarios"] if s["scenario"] == "server_stopped"), None)
    if stopped:
        t = Table(title="server stopped: time to the error", title_justify="left")
        for column in ("call", "seconds", "error"):
            t.add_column(column)
        for c in stopped["calls"]:
            t.add_row(c["name"], f"{c['seconds']:.2f}", c.get("error") or " ".join(c.get("lines", []))[:120])
        console.print(t)
