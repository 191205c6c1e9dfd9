"""MemDaily (MemSim): recall of the messages that hold each answer, in everyday Chinese talk.

A file ``<nn>_<type>_<scenario>.json`` is a list of trajectories: first-person messages of a user
("我的上司名叫赵雅琳。"), each with its time, and questions labelled with the messages that hold the
answer (``target_step_id``). The protocol (bench README, section memdaily_dev): each question gets
its own throw-away group holding its trajectory's messages plus 40 everyday events of the MADial
user (``madial_dev/memory_zh.jsonl``) as noise, each at a random earlier time (seeded, up to 30
days before the trajectory's first message); every message is one user turn with its own
timestamp, one session per day; the question is asked at its own time (``reference_time``).

Metric: recall@k of the target messages (each result mapped to messages through its evidence
turns), k ∈ {1, 3, 5, 10}, and all@5 (every target in the top 5), overall, per question type and
per scenario. Methods: graphmem under the ``default`` and ``recall`` profiles (one ingest, both
searched), flat dense cosine over the same messages with the same embedder, BM25 over character
bigrams.
"""

from __future__ import annotations

import json
import random
import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import typer

from graphmem.cli._common import ConfigOption
from graphmem.embed import embed_array, embed_query_array
from graphmem.errors import ValidationError
from graphmem.ingest.models import Message
from graphmem.ingest.pipeline import Conversation, ingestor_for
from graphmem.store.admin import delete_group

from .common import Scores, counted, dense_ranking, fill, recall_all, recall_at_k, result_episode_ids
from .madial import bm25_ranking
from .retrieval import CacheOption, ExtractorOption, JsonOption, MaxResultsOption, retrieval_bench

KS = (1, 3, 5, 10)
METRICS = [f"R@{k}" for k in KS] + ["all@5"]
TYPES = ("simple", "conditional", "comparative", "aggregative", "post_processing", "noisy")
SCENARIOS = ("roles", "events", "items", "places", "hybrid")
PROFILES = ("default", "recall")
PER_FILE = 2  # questions per file in the default sample: 26 files, 52 questions
NOISE = 40  # everyday events added to each question's group
NOISE_DAYS = 30  # the noise lies up to this many days before the trajectory's first message
NOISE_FILE = Path("..") / "madial_dev" / "memory_zh.jsonl"  # beside memdaily_dev/
_FILE = re.compile(r"^\d+_(?P<type>[a-z_]+?)_(?P<scenario>[a-z]+)\.json$")
_TIME = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日\D*?(\d{1,2}):(\d{2})")


@dataclass(frozen=True)
class Turn:
    id: str  # "m<mid>" for the trajectory's messages, "noise-<id>" for the noise
    text: str
    time: datetime


@dataclass
class Question:
    file: str
    type: str
    scenario: str
    tid: int
    qid: int
    question: str
    time: datetime
    targets: set[str]
    messages: list[Turn]

    @property
    def key(self) -> str:
        return f"{self.file}:{self.tid}:{self.qid}"


def parse_time(text: str) -> datetime:
    """MemDaily's "2024年04月01日 周一 08:39" (read as UTC)."""
    match = _TIME.search(text)
    if not match:
        raise ValueError(f"unreadable MemDaily time {text!r}")
    year, month, day, hour, minute = (int(g) for g in match.groups())
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def file_kind(name: str) -> tuple[str, str]:
    """``02_conditional_roles.json`` → ("conditional", "roles"); the type may hold an underscore."""
    match = _FILE.match(name)
    if not match:
        raise ValueError(f"{name}: not a MemDaily file name (<nn>_<type>_<scenario>.json)")
    return match.group("type"), match.group("scenario")


def sample(questions: Sequence[Question], per_file: int | None) -> list[Question]:
    """The first ``per_file`` questions of each file, in file order (None or 0: all of them): every
    file, and so every type and scenario, is in the sample, and the same questions every run."""
    if not per_file:
        return list(questions)
    taken: dict[str, int] = {}
    out = []
    for q in questions:
        if taken.get(q.file, 0) < per_file:
            taken[q.file] = taken.get(q.file, 0) + 1
            out.append(q)
    return out


def load(directory: str | Path, types: Sequence[str] = (), scenarios: Sequence[str] = ()) -> list[Question]:
    """Every question of the folder's files (in file name order), filtered by type and scenario."""
    questions = []
    for path in sorted(Path(directory).glob("*.json")):
        try:
            qtype, scenario = file_kind(path.name)
        except ValueError:
            continue
        if (types and qtype not in types) or (scenarios and scenario not in scenarios):
            continue
        for trajectory in json.loads(path.read_text(encoding="utf-8")):
            messages = [
                Turn(f"m{m['mid']}", m["message"].strip(), parse_time(m["time"])) for m in trajectory["message_list"]
            ]
            known = {m.id for m in messages}
            for q in trajectory["question_list"]:
                targets = {f"m{mid}" for mid in q.get("target_step_id") or []} & known
                if targets:
                    questions.append(
                        Question(
                            path.stem,
                            qtype,
                            scenario,
                            int(trajectory["tid"]),
                            int(q["qid"]),
                            q["question"].strip(),
                            parse_time(q["time"]),
                            targets,
                            messages,
                        )
                    )
    return questions


