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
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

import numpy as np

from ..embed import embed_query
from ..graph import MemoryGraph
from .write import machine

TARGETS = {"depth1_p50_ms": 50.0, "depth1_p99_ms": 150.0, "depth2_p50_ms": 100.0, "speedup": 20.0}
REFERENCE = datetime(2025, 11, 5, 18, 0, tzinfo=timezone.utc)
BATCH = 2000

FIRST = ["Alice", "Bob", "Carol", "David", "Emma", "Frank", "Grace", "Henry", "Irene", "Jack", "Karen", "Leo",
         "Maria", "Nina", "Oscar", "Paul", "Queenie", "Rosa", "Sam", "Tina", "Uma", "Victor", "Wendy", "Xavier",
         "Yara", "Zoe", "Aaron", "Bella", "Caleb", "Diana", "Ethan", "Fiona", "George", "Hannah", "Ivan", "Julia",
         "Kevin", "Laura", "Mason", "Nora", "Owen", "Penny", "Quinn", "Ryan", "Sofia", "Theo", "Ursula", "Vince",
         "Willow", "Yusuf", "Zara", "Amir", "Beatrice", "Carlos", "Dmitri", "Elena", "Farid", "Gina", "Hiro",
         "Ines"]
LAST = ["Chen", "Smith", "Garcia", "Müller", "Rossi", "Kim", "Nguyen", "Silva", "Novak", "Cohen", "Dubois",
        "Ivanova", "Khan", "Lopez", "Sato", "Walker", "Young", "Hill", "Ward", "Price", "Reed", "Bailey", "Cooper",
        "Howard", "Brooks", "Gray", "James", "Watson", "Bell", "Murphy", "Rivera", "Foster", "Hughes", "Flores",
        "Long", "Ross", "Perry", "Powell", "Jenkins", "Patel"]
VERBS = ["likes", "visited", "bought", "works at", "plays", "cooked", "read", "watched", "learned", "fixed",
         "painted", "sold", "borrowed", "lost", "found", "built", "planted", "cleaned", "ordered", "returned",
         "recommended", "avoids", "collects", "teaches", "studies", "photographed", "wrote about", "dreams of",
         "worries about", "complained about", "celebrated", "organised", "cancelled", "booked", "rented",
         "repaired", "designed", "sketched", "tasted", "hiked to", "swam in", "ran past", "drove to", "flew to",
         "moved to", "volunteered at", "donated", "adopted", "named", "met", "called", "emailed", "argued with",
         "helped", "visits", "misses", "admires", "distrusts", "prefers", "hates", "loves", "needs", "wants",
         "owns", "uses", "shared", "gifted", "received", "reviewed", "tested", "installed", "upgraded", "lent",
         "carried", "painted over", "forgot", "remembered", "discovered", "explored", "researched"]
ADVERBS = ["", "often", "rarely", "recently"]
ADJECTIVES = ["red", "old", "new", "small", "large", "quiet", "noisy", "cheap", "expensive", "broken", "shiny",
              "wooden", "green", "blue", "famous", "local", "foreign", "vintage", "modern", "tiny", "heavy",
              "light", "warm", "cold", "bright", "dark", "sweet", "bitter", "rare", "common", "favourite", "strange",
              "beautiful", "ugly", "fast", "slow", "electric", "handmade", "digital", "spicy"]
NOUNS = ["bicycle", "guitar", "restaurant", "museum", "park", "book", "laptop", "car", "garden", "kitchen",
         "piano", "camera", "painting", "coffee shop", "library", "beach", "mountain", "lake", "river", "bakery",
         "cinema", "theatre", "stadium", "hospital", "school", "office", "apartment", "house", "boat", "train",
         "plane", "hotel", "market", "bridge", "tower", "castle", "farm", "forest", "island", "village", "city",
         "phone", "watch", "jacket", "shoes", "hat", "scarf", "backpack", "tent", "kayak", "violin", "drum",
         "clarinet", "telescope", "microscope", "chess set", "puzzle", "board game", "novel", "poem", "recipe",
         "soup", "cake", "pizza", "noodles", "dumplings", "salad", "sandwich", "wine", "tea", "juice", "dog",
         "cat", "parrot", "horse", "fish tank", "plant", "sofa", "lamp", "desk", "chair", "bed", "mirror", "clock",
         "printer", "keyboard", "monitor", "headphones", "speaker", "radio", "podcast", "newspaper", "magazine",
         "concert", "festival", "exhibition", "workshop"]
