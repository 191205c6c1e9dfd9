"""`graphmem bench search`: latency and throughput of search_memories on a synthetic graph,
against the exact cosine scan other memory systems run on Neo4j.

The graph is deterministic (seeded RNG) and shaped like real use: the user ("I") in a fifth
of the memories, other subjects, topics and objects drawn from Zipf-like distributions (a
few very common, most rare), a time value per memory shared by every memory of that day,
causal chains of 2–4 memories of one subject (10% of memories), reference links (3%), and
a mix of types, statuses, importances and access counts. Embeddings are composed, not
computed: a vocabulary of ~5,000 distinct names, verbs and things is embedded once, and a
memory's vector is the normalised weighted sum of its subject's, topic's and object's plus
a little noise — so 100,000 memories take minutes to build, not hours. Everything is
written with UNWIND batches straight into one benchmark group (graphmem/cypher/bench.cypher,
``synthetic_*``), and deleted afterwards unless ``keep``; a kept group of the right size
(``bench-search-n<size>-s<seed>``) is reused by the next run instead of rebuilt.

Measured, per size: end-to-end latency of ``search_memories`` (query embedding included)
at expand_depth 0 (fast), 1 and 2 (deep): p50/p95/p99; throughput with concurrent clients
at depth 1; and, for the same queries, the exact scan — ``vector.similarity.cosine``
against every memory of the group, ordered, top 10 (how Graphiti and Mem0 search Neo4j) —
with the ratio of the medians.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from ..embed import embed_query
from ..graph import MemoryGraph
from ..types import SearchResult
from .cpu import CpuMeter
from .write import machine

TARGETS = {
    "depth1_p50_ms": 30.0,
    "depth1_p99_ms": 80.0,
    "depth2_p50_ms": 45.0,
    "speedup": 20.0,
    "concurrency": 3.0,
    "concurrent_p99_ms": 250.0,
}
REFERENCE = datetime(2025, 11, 5, 18, 0, tzinfo=UTC)
BATCH = 2000
VECTORS_WAIT_S = 120.0  # longest wait for the retriever's copy of a group's vectors before timing
WARM_WINDOW, WARM_SETTLED = 10, 0.1  # warm-up: windows of 10 depth-1 searches until a window's median
#                             is within 10 % of the one before (a freshly built vector index takes more)

FIRST = [
    "Alice",
    "Bob",
    "Carol",
    "David",
    "Emma",
    "Frank",
    "Grace",
    "Henry",
    "Irene",
    "Jack",
    "Karen",
    "Leo",
    "Marta",
    "Nina",
    "Oscar",
    "Paul",
    "Queenie",
    "Rosa",
    "Sam",
    "Tina",
    "Uma",
    "Victor",
    "Wendy",
    "Xavier",
    "Yara",
    "Zoe",
    "Aaron",
    "Bella",
    "Caleb",
    "Diana",
    "Ethan",
    "Fiona",
    "George",
    "Hannah",
    "Ivan",
    "Julia",
    "Kevin",
    "Laura",
    "Mason",
    "Nora",
    "Owen",
    "Penny",
    "Quinn",
    "Ryan",
    "Sofia",
    "Theo",
    "Ursula",
    "Vince",
    "Willow",
    "Yusuf",
    "Zara",
    "Amir",
    "Beatrice",
    "Carlos",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
]
LAST = [
    "Chen",
    "Smith",
    "Garcia",
    "Müller",
    "Rossi",
    "Kim",
    "Nguyen",
    "Silva",
    "Novak",
    "Cohen",
    "Dubois",
    "Ivanova",
    "Khan",
    "Lopez",
    "Sato",
    "Walker",
    "Young",
    "Hill",
    "Ward",
    "Price",
    "Reed",
    "Bailey",
    "Cooper",
    "Howard",
    "Brooks",
    "Gray",
    "James",
    "Watson",
    "Bell",
    "Murphy",
    "Rivera",
    "Foster",
    "Hughes",
    "Flores",
    "Long",
    "Ross",
    "Perry",
    "Powell",
    "Jenkins",
    "Patel",
]
VERBS = [
    "likes",
    "visited",
    "bought",
    "works at",
    "plays",
    "cooked",
    "read",
    "watched",
    "learned",
    "fixed",
    "painted",
    "sold",
    "borrowed",
    "lost",
    "found",
    "built",
    "planted",
    "cleaned",
    "ordered",
    "returned",
    "recommended",
    "avoids",
    "collects",
    "teaches",
    "studies",
    "photographed",
    "wrote about",
    "dreams of",
    "worries about",
    "complained about",
    "celebrated",
    "organised",
    "cancelled",
    "booked",
    "rented",
    "repaired",
    "designed",
    "sketched",
    "tasted",
    "hiked to",
    "swam in",
    "ran past",
    "drove to",
    "flew to",
    "moved to",
    "volunteered at",
    "donated",
    "adopted",
    "named",
    "met",
    "called",
    "emailed",
    "argued with",
    "helped",
    "visits",
    "misses",
    "admires",
    "distrusts",
    "prefers",
    "hates",
    "loves",
    "needs",
    "wants",
    "owns",
    "uses",
    "shared",
    "gifted",
    "received",
    "reviewed",
    "tested",
    "installed",
    "upgraded",
    "lent",
    "carried",
    "painted over",
    "forgot",
    "remembered",
    "discovered",
    "explored",
    "researched",
]
ADVERBS = ["", "often", "rarely", "recently"]
ADJECTIVES = [
    "red",
    "old",
    "new",
    "small",
    "large",
    "quiet",
    "noisy",
    "cheap",
    "expensive",
    "broken",
    "shiny",
    "wooden",
    "green",
    "blue",
    "famous",
    "local",
    "foreign",
    "vintage",
    "modern",
    "tiny",
    "heavy",
    "light",
    "warm",
    "cold",
    "bright",
    "dark",
    "sweet",
    "bitter",
    "rare",
    "common",
    "favourite",
    "strange",
    "beautiful",
    "ugly",
    "fast",
    "slow",
    "electric",
    "handmade",
    "digital",
    "spicy",
]
NOUNS = [
    "bicycle",
    "guitar",
    "restaurant",
    "museum",
    "park",
    "book",
    "laptop",
    "car",
    "garden",
    "kitchen",
    "piano",
    "camera",
    "painting",
    "coffee shop",
    "library",
    "beach",
    "mountain",
    "lake",
    "river",
    "bakery",
    "cinema",
    "theatre",
    "stadium",
    "hospital",
    "school",
    "office",
    "apartment",
    "house",
    "boat",
    "train",
    "plane",
    "hotel",
    "market",
    "bridge",
    "tower",
    "castle",
    "farm",
    "forest",
    "island",
    "village",
    "city",
    "phone",
    "watch",
    "jacket",
    "shoes",
    "hat",
    "scarf",
    "backpack",
    "tent",
    "kayak",
    "violin",
    "drum",
    "clarinet",
    "telescope",
    "microscope",
    "chess set",
    "puzzle",
    "board game",
    "novel",
    "poem",
    "recipe",
    "soup",
    "cake",
    "pizza",
    "noodles",
    "dumplings",
    "salad",
    "sandwich",
    "wine",
    "tea",
    "juice",
    "dog",
    "cat",
    "parrot",
    "horse",
    "fish tank",
    "plant",
    "sofa",
    "lamp",
    "desk",
    "chair",
    "bed",
    "mirror",
    "clock",
    "printer",
    "keyboard",
    "monitor",
    "headphones",
    "speaker",
    "radio",
    "podcast",
    "newspaper",
    "magazine",
    "concert",
    "festival",
    "exhibition",
    "workshop",
]
TYPES = (["EVENT"] * 45) + (["FACT"] * 30) + (["RELATION"] * 10) + (["OPINION"] * 15)
STATUSES = (["staged"] * 30) + (["consolidated"] * 65) + (["archived"] * 5)


def _zipf_weights(n: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1) ** s
    return w / w.sum()


class Vocabulary:
    """Names, topics and objects, each embedded once."""

    def __init__(self, embed: Callable[[list[str]], list[list[float]]], rng: np.random.Generator):
        names = [f"{first} {last}" for first in FIRST for last in LAST]
        rng.shuffle(names)
        self.subjects = ["I"] + names[:2000]
        self.topics = [f"{a} {v}".strip() for v in VERBS for a in ADVERBS]
        objects = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
        rng.shuffle(objects)
        self.objects = objects[:3000]
        texts = self.subjects + self.topics + self.objects
        vectors = np.asarray(embed(texts), dtype=np.float32)
        n_s, n_t = len(self.subjects), len(self.topics)
        self.subject_vecs, self.topic_vecs = vectors[:n_s], vectors[n_s : n_s + n_t]
        self.object_vecs = vectors[n_s + n_t :]


def build_plan(n: int, vocab: Vocabulary, rng: np.random.Generator) -> dict[str, Any]:
    """The memories (as index arrays) and links of a synthetic group of n memories."""
    n_sub = len(vocab.subjects) - 1
    user = rng.random(n) < 0.2
    subject = np.where(user, 0, 1 + rng.choice(n_sub, size=n, p=_zipf_weights(n_sub, 0.8)))
    topic = rng.choice(len(vocab.topics), size=n, p=_zipf_weights(len(vocab.topics), 1.0))
    obj = rng.choice(len(vocab.objects), size=n, p=_zipf_weights(len(vocab.objects), 0.9))
    day = rng.integers(0, 730, size=n)
    links: list[tuple[int, int, str, str]] = []
    order = np.argsort(subject, kind="stable")  # chains within one subject
    i = 0
    while i < n:
        if rng.random() < 0.033:  # ~10% of memories sit in a chain of 2-4
            length = int(rng.integers(2, 5))
            chain = order[i : i + length]
            if len(chain) > 1 and len(set(subject[chain])) == 1:
                for a, b in zip(chain[:-1], chain[1:]):
                    links.append((int(a), int(b), "CAUSALITY", str(rng.choice(["because", "so", "causes"]))))
            i += length
        else:
            i += 1
    for a in rng.choice(n, size=max(1, int(0.03 * n)), replace=False):
        b = int(rng.integers(0, n))
        if b != a:
            links.append((int(a), b, "REFERENCE", str(rng.choice(["references", "based_on", "related"]))))
    return {
        "subject": subject,
        "topic": topic,
        "object": obj,
        "day": day,
        "links": links,
        "type": rng.choice(TYPES, size=n),
        "status": rng.choice(STATUSES, size=n),
        "importance": np.round(rng.uniform(0.1, 0.95, size=n), 2),
        "access": np.where(rng.random(n) < 0.3, rng.integers(1, 30, size=n), 0),
        "noise": rng.standard_normal((n, vocab.subject_vecs.shape[1])).astype(np.float32),
    }


def _day(d: int) -> str:
    return (REFERENCE - timedelta(days=int(d))).date().isoformat()


def build_graph(
    graph: MemoryGraph,
    group_id: str,
    n: int,
    vocab: Vocabulary,
    plan: dict,
    say: Callable[[str], None],
    wait: bool = True,
) -> float:
    """Write the synthetic group; seconds taken."""
    t0 = time.perf_counter()
    store, now = graph.store, REFERENCE.isoformat()
    used = {
        "subject": sorted(set(plan["subject"].tolist())),
        "topic": sorted(set(plan["topic"].tolist())),
        "object": sorted(set(plan["object"].tolist())),
    }
    for label, query, names, vecs in (
        ("subject", "synthetic_subjects", vocab.subjects, vocab.subject_vecs),
        ("topic", "synthetic_topics", vocab.topics, vocab.topic_vecs),
        ("object", "synthetic_objects", vocab.objects, vocab.object_vecs),
    ):
        rows = [
            {
                "id": f"{group_id}-{label}-{i}",
                "name": names[i],
                "key": _key(label, names[i]),
                "embedding": vecs[i].tolist(),
                "kind": "user" if label == "subject" and i == 0 else None,
            }
            for i in used[label]
        ]
        for start in range(0, len(rows), BATCH):
            store.write(query, group_id=group_id, rows=rows[start : start + BATCH], now=now)
    days = sorted(set(plan["day"].tolist()))
    store.write(
        "synthetic_values",
        group_id=group_id,
        now=now,
        rows=[{"id": f"{group_id}-value-{d}", "name": _day(d), "key": _day(d)} for d in days],
    )
    say(f"  concepts written: {sum(len(v) for v in used.values())} + {len(days)} values")
    vectors = (
        0.45 * vocab.subject_vecs[plan["subject"]]
        + 0.6 * vocab.topic_vecs[plan["topic"]]
        + 0.7 * vocab.object_vecs[plan["object"]]
        + 0.02 * plan["noise"]
    )
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for start in range(0, n, BATCH):
        rows = []
        for i in range(start, min(n, start + BATCH)):
            s, t, o, d = (int(plan[k][i]) for k in ("subject", "topic", "object", "day"))
            day = _day(d)
            access = int(plan["access"][i])
            rows.append(
                {
                    "id": f"{group_id}-m{i}",
                    "subject": _key("subject", vocab.subjects[s]),
                    "topic": _key("topic", vocab.topics[t]),
                    "object": _key("object", vocab.objects[o]),
                    "day": day,
                    "memory_type": str(plan["type"][i]),
                    "status": str(plan["status"][i]),
                    "text": f"{vocab.subjects[s]} {vocab.topics[t]} {vocab.objects[o]} (time: {day})",
                    "importance": float(plan["importance"][i]),
                    "occurred_at": f"{day}T12:00:00+00:00",
                    "created_at": f"{day}T12:00:00+00:00",
                    "access_count": access,
                    "last_accessed_at": now if access else None,
                    "embedding": vectors[i].tolist(),
                }
            )
        store.write("synthetic_memories", group_id=group_id, rows=rows)
        if (start // BATCH) % 10 == 9 or start + BATCH >= n:
            say(f"  memories written: {min(n, start + BATCH)}/{n} ({time.perf_counter() - t0:.0f} s)")
    rows = [
        {"source": f"{group_id}-m{a}", "target": f"{group_id}-m{b}", "edge": e, "relation": r}
        for a, b, e, r in plan["links"]
    ]
    for start in range(0, len(rows), 5000):
        store.write("synthetic_links", group_id=group_id, rows=rows[start : start + 5000], now=now)
    if wait:
        store.run("wait_for_indexes")
    say(f"  links written: {len(rows)}; indexes online ({time.perf_counter() - t0:.0f} s)")
    return time.perf_counter() - t0


def _key(label: str, name: str) -> str:
    from ..types import normalize_name

    return "@user" if label == "subject" and name == "I" else normalize_name(name)


def make_queries(n: int, vocab: Vocabulary, plan: dict, rng: np.random.Generator) -> list[str]:
    """Questions about memories that exist, in several shapes (some causal, some 'about')."""
    out = []
    # each memory asked about once, or some twice in a group smaller than the number of queries
    for i in rng.choice(len(plan["subject"]), size=n, replace=n > len(plan["subject"])):
        subject = vocab.subjects[int(plan["subject"][i])]
        topic = vocab.topics[int(plan["topic"][i])]
        obj = vocab.objects[int(plan["object"][i])]
        shape = int(rng.integers(0, 5))
        out.append(
            [
                f"what did {subject} say about the {obj}?",
                f"{subject} {topic}",
                f"why did {subject} {topic.split()[-1]} the {obj}?",
                f"who {topic} a {obj}?",
                f"{obj}",
            ][shape]
        )
    return out


# the retriever's steps (SearchResponse.timings_ms): "embed" and "seeds" overlap (the query is
# embedded while the seeds' first reads run); "embed_wait" is the part of "seeds" spent waiting for
# the vector and "seeds_own" the rest, so the steps of OWN add up to the whole search
STAGES = ("plan", "embed", "seeds", "rank", "expand", "evidence")
OWN = ("plan", "embed_wait", "seeds_own", "rank", "expand", "evidence")


def own_stages(laps: dict[str, list[float]]) -> dict[str, float]:
    """The median of each step's own time (none overlapping), and of what is left of the total
    ("other": the results' assembly after the evidence)."""
    out = {k: round(float(np.median(laps[k])), 1) for k in OWN if k in laps}
    if "total" in laps:
        rest = np.asarray(laps["total"]) - sum(np.asarray(laps[k]) for k in OWN if k in laps)
        out["other"] = round(float(np.median(rest)), 1)
    return out


def embedding_cost(graph: MemoryGraph, queries: list[str]) -> dict[str, float]:
    """The query embedding on its own, as a search runs it (one query at a time): its latency and
    this process's CPU for it (every thread the models use), per query."""
    times = []
    cpu = time.process_time()
    for q in queries:
        t = time.perf_counter()
        embed_query(graph.embedder, [q])
        times.append((time.perf_counter() - t) * 1000)
    cpu_ms = (time.process_time() - cpu) * 1000 / max(len(queries), 1)
    return {**percentiles(times), "cpu_ms": _ms(cpu_ms), "queries": len(queries)}


def _ms(value: float) -> float:
    """Milliseconds to 0.1 ms, or to the microsecond below 1 ms (a cached embedding takes a few µs)."""
    return round(value, 1) if value >= 1 else round(value, 3)


def percentiles(values: list[float]) -> dict[str, float]:
    a = np.asarray(values)
    return {
        "p50_ms": _ms(float(np.percentile(a, 50))),
        "p95_ms": _ms(float(np.percentile(a, 95))),
        "p99_ms": _ms(float(np.percentile(a, 99))),
        "mean_ms": _ms(float(a.mean())),
    }


def measure(
    graph: MemoryGraph,
    group_id: str,
    queries: list[str],
    clients: int,
    scan_queries: int,
    say: Callable[[str], None],
    baseline: str = "search_exact_baseline",
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in queries[:10]:  # warm caches and query plans
        for depth in (0, 1, 2):
            graph.search_memories(
                group_id, q, mode="fast" if depth == 0 else "deep", expand_depth=depth, reference_time=REFERENCE
            )
    # steady state: a process that searches a group again holds its vectors (store/vector_copy.py);
    # the copy is built in the background from the second search, and the timing starts once it is
    t = time.perf_counter()
    held = graph._retriever.vectors.wait(group_id, VECTORS_WAIT_S) if graph._retriever is not None else False
    out["vectors_held"] = {"held": held, "wait_s": round(time.perf_counter() - t, 1)}
    if (
        graph._retriever is not None
        and graph.store.read("search_probe", group_id=group_id, cap=1, cache_limit=-1)[0]["episodes"]
    ):
        # a conversation: its turns' vectors too (retriever/turnvectors.py)
        out["vectors_held"]["turns_held"] = graph._retriever.turn_vectors.wait(group_id, VECTORS_WAIT_S)
    say(
        f"  the group's vectors {'held in memory' if held else 'not held: searches use the vector index'} "
        f"(waited {out['vectors_held']['wait_s']} s)"
    )
    out["warm_up_searches"] = _settle(graph, group_id, queries)
    say(f"  warmed up: {out['warm_up_searches']} depth-1 searches until their latency settled")
    meter = CpuMeter(graph)
    for depth in (0, 1, 2):
        times: list[float] = []
        sizes: list[int] = []
        laps: dict[str, list[float]] = {}
        start = meter.mark()
        for q in queries:
            t = time.perf_counter()
            r = graph.search_memories(
                group_id, q, mode="fast" if depth == 0 else "deep", expand_depth=depth, reference_time=REFERENCE
            )
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(r.results))
            for stage, ms in r.timings_ms.items():
                laps.setdefault(stage, []).append(ms)
        # where the time goes: the median of each stage the retriever timed (plan, embed, seeds, expand, evidence)
        stages = {stage: round(float(np.median(v)), 1) for stage, v in laps.items() if stage in STAGES}
        # what one search costs the machine, and the most searches/s its cores could serve
        cpu = meter.per_call(start, len(queries))
        out[f"depth{depth}"] = {
            **percentiles(times),
            "queries": len(queries),
            "mean_results": round(float(np.mean(sizes)), 1),
            "stages_p50_ms": stages,
            "own_p50_ms": own_stages(laps),
            "cpu": cpu,
        }
        say(
            f"  depth {depth}: p50 {out[f'depth{depth}']['p50_ms']} ms, p99 {out[f'depth{depth}']['p99_ms']} ms; "
            f"own time of each step, p50: {', '.join(f'{k} {v}' for k, v in out[f'depth{depth}']['own_p50_ms'].items())}; "
            f"CPU a search: client {cpu['client_cpu_ms']} ms + server {cpu['server_cpu_ms']} ms"
        )
    out["embedding"] = embedding_cost(graph, queries)
    say(
        f"  the query's embedding alone: p50 {out['embedding']['p50_ms']} ms, "
        f"CPU {out['embedding']['cpu_ms']} ms a query"
    )

    lock, latencies = threading.Lock(), []

    def client(q: str) -> None:
        t = time.perf_counter()
        graph.search_memories(group_id, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
        with lock:
            latencies.append((time.perf_counter() - t) * 1000)

    t0, start = time.perf_counter(), meter.mark()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client, queries))
    wall = time.perf_counter() - t0
    one_client = 1000.0 / out["depth1"]["mean_ms"]
    ceiling = out["depth1"]["cpu"]["ceiling_per_s"]
    out["concurrent"] = {
        "clients": clients,
        "queries": len(queries),
        "depth": 1,
        "queries_per_s": round(len(queries) / wall, 1),
        **percentiles(latencies),
        "one_client_queries_per_s": round(one_client, 1),
        "vs_one_client": round(len(queries) / wall / one_client, 2),
        "cpu": meter.per_call(start, len(queries)),
        # the most the cores allow at one search's CPU cost: ceiling / one client
        "ceiling_vs_one_client": round(ceiling / one_client, 2) if ceiling else None,
    }
    say(f"  {clients} clients: {out['concurrent']['queries_per_s']} queries/s")

    scan_times = []
    for q in queries[:scan_queries]:
        t = time.perf_counter()
        embedding = embed_query(graph.embedder, [q])[0]
        graph.store.read(baseline, group_id=group_id, embedding=embedding, k=10)
        scan_times.append((time.perf_counter() - t) * 1000)
    out["exact_scan"] = {**percentiles(scan_times), "queries": len(scan_times)}
    for depth in (0, 1, 2):
        out[f"depth{depth}"]["speedup_vs_scan"] = round(out["exact_scan"]["p50_ms"] / out[f"depth{depth}"]["p50_ms"], 1)
    say(f"  exact scan: p50 {out['exact_scan']['p50_ms']} ms")
    out["targets"] = {
        "depth1_p50": out["depth1"]["p50_ms"] <= TARGETS["depth1_p50_ms"],
        "depth1_p99": out["depth1"]["p99_ms"] <= TARGETS["depth1_p99_ms"],
        "depth2_p50": out["depth2"]["p50_ms"] <= TARGETS["depth2_p50_ms"],
        "speedup": out["depth1"]["speedup_vs_scan"] >= TARGETS["speedup"],
        "concurrency": out["concurrent"]["vs_one_client"] >= TARGETS["concurrency"],
        "concurrent_p99": out["concurrent"]["p99_ms"] <= TARGETS["concurrent_p99_ms"],
    }
    return out


