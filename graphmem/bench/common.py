"""What the retrieval benchmarks share: metrics, the two baselines, rank fusion, tables.

Metrics follow the benchmarks' own definitions:
- LoCoMo turn-level evidence recall@k = |evidence ∩ top-k turns| / |evidence|;
- LongMemEval session-level recall_any@k (a gold session in the top k), recall_all@k (every
  gold session in the top k) and ndcg_any@k, as in LongMemEval's ``eval_utils`` (its DCG gives
  the first two ranks weight 1, then 1/log2(rank)).
The baselines rank the same turns with the same embedding model: flat dense (cosine, numpy)
and BM25 (rank_bm25's BM25Okapi over lower-cased word tokens).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

_TOKEN = re.compile(r"\w+", re.UNICODE)


# --- metrics -----------------------------------------------------------------------------
def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Share of the gold items found in the first k of the ranking."""
    gold = set(gold)
    if not gold:
        return 0.0
    return len(gold & set(ranked[:k])) / len(gold)


def recall_any(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    return float(bool(set(gold) & set(ranked[:k])))


def recall_all(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold = set(gold)
    return float(bool(gold) and gold <= set(ranked[:k]))


def dcg(relevances: Sequence[float], k: int) -> float:
    """LongMemEval's DCG: rel_1 + Σ_{i≥2} rel_i / log2(i)."""
    rel = np.asarray(relevances, dtype=float)[:k]
    if not rel.size:
        return 0.0
    return float(rel[0] + np.sum(rel[1:] / np.log2(np.arange(2, rel.size + 1))))


def ndcg_any(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """nDCG@k with binary relevance; the ideal ranking puts every gold item first."""
    gold = set(gold)
    if not gold:
        return 0.0
    ideal = dcg([1.0] * len(gold), k)
    actual = dcg([1.0 if item in gold else 0.0 for item in ranked[:k]], k)
    return actual / ideal if ideal else 0.0


def dedupe(items: Iterable[str]) -> list[str]:
    """Keep the first occurrence of each item, in order (turns → sessions: a session ranks by its best turn)."""
    return list(dict.fromkeys(items))


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless n is 1: "1 question", "3 questions"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


# --- baselines ---------------------------------------------------------------------------
def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def dense_ranking(query_vec: np.ndarray, corpus: np.ndarray) -> np.ndarray:
    """Indices of the corpus rows by cosine similarity to the query (rows are unit vectors)."""
    if not len(corpus):
        return np.zeros(0, dtype=int)
    scores = corpus @ np.asarray(query_vec, dtype=np.float32)
    return np.argsort(-scores, kind="stable")


class BM25Index:
    def __init__(self, texts: Sequence[str]):
        from rank_bm25 import BM25Okapi

        self._bm25 = BM25Okapi([tokenize(t) or [""] for t in texts])
        self.size = len(texts)

    def ranking(self, query: str) -> np.ndarray:
        if not self.size:
            return np.zeros(0, dtype=int)
        scores = self._bm25.get_scores(tokenize(query))
        return np.argsort(-scores, kind="stable")


def rrf(rankings: Sequence[Sequence[Any]], k: int = 60) -> list[Any]:
    """Reciprocal rank fusion of several rankings (best first)."""
    score: dict[Any, float] = defaultdict(float)
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            score[item] += 1.0 / (k + rank + 1)
    return sorted(score, key=lambda item: -score[item])


def fill(ranked: Sequence[str], backfill: Sequence[str], k: int) -> tuple[list[str], int]:
    """``ranked`` then the ``backfill`` items not in it, up to k; and how many were filled."""
    out = dedupe(ranked)[:k]
    seen = set(out)
    filled = 0
    for item in backfill:
        if len(out) >= k:
            break
        if item not in seen:
            out.append(item)
            seen.add(item)
            filled += 1
    return out, filled


# --- graphmem results -> episode ids ------------------------------------------------------
def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def result_episode_ids(response: Any) -> list[str]:
    """Episode ids in the order a search response ranks them: each result's evidence, in turn.

    An episode result (``kind`` "episode") is its own evidence; a memory result contributes the
    episodes it was extracted from.
    """
    results = _get(response, "results", response) or []
    out: list[str] = []
    for r in results:
        evidence = [_get(e, "id") for e in (_get(r, "evidence") or [])]
        if _get(r, "kind") == "episode" and not evidence:
            evidence = [_get(r, "memory_id") or _get(r, "id")]
        out.extend(e for e in evidence if e)
    return dedupe(out)


# --- accumulating scores and printing ----------------------------------------------------
@dataclass
class Scores:
    """Per-method, per-metric, per-bucket lists of per-question values."""

    methods: list[str]
    values: dict[tuple[str, str, str], list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, method: str, metric: str, value: float, buckets: Sequence[str]) -> None:
        for bucket in buckets:
            self.values[(method, metric, bucket)].append(value)

    def mean(self, method: str, metric: str, bucket: str) -> float | None:
        vals = self.values.get((method, metric, bucket))
        return float(np.mean(vals)) if vals else None

    def count(self, bucket: str) -> int:
        for (method, _, b), vals in self.values.items():
            if b == bucket and method == self.methods[0]:
                return len(vals)
        return 0

    def as_dict(self, metrics: Sequence[str], buckets: Sequence[str], scale: float = 1.0) -> dict:
        out: dict[str, Any] = {}
        for bucket in buckets:
            row: dict[str, Any] = {"questions": self.count(bucket)}
            for method in self.methods:
                row[method] = {m: _round(self.mean(method, m, bucket), scale) for m in metrics}
            out[bucket] = row
        return out


def _round(value: float | None, scale: float) -> float | None:
    return None if value is None else round(value * scale, 4 if scale == 1 else 2)


def print_table(
    console: Any,
    title: str,
    scores: Scores,
    metrics: Sequence[str],
    buckets: Sequence[tuple[str, str]],
    *,
    scale: float = 1.0,
    fmt: str = "{:.3f}",
    footnotes: Sequence[str] = (),
) -> None:
    """One rich table: a row per bucket (overall, per category) and method, a column per metric.

    The best method of each bucket and metric is bold.
    """
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("questions", justify="left", no_wrap=True)
    table.add_column("method", no_wrap=True)
    for m in metrics:  # short headers keep 12 columns readable: recall_any@1 -> any@1
        table.add_column(m.replace("recall_", "").replace("ndcg_any", "ndcg"), justify="right", no_wrap=True)
    for bucket, label in buckets:
        n = scores.count(bucket)
        if not n:
            continue
        best = {m: max((scores.mean(meth, m, bucket) or 0.0) for meth in scores.methods) for m in metrics}
        for i, method in enumerate(scores.methods):
            cells = []
            for m in metrics:
                v = scores.mean(method, m, bucket)
                text = "-" if v is None else fmt.format(v * scale)
                cells.append(f"[bold]{text}[/bold]" if v is not None and math.isclose(v, best[m]) else text)
            table.add_row(
                f"{label} (n={n})" if i == 0 else "", method, *cells, end_section=i == len(scores.methods) - 1
            )
    console.print(table)
    for note in footnotes:
        console.print(f"[dim]{note}[/dim]", highlight=False)


def progress_bar(console: Any) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )


def delete_group(store: Any, group_id: str, batch: int = 5000) -> int:
    """Delete a benchmark group in batches (``graphmem.store.admin.delete_group``); the number of nodes deleted."""
    from ..store.admin import delete_group as delete

    return delete(store, group_id, batch=batch).nodes


Embed = Callable[[Sequence[str]], np.ndarray]


T = TypeVar("T")
R = TypeVar("R")


def prefetched(items: Sequence[T], work: Callable[[T], R]) -> Iterator[tuple[T, R]]:
    """Each item with ``work(item)``, the next item's work running in a background thread while
    the caller handles this one (embed the next conversation while this one is ingested)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(work, items[0]) if items else None
        for i, item in enumerate(items):
            result = pending.result()
            pending = pool.submit(work, items[i + 1]) if i + 1 < len(items) else None
            yield item, result


def graphmem_ranking(
    graph: Any, group: str, question: str, to_id: dict[str, str], stats: dict, **search: Any
) -> list[str]:
    """What ``search_memories`` returns for ``question``, mapped through the results' evidence
    episodes to the benchmark's ids (``to_id``), each once; a search that fails is counted in
    ``stats["search_errors"]`` and ranks nothing (the caller fills the ranking)."""
    try:
        response = graph.search_memories(group, question, **search)
    except Exception:  # noqa: BLE001 - counted and reported
        stats["search_errors"] += 1
        return []
    return dedupe(to_id[e] for e in result_episode_ids(response) if e in to_id)


def ablation(run: Callable[[str], dict], extractors: Sequence[str]) -> dict:
    """One report of ``run(extractor)`` for every extractor, each run with the graph walk off and
    on (its graphmem methods "graphmem depth 0" and "graphmem depth 1"): methods "<extractor>,
    depth <n>", the flat baselines once (from the first run)."""
    merged: Scores | None = None
    reports = {}
    for x in extractors:
        report = run(x)
        scores = report.pop("_scores")
        reports[x] = report
        if merged is None:
            merged = Scores(["dense", "bm25"])
            for key, vals in scores.values.items():
                if key[0] in ("dense", "bm25"):
                    merged.values[key] = vals
        for method in scores.methods:
            if method.startswith("graphmem depth "):
                name = f"{x}, depth {method.rsplit(' ', 1)[1]}"
                merged.methods.append(name)
                for (m, metric, bucket), vals in scores.values.items():
                    if m == method:
                        merged.values[(name, metric, bucket)] = vals
    first = next(iter(reports.values()))
    notes = [
        f"{x}: {r['stats']['memories']} memories, {r['stats']['links']} links from {r['stats']['turns']} "
        f"turns; {r['stats']['seconds']} s"
        for x, r in reports.items()
    ]
    notes.append(
        "depth 0: direct matches only (mode fast); depth 1: one hop of the graph always (mode deep). "
        "observations: LoCoMo's own LLM-written facts as memories, a benchmark stand-in for an LLM "
        "extractor."
    )
    return {
        **{k: v for k, v in first.items() if k not in ("results", "stats")},
        "results": merged.as_dict(first["metrics"], list(first["results"]), scale=100.0),
        "stats": {"runs": {x: r["stats"] for x, r in reports.items()}},
        "notes": notes,
        "_scores": merged,
    }


def consolidated(graph: Any, group: str, stats: dict, as_of: Any = None) -> None:
    """One consolidation run on a benchmark's group after its ingest (``--consolidate``): its time
    and counts added to ``stats`` ("consolidation")."""
    import time

    t0 = time.perf_counter()
    report = graph.consolidate(group, now=as_of)
    stats["timings_s"]["consolidate"] = stats["timings_s"].get("consolidate", 0.0) + time.perf_counter() - t0
    totals = stats.setdefault("consolidation", {})
    for key, n in report.counts.items():
        totals[key] = totals.get(key, 0) + n