def load_noise(path: str | Path) -> list[tuple[str, str]]:
    """The MADial memories (id, event) of ``memory_zh.jsonl``, in file order."""
    events = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                for key, m in json.loads(line).items():
                    events.append((f"noise-{m.get('id', key)}", m["event"].strip()))
    return events


def with_noise(q: Question, events: Sequence[tuple[str, str]], n: int = NOISE, seed: int = 0) -> list[Turn]:
    """The question's messages and ``n`` of the events, each at a random time in the ``NOISE_DAYS``
    before the first message; the same for the same question and seed (a seed of its own)."""
    rng = random.Random(f"memdaily:{seed}:{q.key}")
    first = min(m.time for m in q.messages)
    span = NOISE_DAYS * 24 * 3600
    noise = [Turn(eid, text, first - timedelta(seconds=rng.randint(60, span))) for eid, text in rng.sample(events, n)]
    return sorted([*noise, *q.messages], key=lambda t: t.time)


def sessions(turns: Sequence[Turn], vectors: Any = None) -> list[Conversation]:
    """One session per calendar day, its turns in time order (one user turn each, ``external_id``
    the turn's id); ``vectors``: the turns' embeddings, in the order of ``turns``."""
    days: dict[str, list[int]] = {}
    for i, t in enumerate(turns):
        days.setdefault(t.time.date().isoformat(), []).append(i)
    out = []
    for day, idx in sorted(days.items()):
        idx.sort(key=lambda i: turns[i].time)
        messages = [
            Message(role="user", content=turns[i].text, timestamp=turns[i].time, external_id=turns[i].id) for i in idx
        ]
        out.append(
            Conversation(
                f"day-{day}", messages, turns[idx[0]].time, embeddings=None if vectors is None else vectors[idx]
            )
        )
    return out


def message_ranking(response: Any, to_turn: dict[str, str]) -> list[str]:
    """A search response as message ids, best first: each result through its evidence turns, each
    message once."""
    return list(dict.fromkeys(to_turn[e] for e in result_episode_ids(response) if e in to_turn))


def score(scores: Scores, method: str, ranking: Sequence[str], q: Question) -> None:
    """One question's recall@k and all@5 for ``method``, in its overall, type and scenario buckets."""
    buckets = ["overall", f"type:{q.type}", f"scenario:{q.scenario}"]
    for k in KS:
        scores.add(method, f"R@{k}", recall_at_k(ranking, q.targets, k), buckets)
    scores.add(method, "all@5", recall_all(ranking, q.targets, 5), buckets)


def buckets(questions: Sequence[Question] = ()) -> list[tuple[str, str]]:
    """The report's rows: overall, then each type, then each scenario (those asked, if given)."""
    types = [t for t in TYPES if not questions or any(q.type == t for q in questions)]
    scenarios = [s for s in SCENARIOS if not questions or any(q.scenario == s for q in questions)]
    return [("overall", "overall")] + [(f"type:{t}", t) for t in types] + [(f"scenario:{s}", s) for s in scenarios]


