"""`graphmem bench ...`: benchmarks that print numbers (speed is measured here, never in tests).

One function per command; each runs against the configured Neo4j in a throw-away group.
"""

from __future__ import annotations

import typer

from ._common import ConfigOption, console, open_graph, print_json

app = typer.Typer(
    no_args_is_help=True, help="Benchmarks: print latency and throughput figures with the machine described."
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


def _mark(ok: bool) -> str:
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
        f"{s['client_cpu_ms']} ms per call)  "
        f"target p50 ≤ {s['target_p50_ms']:g} ms: {_mark(s['meets_target'])}",
        highlight=False,
    )
    if b["batches"]:
        console.print(
            f"  create_memories, {b['batches']} batches of {b['size']}: "
            f"{b['overall_memories_per_s']} memories/s (per batch: {b['memories_per_s']}; client CPU "
            f"{b['client_cpu_ms_per_memory']} ms per memory)  "
            f"target ≥ {b['target_memories_per_s']:g}/s: {_mark(b['meets_target'])}",
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
        "conversation: a LoCoMo-like group of that many turns (two speakers, sessions of 20 "
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

    Each size also prints where a depth-1 search spends its time (stages) and what it costs the machine: CPU per search in this process and, when the server is graphmem's local one, in Neo4j, and the most searches/s the cores allow at that cost. Timing starts once the group's vectors are held and depth-1 latency has settled (a fresh index takes a while).

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
            f"  {n}: depth 1 p50 ≤ {t['depth1_p50_ms']:g} ms {_mark(ok['depth1_p50'])}; "
            f"p99 ≤ {t['depth1_p99_ms']:g} ms {_mark(ok['depth1_p99'])}; depth 2 p50 ≤ "
            f"{t['depth2_p50_ms']:g} ms {_mark(ok['depth2_p50'])}; {fig['concurrent']['clients']} clients "
            f"≥ {t['concurrency']:g}× one client's queries/s ({fig['concurrent']['vs_one_client']}×) "
            f"{_mark(ok['concurrency'])}, p99 ≤ {t['concurrent_p99_ms']:g} ms "
            f"{_mark(ok['concurrent_p99'])}; ≥ {t['speedup']:g}× the scan {_mark(ok['speedup'])}  "
            f"(built in {fig['build_s']} s{', reused' if fig['reused'] else ''})",
            highlight=False,
        )
        console.print(
            f"     depth 1 stages, p50 ms: {', '.join(f'{k} {v}' for k, v in stages.items())} "
            f"(embed overlaps the probe and the word queries); group vectors "
            f"{'held in memory' if fig.get('vectors_held', {}).get('held') else 'not held'}",
            highlight=False,
        )
        cpu, c = fig["depth1"].get("cpu") or {}, fig["concurrent"]
        if cpu.get("ceiling_per_s"):
            console.print(
                f"     depth 1 CPU per search: client {cpu['client_cpu_ms']} ms, server "
                f"{cpu['server_cpu_ms']} ms: {report['machine']['cores']} cores serve at most "
                f"{cpu['ceiling_per_s']} searches/s ({c['ceiling_vs_one_client']}× one client) at "
                f"that cost",
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


# --- retrieval quality on conversations (graphmem/bench/locomo.py, longmemeval.py) -------------


def _retrieval_bench(
    kind: str,
    file: str,
    limit: int | None,
    max_results: int,
    as_json: bool,
    cache: bool,
    extractor: str,
    profile: str,
    config: str | None,
    **extra: object,
) -> None:
    import time

    from ..bench import common
    from ..bench.cache import CachedEmbedder, default_cache_path
    from ..errors import ValidationError

    allowed = ["rules", "none"] + (["observations"] if kind == "locomo" else [])
    if extractor not in allowed:
        raise ValidationError(
            f"--extractor: the benchmarks run offline: {', '.join(allowed)}"
            + ("" if kind == "locomo" else " (observations: LoCoMo only)"),
            field="extractor",
            allowed=allowed,
        )
    ablation = bool(extra.pop("ablation", False))
    module = __import__(f"graphmem.bench.{kind}", fromlist=["run"])
    started = time.perf_counter()
    from ..embed import get_embedder
    from ..graph import MemoryGraph
    from ._common import load

    settings = load(config)
    settings.retrieval.profile(profile)  # an unknown profile fails before anything is loaded
    e = settings.embedding
    embedder = get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)
    if cache:  # the turns, the questions and everything search_memories embeds go through it
        embedder = CachedEmbedder(embedder, default_cache_path(embedder.name, getattr(embedder, "revision", None)))
    if kind == "madial":  # flat dense baselines: every installed model, the configured one included
        from ..embed import ENGLISH_MODEL, MINILM_MODEL, MULTILINGUAL_MODEL, installed

        others = [
            get_embedder(m, e.device, e.batch_size, e.backend, e.precision)
            for m in (MULTILINGUAL_MODEL, ENGLISH_MODEL, MINILM_MODEL)
            if m != embedder.name and installed(m)
        ]
        if cache:
            others = [CachedEmbedder(o, default_cache_path(o.name, getattr(o, "revision", None))) for o in others]
        extra["dense_models"] = [embedder, *others]
    with MemoryGraph(settings, embedder=embedder) as graph:
        bar = None if as_json else common.progress_bar(console)
        task = None
        if bar is not None:
            bar.start()
            task = bar.add_task(f"{kind}: ingest + ask", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            if bar is not None:
                bar.update(task, completed=done, total=total)

        try:
            if ablation:  # every extractor, the walk off and on: one table
                report = common.ablation(
                    lambda x: module.run(
                        graph,
                        file,
                        limit=limit,
                        max_results=max_results,
                        embedder=embedder,
                        progress=progress,
                        extractor=x,
                        profile=profile,
                        depths=(0, 1),
                    ),
                    ABLATION_EXTRACTORS,
                )
            else:
                report = module.run(
                    graph,
                    file,
                    limit=limit,
                    max_results=max_results,
                    embedder=embedder,
                    progress=progress,
                    extractor=extractor,
                    profile=profile,
                    **extra,
                )
        finally:
            if bar is not None:
                bar.stop()
        if cache:
            report["stats"]["embedding_cache"] = {
                "path": str(embedder.path),
                "hits": embedder.hits,
                "misses": embedder.misses,
            }
    report["stats"]["wall_seconds"] = round(time.perf_counter() - started, 1)
    scores = report.pop("_scores")
    if as_json:
        print_json(report)
        return
    notes = (report["notes"] if ablation else module.footnotes(report)) + [
        f"wall time including model load: {report['stats']['wall_seconds']} s"
    ]
    if report["stats"].get("consolidation") is not None:
        notes.append(
            f"consolidated after each ingest ({report['stats']['timings_s'].get('consolidate')} s): "
            + ", ".join(f"{k} {v}" for k, v in sorted(report["stats"]["consolidation"].items()))
        )
    if cache:
        c = report["stats"]["embedding_cache"]
        notes.append(f"embedding cache {c['path']}: {c['hits']} hits, {c['misses']} misses (--no-cache to disable)")
    if kind == "madial":
        common.print_table(
            console,
            f"MADial-Bench ({report['lang']}) memory recall@k (%)",
            scores,
            report["metrics"],
            [("overall", "dialogues")],
            scale=100.0,
            fmt="{:.1f}",
            footnotes=notes,
        )
    elif kind == "locomo" and ablation:
        common.print_table(
            console,
            "LoCoMo turn-level evidence recall@k (%): extractor × graph walk",
            scores,
            report["metrics"],
            module.buckets(),
            scale=100.0,
            fmt="{:.1f}",
            footnotes=notes,
        )
    elif kind == "locomo":
        common.print_table(
            console,
            "LoCoMo turn-level evidence recall@k (%)",
            scores,
            report["metrics"],
            module.buckets(),
            scale=100.0,
            fmt="{:.1f}",
            footnotes=notes,
        )
    else:
        # one table per metric family: twelve columns do not fit a terminal
        buckets = [("overall", "overall")] + [(t, t) for t in report["question_types"]]
        families = list(dict.fromkeys(m.split("@")[0] for m in report["metrics"]))
        for i, family in enumerate(families):
            common.print_table(
                console,
                f"LongMemEval-S session-level {family}@k",
                scores,
                [m for m in report["metrics"] if m.split("@")[0] == family],
                buckets,
                footnotes=notes if i == len(families) - 1 else (),
            )


# Options the conversation benchmarks share.
MaxResultsOption = typer.Option(50, "--max-results", min=1, max=200, help="max_results of each search.")
JsonOption = typer.Option(False, "--json", help="Print the figures as JSON.")
CacheOption = typer.Option(
    True, "--cache/--no-cache", help="Keep turn embeddings in ~/.cache/graphmem/bench so re-runs skip embedding."
)
ExtractorOption = typer.Option(
    "rules",
    "--extractor",
    help="rules (the benchmark's setting), none (episodes "
    "only, to see what extraction adds) or, for LoCoMo, observations (the dataset's "
    "own LLM-written facts: simulates an extractor of LLM quality).",
)
ABLATION_EXTRACTORS = ("none", "rules", "observations")
ConsolidateOption = typer.Option(
    False,
    "--consolidate",
    help="Run a consolidation on each group after its "
    "ingest (merges, supersede chains, links, decay as of the conversation's last "
    "day), to see what the lifecycle does to recall.",
)
ProfileOption = typer.Option(
    "recall",
    "--profile",
    help="Ranking profile of the searches: recall (relevance only: "
    "the questions ask about any time) or default (the agent-memory weights).",
)


@app.command("locomo")
def locomo(
    file: str = typer.Argument(..., help="locomo10.json or a subset of it (e.g. ../shared/bench/locomo_dev.json)."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N conversations."),
    max_results: int = MaxResultsOption,
    as_json: bool = JsonOption,
    cache: bool = CacheOption,
    extractor: str = ExtractorOption,
    profile: str = ProfileOption,
    depth: int | None = typer.Option(
        None,
        "--depth",
        min=0,
        max=2,
        help="The graph walk of every search: 0 "
        "(direct matches only), 1 or 2 hops always; default: the engine's "
        "own choice (auto).",
    ),
    ablation: bool = typer.Option(
        False,
        "--ablation",
        help="One table of every extractor (none, rules, "
        "observations) with the graph walk off (depth 0) and on (depth 1).",
    ),
    consolidate: bool = ConsolidateOption,
    config: str | None = ConfigOption,
) -> None:
    """LoCoMo turn-level evidence recall@5/10/25/50, overall and per category: graphmem vs dense vs BM25.

    Each conversation is ingested into its own throw-away group (rule-based extractor, the
    sessions' real dates), every question is asked through search_memories, and the results are
    mapped to turn ids through their evidence episodes. Offline; no LLM. The groups are deleted.
    --extractor observations turns the dataset's own observations (facts an LLM wrote per session,
    each with the turn it came from) into memories through the LLM extractor's path: a benchmark
    setting that shows the graph with extraction of LLM quality.
    """
    _retrieval_bench(
        "locomo",
        file,
        limit,
        max_results,
        as_json,
        cache,
        extractor,
        profile,
        config,
        depths=(depth,),
        ablation=ablation,
        consolidate=consolidate,
    )


@app.command("longmemeval")
def longmemeval(
    file: str = typer.Argument(
        ..., help="LongMemEval-S json or json.gz (e.g. ../shared/bench/longmemeval_s_dev.json.gz)."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N scored questions."),
    max_results: int = MaxResultsOption,
    as_json: bool = JsonOption,
    cache: bool = CacheOption,
    extractor: str = ExtractorOption,
    profile: str = ProfileOption,
    consolidate: bool = ConsolidateOption,
    config: str | None = ConfigOption,
) -> None:
    """LongMemEval-S session recall_any/recall_all/ndcg_any @1/3/5/10, overall and per question type.

    Official retrieval rules: user turns only, gold = answer sessions with a has_answer turn,
    abstention questions dropped. Each haystack is ingested into its own throw-away group
    (rule-based extractor, real dates), asked through search_memories, then deleted.
    """
    _retrieval_bench(
        "longmemeval", file, limit, max_results, as_json, cache, extractor, profile, config, consolidate=consolidate
    )


@app.command("madial")
def madial(
    directory: str = typer.Argument(
        ...,
        help="A MADial-Bench folder with memory_<lang>.jsonl and "
        "dialogues_<lang>.jsonl (e.g. ../shared/bench/madial_dev).",
    ),
    lang: str = typer.Option("zh", "--lang", help="zh or en: which language's memories and dialogues."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N dialogues."),
    max_results: int = typer.Option(50, "--max-results", min=1, max=200, help="max_results of each search."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    cache: bool = typer.Option(
        True, "--cache/--no-cache", help="Keep embeddings in ~/.cache/graphmem/bench so re-runs skip embedding."
    ),
    extractor: str = typer.Option("rules", "--extractor", help="rules or none (the memories as episodes only)."),
    profile: str = typer.Option("recall", "--profile", help="Score profile of the searches (recall: relevance only)."),
    config: str | None = ConfigOption,
) -> None:
    """MADial-Bench memory recall@1/3/5/10 in Chinese or English: graphmem vs flat dense retrieval with
    each installed model vs BM25, and (zh) the published embedders on the same dialogues.

    Each user's memories are ingested into the user's own throw-away group (a memory one episode,
    dated), each dialogue so far is asked through search_memories, and the results are mapped back
    to memory ids through their evidence episodes. Offline. The groups are deleted.
    """
    from ..errors import ValidationError

    if lang not in ("zh", "en"):
        raise ValidationError("--lang: zh or en", field="lang", allowed=["zh", "en"])
    from pathlib import Path

    for name in (f"memory_{lang}.jsonl", f"dialogues_{lang}.jsonl"):
        if not (Path(directory) / name).exists():
            raise ValidationError(
                f"{directory}: no {name} there; give the MADial-Bench folder (e.g. ../shared/bench/madial_dev)",
                field="directory",
            )
    _retrieval_bench("madial", directory, limit, max_results, as_json, cache, extractor, profile, config, lang=lang)


@app.command("consolidate")
def consolidate(
    users: int = typer.Option(
        4, "--users", min=1, help="Users in the synthetic life log (half Chinese, half English)."
    ),
    memories: int = typer.Option(250, "--memories", min=89, help="Memories per user (six months of them)."),
    seed: int = typer.Option(0, "--seed", help="The life log's random seed (the same seed, the same log)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Consolidation on a synthetic life log with known answers: duplicate names (case, width,
    traditional/simplified, spellings, synonyms), look-alikes that must stay apart (苹果 / 苹果公司,
    Paris / Paris, Texas), updates and contradictions in Chinese and English, old trivia.

    Prints merge precision and recall, conflict precision and recall, "what is current" accuracy
    (a question about each updated fact returns the newest value first), archived and summarised
    counts, and the time per 10,000 memories. Each user is a throw-away group, deleted after.
    Targets: merge P ≥ 0.98, R ≥ 0.90; conflict P ≥ 0.95, R ≥ 0.85; current ≥ 0.95; 10,000 < 120 s."""
    from ..bench.consolidate import run_consolidate_bench

    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    with open_graph(config) as graph:
        report = run_consolidate_bench(graph, users=users, memories_per_user=memories, seed=seed, progress=progress)
    if as_json:
        print_json(report)
        return
    _print_consolidate(report)


def _print_consolidate(report: dict) -> None:
    from rich.table import Table

    m, log = report["machine"], report["life_log"]
    console.print("[bold]graphmem bench consolidate[/bold]", highlight=False)
    if report.get("command"):
        console.print(f"  command:  {report['command']}", highlight=False)
    console.print(
        f"  machine:  {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['cpu']}; Neo4j {m['neo4j']}; "
        f"embedding model {m['embedding_model']}",
        highlight=False,
    )
    console.print(
        f"  life log: {log['users']} users × {log['memories_per_user']} memories ({log['memories']} in all, "
        f"{log['from']} – {log['to']}, seed {log['seed']}; {log['languages']})",
        highlight=False,
    )
    c = report["concepts"]
    console.print(f"  concept nodes: {c}", highlight=False)
    table = Table(title="consolidation against the life log's answers", title_justify="left")
    for column in ("measure", "value", "target", ""):
        table.add_column(column)
    names = {
        "merge_precision": "concept merge precision",
        "merge_recall": "concept merge recall",
        "conflict_precision": "conflict precision",
        "conflict_recall": "conflict recall",
        "current_accuracy": '"what is current" accuracy',
        "seconds_per_10k": "seconds per 10,000 memories",
    }
    for key, t in report["targets"].items():
        value = t["value"]
        shown = "–" if value is None else (f"{value:.3f}" if key != "seconds_per_10k" else f"{value:.1f}")
        bound = f"< {t['target']:g}" if key == "seconds_per_10k" else f"≥ {t['target']:g}"
        table.add_row(names.get(key, key), shown, bound, _mark(t["met"]))
    console.print(table)
    cm = report["concept_merges"]
    console.print(
        f"  merges by the run: {cm['merged_by_run']} ({cm['right_by_run']} right); recall by kind "
        f"{cm['recall_by_kind']}; look-alikes merged {cm['lookalikes_merged']} of {cm['lookalikes']}; "
        f"merged at write time {cm['merged_at_write']} ({cm['wrong_at_write']} wrong)",
        highlight=False,
    )
    for w in cm["wrong_examples"][:5]:
        console.print(f"    wrong merge: {w}", highlight=False)
    for w in cm["missed_examples"][:5]:
        console.print(f"    missed merge: {w}", highlight=False)
    cf = report["conflicts"]
    for w in cf["wrong_examples"][:5]:
        console.print(f"    wrong conflict: {w}", highlight=False)
    for w in cf["missed_examples"][:5]:
        console.print(f"    missed conflict: {w}", highlight=False)
    for q in report["current"]["failures"][:5]:
        console.print(f"    not current first: {q}", highlight=False)
    console.print(f"  duplicate memories: {report['memory_merges']}", highlight=False)
    console.print(
        f"  archived {report['archived']}, summaries {report['summaries']}; seconds {report['seconds']} "
        f"({report['memories_per_s']} memories/s"
        + (", per 10,000 extrapolated" if report.get("extrapolated") else "")
        + ")",
        highlight=False,
    )
    for e in report.get("errors") or []:
        console.print(f"  [yellow]error:[/yellow] {e}", highlight=False)


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