TYPES = (["EVENT"] * 45) + (["FACT"] * 30) + (["RELATION"] * 10) + (["OPINION"] * 15)
STATUSES = (["staged"] * 30) + (["consolidated"] * 65) + (["archived"] * 5)


def _zipf_weights(n: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1) ** s
    return w / w.sum()


class Vocabulary:
    """Names, topics and objects, each embedded once."""

    def __init__(self, embed: Callable[[list[str]], list[list[float]]], rng: np.random.Generator):
        names = [f"{f} {l}" for f in FIRST for l in LAST]
        rng.shuffle(names)
        self.subjects = ["I"] + names[:2000]
        self.topics = [f"{a} {v}".strip() for v in VERBS for a in ADVERBS]
        objects = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
        rng.shuffle(objects)
        self.objects = objects[:3000]
        texts = self.subjects + self.topics + self.objects
        vectors = np.asarray(embed(texts), dtype=np.float32)
        n_s, n_t = len(self.subjects), len(self.topics)
        self.subject_vecs, self.topic_vecs = vectors[:n_s], vectors[n_s:n_s + n_t]
        self.object_vecs = vectors[n_s + n_t:]


def build_plan(n: int, vocab: Vocabulary, rng: np.random.Generator) -> dict[str, Any]:
    """The memories (as index arrays) and links of a synthetic group of n memories."""
    n_sub = len(vocab.subjects) - 1
    user = rng.random(n) < 0.2
    subject = np.where(user, 0, 1 + rng.choice(n_sub, size=n, p=_zipf_weights(n_sub, 0.8)))
    topic = rng.choice(len(vocab.topics), size=n, p=_zipf_weights(len(vocab.topics), 1.0))
    obj = rng.choice(len(vocab.objects), size=n, p=_zipf_weights(len(vocab.objects), 0.9))
    day = rng.integers(0, 730, size=n)
    links: list[tuple[int, int, str, str]] = []
    order = np.argsort(subject, kind="stable")           # chains within one subject
    i = 0
    while i < n:
        if rng.random() < 0.033:                         # ~10% of memories sit in a chain of 2-4
            length = int(rng.integers(2, 5))
            chain = order[i:i + length]
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
    return {"subject": subject, "topic": topic, "object": obj, "day": day, "links": links,
            "type": rng.choice(TYPES, size=n), "status": rng.choice(STATUSES, size=n),
            "importance": np.round(rng.uniform(0.1, 0.95, size=n), 2),
            "access": np.where(rng.random(n) < 0.3, rng.integers(1, 30, size=n), 0),
            "noise": rng.standard_normal((n, vocab.subject_vecs.shape[1])).astype(np.float32)}


def _day(d: int) -> str:
    return (REFERENCE - timedelta(days=int(d))).date().isoformat()