def run(
    graph: Any,
    directory: str | Path,
    *,
    limit: int | None = PER_FILE,
    types: Sequence[str] = (),
    scenarios: Sequence[str] = (),
    max_results: int = 50,
    embedder: Any = None,
    progress: Callable[[str, int, int], None] | None = None,
    keep_groups: bool = False,
    extractor: str = "rules",
    profiles: Sequence[str] = PROFILES,
    noise_file: str | Path | None = None,
    seed: int = 0,
    details: bool = False,
    **_: Any,
) -> dict:
    """Run the benchmark over the first ``limit`` questions of each file (None or 0: all)."""
    started = time.perf_counter()
    for profile in profiles:  # an unknown profile fails before anything is ingested
        graph.settings.retrieval.profile(profile)
    directory = Path(directory)
    questions = sample(load(directory, types, scenarios), limit)
    events = load_noise(noise_file or directory / NOISE_FILE)
    embed = embedder or graph.embedder
    graph_methods = {p: f"graphmem {p}" for p in profiles}
    methods = ["dense", "bm25 (char bigrams)", *graph_methods.values()]
    scores = Scores(methods)
    stats: dict[str, Any] = {
        "questions": 0,
        "files": len({q.file for q in questions}),
        "per_file": limit or None,
        "turns": 0,
        "memories": 0,
        "search_errors": 0,
        "filled_questions": 0,
        "returned": {p: 0 for p in profiles},
        "extractor": extractor,
        "profiles": list(profiles),
        "noise": NOISE,
        "seed": seed,
        "timings_s": {"embed": 0.0, "ingest": 0.0, "search": 0.0},
    }
    asked: list[dict] = []
    ingestor = ingestor_for(graph)
    for n, q in enumerate(questions):
        turns = with_noise(q, events, seed=seed)
        ids = [t.id for t in turns]
        t0 = time.perf_counter()
        vectors = embed_array(embed, [t.text for t in turns])
        question_vec = embed_query_array(embed, [q.question])[0]
        stats["timings_s"]["embed"] += time.perf_counter() - t0
        group = f"bench-memdaily-{uuid.uuid4().hex[:12]}"
        try:
            t0 = time.perf_counter()
            report = ingestor.ingest_sessions(group, sessions(turns, vectors), extractor=extractor, source="bench")
            stats["timings_s"]["ingest"] += time.perf_counter() - t0
            stats["turns"] += len(report.episodes)
            stats["memories"] += len(report.memories)
            to_turn = _episode_turns(graph, group)
            bm25 = [ids[j] for j in bm25_ranking([t.text for t in turns], q.question)]
            rankings = {
                "dense": [ids[j] for j in dense_ranking(question_vec, vectors)],
                "bm25 (char bigrams)": bm25,
            }
            shown: dict[str, list[dict]] = {}
            t0 = time.perf_counter()
            for profile, method in graph_methods.items():
                try:
                    response = graph.search_memories(
                        group, q.question, max_results=max_results, reference_time=q.time, profile=profile
                    )
                except Exception:  # noqa: BLE001 - counted and reported
                    stats["search_errors"] += 1
                    response = None
                found = message_ranking(response, to_turn) if response is not None else []
                stats["returned"][profile] += len(found)
                rankings[method], filled = fill(found, bm25, max(KS))
                stats["filled_questions"] += bool(filled)
                if details and response is not None:
                    shown[method] = [
                        {
                            "text": r.text,
                            "kind": r.kind,
                            "score": round(r.score, 4),
                            "turns": [to_turn.get(e.id) for e in r.evidence],
                        }
                        for r in response.results[:10]
                    ]
            stats["timings_s"]["search"] += time.perf_counter() - t0
        finally:
            if not keep_groups:
                delete_group(graph.store, group)
        for method, ranking in rankings.items():
            score(scores, method, ranking, q)
        if details:
            text = {t.id: t.text for t in turns}
            asked.append(
                {
                    "file": q.file,
                    "tid": q.tid,
                    "qid": q.qid,
                    "question": q.question,
                    "targets": sorted(q.targets),
                    "target_texts": [text[t] for t in sorted(q.targets)],
                    "top10": {m: r[:10] for m, r in rankings.items()},
                    "texts": {t: text[t] for r in rankings.values() for t in r[:10]},
                    "graphmem_results": shown,
                }
            )
        stats["questions"] += 1
        if progress:
            progress("questions", n + 1, len(questions))
    stats["timings_s"] = {k: round(v, 1) for k, v in stats["timings_s"].items()}
    stats["seconds"] = round(time.perf_counter() - started, 1)
    rows = buckets(questions)
    out = {
        "benchmark": "memdaily",
        "metrics": METRICS,
        "unit": "percent",
        "buckets": [b for b, _ in rows],
        "results": scores.as_dict(METRICS, [b for b, _ in rows], scale=100.0),
        "stats": stats,
        "max_results": max_results,
        "methods": methods,
        "_scores": scores,
    }
    if details:
        out["questions"] = asked
    return out


def _episode_turns(graph: Any, group: str) -> dict[str, str]:
    rows = graph.store.read("episodes_list", group_id=group, session_id=None, skip=0, limit=1_000_000)
    return {r["episode"]["id"]: r["episode"]["external_id"] for r in rows if r["episode"].get("external_id")}


def footnotes(report: dict) -> list[str]:
    s = report["stats"]
    n = max(1, s["questions"])
    sample_note = f"the first {s['per_file']} of each file" if s["per_file"] else "every question"
    returned = ", ".join(f"{p} {s['returned'][p] / n:.1f}" for p in s["profiles"])
    return [
        f"{counted(s['questions'], 'question')} ({sample_note}, {s['files']} files); each its own group: its "
        f"trajectory plus {s['noise']} MADial events as noise (seed {s['seed']}), {s['turns']} turns → "
        f"{s['memories']} memories (extractor: {s['extractor']}).",
        "R@k: share of the target messages in the top k; all@5: every target in the top 5. graphmem results are "
        "mapped to messages through their evidence turns.",
        "dense: cosine of the question to each message, same embedder; bm25: BM25Okapi over character bigrams.",
        f"graphmem: search_memories(max_results={report['max_results']}, reference_time=the question's time) under "
        f"each profile; messages per question: {returned}; {counted(s['filled_questions'], 'ranking')} filled from "
        f"BM25 to 10. Search errors: {s['search_errors']}.",
        f"time: {s['seconds']} s (embed {s['timings_s']['embed']} s, ingest {s['timings_s']['ingest']} s, "
        f"search {s['timings_s']['search']} s).",
    ]


