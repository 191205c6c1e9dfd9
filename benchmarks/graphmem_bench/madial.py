"""MADial-Bench: memory recall in a dialogue, in Chinese and in English, recall@1/3/5/10.

A user's memories ("Bart在圣诞节晚会上跳舞，感觉非常开心。", 2023-12-25) are the pool; each
dialogue so far is the query; the memories it should recall are given (bench README). Each
user's memories are ingested into the user's own throw-away group, every memory one episode
(its own session, dated by the memory), and each dialogue is asked through
``search_memories``; the results map back to memory ids through their evidence episodes.

Beside graphmem, in the same run: flat dense retrieval (cosine over the memories) with each
installed embedding model, BM25 over character bigrams (Chinese) or words (English), and the
paper's published top-20 lists for the Chinese dialogues (``published_zh_rankings.json``).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import typer

from graphmem.cli._common import ConfigOption
from graphmem.embed import embed_array, embed_query_array
from graphmem.errors import ValidationError
from graphmem.ingest.models import Message
from graphmem.ingest.pipeline import Conversation, ingestor_for
from graphmem.lang import HAN_CHARS
from graphmem.store.admin import delete_group

from .common import Scores, counted, dense_ranking, fill, graphmem_ranking, recall_at_k
from .retrieval import retrieval_bench

KS = (1, 3, 5, 10)
METRICS = [f"R@{k}" for k in KS]
LANGS = ("zh", "en")
PUBLISHED_NAMES = {
    "BGE_M3_dense": "BGE-M3 dense (published)",
    "BGE_M3_colbert": "BGE-M3 colbert (published)",
    "Stella": "Stella (published)",
    "Acge": "Acge (published)",
    "Dmeta": "Dmeta (published)",
    "openai": "OpenAI (published)",
}
_SHORT = {
    "multilingual-e5-small": "e5-small",
    "all-MiniLM-L6-v2": "MiniLM",
    "bge-small-en-v1.5": "bge-en",
    "bge-small-zh-v1.5": "bge-zh",
}
_TURN = re.compile(r"^\s*<([^>]+)>\s*:\s*(.*)$")
_CJK_RUN = re.compile(f"[{HAN_CHARS}]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass
class Memory:
    id: str
    user: str
    text: str
    date: datetime


@dataclass
class Dialogue:
    id: str
    user: str
    relevant: set[str]
    turns: list[tuple[str, str]]  # (speaker, what they said)

    @property
    def query(self) -> str:
        """The dialogue so far as one text, a turn a line: what ``search_memories`` is asked."""
        return "\n".join(f"{speaker}: {text}" for speaker, text in self.turns)


def short_name(model: str) -> str:
    """A model's name for a table column: "multilingual-e5-small+all-MiniLM-L6-v2" → "e5-small+MiniLM"."""
    return "+".join(_SHORT.get(part, part) for part in model.split("+"))


def parse_history(history: str) -> list[tuple[str, str]]:
    """``<Bart>:"…"`` lines to (speaker, text); the begin-of-dialogue mark and quotes dropped."""
    turns = []
    for line in history.splitlines():
        match = _TURN.match(line)
        if not match or match.group(1) == "BOD":
            continue
        text = match.group(2).strip().strip('"“”').strip()
        if text:
            turns.append((match.group(1), text))
    return turns