def build_graph(graph: MemoryGraph, group_id: str, n: int, vocab: Vocabulary, plan: dict,
                say: Callable[[str], None]) -> float:
    """Write the synthetic group; seconds taken."""
    t0 = time.perf_counter()
    store, now = graph.store, REFERENCE.isoformat()
    used = {"subject": sorted(set(plan["subject"].tolist())), "topic": sorted(set(plan["topic"].tolist())),
            "object": sorted(set(plan["object"].tolist()))}
    for label, query, names, vecs in (("subject", "synthetic_subjects", vocab.subjects, vocab.subject_vecs),
                                      ("topic", "synthetic_topics", vocab.topics, vocab.topic_vecs),
                                      ("object", "synthetic_objects", vocab.objects, vocab.object_vecs)):
        rows = [{"id": f"{group_id}-{label}-{i}", "name": names[i], "key": _key(label, names[i]),
                 "embedding": vecs[i].tolist(), "kind": "user" if label == "subject" and i == 0 else None}
                for i in used[label]]
        for start in range(0, len(rows), BATCH):
            store.write(query, group_id=group_id, rows=rows[start:start + BATCH], now=now)
    days = sorted(set(plan["day"].tolist()))
    store.write("synthetic_values", group_id=group_id, now=now,
                rows=[{"id": f"{group_id}-value-{d}", "name": _day(d), "key": _day(d)} for d in days])
    say(f"  concepts written: {sum(len(v) for v in used.values())} + {len(days)} values")
    vectors = (0.45 * vocab.subject_vecs[plan["subject"]] + 0.6 * vocab.topic_vecs[plan["topic"]]
               + 0.7 * vocab.object_vecs[plan["object"]] + 0.02 * plan["noise"])
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for start in range(0, n, BATCH):
        rows = []
        for i in range(start, min(n, start + BATCH)):
            s, t, o, d = (int(plan[k][i]) for k in ("subject", "topic", "object", "day"))
            day = _day(d)
            access = int(plan["access"][i])
            rows.append({"id": f"{group_id}-m{i}", "subject": _key("subject", vocab.subjects[s]),
                         "topic": _key("topic", vocab.topics[t]), "object": _key("object", vocab.objects[o]),
                         "day": day, "memory_type": str(plan["type"][i]), "status": str(plan["status"][i]),
                         "text": f"{vocab.subjects[s]} {vocab.topics[t]} {vocab.objects[o]} (time: {day})",
                         "importance": float(plan["importance"][i]), "occurred_at": f"{day}T12:00:00+00:00",
                         "created_at": f"{day}T12:00:00+00:00", "access_count": access,
                         "last_accessed_at": now if access else None, "embedding": vectors[i].tolist()})
        store.write("synthetic_memories", group_id=group_id, rows=rows)
        if (start // BATCH) % 10 == 9 or start + BATCH >= n:
            say(f"  memories written: {min(n, start + BATCH)}/{n} ({time.perf_counter() - t0:.0f} s)")
    rows = [{"source": f"{group_id}-m{a}", "target": f"{group_id}-m{b}", "edge": e, "relation": r}
            for a, b, e, r in plan["links"]]
    for start in range(0, len(rows), 5000):
        store.write("synthetic_links", group_id=group_id, rows=rows[start:start + 5000], now=now)
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
        out.append([f"what did {subject} say about the {obj}?", f"{subject} {topic}",
                    f"why did {subject} {topic.split()[-1]} the {obj}?", f"who {topic} a {obj}?",
                    f"{obj}"][shape])
    return out


def percentiles(values: list[float]) -> dict[str, float]:
    a = np.asarray(values)
    return {"p50_ms": round(float(np.percentile(a, 50)), 1), "p95_ms": round(float(np.percentile(a, 95)), 1),
            "p99_ms": round(float(np.percentile(a, 99)), 1), "mean_ms": round(float(a.mean()), 1)}


def measure(graph: MemoryGraph, group_id: str, queries: list[str], clients: int, scan_queries: int,
            say: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in queries[:10]:                                          # warm caches and query plans
        for depth in (0, 1, 2):
            graph.search_memories(group_id, q, mode="fast" if depth == 0 else "deep", expand_depth=depth,
                                  reference_time=REFERENCE)
    for depth in (0, 1, 2):
        times, sizes, laps = [], [], {}
        for q in queries:
            t = time.perf_counter()
            r = graph.search_memories(group_id, q, mode="fast" if depth == 0 else "deep", expand_depth=depth,
                                      reference_time=REFERENCE)
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(r.results))
            for stage, ms in r.timings_ms.items():
                laps.setdefault(stage, []).append(ms)
        # where the time goes: the median of each stage the retriever timed (plan, embed, seeds, expand, evidence)
        stages = {stage: round(float(np.median(v)), 1) for stage, v in laps.items() if stage != "total"}
        out[f"depth{depth}"] = {**percentiles(times), "queries": len(queries),
                                "mean_results": round(float(np.mean(sizes)), 1), "stages_p50_ms": stages}
        say(f"  depth {depth}: p50 {out[f'depth{depth}']['p50_ms']} ms, p99 {out[f'depth{depth}']['p99_ms']} ms "
            f"(stages p50: {', '.join(f'{k} {v}' for k, v in stages.items())})")

    lock, latencies = threading.Lock(), []

    def client(q: str) -> None:
        t = time.perf_counter()
        graph.search_memories(group_id, q, mode="deep", expand_depth=1, reference_time=REFERENCE)
        with lock:
            latencies.append((time.perf_counter() - t) * 1000)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client, queries))
    wall = time.perf_counter() - t0
    out["concurrent"] = {"clients": clients, "queries": len(queries), "depth": 1,
                         "queries_per_s": round(len(queries) / wall, 1), **percentiles(latencies)}
    say(f"  {clients} clients: {out['concurrent']['queries_per_s']} queries/s")

    scan_times = []
    for q in queries[:scan_queries]:
        t = time.perf_counter()
        embedding = embed_query(graph.embedder, [q])[0]
        graph.store.read("search_exact_baseline", group_id=group_id, embedding=embedding, k=10)
        scan_times.append((time.perf_counter() - t) * 1000)
    out["exact_scan"] = {**percentiles(scan_times), "queries": len(scan_times)}
    for depth in (0, 1, 2):
        out[f"depth{depth}"]["speedup_vs_scan"] = round(out["exact_scan"]["p50_ms"] / out[f"depth{depth}"]["p50_ms"], 1)
    say(f"  exact scan: p50 {out['exact_scan']['p50_ms']} ms")
    out["targets"] = {
        "depth1_p50": out["depth1"]["p50_ms"] <= TARGETS["depth1_p50_ms"],
        "depth1_p99": out["depth1"]["p99_ms"] <= TARGETS["depth1_p99_ms"],
        "depth2_p50": out["depth2"]["p50_ms"] <= TARGETS["depth2_p50_ms"],
        "speedup": out["depth1"]["speedup_vs_scan"] >= TARGETS["speedup"]}
    return out