def print_tables(console: Any, scores: Scores, report: dict, notes: Sequence[str]) -> None:
    from .common import print_table

    print_table(
        console,
        f"MemDaily target-message recall@k and all@5 (%), extractor {report['stats']['extractor']}",
        scores,
        report["metrics"],
        [(b, b.split(":", 1)[-1]) for b in report["buckets"]],
        scale=100.0,
        fmt="{:.1f}",
        footnotes=notes,
    )


def _names(value: str | None, allowed: Sequence[str], option: str) -> list[str]:
    names = [v.strip() for v in (value or "").split(",") if v.strip()]
    unknown = [v for v in names if v not in allowed]
    if unknown:
        raise ValidationError(
            f"{option}: unknown {', '.join(unknown)}; one or more of {', '.join(allowed)} (comma-separated)",
            field=option.lstrip("-"),
            allowed=list(allowed),
        )
    return names


# --- `graphmem bench memdaily` (entry point graphmem.bench: memdaily) ----------
def command(
    directory: str = typer.Argument(
        ..., help="The MemDaily folder of <nn>_<type>_<scenario>.json files (e.g. ../shared/bench/memdaily_dev)."
    ),
    limit: int = typer.Option(
        PER_FILE,
        "--limit",
        min=0,
        help=f"Questions per file, the first ones (default {PER_FILE}: {PER_FILE * 26} questions over the 26 dev "
        "files, every type and scenario); 0: all of them (1,500 in the dev folder).",
    ),
    every: bool = typer.Option(False, "--all", help="Every question of every file (the same as --limit 0)."),
    types: str | None = typer.Option(
        None, "--types", help=f"Only these question types, comma-separated: {', '.join(TYPES)}."
    ),
    scenarios: str | None = typer.Option(
        None, "--scenarios", help=f"Only these scenarios, comma-separated: {', '.join(SCENARIOS)}."
    ),
    profiles: str = typer.Option(
        ",".join(PROFILES), "--profiles", help="The ranking profiles graphmem is searched with, one column each."
    ),
    noise: str | None = typer.Option(
        None, "--noise", help="The noise events (default: ../madial_dev/memory_zh.jsonl beside the folder)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the noise's choice and times."),
    details: bool = typer.Option(
        False, "--details", help="With --json: each question's top 10 per method and graphmem's first results."
    ),
    max_results: int = MaxResultsOption,
    as_json: bool = JsonOption,
    cache: bool = CacheOption,
    extractor: str = ExtractorOption,
    config: str | None = ConfigOption,
) -> None:
    """MemDaily recall@1/3/5/10 and all@5 of the messages that hold each answer, per question type
    and scenario: graphmem (profiles default and recall) vs flat dense (same embedder) vs BM25.

    Each question gets its own throw-away group: its trajectory's messages plus 40 MADial events as
    noise at random earlier times (seeded), one user turn each, one session per day; the question
    is asked at its own time. Offline; the groups are deleted. By default the first 2 questions of
    every file (52 in the dev folder); --all for every question.
    """
    folder = Path(directory)
    if not folder.is_dir() or not any(_FILE.match(p.name) for p in folder.glob("*.json")):
        raise ValidationError(
            f"{directory}: no MemDaily files (<nn>_<type>_<scenario>.json) there; give the MemDaily folder "
            "(e.g. ../shared/bench/memdaily_dev)",
            field="directory",
        )
    noise_file = Path(noise) if noise else folder / NOISE_FILE
    if not noise_file.is_file():
        raise ValidationError(
            f"{noise_file}: no noise events there; give --noise the MADial memory_zh.jsonl "
            "(e.g. ../shared/bench/madial_dev/memory_zh.jsonl)",
            field="noise",
        )
    chosen = [p.strip() for p in profiles.split(",") if p.strip()] or list(PROFILES)
    retrieval_bench(
        "memdaily",
        directory,
        0 if every else limit,
        max_results,
        as_json,
        cache,
        extractor,
        chosen[0],
        config,
        types=_names(types, TYPES, "--types"),
        scenarios=_names(scenarios, SCENARIOS, "--scenarios"),
        profiles=chosen,
        noise_file=noise_file,
        seed=seed,
        details=details,
    )
