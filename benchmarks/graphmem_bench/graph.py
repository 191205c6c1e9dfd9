"""`graphmem bench graph`: the questions a graph exists to answer, graphmem against flat search.

Five kinds of case (graph_cases/<lang>.json), each case in its own throw-away group among
``--distractors`` everyday memories (a sample of the language's pool, written as tool calls, a
few of them causally linked), written the way the kind arrives in real use:

- why: an effect and its cause (half of them two-step chains: cause -> cause -> effect), each
  written with create_memory and linked with link_memories (found by description); the question
  shares words with the effect only. Score: the share of the chain's causes in the top 5.
- current: a fact said in conversation, changed months later in another (ingest, then
  consolidate); "where do I live now?". Score: 1 when the newest value is in the top 3 and
  above every older one.
- as_of: two or three values of a fact over the years, each said in its own conversation
  (ingest, then consolidate); "where did I live last March?". Score: 1 when the value current at
  the asked time is in the top 3 and above the others.
- asof: as_of's form, cases of their own (graph_cases/asof_<lang>.json): a fact (home, employer,
  school, partner, phone ...) said, changed in a later conversation, then asked about at a time in
  between; the answer is the value current then. Scored as as_of.
- entity: five facts about a person over five conversations, the later ones naming them by
  pronoun or role; "what do you know about Ruth?". Score: the share of the five in the top 10.
- bridge: two facts joined only by a person (the pilot I met in Porto is Marco; Marco flies
  gliders), with the person in each role (Object of one and Subject of the other, both
  Subjects, both Objects, Subject then Object, Object then an attribute Value) through
  create_memory, and said in two conversations through ingest; beside them, the same ask about
  two other people (another person's hobby, another's home town), written the same way, so the
  ask alone does not pick the answer. Score: 1 when the fact the question does not name is in
  the top 5 and above both of those.

Methods, in the same run: graphmem (search_memories, mode auto) at depth 0, 1 and 2 under the
"default" and "recall" profiles; flat dense (cosine with graphmem's own embedding model over the
texts that were said: each tool call's sentence, each conversation turn); BM25 (rank_bm25 over
the same texts; Chinese in character bigrams, as Neo4j's cjk analyzer splits it). A graphmem
result counts as the text it came from: a tool call's memory, a turn, or a memory extracted from
a turn. Times are relative to the moment of the run, so "last March" means the same in the
cases and the questions.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.console import Console

from graphmem.cli._common import ConfigOption, console, print_json, progress_bar
from graphmem.embed import embed_array, embed_query_array
from graphmem.errors import GraphmemError, ValidationError
from graphmem.lang import CJK_CHARS
from graphmem.store.admin import delete_group

CASES = Path(__file__).parent / "graph_cases"
KINDS = ("why", "current", "as_of", "entity", "bridge", "asof")
PROFILES = ("default", "recall")
DEPTHS = (0, 1, 2)
MAX_RESULTS = 10
TOP = {"why": 5, "current": 3, "as_of": 3, "entity": 10, "bridge": 5, "asof": 3}  # the cut each kind is scored at
MONTH = timedelta(days=30)
DISTRACTOR_AGES = (200, 90, 20)  # days before the run: the distractors are said in three sessions
PREFIX = "bench-graph-"

Say = Callable[[str], None]


def methods() -> list[str]:
    graphmem = [f"{p} d{d}" for p in PROFILES for d in DEPTHS]
    return [*graphmem, "dense", "bm25"]


# --- writing the cases --------------------------------------------------------------------
@dataclass
class Case:
    """One case in its group: what was said (fact id -> text), the question, the answer."""

    kind: str
    index: int
    group: str
    question: str
    gold: list[str]  # the facts that answer it
    rivals: list[str] = field(default_factory=list)  # what must rank below the answer (other values, other people)
    bucket: str = ""  # a finer row of the table (why: one/two steps; bridge: the roles)
    texts: dict[str, str] = field(default_factory=dict)  # every fact said in the group, distractors included
    by_memory: dict[str, str] = field(default_factory=dict)  # memory id -> fact
    by_episode: dict[str, str] = field(default_factory=dict)  # turn (episode) id -> fact
    notes: list[str] = field(default_factory=list)  # what did not go as written (a link refused ...)
    timings: dict[str, float] = field(default_factory=dict)
    extracted: dict[str, list[str]] = field(default_factory=dict)  # an ingested turn -> the memories made of it
    superseded: int | None = None  # current, as_of: the supersedes consolidation found


def load_cases(lang: str) -> dict:
    path = CASES / f"{lang}.json"
    if not path.exists():
        raise ValidationError(f"--lang: no cases for {lang!r} ({path})", field="lang", allowed=["zh", "en"])
    return {**json.loads(path.read_text(encoding="utf-8")), **load_asof(lang)}


def load_asof(lang: str) -> dict:
    """The "asof" kind's cases (graph_cases/asof_<lang>.json): as_of's form, their own file; a
    past-time question whose answer is the value that was current then."""
    path = CASES / f"asof_{lang}.json"
    return {"asof": json.loads(path.read_text(encoding="utf-8"))["asof"]} if path.exists() else {"asof": []}


def years(text: str, now: datetime) -> str:
    """{Y}, {Y-1} ... in a case: the year of the run, the year before ..."""
    return re.sub(r"\{Y(?:-(\d))?\}", lambda m: str(now.year - int(m.group(1) or 0)), text)


def write_distractors(graph: Any, case: Case, data: dict, n: int, now: datetime) -> None:
    pool = data["distractors"]
    rng = random.Random(case.group)
    chosen = sorted(rng.sample(range(len(pool)), min(n, len(pool))))
    ids: dict[int, str] = {}
    for part, age in enumerate(DISTRACTOR_AGES):
        batch = chosen[part :: len(DISTRACTOR_AGES)]
        results = graph.create_memories(
            case.group,
            [pool[i]["parts"] for i in batch],
            session_id=f"everyday-{part}",
            reference_time=now - timedelta(days=age),
            source="tool",
        )
        for i, r in zip(batch, results):
            ids[i] = r.memory_id
            case.texts[f"d{i}"] = pool[i]["text"]
            case.by_memory[r.memory_id] = f"d{i}"
    relation = "导致" if data["language"] == "zh" else "causes"
    for cause, effect in data["distractor_links"]:
        if cause in ids and effect in ids:
            graph.link_memory_ids(case.group, ids[cause], ids[effect], relation, 0.6)


def _said(graph: Any, case: Case, fact: str, turn: dict, session: str, at: datetime) -> None:
    """Ingest one conversation: the user's turn is the fact; an assistant's reply is said too."""
    messages = [{"role": "user", "content": turn["user"]}]
    if turn.get("assistant"):
        messages.append({"role": "assistant", "content": turn["assistant"]})
    report = graph.ingest(case.group, messages=messages, session_id=session, reference_time=at)
    case.texts[fact] = messages[0]["content"]
    case.by_episode[report.episodes[0]] = fact
    for j, episode in enumerate(report.episodes[1:], 1):
        case.texts[f"{fact}.reply{j}"] = messages[j]["content"]
        case.by_episode[episode] = f"{fact}.reply{j}"
    if report.memories:  # each extracted memory counts as the turn it came from
        rows = graph.store.read("search_evidence", group_id=case.group, ids=report.memories, per_memory=5)
        for row in rows:
            facts = [case.by_episode[e["id"]] for e in row["evidence"] if e["id"] in case.by_episode]
            if facts:
                case.by_memory[row["id"]] = facts[0]
    case.extracted[fact] = [graph.get_memory(case.group, m).text for m in report.memories]
    if report.errors:
        case.notes.append(f"ingest: {report.errors}")


def _told(graph: Any, case: Case, fact: str, item: dict, at: datetime) -> str:
    """One create_memory tool call; returns the memory id."""
    r = graph.create_memory(case.group, **item["parts"], reference_time=at, source="tool")
    case.texts[fact] = item["text"]
    case.by_memory[r.memory_id] = fact
    return r.memory_id


def _consolidate(graph: Any, case: Case, now: datetime) -> None:
    t0 = time.perf_counter()
    report = graph.consolidate(case.group, now=now)
    case.timings["consolidate"] = time.perf_counter() - t0
    case.superseded = len(report.conflicts)


def write_why(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    chain = spec["chain"]
    for j, item in enumerate(chain):
        _told(graph, case, f"c{j}", item, now - timedelta(hours=2 * (len(chain) - j)))
    for j, relation in enumerate(spec["relations"]):
        try:  # the agent links what it was told, describing both memories in words
            graph.link_memories(case.group, chain[j]["text"], chain[j + 1]["text"], relation, 0.8)
        except GraphmemError as exc:
            case.notes.append(f"link {j}: {type(exc).__name__}: {exc}")
    case.gold = [f"c{j}" for j in range(len(chain) - 1)]
    case.bucket = f"why, {len(chain) - 1}-step"


def write_current(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    for j, turn in enumerate(spec["turns"]):
        _said(graph, case, f"t{j}", turn, f"s{j}", now - turn["months_ago"] * MONTH)
    _consolidate(graph, case, now)
    last = len(spec["turns"]) - 1
    case.gold, case.rivals = [f"t{last}"], [f"t{j}" for j in range(last)]


def write_as_of(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    for j, turn in enumerate(spec["turns"]):
        at = datetime.fromisoformat(years(turn["at"], now) + "T20:00:00").replace(tzinfo=now.tzinfo)
        _said(graph, case, f"t{j}", {"user": years(turn["user"], now)}, f"s{j}", at)
    _consolidate(graph, case, now)
    case.gold = [f"t{spec['answer']}"]
    case.rivals = [f"t{j}" for j in range(len(spec["turns"])) if j != spec["answer"]]
    case.bucket = "as_of, the older value" if spec["answer"] < len(spec["turns"]) - 1 else "as_of, the newer value"


def write_asof(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    write_as_of(graph, case, spec, now)
    case.bucket = case.kind


def write_entity(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    sessions = spec["sessions"]
    for j, text in enumerate(sessions):
        _said(graph, case, f"t{j}", {"user": text}, f"s{j}", now - (len(sessions) - j) * MONTH)
    case.gold = [f"t{j}" for j in range(len(sessions))]


def write_bridge(graph: Any, case: Case, spec: dict, now: datetime) -> None:
    when = (now - 2 * MONTH, now - timedelta(days=10))
    rivals_at = now - MONTH  # the same ask about other people, said between the two facts
    if spec["via"] == "tool":
        for j, item in enumerate(spec["facts"]):
            _told(graph, case, f"f{j}", item, when[j])
        for j, item in enumerate(spec.get("rivals", [])):
            _told(graph, case, f"r{j}", item, rivals_at + j * timedelta(hours=1))
        case.bucket = f"bridge, tool calls {spec['roles']}"
    else:
        for j, text in enumerate(spec["turns"]):
            _said(graph, case, f"f{j}", {"user": text}, f"s{j}", when[j])
        for j, text in enumerate(spec.get("rivals", [])):
            _said(graph, case, f"r{j}", {"user": text}, f"r{j}", rivals_at + j * timedelta(hours=1))
        case.bucket = "bridge, conversations"
    case.gold = ["f1"]
    case.rivals = [f"r{j}" for j in range(len(spec.get("rivals", [])))]


WRITERS = {
    "why": write_why,
    "current": write_current,
    "as_of": write_as_of,
    "entity": write_entity,
    "bridge": write_bridge,
    "asof": write_asof,
}


# --- scoring ------------------------------------------------------------------------------
def score(case: Case, ranking: list[str]) -> float:
    top = ranking[: TOP[case.kind]]
    if case.kind in ("why", "entity"):
        return sum(g in top for g in case.gold) / len(case.gold)
    gold = case.gold[0]  # bridge, current, as_of: the right fact in the top, above every rival
    if gold not in top:
        return 0.0
    return float(all(r not in ranking or ranking.index(r) > ranking.index(gold) for r in case.rivals))


def graphmem_ranking(case: Case, response: Any) -> list[str]:
    """The facts a search returned, best first, each once (a result nothing maps to keeps its place)."""
    out: list[str] = []
    for r in response.results:
        if r.kind == "episode":
            fact = case.by_episode.get(r.memory_id)
        else:
            fact = case.by_memory.get(r.memory_id) or next(
                (case.by_episode[e.id] for e in r.evidence if e.id in case.by_episode), None
            )
        fact = fact or f"?{r.memory_id}"
        if fact not in out:
            out.append(fact)
    return out


_WORD = re.compile(rf"[{CJK_CHARS}]+|\w+", re.UNICODE)
_CJK = re.compile(rf"[{CJK_CHARS}]")


def tokens(text: str) -> list[str]:
    """Words, and Chinese in overlapping character bigrams (a lone character stays one token)."""
    out: list[str] = []
    for run in _WORD.findall(text.lower()):
        if _CJK.match(run):
            out.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
        else:
            out.append(run)
    return out


class FlatSearch:
    """The two flat baselines over one group's texts: dense cosine and BM25."""

    def __init__(self, embedder: Any, vectors: dict[str, np.ndarray]):
        self.embedder = embedder
        self.vectors = vectors  # text -> unit vector, shared across cases (the distractor pool)

    def embed(self, texts: list[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if todo:
            for text, vector in zip(todo, embed_array(self.embedder, todo)):
                self.vectors[text] = vector / (np.linalg.norm(vector) or 1.0)

    def rank(self, case: Case) -> dict[str, list[str]]:
        from rank_bm25 import BM25Okapi

        facts = list(case.texts)
        texts = [case.texts[f] for f in facts]
        self.embed(texts)
        query = embed_query_array(self.embedder, [case.question])[0]
        cos = np.stack([self.vectors[t] for t in texts]) @ (query / (np.linalg.norm(query) or 1.0))
        dense = [facts[i] for i in np.argsort(-cos, kind="stable")]
        bm25 = BM25Okapi([tokens(t) or [""] for t in texts]).get_scores(tokens(case.question))
        return {"dense": dense, "bm25": [facts[i] for i in np.argsort(-bm25, kind="stable")]}


# --- the run ------------------------------------------------------------------------------
class RepeatedTexts:
    """The graph's embedder, remembering the vectors of texts it embedded (passages, not queries):
    every case writes a sample of one pool of distractors, embedded once a run instead of once a
    case. Everything else (queries, what the embedder says about itself) goes to the embedder."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.vectors: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if todo:
            self.vectors.update(zip(todo, embed_array(self.inner, todo)))
        return np.stack([self.vectors[t] for t in texts]) if texts else embed_array(self.inner, [])

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()


def ask(graph: Any, case: Case, flat: FlatSearch, now: datetime) -> dict[str, list[str]]:
    """Every method's ranking of the case's facts for its question."""
    rankings: dict[str, list[str]] = {}
    t0 = time.perf_counter()
    for profile in PROFILES:
        for depth in DEPTHS:
            response = graph.search_memories(
                case.group,
                case.question,
                max_results=MAX_RESULTS,
                expand_depth=depth,
                profile=profile,
                reference_time=now,
            )
            rankings[f"{profile} d{depth}"] = graphmem_ranking(case, response)
    t1 = time.perf_counter()
    rankings.update(flat.rank(case))
    case.timings["search graphmem"] = t1 - t0
    case.timings["search flat"] = time.perf_counter() - t1
    return rankings


def run_case(
    graph: Any,
    data: dict,
    kind: str,
    index: int,
    spec: dict,
    *,
    distractors: int,
    keep: bool,
    flat: FlatSearch,
    now: datetime,
) -> tuple[Case, dict[str, list[str]]]:
    """One case from an empty group to its rankings (the group deleted after unless ``keep``)."""
    lang = data["language"]
    case = Case(kind, index, f"{PREFIX}{lang}-{kind}-{index:02d}", years(spec["question"], now), gold=[], bucket=kind)
    delete_group(graph.store, case.group)
    t0 = time.perf_counter()
    write_distractors(graph, case, data, distractors, now)
    t1 = time.perf_counter()
    WRITERS[kind](graph, case, spec, now)
    case.timings["write distractors"] = t1 - t0
    case.timings["write case"] = time.perf_counter() - t1 - case.timings.get("consolidate", 0.0)
    rankings = ask(graph, case, flat, now)
    if not keep:
        delete_group(graph.store, case.group)
    return case, rankings


def run_graph_bench(
    graph: Any,
    lang: str,
    *,
    cases: int | None = None,
    distractors: int = 150,
    keep: bool = False,
    workers: int = 2,
    say: Say | None = None,
    kinds: tuple[str, ...] = KINDS,
    progress: Callable[[int, int], None] | None = None,
    now: datetime | None = None,
) -> dict:
    """Write every case, ask every question with every method, score; returns the report. Cases
    run ``workers`` at a time (each in its own group: the server and the embedding model work
    at once); ``progress(done, total)`` after each. ``now``: the moment the cases are asked at
    (default: 20:00 yesterday, local time); the same ``now`` gives the same cases on any day."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from graphmem.bench.write import machine

    data = load_cases(lang)
    say = say or (lambda _: None)
    # the moment the cases are asked at: 20:00 yesterday, so that what a case writes hours before it
    # falls on the same day whatever the hour of the run ("yesterday" in a question means one day)
    if now is None:
        now = (datetime.now().astimezone() - timedelta(days=1)).replace(hour=20, minute=0, second=0, microsecond=0)
    load_before = machine().get("load_average")
    flat = FlatSearch(graph.embedder, {})
    jobs = [(kind, i, spec) for kind in kinds for i, spec in enumerate(data[kind][:cases] if cases else data[kind])]
    t_all = time.perf_counter()
    with ThreadPoolExecutor(max(1, workers)) as pool:
        futures = [
            pool.submit(run_case, graph, data, kind, i, spec, distractors=distractors, keep=keep, flat=flat, now=now)
            for kind, i, spec in jobs
        ]
        for finished, _ in enumerate(as_completed(futures), 1):
            if progress:
                progress(finished, len(futures))
        done = [f.result() for f in futures]
    total = time.perf_counter() - t_all
    say(f"{len(done)} cases in {total:.1f} s")

    timings: dict[str, float] = defaultdict(float)
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    details = []
    for case, rankings in done:
        for step, seconds in case.timings.items():
            timings[step] += seconds
        row: dict[str, Any] = {"kind": case.kind, "index": case.index, "bucket": case.bucket}
        row.update(question=case.question, gold=[case.texts[g] for g in case.gold], scores={})
        for method, ranking in rankings.items():
            value = score(case, ranking)
            row["scores"][method] = value
            for bucket in {case.kind, case.bucket}:
                scores[bucket][method].append(value)
        row["top"] = {m: [case.texts.get(f, f) for f in r[: TOP[case.kind]]] for m, r in rankings.items()}
        if case.notes:
            row["notes"] = case.notes
        if case.superseded is not None:
            row["superseded"] = case.superseded
        if case.extracted:
            row["extracted"] = {case.texts[f]: texts for f, texts in case.extracted.items()}
        details.append(row)

    buckets = [*kinds, *sorted({c.bucket for c, _ in done} - set(kinds))]
    results = {
        b: {"cases": len(scores[b]["dense"]), **{m: round(float(np.mean(scores[b][m])), 3) for m in methods()}}
        for b in buckets
        if scores[b]["dense"]
    }
    info = machine()
    info["load_average_before"] = load_before
    info["embedding_model"] = graph.embedder.name
    try:
        version, edition = graph.store.verify()
        info["neo4j"] = f"{version} {edition}"
    except Exception:  # noqa: BLE001 - the figures stand without it
        info["neo4j"] = None
    return {
        "benchmark": "graph",
        "language": lang,
        "command": f"graphmem bench graph --lang {lang}"
        + (f" --cases {cases}" if cases else "")
        + (f" --workers {workers}" if workers != 2 else "")
        + "".join(f" --kind {k}" for k in kinds if kinds != KINDS)
        + f" --now {now.isoformat()}",
        "run_at": now.isoformat(),
        "distractors": distractors,
        "workers": workers,
        "top": TOP,
        "methods": methods(),
        "results": results,
        # wall time of the run; the steps are summed over the cases (``workers`` run at once)
        "seconds": round(total, 1),
        "timings_s": {k: round(v, 1) for k, v in sorted(timings.items())},
        "machine": info,
        "cases": details,
    }


def print_report(report: dict) -> None:
    from rich.table import Table

    m = report["machine"]
    console.print(f"[bold]graphmem bench graph --lang {report['language']}[/bold]", highlight=False)
    console.print(
        f"  machine: {m['cores']} cores, {m.get('ram_gib')} GiB RAM, {m.get('cpu')}; Neo4j {m.get('neo4j')}; "
        f"model {m['embedding_model']}; {report['distractors']} distractors per case; "
        f"{report['seconds']} s in all ({report['workers']} cases at a time)",
        highlight=False,
    )
    table = Table(show_lines=False)
    table.add_column("kind")
    table.add_column("cases", justify="right")
    for method in report["methods"]:
        table.add_column(method, justify="right")
    for bucket, row in report["results"].items():
        best = max(row[m] for m in report["methods"])
        cells = [f"[bold]{row[m]:.2f}[/bold]" if row[m] == best else f"{row[m]:.2f}" for m in report["methods"]]
        table.add_row(bucket, str(row["cases"]), *cells)
    console.print(table)
    console.print(
        "  scores: why = share of the causes in the top 5; current, as_of = the right value in the top 3 "
        "above the others; entity = share of the five facts in the top 10; "
        "bridge = the far fact in the top 5, above the same ask about others. "
        "graphmem columns: profile and expand_depth (mode auto).",
        highlight=False,
    )


def command(
    lang: str = typer.Option("zh", "--lang", help="zh or en: which language's cases."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (with every case's top results)."),
    cases: int | None = typer.Option(None, "--cases", min=1, help="Only the first N cases of each kind."),
    distractors: int = typer.Option(150, "--distractors", min=0, help="Everyday memories written beside each case."),
    keep: bool = typer.Option(False, "--keep", help="Keep the groups (bench-graph-<lang>-*) to look at them."),
    workers: int = typer.Option(2, "--workers", min=1, max=8, help="Cases written and asked at a time."),
    kind: list[str] | None = typer.Option(None, "--kind", help=f"Only these kinds ({', '.join(KINDS)}); repeatable."),
    now: str | None = typer.Option(
        None,
        "--now",
        help="The moment the cases are asked at, an ISO time with its offset (2026-12-02T20:00:00+00:00; default "
        "20:00 yesterday): what the cases say is dated back from it, so a run given the same --now (the report's "
        "command prints it) writes the same cases on any day.",
    ),
    config: str | None = ConfigOption,
) -> None:
    """Questions a graph exists to answer (why, current, as-of, everything about a person, two facts
    joined by a person), graphmem at depth 0/1/2 under the default and recall profiles beside flat
    dense retrieval and BM25 over the same texts, in Chinese or English.

    Each case is written into its own throw-away group among everyday distractor memories, the way
    it arrives in real use (tool calls and link_memories, or conversations through ingest, then
    consolidate); the groups are deleted afterwards. Offline.
    """
    if lang not in ("zh", "en"):
        raise ValidationError("--lang: zh or en", field="lang", allowed=["zh", "en"])
    if set(kind or ()) - set(KINDS):
        raise ValidationError(f"--kind: one of {', '.join(KINDS)}", field="kind", allowed=list(KINDS))
    asked_at = None
    if now is not None:
        try:
            asked_at = datetime.fromisoformat(now)
        except ValueError:
            asked_at = None
        if asked_at is None or asked_at.tzinfo is None:
            raise ValidationError(
                f"--now: an ISO time with its offset, e.g. 2026-12-02T20:00:00+00:00 (got {now!r})", field="now"
            )
    from graphmem.cli._common import load
    from graphmem.embed import get_embedder
    from graphmem.graph import MemoryGraph

    say = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    settings = load(config)
    # every case is asked at several depths and profiles: a search's answers must not rise in the
    # next one's ranking by the access counts it wrote (in the background, so by chance)
    settings.retrieval.record_access = False
    e = settings.embedding
    embedder = RepeatedTexts(get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision))
    # the bar goes to stderr: with --json, stdout holds the report alone
    with MemoryGraph(settings, embedder=embedder) as graph, progress_bar(Console(stderr=True)) as bar:
        task = bar.add_task(f"bench graph --lang {lang}: cases", total=None)
        report = run_graph_bench(
            graph,
            lang,
            cases=cases,
            distractors=distractors,
            keep=keep,
            workers=workers,
            say=say,
            kinds=tuple(kind) if kind else KINDS,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            now=asked_at,
        )
    if as_json:
        print_json(report)
        return
    print_report(report)


if __name__ == "__main__":
    app = typer.Typer(add_completion=False)
    app.command()(command)
    app()
