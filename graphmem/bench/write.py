"""`graphmem bench write`: latency of single creates and throughput of batch creates.

Runs against the configured (warmed) Neo4j in a throw-away group that is deleted afterwards.
The memories are synthetic but shaped like real ones: Chinese and English mixed, subjects and
topics that recur (so concepts are resolved against existing nodes, as in a long-lived
memory), time attributes that need normalising (今天, 昨晚, last Friday …), places.
"""

from __future__ import annotations

import os
import platform
import random
import shlex
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..store.admin import delete_group
from .cpu import CpuMeter

TARGET_P50_MS = 50.0
TARGET_BATCH_PER_S = 300.0
WARMUP_BATCH = 100
REFERENCE_TIME = datetime(2025, 11, 5, 10, 0, tzinfo=UTC)

_SUBJECTS = ["我", "我", "我", "I", "I", "小明", "妈妈", "同事老王", "Alice", "Bob", "my sister", "the team"]
# (memory type, topic, objects: None for a memory without one)
_ZH: list[tuple[str, str, list[str | None]]] = [
    ("事件", "吃饭", ["白米饭", "面条", "饺子", "火锅", "面包"]),
    ("事件", "跑步", ["公园", "操场", "五公里", None]),
    ("事件", "开会", ["项目评审", "周会", "客户", None]),
    ("事实", "心情", ["不好", "很好", "一般"]),
    ("事实", "身体状态", ["很困", "头疼", "感冒", "精神很好"]),
    ("事实", "工作", ["程序员", "加班", "新项目"]),
    ("关系", "朋友关系", ["小红", "小刚", "老李"]),
    ("关系", "同事关系", ["老王", "张经理"]),
    ("观点", "喜欢", ["打篮球", "下雨天", "咖啡", "这部电影"]),
    ("观点", "讨厌", ["堵车", "早起", "香菜"]),
]
_EN: list[tuple[str, str, list[str | None]]] = [
    ("event", "eat", ["rice", "noodles", "a sandwich", "pizza", "salad"]),
    ("event", "run", ["the park", "5 km", "the river trail", None]),
    ("event", "meeting", ["design review", "standup", "the client", None]),
    ("fact", "mood", ["bad", "great", "so-so"]),
    ("fact", "health", ["tired", "headache", "a cold"]),
    ("fact", "job", ["software engineer", "overtime", "a new project"]),
    ("relation", "friend", ["Carol", "Dave", "Erin"]),
    ("relation", "colleague", ["Frank", "the manager"]),
    ("opinion", "like", ["basketball", "rainy days", "coffee", "this film"]),
    ("opinion", "dislike", ["traffic jams", "early mornings", "cilantro"]),
]
_ZH_TIMES = ["今天", "昨天", "昨晚", "前天", "今天早上8点", "上周三", "下午3点", "2025年11月4日", "三天前", "上个月"]
_EN_TIMES = [
    "today",
    "yesterday",
    "last night",
    "this morning at 8",
    "last Friday",
    "3 days ago",
    "2025-11-04",
    "last week",
    "at 3pm",
    "two weeks ago",
]
_ZH_PLACES = ["家里", "公司", "学校", "超市", "咖啡馆"]
_EN_PLACES = ["home", "the office", "school", "the gym", "a cafe"]


