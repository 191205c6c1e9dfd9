"""How well a batch keeps both cores busy, measured in a way a busy machine does not undo.

Usage: ``python scripts/write_overlap.py LABEL [BATCHES]`` (default 2 batches of 1,000 of ``graphmem bench write``'s
memories, after its warm-up, into a throw-away group deleted afterwards). While each batch is written, a thread
samples every 4 ms how many threads of this process and of the local Neo4j are runnable (state R in /proc).
Prints one JSON line per run: memories/s (wall: only meaningful on a quiet machine), the samples, and the share
of samples with fewer than 2 runnable threads, when a machine of 2 cores given to graphmem alone would leave one
idle. On a shared machine the threads wait longer for a core, but the work that would overlap still does, so
this share compares two checkouts where the wall clock cannot (run them alternately, ``PYTHONPATH``)."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import uuid

from graphmem.bench.cpu import CpuMeter
from graphmem.bench.write import REFERENCE_TIME, synthetic_memories
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph
from graphmem.store.admin import delete_group

INTERVAL_S = 0.004


def runnable(pid: int, skip: int | None = None) -> int:
    """Threads of process ``pid`` in state R (running or waiting for a core), thread ``skip`` left out."""
    n = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # ended meanwhile
        n += state == "R" and int(tid) != skip
    return n


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    batches = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    graph = MemoryGraph(load_settings())
    server = CpuMeter(graph).pid
    if server is None:
        raise SystemExit("the server does not run on this machine: its threads cannot be read")
    group = f"bench-write-overlap-{uuid.uuid4().hex[:8]}"
    samples: list[int] = []
    stop = threading.Event()

    def sample() -> None:
        me = threading.get_native_id()
        while not stop.is_set():
            samples.append(runnable(os.getpid(), me) + runnable(server))
            time.sleep(INTERVAL_S)

    try:
        for memory in synthetic_memories(20, seed=1000):
            graph.create_memory(group, **memory, reference_time=REFERENCE_TIME)
        graph.create_memories(group, synthetic_memories(100, seed=1001), reference_time=REFERENCE_TIME)
        runs = []
        for b in range(batches):
            samples.clear()
            stop.clear()
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            start = time.perf_counter()
            graph.create_memories(group, synthetic_memories(1000, seed=100 + b), reference_time=REFERENCE_TIME)
            wall = time.perf_counter() - start
            stop.set()
            sampler.join()
            below = sum(n < 2 for n in samples) / max(len(samples), 1)
            runs.append({"memories_per_s": round(1000 / wall, 1), "samples": len(samples), "below_2": round(below, 3)})
        print(json.dumps({"label": label, "load": round(os.getloadavg()[0], 1), "batches": runs}), flush=True)
    finally:
        delete_group(graph.store, group)
        graph.close()


if __name__ == "__main__":
    main()
