"""LongMemEval-S: session-level recall_any / recall_all / ndcg_any @ 1, 3, 5, 10.

Official retrieval scoring (bench README): user turns only are indexed; the gold sessions are
those whose id contains "answer" and that have a user turn with ``has_answer``; questions whose
id ends in ``_abs`` are dropped; a session ranks by its best user turn. Each question's haystack
is ingested into its own throw-away group (its user turns as episodes with their sessions' real
dates, the rule-based extractor on) and deleted after the question is scored.
"""

from __future__ import annotations

import gzip
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import typer

from graphmem.cli._common import ConfigOption
from graphmem.embed import embed_array, embed_query_array
from graphmem.ingest.models import Message
from graphmem.ingest.pipeline import Conversation, ingestor_for
from graphmem.store.admin import delete_group

from .common import (
    BM25Index,
    Scores,
    consolidated,
    counted,
    dedupe,
    dense_ranking,
    fill,
    graphmem_ranking,
    ndcg_any,
    prefetched,
    recall_all,
    recall_any,
    rrf,
)
from .retrieval import (
    CacheOption,
    ConsolidateOption,
    ExtractorOption,
    JsonOption,
    MaxResultsOption,
    ProfileOption,
    retrieval_bench,
)

KS = (1, 3, 5, 10)
METHODS = ("dense", "bm25", "graphmem")
METRICS = [f"{m}@{k}" for m in ("recall_any", "recall_all", "ndcg_any") for k in KS]


@dataclass
class Item:
    question_id: str
    question_type: str
    question: str
    question_date: datetime
    sessions: list[tuple[str, datetime, list[str]]]  # (session id, date, user turns)
    gold: set[str]

    @property
    def turns(self) -> list[tuple[str, int, str]]:
        return [(sid, i, text) for sid, _, texts in self.sessions for i, text in enumerate(texts)]