def _settle(graph: MemoryGraph, group_id: str, queries: list[str]) -> int:
    """Depth-1 searches in windows of WARM_WINDOW until a window's median latency is within
    WARM_SETTLED of the window before (at most one pass over the queries): the steady state is
    timed, not a freshly built index or a server still compiling. How many searches it took."""
    last, done = None, 0
    for start in range(0, len(queries), WARM_WINDOW):
        times = []
        for q in queries[start : start + WARM_WINDOW]:
            t = time.perf_counter()
            graph.search_memories(group_id, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
            times.append(time.perf_counter() - t)
        done += len(times)
        median = float(np.median(times))
        if last is not None and abs(median - last) <= WARM_SETTLED * last:
            break
        last = median
    return done


def delete_synthetic(graph: MemoryGraph, prefix: str) -> None:
    """Delete synthetic data in batches small enough for the server's transaction memory."""
    while graph.store.write("synthetic_delete_memories", prefix=prefix, batch=5000)[0]["deleted"]:
        pass
    while graph.store.write("synthetic_delete_concepts", prefix=prefix, batch=500)[0]["deleted"]:
        pass


def run_search_bench(
    graph: MemoryGraph,
    sizes: list[int],
    *,
    n_queries: int = 200,
    clients: int = 10,
    scan_queries: int = 20,
    keep: bool = False,
    seed: int = 7,
    shape: str = "memories",
    tenants: int = 0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``shape``: "memories" (a synthetic group of that many memories) or "conversation" (a
    two-speaker conversation of that many turns, through the real ingest path). ``tenants``: that many
    groups of TENANT_SIZE memories written first, beside every size; their searches are timed
    (and checked against an exact scan of the group alone) while the last size is still there."""
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {', '.join(SHAPES)}, not {shape!r}")
    say = progress or (lambda msg: None)
    graph.ensure_schema()
    version, edition = graph.store.verify()
    try:
        server = {r["name"]: r["value"] for r in graph.store.read("bench_server_memory")}
    except Exception:  # noqa: BLE001 - listing the configuration needs an admin user; it is only context
        server = {}
    report: dict[str, Any] = {
        "machine": {
            **machine(),
            "neo4j": f"{version} {edition}",
            "neo4j_uri": graph.store.uri,
            "neo4j_heap": server.get("server.memory.heap.max_size"),
            "neo4j_pagecache": server.get("server.memory.pagecache.size"),
            "embedding_model": graph.embedder.name,
            # the server whose CPU the figures count (None: not on this machine, none counted)
            "neo4j_pid": CpuMeter(graph).pid,
        },
        "settings": graph.settings.retrieval.model_dump(),
        "targets": TARGETS,
        "shape": shape,
        "sizes": {},
    }
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    vocab = Vocabulary(graph.embedder.embed, rng)
    say(
        f"vocabulary: {len(vocab.subjects) + len(vocab.topics) + len(vocab.objects)} texts embedded "
        f"in {time.perf_counter() - t:.0f} s"
    )
    tenant_prefix = f"bench-search-tenant-s{seed}-"
    plans: dict[str, dict] = {}
    if tenants:
        say(f"[{tenants} tenants of {TENANT_SIZE} memories] groups {tenant_prefix}0 ...")
        build_s, plans = build_tenants(graph, tenant_prefix, tenants, vocab, seed, say)
        report["tenants"] = {"build_s": round(build_s, 1)}
    try:
        for index, n in enumerate(sizes):
            last = index == len(sizes) - 1
            if shape == "memories":
                figures = _measure_memories(
                    graph,
                    n,
                    vocab,
                    seed,
                    n_queries,
                    clients,
                    scan_queries,
                    keep,
                    say,
                    (lambda: measure_tenants(graph, plans, vocab, seed, say)) if plans and last else None,
                )
            else:
                figures = _measure_conversation(
                    graph,
                    n,
                    vocab,
                    seed,
                    n_queries,
                    clients,
                    scan_queries,
                    keep,
                    say,
                    (lambda: measure_tenants(graph, plans, vocab, seed, say)) if plans and last else None,
                )
            tenant_figures = figures.pop("tenants", None)
            if tenant_figures is not None:
                report["tenants"].update(tenant_figures, beside=f"{n} {shape}")
            report["sizes"][str(n)] = figures
        if plans and not sizes:
            report["tenants"].update(measure_tenants(graph, plans, vocab, seed, say), beside="nothing else")
    finally:
        if plans and not keep:
            delete_synthetic(graph, tenant_prefix)
            say("  tenants deleted")
    report["machine"]["load_average_after"] = machine()["load_average"]
    return report


def _flush(graph: MemoryGraph) -> None:
    retriever = graph._retriever
    if retriever is not None:
        retriever.recorder.flush()


def _measure_memories(
    graph: MemoryGraph,
    n: int,
    vocab: Vocabulary,
    seed: int,
    n_queries: int,
    clients: int,
    scan_queries: int,
    keep: bool,
    say: Callable[[str], None],
    beside: Callable[[], dict] | None,
) -> dict[str, Any]:
    group_id = f"bench-search-n{n}-s{seed}"
    size_rng = np.random.default_rng([seed, n])
    plan = build_plan(n, vocab, size_rng)
    queries = make_queries(n_queries, vocab, plan, size_rng)
    existing = graph.store.read("count_memories", group_id=group_id)[0]["n"]
    say(f"[{n} memories] group {group_id}")
    if existing == n:
        build_s, reused = 0.0, True
        say("  reusing the data kept by an earlier run (--keep)")
    else:  # what a run stopped half-way left (concepts before any memory, too) goes first
        delete_synthetic(graph, group_id)
        build_s, reused = build_graph(graph, group_id, n, vocab, plan, say), False
    try:
        figures = measure(graph, group_id, queries, clients, scan_queries, say)
        if beside is not None:
            figures["tenants"] = beside()
    finally:
        _flush(graph)
        if not keep:
            delete_synthetic(graph, group_id)
            say("  deleted")
    return {
        "group_id": group_id,
        "memories": n,
        "links": len(plan["links"]),
        "build_s": round(build_s, 1),
        "reused": reused,
        "kept": keep,
        "example_queries": queries[:5],
        **figures,
    }


def _measure_conversation(
    graph: MemoryGraph,
    n: int,
    vocab: Vocabulary,
    seed: int,
    n_queries: int,
    clients: int,
    scan_queries: int,
    keep: bool,
    say: Callable[[str], None],
    beside: Callable[[], dict] | None,
) -> dict[str, Any]:
    from ..store.admin import delete_group

    group_id = f"bench-search-conv-n{n}-s{seed}"
    size_rng = np.random.default_rng([seed, n, 1])
    convs, statements = plan_conversation(n, vocab, size_rng)
    queries = conversation_queries(n_queries, statements, size_rng)
    probe = graph.store.read("search_probe", group_id=group_id, cap=n + 1, cache_limit=-1)[0]
    say(f"[{n} turns] group {group_id}")
    if probe["episodes"] == n:
        build_s, reused = 0.0, True
        say("  reusing the data kept by an earlier run (--keep)")
    else:
        delete_group(graph.store, group_id)
        build_s, reused = ingest_conversation(graph, group_id, convs, say), False
    counts = graph.store.read("search_probe", group_id=group_id, cap=10 * n, cache_limit=-1)[0]
    try:
        figures = measure(graph, group_id, queries, clients, scan_queries, say, baseline="search_exact_baseline_turns")
        if beside is not None:
            figures["tenants"] = beside()
    finally:
        _flush(graph)
        if not keep:
            delete_group(graph.store, group_id)
            say("  deleted")
    return {
        "group_id": group_id,
        "turns": n,
        "memories": counts["memories"],
        "build_s": round(build_s, 1),
        "reused": reused,
        "kept": keep,
        "example_queries": queries[:5],
        **figures,
    }


# --- a conversation-shaped group --------------------------------------------------------------
OPENERS = ["", "Guess what, ", "Oh, ", "By the way, ", "Honestly, ", "You know, ", "So ", "Yesterday "]
WHENS = [
    "last weekend",
    "yesterday",
    "this morning",
    "a few days ago",
    "last month",
    "on Friday",
    "",
    "after work",
    "with my sister",
    "with some friends",
]
FEELINGS = [
    "It was great",
    "I loved it",
    "It was a bit tiring",
    "I want to do it again",
    "It reminded me of home",
    "It made my day",
    "It was not what I expected",
    "I was so nervous about it",
]
REPLIES = [
    "That sounds amazing!",
    "Wow, how did it go?",
    "I'd love to hear more about it.",
    "Nice, good for you!",
    "Oh no, are you okay?",
    "Haha, that's so you.",
    "Really? Tell me more.",
]
SESSION_TURNS = 20  # turns per session, two speakers taking turns
SHAPES = ("memories", "conversation")


def _turn_text(vocab: Vocabulary, rng: np.random.Generator, topic: int, obj: int, obj2: int) -> str:
    """One turn: a statement about the speaker's life (sometimes two or three sentences, so long
    turns get their sentences embedded apart, as the ingest path does), or a short reply."""
    first = (
        f"{OPENERS[rng.integers(len(OPENERS))]}I {vocab.topics[topic]} the {vocab.objects[obj]} "
        f"{WHENS[rng.integers(len(WHENS))]}".strip()
        + "."
    )
    extra = int(rng.integers(0, 3))
    parts = [first[0].upper() + first[1:]]
    if extra >= 1:
        parts.append(f"{FEELINGS[rng.integers(len(FEELINGS))]}, especially the {vocab.objects[obj2]}.")
    if extra >= 2:
        parts.append(f"I will tell you more about the {vocab.objects[obj]} when we meet next time.")
    return " ".join(parts)


def plan_conversation(n: int, vocab: Vocabulary, rng: np.random.Generator) -> tuple[list[Any], list[dict]]:
    """A conversation of ``n`` turns between two friends: sessions of SESSION_TURNS turns between two
    speakers, three days apart; a turn is a statement about the speaker's life (one to three
    sentences: long turns get their sentences embedded apart) or a short reply.
    Returns (the sessions as ``Conversation``s, the statements made)."""
    from ..ingest.models import Message
    from ..ingest.pipeline import Conversation

    speakers = [vocab.subjects[1].split()[0], vocab.subjects[2].split()[0]]
    n_t, n_o = len(vocab.topics), len(vocab.objects)
    topics = rng.choice(n_t, size=n, p=_zipf_weights(n_t, 1.0))
    objects = rng.choice(n_o, size=(n, 2), p=_zipf_weights(n_o, 0.9))
    start = REFERENCE - timedelta(days=3 * (n // SESSION_TURNS + 1))
    statements, convs = [], []
    for s in range(0, n, SESSION_TURNS):
        day = start + timedelta(days=3 * (s // SESSION_TURNS))
        messages = []
        for i in range(s, min(n, s + SESSION_TURNS)):
            speaker = speakers[i % 2]
            if rng.random() < 0.3:
                text = REPLIES[rng.integers(len(REPLIES))]
            else:
                text = _turn_text(vocab, rng, int(topics[i]), int(objects[i, 0]), int(objects[i, 1]))
                statements.append(
                    {"speaker": speaker, "topic": vocab.topics[topics[i]], "object": vocab.objects[objects[i, 0]]}
                )
            messages.append(
                Message(role="user", content=text, speaker=speaker, timestamp=day + timedelta(minutes=i - s))
            )
        convs.append(Conversation(f"session_{s // SESSION_TURNS + 1}", messages, day))
    return convs, statements


def ingest_conversation(graph: MemoryGraph, group_id: str, convs: list[Any], say: Callable[[str], None]) -> float:
    """Write the sessions through the real ingest path (every turn embedded, a long turn's
    sentences too, memories extracted by the rule extractor), 25 sessions per call; seconds taken."""
    from ..ingest.pipeline import ingestor_for

    t0 = time.perf_counter()
    ingestor, done, total = ingestor_for(graph), 0, sum(len(c.messages) for c in convs)
    for start in range(0, len(convs), 25):
        batch = convs[start : start + 25]
        ingestor.ingest_sessions(group_id, batch, extractor="rules", source="bench")
        done += sum(len(c.messages) for c in batch)
        say(f"  turns ingested: {done}/{total} ({time.perf_counter() - t0:.0f} s)")
    graph.store.run("wait_for_indexes")
    return time.perf_counter() - t0


def conversation_queries(n: int, statements: list[dict], rng: np.random.Generator) -> list[str]:
    """Questions about what was said, in several shapes."""
    out = []
    for i in rng.choice(len(statements), size=n, replace=n > len(statements)):
        st = statements[int(i)]
        verb = st["topic"].split()[-1]
        shape = int(rng.integers(0, 4))
        out.append(
            [
                f"What did {st['speaker']} say about the {st['object']}?",
                f"Which {st['object']} did {st['speaker']} mention?",
                f"Who {verb} the {st['object']}?",
                f"{st['speaker']} {st['topic']} {st['object']}",
            ][shape]
        )
    return out


# --- many tenants -------------------------------------------------------------------------------
TENANT_SIZE = 100  # memories per small tenant
TENANTS_SAMPLED = 10  # tenants whose searches are timed
TENANT_QUERIES = 20  # queries per sampled tenant


def build_tenants(
    graph: MemoryGraph, prefix: str, tenants: int, vocab: Vocabulary, seed: int, say: Callable[[str], None]
) -> tuple[float, dict[str, dict]]:
    """``tenants`` groups of TENANT_SIZE memories each (``<prefix><i>``), built like the others
    (reused when a kept run left them complete). Returns (seconds, plans by group)."""
    t0 = time.perf_counter()
    plans = {}
    for i in range(tenants):
        group_id = f"{prefix}{i}"
        plan = build_plan(TENANT_SIZE, vocab, np.random.default_rng([seed, TENANT_SIZE, i]))
        plans[group_id] = plan
        if graph.store.read("count_memories", group_id=group_id)[0]["n"] != TENANT_SIZE:
            delete_synthetic(graph, group_id)
            build_graph(graph, group_id, TENANT_SIZE, vocab, plan, lambda msg: None, wait=False)
        if (i + 1) % 100 == 0 or i + 1 == tenants:
            say(f"  tenants written: {i + 1}/{tenants} ({time.perf_counter() - t0:.0f} s)")
    graph.store.run("wait_for_indexes")
    return time.perf_counter() - t0, plans


def _variant(graph: MemoryGraph, scan: bool) -> MemoryGraph:
    """The graph's settings without the access part of the score; ``scan``: every group scanned
    exactly, nothing held in memory."""
    settings = graph.settings.model_copy(deep=True)
    settings.retrieval.ranking.weights.epsilon_access = 0.0
    if scan:
        settings.retrieval.limits.vector_cache_mb = 0
        settings.retrieval.limits.vector_scan_limit = settings.retrieval.limits.exact_scan_limit
    return MemoryGraph(settings, embedder=graph.embedder)


# Two scores this close are one tie: held vectors are float32, an exact scan's cosines are computed by
# the server, and the two paths differ in the last bits.
SCORE_TIE = 1e-5


def same_ranking(a: list[SearchResult], b: list[SearchResult]) -> bool:
    """Whether two result lists are one ranking: the same scores place by place (within SCORE_TIE) and the same
    memories in each run of tied scores, in any order (a tie that runs past the list's end may be cut either way)."""
    if len(a) != len(b) or any(abs(x.score - y.score) > SCORE_TIE for x, y in zip(a, b, strict=True)):
        return False
    start = 0
    while start < len(a):
        end = start + 1
        while end < len(a) and abs(a[end].score - a[start].score) <= SCORE_TIE:
            end += 1
        tied_a, tied_b = {x.memory_id for x in a[start:end]}, {x.memory_id for x in b[start:end]}
        if tied_a != tied_b and end < len(a):
            return False
        start = end
    return True


def measure_tenants(
    graph: MemoryGraph, plans: dict[str, dict], vocab: Vocabulary, seed: int, say: Callable[[str], None]
) -> dict[str, Any]:
    """Depth-1 latency of searches in small tenants' groups, and whether they return what an
    exact scan of the group alone returns (what the same search would return in an empty database)."""
    rng = np.random.default_rng([seed, len(plans)])
    sampled = [
        list(plans)[int(i)] for i in rng.choice(len(plans), size=min(TENANTS_SAMPLED, len(plans)), replace=False)
    ]
    asked = [(g, q) for g in sampled for q in make_queries(TENANT_QUERIES, vocab, plans[g], rng)]
    for g, q in asked[:: TENANT_QUERIES // 2]:  # warm: plans, and each group's second search
        graph.search_memories(g, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
        graph.search_memories(g, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
    if graph._retriever is not None:
        for g in sampled:
            graph._retriever.vectors.wait(g, VECTORS_WAIT_S)
    times = []
    for g, q in asked:
        t = time.perf_counter()
        graph.search_memories(g, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
        times.append((time.perf_counter() - t) * 1000)
    # The same searches compared with "alone": every group scanned exactly, no held vectors (what
    # no other tenant can change). Both without the access part of the score: every search
    # records access, which would otherwise move the second run's scores.
    crowded = _variant(graph, scan=False)
    alone = _variant(graph, scan=True)
    try:
        for g in sampled:
            for _ in range(2):
                crowded.search_memories(g, asked[0][1], reference_time=REFERENCE)
            crowded._get_retriever().vectors.wait(g, VECTORS_WAIT_S)
        same = sum(
            same_ranking(
                crowded.search_memories(g, q, mode="deep", expand_depth=1, reference_time=REFERENCE).results,
                alone.search_memories(g, q, mode="deep", expand_depth=1, reference_time=REFERENCE).results,
            )
            for g, q in asked
        )
    finally:
        crowded.close()
        alone.close()
    out = {
        "tenants": len(plans),
        "memories_each": TENANT_SIZE,
        "sampled_groups": len(sampled),
        "queries": len(asked),
        **percentiles(times),
        "same_as_alone": same,
    }
    say(
        f"  {len(sampled)} small tenants among {len(plans)}: depth 1 p50 {out['p50_ms']} ms, p99 {out['p99_ms']} ms; "
        f"same results as an exact scan of the group alone: {same}/{len(asked)}"
    )
    return out