def delete_synthetic(graph: MemoryGraph, prefix: str) -> None:
    """Delete synthetic data in batches small enough for the server's transaction memory."""
    while graph.store.write("synthetic_delete_memories", prefix=prefix, batch=5000)[0]["deleted"]:
        pass
    while graph.store.write("synthetic_delete_concepts", prefix=prefix, batch=500)[0]["deleted"]:
        pass


def run_search_bench(graph: MemoryGraph, sizes: list[int], *, n_queries: int = 200, clients: int = 10,
                     scan_queries: int = 20, keep: bool = False, seed: int = 7,
                     progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    say = progress or (lambda msg: None)
    graph.ensure_schema()
    version, edition = graph.store.verify()
    try:
        server = {r["name"]: r["value"] for r in graph.store.read("bench_server_memory")}
    except Exception:  # noqa: BLE001 - listing the configuration needs an admin user; it is only context
        server = {}
    report: dict[str, Any] = {
        "machine": {**machine(), "neo4j": f"{version} {edition}", "neo4j_uri": graph.store.uri,
                    "neo4j_heap": server.get("server.memory.heap.max_size"),
                    "neo4j_pagecache": server.get("server.memory.pagecache.size"),
                    "embedding_model": graph.embedder.name},
        "settings": graph.settings.retrieval.model_dump(), "targets": TARGETS, "sizes": {}}
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    vocab = Vocabulary(graph.embedder.embed, rng)
    say(f"vocabulary: {len(vocab.subjects) + len(vocab.topics) + len(vocab.objects)} texts embedded "
        f"in {time.perf_counter() - t:.0f} s")
    for n in sizes:
        group_id = f"bench-search-n{n}-s{seed}"
        size_rng = np.random.default_rng([seed, n])
        plan = build_plan(n, vocab, size_rng)
        queries = make_queries(n_queries, vocab, plan, size_rng)
        existing = graph.store.read("count_memories", group_id=group_id)[0]["n"]
        say(f"[{n} memories] group {group_id}")
        if existing == n:
            build_s, reused = 0.0, True
            say("  reusing the data kept by an earlier run (--keep)")
        else:       # what a run stopped half-way left (concepts before any memory, too) goes first
            delete_synthetic(graph, group_id)
            build_s, reused = build_graph(graph, group_id, n, vocab, plan, say), False
        try:
            figures = measure(graph, group_id, queries, clients, scan_queries, say)
        finally:
            retriever = graph._retriever
            if retriever is not None:
                retriever.recorder.flush()
            if not keep:
                delete_synthetic(graph, group_id)
                say("  deleted")
        report["sizes"][str(n)] = {"group_id": group_id, "memories": n, "links": len(plan["links"]),
                                   "build_s": round(build_s, 1), "reused": reused, "kept": keep,
                                   "example_queries": queries[:5], **figures}
    report["machine"]["load_average_after"] = machine()["load_average"]
    return report