def synthetic_memories(n: int, seed: int = 0) -> list[dict]:
    """``n`` create_memory argument dicts: half Chinese, half English, recurring concepts."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        zh = rnd.random() < 0.5
        subject = rnd.choice([s for s in _SUBJECTS if (s.isascii() != zh)] or _SUBJECTS)
        memory_type, topic, objects = rnd.choice(_ZH if zh else _EN)
        obj = rnd.choice(objects)
        if rnd.random() < 0.15:  # a long tail of new objects, as in real use
            obj = f"{obj or ('东西' if zh else 'thing')} {rnd.randint(1, 10_000)}"
        attributes: dict[str, str] = {}
        if rnd.random() < 0.7:
            attributes["时间" if zh else "time"] = rnd.choice(_ZH_TIMES if zh else _EN_TIMES)
        if rnd.random() < 0.3:
            attributes["地点" if zh else "place"] = rnd.choice(_ZH_PLACES if zh else _EN_PLACES)
        memory = {
            "subject": subject,
            "memory_type": memory_type,
            "topic": topic,
            "attributes": attributes,
            "importance": round(rnd.uniform(0.2, 0.9), 2),
        }
        if obj:
            memory["object"] = obj
        out.append(memory)
    return out


def machine() -> dict[str, Any]:
    """Cores, RAM, CPU model, load, Python: what the numbers were measured on."""
    info: dict[str, Any] = {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }
    try:
        with open("/proc/meminfo") as fh:
            kb = next(int(line.split()[1]) for line in fh if line.startswith("MemTotal:"))
        info["ram_gib"] = round(kb / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        info["ram_gib"] = None
    cpu = platform.processor() or None
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")), cpu)
    except OSError:
        pass
    info["cpu"] = cpu
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        info["load_average"] = None
    try:  # the neo4j-rust-ext package packs parameters (embeddings!) natively instead of in Python
        from neo4j._codec.packstream import v1 as packstream

        info["neo4j_rust_ext"] = getattr(packstream, "_rust_pack", None) is not None
    except ImportError:
        info["neo4j_rust_ext"] = None
    return info


class _TimedEmbedder:
    """Wraps the writer's embedder to split embedding time from database time."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name, self.dimension = inner.name, inner.dimension
        self.times: list[float] = []

    def embed(self, texts):
        t0 = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.times.append(time.perf_counter() - t0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def run_write_bench(
    graph: Any,
    *,
    n_single: int = 200,
    batch_size: int = 1000,
    batches: int = 3,
    warmup: int = 20,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure, clean up, and return the figures (latencies in ms, throughput in memories/s)."""
    say = progress or (lambda _msg: None)
    group = f"bench-write-{uuid.uuid4().hex[:10]}"
    graph.ensure_schema()
    version, edition = graph.store.verify()
    timed = _TimedEmbedder(graph.writer.embedder)
    graph.writer.embedder = timed
    singles: list[float] = []
    embeds: list[float] = []
    batch_rates: list[float] = []
    single_cpu: dict = {}
    batch_cpu: dict = {}
    load_before = machine()["load_average"]
    try:
        say(f"warming up ({warmup} creates and a batch of {WARMUP_BATCH}) in throw-away group {group}")
        for memory in synthetic_memories(warmup, seed=1000):
            graph.create_memory(group, **memory, reference_time=REFERENCE_TIME)
        # the batch query is planned and compiled by Neo4j on its first run: not what is timed
        graph.create_memories(group, synthetic_memories(WARMUP_BATCH, seed=1001), reference_time=REFERENCE_TIME)
        say(f"{n_single} single create_memory calls")
        timed.times.clear()
        meter = CpuMeter(graph)
        mark = meter.mark()
        for memory in synthetic_memories(n_single, seed=1):
            t0 = time.perf_counter()
            graph.create_memory(group, **memory, reference_time=REFERENCE_TIME)
            singles.append(time.perf_counter() - t0)
        single_cpu = meter.per_call(mark, len(singles))
        embeds = list(timed.times)
        mark = meter.mark()
        for b in range(batches):
            memories = synthetic_memories(batch_size, seed=100 + b)
            say(f"batch {b + 1}/{batches}: create_memories of {batch_size}")
            t0 = time.perf_counter()
            graph.create_memories(group, memories, reference_time=REFERENCE_TIME)
            batch_rates.append(batch_size / (time.perf_counter() - t0))
        batch_cpu = meter.per_call(mark, batch_size * len(batch_rates)) if batch_rates else {}
    finally:
        graph.writer.embedder = timed.inner
        say(f"deleting group {group}")
        delete_group(graph.store, group)

    ms = [x * 1000 for x in singles]
    p50 = _percentile(ms, 50)
    overall = (batch_size * len(batch_rates) / sum(batch_size / r for r in batch_rates)) if batch_rates else None
    return {
        "command": shlex.join(["graphmem", *sys.argv[1:]]) if sys.argv and "graphmem" in sys.argv[0] else None,
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            **machine(),
            "load_average_before": load_before,
            "neo4j": f"{version} {edition}",
            "neo4j_uri": graph.store.uri,
            "neo4j_pid": CpuMeter(graph).pid,
            "embedding_model": getattr(timed.inner, "name", None),
            # onnx (onnxruntime, the batch split over `embedding_workers` threads) or torch
            "embedding_backend": getattr(timed.inner, "backend", None),
            "embedding_workers": getattr(timed.inner, "workers", None),
        },
        "single": {
            "n": len(ms),
            "p50_ms": round(p50, 1),
            "p95_ms": round(_percentile(ms, 95), 1),
            "mean_ms": round(statistics.fmean(ms), 1) if ms else None,
            "embedding_p50_ms": round(_percentile([x * 1000 for x in embeds], 50), 1) if embeds else None,
            # this process's CPU per create (embedding, Python, driver), and the local server's:
            # what the load cannot inflate much
            "client_cpu_ms": single_cpu.get("client_cpu_ms"),
            "server_cpu_ms": single_cpu.get("server_cpu_ms"),
            "target_p50_ms": TARGET_P50_MS,
            "meets_target": bool(ms) and p50 <= TARGET_P50_MS,
        },
        "batch": {
            "size": batch_size,
            "batches": len(batch_rates),
            "memories_per_s": [round(r, 1) for r in batch_rates],
            "overall_memories_per_s": round(overall, 1) if overall else None,
            "client_cpu_ms_per_memory": batch_cpu.get("client_cpu_ms"),
            # the local server's CPU per memory, and the most memories/s the cores allow at that cost
            "server_cpu_ms_per_memory": batch_cpu.get("server_cpu_ms"),
            "ceiling_memories_per_s": batch_cpu.get("ceiling_per_s"),
            "target_memories_per_s": TARGET_BATCH_PER_S,
            "meets_target": overall is not None and overall >= TARGET_BATCH_PER_S,
        },
    }
