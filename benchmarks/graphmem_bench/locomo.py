"""LoCoMo: turn-level evidence recall@k of graphmem against flat dense retrieval and BM25.

Each conversation is ingested into its own throw-away group (every turn an episode with its
speaker and its session's real date, the rule-based extractor on), every question with evidence
is asked through ``search_memories``, and the results are mapped back to turn ids (dia_id)
through their evidence episodes. The baselines rank the same turns, embedded the same way
("Speaker: text", an image turn with its caption), with the same model.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import typer

from graphmem.cli._common import ConfigOption
from graphmem.embed import embed_array, embed_query_array
from graphmem.ingest.episodes import embedding_text
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
    prefetched,
    recall_at_k,
    rrf,
)
from .observations import Observation, ObservationExtractor
from .retrieval import (
    CacheOption,
    ConsolidateOption,
    ExtractorOption,
    JsonOption,
    MaxResultsOption,
    ProfileOption,
    retrieval_bench,
)

KS = (5, 10, 25, 50)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_ID = re.compile(r"^D\d+:\d+$")
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass
class Turn:
    dia_id: str
    session: int
    speaker: str
    content: str
    timestamp: datetime


@dataclass
class Question:
    question: str
    category: int
    evidence: list[str]


@dataclass
class Sample:
    sample_id: str
    turns: list[Turn]
    questions: list[Question]
    skipped: int = 0
    last_time: datetime = field(default_factory=lambda: datetime.now(UTC))
    observations: list = field(default_factory=list)  # observations.Observation, per session and speaker


def parse_date(text: str) -> datetime:
    """LoCoMo's "1:56 pm on 8 May, 2023" (UTC)."""
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    from graphmem.timeparse import normalize_time

    tv = normalize_time(text)
    if tv.parsed and tv.start is not None:
        return tv.start
    raise ValueError(f"unreadable LoCoMo date {text!r}")


def evidence_ids(raw: Sequence[str], known: set[str]) -> list[str]:
    """Split on ; , and spaces; keep D<n>:<n> ids that exist (the bench README's rule)."""
    out = []
    for item in raw or []:
        for part in re.split(r"[;,\s]+", str(item)):
            if _ID.match(part) and part in known:
                out.append(part)
    return dedupe(out)


def load(path: str | Path) -> list[Sample]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    samples = []
    for conv in data:
        c = conv["conversation"]
        sessions = sorted((int(m.group(1)), key) for key in c if (m := _SESSION.match(key)))
        turns: list[Turn] = []
        for n, key in sessions:
            when = parse_date(c[f"{key}_date_time"])
            for t in c[key]:
                content = t["text"]
                if t.get("blip_caption"):
                    content += f" [image: {t['blip_caption']}]"
                turns.append(Turn(t["dia_id"], n, t["speaker"], content, when))
        known = {t.dia_id for t in turns}
        questions, skipped = [], 0
        for qa in conv["qa"]:
            ev = evidence_ids(qa.get("evidence", []), known)
            if ev:
                questions.append(Question(qa["question"], int(qa["category"]), ev))
            else:
                skipped += 1
        observed = [
            Observation(speaker, fact, tuple(evidence_ids(ev if isinstance(ev, list) else [ev], known)))
            for per_session in (conv.get("observation") or {}).values()
            for speaker, facts in per_session.items()
            for fact, ev in facts
        ]
        samples.append(
            Sample(
                conv["sample_id"],
                turns,
                questions,
                skipped,
                max((t.timestamp for t in turns), default=datetime.now(UTC)),
                observed,
            )
        )
    return samples


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
    depths: Sequence[int | None] = (None,),
    consolidate: bool = False,
) -> dict:
    """Run the benchmark; return the figures (see ``report``). ``extractor``: rules, none, or
    observations (LoCoMo's own observations as an extractor of LLM quality: ``observations.py``).
    ``depths``: the graph walk of each search (None: the default, auto; 0: none; n: always n
    hops), one graphmem method per depth ("graphmem", or "graphmem depth n" for several).
    ``consolidate``: a consolidation run on each group after its ingest, as of its last day."""
    started = time.perf_counter()
    samples = load(path)[:limit] if limit else load(path)
    embed = embedder or graph.embedder
    passages = lambda texts: embed_array(embed, texts)  # noqa: E731
    queries = lambda texts: embed_query_array(embed, texts)  # noqa: E731
    ingestor = ingestor_for(graph)
    labels = {d: "graphmem" if len(depths) == 1 else f"graphmem depth {'auto' if d is None else d}" for d in depths}
    scores = Scores(["dense", "bm25", *labels.values()])
    stats: dict[str, Any] = {
        "questions": 0,
        "skipped": sum(s.skipped for s in samples),
        "turns": 0,
        "episodes": 0,
        "memories": 0,
        "links": 0,
        "search_errors": 0,
        "filled_questions": 0,
        "filled_top10": 0,
        "graphmem_turns_returned": 0,
        "timings_s": {"embed": 0.0, "ingest": 0.0, "search": 0.0, "consolidate": 0.0},
    }
    total_q = sum(len(s.questions) for s in samples)
    done_q = 0

    def embed_sample(s: Sample) -> tuple[np.ndarray, np.ndarray, float]:
        t0 = time.perf_counter()
        turns = passages([embedding_text(t.content, t.speaker) for t in s.turns])
        questions = queries([q.question for q in s.questions])
        return turns, questions, time.perf_counter() - t0

    for sample, (turn_vecs, question_vecs, spent) in prefetched(
        samples, embed_sample
    ):  # the next one embedded meanwhile
        stats["timings_s"]["embed"] += spent
        group = f"bench-locomo-{sample.sample_id}-{uuid.uuid4().hex[:8]}"
        try:
            t0 = time.perf_counter()
            convs = []
            for n in dict.fromkeys(t.session for t in sample.turns):
                idx = [j for j, t in enumerate(sample.turns) if t.session == n]
                msgs = [
                    Message(
                        role="user",
                        content=sample.turns[j].content,
                        speaker=sample.turns[j].speaker,
                        timestamp=sample.turns[j].timestamp,
                        external_id=sample.turns[j].dia_id,
                    )
                    for j in idx
                ]
                convs.append(
                    Conversation(f"session_{n}", msgs, sample.turns[idx[0]].timestamp, embeddings=turn_vecs[idx])  # type: ignore[arg-type]  # an array of vectors serves
                )
            chosen = ObservationExtractor(sample.observations) if extractor == "observations" else extractor
            report = ingestor.ingest_sessions(group, convs, extractor=chosen, source="bench")
            stats["timings_s"]["ingest"] += time.perf_counter() - t0
            if consolidate:
                consolidated(graph, group, stats, sample.last_time)
            stats["turns"] += len(sample.turns)
            stats["episodes"] += len(report.episodes)
            stats["memories"] += len(report.memories)
            stats["links"] += report.links
            to_turn = _episode_turns(graph, group)
            ids = [t.dia_id for t in sample.turns]
            bm25 = BM25Index([embedding_text(t.content, t.speaker) for t in sample.turns])
            t0 = time.perf_counter()
            for q, qv in zip(sample.questions, question_vecs):
                dense = [ids[j] for j in dense_ranking(qv, turn_vecs)[: max(KS)]]
                lexical = [ids[j] for j in bm25.ranking(q.question)[: max(KS)]]
                fused = rrf([dense, lexical])
                rankings = [("dense", dense), ("bm25", lexical)]
                for depth, label in labels.items():
                    walk = {} if depth is None else {"expand_depth": depth, "mode": "fast" if depth == 0 else "deep"}
                    found = graphmem_ranking(
                        graph,
                        group,
                        q.question,
                        to_turn,
                        stats,
                        max_results=max_results,
                        reference_time=sample.last_time,
                        profile=profile,
                        **walk,
                    )
                    ours, filled = fill(found, fused, max(KS))
                    if depth == depths[0]:  # the footnotes' counts: of the first depth's searches
                        stats["graphmem_turns_returned"] += len(found)
                        if filled:
                            stats["filled_questions"] += 1
                            stats["filled_top10"] += max(0, 10 - len(found))
                    rankings.append((label, ours))
                buckets = ["overall", f"cat{q.category}"]
                for method, ranking in rankings:
                    for k in KS:
                        scores.add(method, f"R@{k}", recall_at_k(ranking, q.evidence, k), buckets)
                done_q += 1
                stats["questions"] += 1
                if progress:
                    progress("questions", done_q, total_q)
            stats["timings_s"]["search"] += time.perf_counter() - t0
        finally:
            if not keep_groups:
                delete_group(graph.store, group)
    stats["timings_s"] = {k: round(v, 1) for k, v in stats["timings_s"].items()}
    stats["seconds"] = round(time.perf_counter() - started, 1)
    stats["extractor"] = extractor
    stats["profile"] = profile
    return report_dict(scores, stats, [s.sample_id for s in samples], max_results)