def parse_date(text: str) -> datetime:
    """LongMemEval's "2023/05/20 (Sat) 02:21" (UTC)."""
    parts = text.split()
    stamp = f"{parts[0]} {parts[-1]}" if len(parts) >= 2 else parts[0]
    for fmt in ("%Y/%m/%d %H:%M", "%Y/%m/%d"):
        try:
            return datetime.strptime(stamp, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unreadable LongMemEval date {text!r}")


def load(path: str | Path) -> tuple[list[Item], int]:
    """The scored questions and how many were dropped (abstention questions, no gold session)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    items, dropped = [], 0
    for x in data:
        if x["question_id"].endswith("_abs"):
            dropped += 1
            continue
        sessions, gold = [], set()
        for sid, date, turns in zip(x["haystack_session_ids"], x["haystack_dates"], x["haystack_sessions"]):
            user = [t for t in turns if t.get("role") == "user" and (t.get("content") or "").strip()]
            if "answer" in sid and any(t.get("has_answer") for t in user):
                gold.add(sid)
            sessions.append((sid, parse_date(date), [t["content"].strip() for t in user]))
        if not gold:
            dropped += 1
            continue
        items.append(
            Item(x["question_id"], x["question_type"], x["question"], parse_date(x["question_date"]), sessions, gold)
        )
    return items, dropped


def run(
    graph: Any,
    path: str | Path,
    *,
    limit: int | None = None,
    max_results: int = 50,
    embedder: Any = None,
    progress: Callable[[str, int, int], None] | None = None,
    keep_groups: bool = False,
    extractor: str = "rules",
    profile: str = "recall",
    consolidate: bool = False,
) -> dict:
    started = time.perf_counter()
    items, dropped = load(path)
    if limit:
        items = items[:limit]
    embed = embedder or graph.embedder
    passages = lambda texts: embed_array(embed, texts)  # noqa: E731
    queries = lambda texts: embed_query_array(embed, texts)  # noqa: E731
    ingestor = ingestor_for(graph)
    scores = Scores(list(METHODS))
    stats: dict[str, Any] = {
        "questions": 0,
        "dropped": dropped,
        "turns": 0,
        "episodes": 0,
        "memories": 0,
        "links": 0,
        "search_errors": 0,
        "filled_questions": 0,
        "graphmem_sessions_returned": 0,
        "timings_s": {"embed": 0.0, "ingest": 0.0, "search": 0.0, "consolidate": 0.0},
    }

    def embed_item(item: Item) -> tuple[np.ndarray, np.ndarray, float]:
        t0 = time.perf_counter()
        vecs = passages([text for _, _, text in item.turns])
        question = queries([item.question])[0]
        return vecs, question, time.perf_counter() - t0

    for item, (turn_vecs, question_vec, spent) in prefetched(items, embed_item):  # the next one embedded meanwhile
        stats["timings_s"]["embed"] += spent
        group = f"bench-lme-{item.question_id}-{uuid.uuid4().hex[:8]}"
        try:
            t0 = time.perf_counter()
            convs, start = [], 0
            for sid, date, texts in item.sessions:
                if texts:
                    msgs = [
                        Message(role="user", content=text, timestamp=date, external_id=f"{sid}#{j}")
                        for j, text in enumerate(texts)
                    ]
                    convs.append(Conversation(sid, msgs, date, embeddings=turn_vecs[start : start + len(texts)]))  # type: ignore[arg-type]  # an array of vectors serves
                start += len(texts)
            report = ingestor.ingest_sessions(group, convs, extractor=extractor, source="bench")
            stats["timings_s"]["ingest"] += time.perf_counter() - t0
            if consolidate:
                consolidated(graph, group, stats, None)
            stats["turns"] += len(turn_vecs)
            stats["episodes"] += len(report.episodes)
            stats["memories"] += len(report.memories)
            stats["links"] += report.links
            to_session = _episode_sessions(graph, group)
            turn_sessions = [sid for sid, _, _ in item.turns]
            t0 = time.perf_counter()
            dense = dedupe(turn_sessions[j] for j in dense_ranking(question_vec, turn_vecs))
            lexical = dedupe(turn_sessions[j] for j in BM25Index([t for _, _, t in item.turns]).ranking(item.question))
            fused = rrf([dense, lexical])
            found = graphmem_ranking(
                graph,
                group,
                item.question,
                to_session,
                stats,
                max_results=max_results,
                reference_time=item.question_date,
                profile=profile,
            )
            stats["timings_s"]["search"] += time.perf_counter() - t0
            stats["graphmem_sessions_returned"] += len(found)
            ours, filled = fill(found, fused, max(KS))
            stats["filled_questions"] += bool(filled)
            buckets = ["overall", item.question_type]
            for method, ranking in (("dense", dense), ("bm25", lexical), ("graphmem", ours)):
                for k in KS:
                    scores.add(method, f"recall_any@{k}", recall_any(ranking, item.gold, k), buckets)
                    scores.add(method, f"recall_all@{k}", recall_all(ranking, item.gold, k), buckets)
                    scores.add(method, f"ndcg_any@{k}", ndcg_any(ranking, item.gold, k), buckets)
            stats["questions"] += 1
        finally:
            if not keep_groups:
                delete_group(graph.store, group)
        if progress:
            progress("questions", stats["questions"], len(items))
    stats["extractor"] = extractor
    stats["profile"] = profile
    stats["timings_s"] = {k: round(v, 1) for k, v in stats["timings_s"].items()}
    stats["seconds"] = round(time.perf_counter() - started, 1)
    types = sorted({it.question_type for it in items})
    return {
        "benchmark": "longmemeval",
        "metrics": METRICS,
        "unit": "fraction",
        "results": scores.as_dict(METRICS, ["overall"] + types),
        "stats": stats,
        "max_results": max_results,
        "question_types": types,
        "_scores": scores,
    }


def _episode_sessions(graph: Any, group: str) -> dict[str, str]:
    rows = graph.store.read("episodes_list", group_id=group, session_id=None, skip=0, limit=1_000_000)
    return {r["episode"]["id"]: r["episode"]["session_id"] for r in rows}


def footnotes(report: dict) -> list[str]:
    s = report["stats"]
    q = max(1, s["questions"])
    return [
        f"{s['questions']} scored questions ({s['dropped']} dropped: abstention or no gold session); "
        f"{s['turns']} user turns → {s['episodes']} episodes (long turns split), {s['memories']} memories and "
        f"{s['links']} links extracted (extractor: {s['extractor']}).",
        "any@k / all@k: recall_any / recall_all of the gold sessions in the top k sessions; ndcg@k: ndcg_any@k.",
        "dense: cosine over user-turn embeddings (same model); bm25: BM25Okapi over lower-cased \\w+ tokens; a "
        f"session ranks by its best user turn. graphmem: search_memories(max_results={report['max_results']}, "
        f"profile={s['profile']!r}) "
        "mapped to sessions through evidence episodes.",
        f"graphmem returned {s['graphmem_sessions_returned'] / q:.1f} sessions per question on average; where it "
        f"returned fewer than k, the ranking was filled with the dense+BM25 fused (RRF) session ranking so every "
        f"method is scored at the same k ({counted(s['filled_questions'], 'question')} filled). Search errors: "
        f"{s['search_errors']}.",
        f"time: {s['seconds']} s (embedding {s['timings_s']['embed']} s, ingest {s['timings_s']['ingest']} s, "
        f"search {s['timings_s']['search']} s).",
    ]


# --- `graphmem bench longmemeval` (entry point graphmem.bench: longmemeval) ----------
def command(
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
    retrieval_bench(
        "longmemeval", file, limit, max_results, as_json, cache, extractor, profile, config, consolidate=consolidate
    )
