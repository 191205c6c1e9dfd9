"""What the retrieval benchmarks' commands share (`graphmem bench locomo|longmemeval|madial`): their
common options, and one run: the embedding model (cached on disk), the graph, the progress bar,
the module's ``run`` and its tables or JSON."""

from __future__ import annotations

import importlib
import time

import typer

from graphmem.cli._common import console, load, print_json, progress_bar
from graphmem.errors import ValidationError


def retrieval_bench(
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
    """Run the benchmark module ``kind`` (graphmem_bench.<kind>: its ``run``) with the configured
    embedding model (through the on-disk cache unless ``cache`` is off), then print its tables or,
    with ``as_json``, its report."""
    allowed = ["rules", "none"] + (["observations"] if kind == "locomo" else [])
    if extractor not in allowed:
        raise ValidationError(
            f"--extractor: the benchmarks run offline: {', '.join(allowed)}"
            + ("" if kind == "locomo" else " (observations: LoCoMo only)"),
            field="extractor",
            allowed=allowed,
        )
    ablation = bool(extra.pop("ablation", False))
    module = importlib.import_module(f"{__package__}.{kind}")
    started = time.perf_counter()
    from graphmem.embed import CHINESE_MODEL, ENGLISH_MODEL, MINILM_MODEL, MULTILINGUAL_MODEL, get_embedder, installed
    from graphmem.graph import MemoryGraph

    from . import common
    from .cache import CachedEmbedder, default_cache_path

    settings = load(config)
    settings.retrieval.profile(profile)  # an unknown profile fails before anything is loaded
    e = settings.embedding
    embedder = get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)
    cached = None
    if cache:  # the turns, the questions and everything search_memories embeds go through it
        cached = CachedEmbedder(embedder, default_cache_path(embedder.name, getattr(embedder, "revision", None)))
        embedder = cached
    if kind == "madial":  # flat dense baselines: every installed model, the configured one included
        others = [
            get_embedder(m, e.device, e.batch_size, e.backend, e.precision)
            for m in (MULTILINGUAL_MODEL, ENGLISH_MODEL, CHINESE_MODEL, MINILM_MODEL)
            if m != embedder.name and installed(m)
        ]
        if cache:
            others = [CachedEmbedder(o, default_cache_path(o.name, getattr(o, "revision", None))) for o in others]
        extra["dense_models"] = [embedder, *others]
    with MemoryGraph(settings, embedder=embedder) as graph:
        bar = None if as_json else progress_bar(console)
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
        if cached is not None:
            report["stats"]["embedding_cache"] = {
                "path": str(cached.path),
                "hits": cached.hits,
                "misses": cached.misses,
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
    if hasattr(module, "print_tables"):  # a runner that prints its own tables
        module.print_tables(console, scores, report, notes)
    elif kind == "madial":
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