def _episode_turns(graph: Any, group: str) -> dict[str, str]:
    rows = graph.store.read("episodes_list", group_id=group, session_id=None, skip=0, limit=1_000_000)
    return {r["episode"]["id"]: r["episode"]["external_id"] for r in rows if r["episode"].get("external_id")}


def buckets() -> list[tuple[str, str]]:
    return [("overall", "overall")] + [(f"cat{c}", f"{c} {name}") for c, name in CATEGORIES.items()]


def report_dict(scores: Scores, stats: dict, samples: list[str], max_results: int) -> dict:
    metrics = [f"R@{k}" for k in KS]
    return {
        "benchmark": "locomo",
        "conversations": samples,
        "metrics": metrics,
        "unit": "percent",
        "results": scores.as_dict(metrics, [b for b, _ in buckets()], scale=100.0),
        "stats": stats,
        "max_results": max_results,
        "_scores": scores,
    }


def footnotes(report: dict) -> list[str]:
    s = report["stats"]
    q = max(1, s["questions"])
    return [
        f"{s['questions']} questions with evidence ({s['skipped']} skipped: no valid evidence id), "
        f"{len(report['conversations'])} conversations, {s['turns']} turns → {s['episodes']} episodes, "
        f"{s['memories']} memories and {s['links']} links extracted (extractor: {s['extractor']}).",
        "dense: cosine over 'Speaker: text' embeddings (same model); bm25: BM25Okapi over lower-cased \\w+ tokens; "
        f"graphmem: search_memories(max_results={report['max_results']}, profile={s['profile']!r}) mapped to turns through evidence episodes.",
        f"graphmem returned {s['graphmem_turns_returned'] / q:.1f} turns per question on average; where it returned "
        f"fewer than k, the ranking was filled with the dense+BM25 fused (RRF) ranking so every method is scored at "
        f"the same k ({counted(s['filled_questions'], 'question')} filled; {s['filled_top10'] / q:.2f} of the top "
        f"10 per question on average). Search errors: {s['search_errors']}.",
        f"time: {s['seconds']} s (embedding {s['timings_s']['embed']} s, ingest {s['timings_s']['ingest']} s, "
        f"search {s['timings_s']['search']} s).",
    ]


# --- `graphmem bench locomo` (entry point graphmem.bench: locomo) ----------
def command(
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
    retrieval_bench(
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