def load(directory: str | Path, lang: str) -> tuple[list[Memory], list[Dialogue]]:
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    directory = Path(directory)
    memories = []
    with open(directory / f"memory_{lang}.jsonl", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            for key, m in json.loads(line).items():
                date = datetime.strptime(m["time"], "%Y-%m-%d").replace(tzinfo=UTC)
                memories.append(Memory(str(m.get("id", key)), str(m.get("user-id", 1)), m["event"].strip(), date))
    dialogues = []
    with open(directory / f"dialogues_{lang}.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                dialogues.append(
                    Dialogue(
                        str(d["id"]),
                        str(d.get("user_id", 1)),
                        {str(r) for r in d["relevant_ids"]},
                        parse_history(d["history"]),
                    )
                )
    return memories, dialogues


def bigram_tokens(text: str) -> list[str]:
    """Chinese as overlapping character bigrams (a lone character as itself), other words lower-cased."""
    tokens = []
    for run in _CJK_RUN.findall(text):
        tokens.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    for word in _WORD.findall(_CJK_RUN.sub(" ", text)):
        tokens.append(word.lower())
    return tokens


def bm25_ranking(texts: Sequence[str], query: str) -> np.ndarray:
    from rank_bm25 import BM25Okapi

    index = BM25Okapi([bigram_tokens(t) or [""] for t in texts])
    return np.argsort(-index.get_scores(bigram_tokens(query)), kind="stable")


def published(directory: str | Path) -> dict[str, dict[str, list[str]]]:
    path = Path(directory) / "published_zh_rankings.json"
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return {name: {str(d): [str(m) for m in ids] for d, ids in rankings.items()} for name, rankings in data.items()}


def run(
    graph: Any,
    directory: str | Path,
    *,
    lang: str = "zh",
    dense_models: Sequence[Any] = (),
    max_results: int = 50,
    progress: Callable[[str, int, int], None] | None = None,
    keep_groups: bool = False,
    extractor: str = "rules",
    profile: str = "recall",
    limit: int | None = None,
    **_: Any,
) -> dict:
    """Run the benchmark; ``dense_models`` are the embedders of the flat dense baselines."""
    started = time.perf_counter()
    memories, dialogues = load(directory, lang)
    if limit:
        dialogues = dialogues[:limit]
    pub = published(directory) if lang == "zh" else {}
    methods = [f"dense {short_name(m.name)}" for m in dense_models] + [
        "bm25" + (" (char bigrams)" if lang == "zh" else "")
    ]
    methods += [PUBLISHED_NAMES.get(n, n) for n in pub] + ["graphmem"]
    scores = Scores(methods)
    stats: dict[str, Any] = {
        "lang": lang,
        "memories": len(memories),
        "dialogues": 0,
        "episodes": 0,
        "extracted": 0,
        "search_errors": 0,
        "filled_dialogues": 0,
        "graphmem_returned": 0,
        "extractor": extractor,
        "profile": profile,
        "timings_s": {"ingest": 0.0, "search": 0.0, "baselines": 0.0},
    }
    ingestor = ingestor_for(graph)
    done = 0
    for user in sorted({m.user for m in memories}):
        pool = [m for m in memories if m.user == user]
        asked = [d for d in dialogues if d.user == user]
        if not asked:
            continue
        group = f"bench-madial-{lang}-{user}-{uuid.uuid4().hex[:8]}"
        try:
            t0 = time.perf_counter()
            convs = [
                Conversation(
                    f"memory-{m.id}", [Message(role="user", content=m.text, timestamp=m.date, external_id=m.id)], m.date
                )
                for m in pool
            ]
            report = ingestor.ingest_sessions(group, convs, extractor=extractor, source="bench")
            stats["episodes"] += len(report.episodes)
            stats["extracted"] += len(report.memories)
            stats["timings_s"]["ingest"] += time.perf_counter() - t0
            to_memory = _episode_memories(graph, group)
            ids = [m.id for m in pool]
            t0 = time.perf_counter()
            dense = {}
            for model in dense_models:
                corpus = embed_array(model, [m.text for m in pool])
                questions = embed_query_array(model, [d.query for d in asked])
                dense[f"dense {short_name(model.name)}"] = [
                    [ids[j] for j in dense_ranking(q, corpus)] for q in questions
                ]
            stats["timings_s"]["baselines"] += time.perf_counter() - t0
            # the dialogues have no date: they are asked the day after the user's last memory
            asked_at = max(m.date for m in pool) + timedelta(days=1)
            for n, d in enumerate(asked):
                rankings = {name: ranked[n] for name, ranked in dense.items()}
                rankings[methods[len(dense_models)]] = [ids[j] for j in bm25_ranking([m.text for m in pool], d.query)]
                for name, by_dialogue in pub.items():
                    rankings[PUBLISHED_NAMES.get(name, name)] = by_dialogue.get(d.id, [])
                t0 = time.perf_counter()
                found = graphmem_ranking(
                    graph,
                    group,
                    d.query,
                    to_memory,
                    stats,
                    max_results=max_results,
                    reference_time=asked_at,
                    profile=profile,
                )
                stats["timings_s"]["search"] += time.perf_counter() - t0
                stats["graphmem_returned"] += len(found)
                ours, filled = fill(found, rankings[methods[len(dense_models)]], max(KS))
                stats["filled_dialogues"] += bool(filled)
                rankings["graphmem"] = ours
                for method, ranking in rankings.items():
                    for k in KS:
                        scores.add(method, f"R@{k}", recall_at_k(ranking, d.relevant, k), ["overall"])
                stats["dialogues"] += 1
                done += 1
                if progress:
                    progress("dialogues", done, len(dialogues))
        finally:
            if not keep_groups:
                delete_group(graph.store, group)
    stats["timings_s"] = {k: round(v, 1) for k, v in stats["timings_s"].items()}
    stats["seconds"] = round(time.perf_counter() - started, 1)
    return {
        "benchmark": "madial",
        "lang": lang,
        "metrics": METRICS,
        "unit": "percent",
        "results": scores.as_dict(METRICS, ["overall"], scale=100),
        "stats": stats,
        "max_results": max_results,
        "methods": methods,
        "_scores": scores,
    }


def _episode_memories(graph: Any, group: str) -> dict[str, str]:
    rows = graph.store.read("episodes_list", group_id=group, session_id=None, skip=0, limit=1_000_000)
    return {r["episode"]["id"]: r["episode"]["external_id"] for r in rows if r["episode"].get("external_id")}


def footnotes(report: dict) -> list[str]:
    s = report["stats"]
    n = max(1, s["dialogues"])
    return [
        f"{counted(s['dialogues'], 'dialogue')} over {s['memories']} memories ({s['lang']}); each memory one episode "
        f"of the user's group ({s['extracted']} memories extracted from them, extractor: {s['extractor']}).",
        "R@k: |relevant ∩ top k| / |relevant|, averaged over dialogues. The query is the dialogue so far, a turn a "
        'line ("Speaker: text").',
        "dense <model>: cosine of the dialogue (as a query) to each memory, no graph, no words. bm25: BM25Okapi over "
        + ("character bigrams and words." if s["lang"] == "zh" else "lower-cased words.")
        + (" (published): the MADial paper's top-20 lists for the same dialogues." if s["lang"] == "zh" else ""),
        f"graphmem: search_memories(max_results={report['max_results']}, profile={s['profile']!r}), results mapped "
        f"to memories through their evidence; it returned {s['graphmem_returned'] / n:.1f} memories per dialogue; "
        f"{counted(s['filled_dialogues'], 'dialogue')} filled from the BM25 ranking to 10. "
        f"Search errors: {s['search_errors']}.",
        f"time: {s['seconds']} s (ingest {s['timings_s']['ingest']} s, search {s['timings_s']['search']} s, "
        f"baselines {s['timings_s']['baselines']} s).",
    ]


# --- `graphmem bench madial` (entry point graphmem.bench: madial) ----------
def command(
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
    if lang not in ("zh", "en"):
        raise ValidationError("--lang: zh or en", field="lang", allowed=["zh", "en"])
    for name in (f"memory_{lang}.jsonl", f"dialogues_{lang}.jsonl"):
        if not (Path(directory) / name).exists():
            raise ValidationError(
                f"{directory}: no {name} there; give the MADial-Bench folder (e.g. ../shared/bench/madial_dev)",
                field="directory",
            )
    retrieval_bench("madial", directory, limit, max_results, as_json, cache, extractor, profile, config, lang=lang)
