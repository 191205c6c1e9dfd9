"""`graphmem bench faults`: what holds when things go wrong, tried on a throw-away local Neo4j.

Each scenario tries something and checks, in the database, what a user relies on:

- ``server_stopped``: the server stops under a working client; every API call, CLI command and
  tool call then fails within ``STOPPED_LIMIT_S`` with one line naming the URI, and no driver
  warning reaches the terminal;
- ``kill9_writes``: ``kill -9`` of Neo4j while writers create memories and ingest turns with
  idempotency keys, then a restart; the writers retry with the same keys and go on with the same
  client objects. Every acknowledged write is present and whole, none is duplicated;
- ``restart_under_load``: a clean stop and start while clients search and write; they recover
  without being recreated, and only the named unavailable error is seen meanwhile;
- ``fuzz``: random tool calls through ``dispatch`` (valid ones, and ones made invalid in a known
  way): no exception escapes, no invalid call succeeds, no write is partial;
- ``cross_group``: random operations among look-alike groups (alice, Alice, alice_, alicе with a
  Cyrillic е, ...): no result, link or change crosses groups;
- ``delete_under_writes``: ``delete_group`` of a large group while others write: nothing of it is
  left under any label, nothing of the others is lost or changed;
- ``refused_password``: wrong passwords in a row (Neo4j's rate limit answers after three): the
  same one line from every CLI call, the same named error from every API call;
- ``oversized_mcp``: a 100 kB value over MCP stdio and streamable HTTP: a short tool error;
- ``stranded_job``: kill -9 of Neo4j during an extraction: the ingest says the job is still
  running, stats count it stranded, and the next ingest takes it up and finishes it.

The tests (tests/test_faults.py) run the same scenarios, smaller.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import redirect_stderr
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..config import Settings
from ..errors import GraphmemError, Neo4jUnavailableError, NotFoundError, WriteOutcomeUnknownError
from ..store.driver import RECOVERY_GRACE_S
from ..types import MAX_ID, MAX_NAME, MEMORY_TYPE_VALUES, RELATION_TYPE_VALUES

STOPPED_LIMIT_S = 5.0  # the target: a call against a stopped server fails within this
FAILURE_SLACK_S = 1.0  # beyond retry budget + grace: the last round trip and the thread handing the error back
SCRATCH_CONF = "db.tx_log.preallocate=false\ndb.tx_log.rotation.size=16M\n"
Say = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


# --- a throw-away server ---------------------------------------------------------------------


@dataclass
class Scratch:
    """A local Neo4j in its own home on a free port, and settings that reach it."""

    local: Any
    settings: Settings
    home: Path
    restarts: list[float] = field(default_factory=list)

    @classmethod
    def create(
        cls, base: Settings, home: Path, *, heap: str = "512m", pagecache: str = "128m", jvm: tuple[str, ...] = ()
    ) -> Scratch:
        """``jvm``: flags for its JVM (``server.jvm.additional``), e.g. ``launcher.SHORT_LIVED_JVM``."""
        from ..server import LocalNeo4j, free_port

        home.joinpath("conf").mkdir(parents=True, exist_ok=True)
        flags = "".join(f"server.jvm.additional={flag}\n" for flag in jvm)
        home.joinpath("conf", "extra.conf").write_text(SCRATCH_CONF + flags)
        settings = base.model_copy(deep=True)
        settings.server.home = home
        settings.server.bolt_port = free_port()
        settings.server.heap = heap
        settings.server.pagecache = pagecache
        settings.neo4j.uri = None
        settings.neo4j.password = None
        return cls(LocalNeo4j(settings), settings, home)

    def start(self) -> float:
        """Start (or restart) the server; the seconds it took."""
        t0 = time.monotonic()
        info = self.local.start()
        self.settings.neo4j.uri = info.uri
        self.settings.neo4j.password = info.password
        took = time.monotonic() - t0
        self.restarts.append(took)
        return took

    def stop(self) -> None:
        self.local.stop()

    def kill9(self) -> int:
        """SIGKILL the server process (no shutdown at all); returns its pid."""
        pid = self.local.pid()
        if pid is None:
            raise RuntimeError("the scratch server is not running")
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while self.local.pid() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        return pid

    @property
    def uri(self) -> str:
        return self.settings.effective_uri()

    @property
    def auth(self) -> tuple[str, str]:
        """The user and password of the started server."""
        if self.settings.neo4j.password is None:
            raise RuntimeError("the scratch server is not started")
        return self.settings.neo4j.user, self.settings.neo4j.password


def _graph(settings: Settings, embedder: Any):
    from ..graph import MemoryGraph

    return MemoryGraph(settings.model_copy(deep=True), embedder=embedder)


def _count(store: Any, query: str, **params: Any) -> int:
    return store.run_text(query, **params)[0]["n"]


# --- the server stopped ----------------------------------------------------------------------


def _timed(fn: Callable[[], Any]) -> dict:
    """Run ``fn``; how long it took, what it raised or returned, and what reached stderr."""
    captured = io.StringIO()
    t0 = time.monotonic()
    try:
        with redirect_stderr(captured):
            out = fn()
        error, message = None, None
        if isinstance(out, dict) and out.get("success") is False:  # dispatch reports, never raises
            error, message = out.get("error"), out.get("message")
    except Exception as exc:  # noqa: BLE001 - the error is what is measured
        error, message = type(exc).__name__, str(exc)
    took = time.monotonic() - t0
    return {"seconds": round(took, 2), "error": error, "message": message, "stderr": captured.getvalue()}


def run_cli(args: list[str], env: dict[str, str], timeout: float = 60) -> dict:
    """``graphmem <args>`` in a subprocess with this package on the path, from an empty directory."""
    root = str(Path(__file__).resolve().parents[2])
    with tempfile.TemporaryDirectory(prefix="graphmem-cli-") as cwd:
        Path(cwd, "graphmem.toml").write_text("# empty\n")
        full = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))}
        full.update(
            env,
            PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""),
            GRAPHMEM_CONFIG=str(Path(cwd, "graphmem.toml")),
            COLUMNS="400",
        )
        t0 = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "graphmem.cli.app", *args],
            cwd=cwd,
            env=full,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        took = time.monotonic() - t0
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    return {"seconds": round(took, 2), "exit_code": proc.returncode, "lines": lines}


def server_stopped(scratch: Scratch, embedder: Any, *, say: Say = _quiet) -> dict:
    """Stop the server under a client that worked; time every kind of call until its error."""
    from ..tools import dispatch

    graph = _graph(scratch.settings, embedder)
    group = "faults-stopped"
    graph.create_memory(group, "I", "fact", "live in", "Lyon")
    graph.search_memories(group, "where do I live?")
    say("stopping the server under a working client")
    scratch.stop()
    uri = scratch.uri
    create = {
        "name": "create_memory",
        "arguments": {"subject": "I", "memory_type": "fact", "topic": "work at", "object": "a bakery"},
    }
    calls = {
        "api create_memory (client was connected)": lambda: graph.create_memory(group, "I", "fact", "like", "tea"),
        "api search_memories": lambda: graph.search_memories(group, "where do I live?"),
        "api get_memory": lambda: graph.get_memory(group, "0" * 32),
        "api stats": lambda: graph.stats(group),
        "api ingest": lambda: graph.ingest(group, [{"role": "user", "content": "I moved to Paris."}]),
        "new client search_memories": lambda: _fresh_search(scratch.settings, embedder, group),
        "dispatch create_memory": lambda: dispatch(graph, {**create, "id": "call_x"}, group_id=group),
        "dispatch search_memories": lambda: dispatch(
            graph, {"name": "search_memories", "arguments": {"query": "where do I live?"}}, group_id=group
        ),
    }
    rows = []
    background = io.StringIO()  # what reaches the terminal between the calls (background threads)
    with redirect_stderr(background):
        for name, fn in calls.items():
            r = _timed(fn)
            r["name"] = name
            r["held"] = (
                r["error"] is not None
                and "Neo4jUnavailable" in (r["error"] or "")
                and uri in (r["message"] or "")
                and r["seconds"] <= STOPPED_LIMIT_S
                and not r["stderr"].strip()
            )
            rows.append(r)
            say(f"  {name}: {r['error']} after {r['seconds']} s")
        graph.close()
    env = {
        "NEO4J_URI": uri,
        "NEO4J_USER": scratch.settings.neo4j.user,
        "NEO4J_PASSWORD": scratch.settings.neo4j.password or "",
    }
    for args in (
        ["search", "-g", "x", "hello"],
        ["stats"],
        ["add", "-g", "x", "-s", "I", "-t", "fact", "--topic", "like", "-o", "tea"],
    ):
        r = run_cli(args, env)
        r["name"] = "cli graphmem " + " ".join(args)
        text = "\n".join(r["lines"])
        r["held"] = (
            r["exit_code"] != 0
            and len(r["lines"]) == 1
            and uri in text
            and "routing" not in text.lower()
            and r["seconds"] <= STOPPED_LIMIT_S
        )
        rows.append(r)
        say(f"  {r['name']}: exit {r['exit_code']} after {r['seconds']} s: {text[:160]}")
    return {
        "scenario": "server_stopped",
        "calls": rows,
        "background_stderr": background.getvalue()[:2000],
        "held": all(r["held"] for r in rows) and not background.getvalue().strip(),
        "max_seconds": max(r["seconds"] for r in rows),
        "limit_s": STOPPED_LIMIT_S,
    }


def _fresh_search(settings: Settings, embedder: Any, group: str) -> Any:
    graph = _graph(settings, embedder)
    try:
        return graph.search_memories(group, "where do I live?")
    finally:
        graph.close()


# --- kill -9 during writes, and a restart under load -------------------------------------------


def _memory(writer: int, i: int) -> dict:
    return {
        "subject": f"writer{writer}",
        "memory_type": "事件",
        "topic": f"step {i % 17}",
        "object": f"item {writer}-{i}",
        "attributes": {"place": f"room {i % 7}", "时间": "2025-11-05"},
    }


RETRY_PAUSE_S = 0.5  # a client's pause before it retries a failed write


class _Writer(threading.Thread):
    """Creates its memories one by one with keys; on an unavailable server it waits and retries
    the same key, with the same client, until ``stop`` is set."""

    def __init__(self, graph: Any, group: str, writer: int, count: int, stop: threading.Event, keys: bool = True):
        super().__init__(name=f"faults-writer-{writer}", daemon=True)
        self.graph, self.group, self.writer, self.count, self.stop, self.keys = graph, group, writer, count, stop, keys
        self.acked: dict[str, str] = {}  # key -> memory id
        self.acked_at: list[float] = []  # monotonic time of each acknowledgement
        self.errors: dict[str, int] = {}
        self.unknown = 0
        self.retried_keys = 0
        self.escaped: list[str] = []

    def run(self) -> None:
        for i in range(self.count):
            key = f"w{self.writer}-{i}"
            tried = False
            while not self.stop.is_set():
                try:
                    result = self.graph.create_memory(
                        self.group, **_memory(self.writer, i), request_id=key if self.keys else None
                    )
                    self.acked[key] = result.memory_id
                    self.acked_at.append(time.monotonic())
                    self.retried_keys += tried
                    break
                except Neo4jUnavailableError as exc:
                    self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
                    self.unknown += isinstance(exc, WriteOutcomeUnknownError)
                    tried = True
                    time.sleep(RETRY_PAUSE_S)
                except Exception as exc:  # noqa: BLE001 - anything else is a finding
                    self.escaped.append(f"{type(exc).__name__}: {exc}"[:300])
                    time.sleep(RETRY_PAUSE_S)
                    tried = True
            else:
                return


class _Ingester(threading.Thread):
    """Ingests one turn per call with a key, retrying like _Writer."""

    def __init__(self, graph: Any, group: str, count: int, stop: threading.Event):
        super().__init__(name="faults-ingester", daemon=True)
        self.graph, self.group, self.count, self.stop = graph, group, count, stop
        self.acked: dict[str, list[str]] = {}  # key -> episode ids
        self.errors = 0
        self.escaped: list[str] = []

    def run(self) -> None:
        for i in range(self.count):
            key = f"ingest-{i}"
            while not self.stop.is_set():
                try:
                    report = self.graph.ingest(
                        self.group,
                        [{"role": "user", "content": f"I visited museum {i} today."}],
                        session_id=f"s-{i}",
                        extractor="rules",
                        request_id=key,
                    )
                    self.acked[key] = list(report.episodes)
                    break
                except Neo4jUnavailableError:
                    self.errors += 1
                    time.sleep(RETRY_PAUSE_S)
                except Exception as exc:  # noqa: BLE001
                    self.escaped.append(f"{type(exc).__name__}: {exc}"[:300])
                    time.sleep(RETRY_PAUSE_S)
            else:
                return


def _check_writes(store: Any, group: str, writers: list[_Writer], ingester: _Ingester | None) -> dict:
    """Every acknowledged write present, whole, and once."""
    acked = {key: mid for w in writers for key, mid in w.acked.items()}
    ids = list(acked.values())
    present = _count(store, "MATCH (m:Memory {group_id: $g}) WHERE m.id IN $ids RETURN count(m) AS n", g=group, ids=ids)
    broken = _count(
        store,
        """
        MATCH (m:Memory {group_id: $g})
        WHERE NOT (m)-[:HAS_SUBJECT]->(:Subject {group_id: $g}) OR NOT (m)-[:HAS_TOPIC]->(:Topic {group_id: $g})
           OR NOT (m)-[:HAS_OBJECT]->(:Object {group_id: $g})
           OR count { (m)-[:ATTRIBUTE]->(:Attribute)-[:VALUE]->(:Value {group_id: $g}) } <> 2
           OR NOT EXISTS { (:Subject)-[:MEMORY_TYPE {memory_id: m.id}]->(:Topic) }
        RETURN count(m) AS n""",
        g=group,
    )
    total = _count(store, "MATCH (m:Memory {group_id: $g}) RETURN count(m) AS n", g=group)
    duplicated = _count(
        store,
        """
        MATCH (m:Memory {group_id: $g}) WITH m.object_name AS o, count(*) AS c WHERE c > 1
        RETURN coalesce(sum(c - 1), 0) AS n""",
        g=group,
    )
    out: dict[str, Any] = {
        "acknowledged": len(acked),
        "present": present,
        "lost": len(acked) - present,
        "partial": broken,
        "memories_in_db": total,
        "duplicates": duplicated,
        "unacknowledged_in_db": total - duplicated - present,
        "outcome_unknown_errors": sum(w.unknown for w in writers),
        "keys_retried": sum(w.retried_keys for w in writers),
        "unavailable_errors": sum(sum(w.errors.values()) for w in writers),
        "escaped": [e for w in writers for e in w.escaped][:5],
    }
    if ingester is not None:
        episodes = [e for eps in ingester.acked.values() for e in eps]
        out["ingests_acknowledged"] = len(ingester.acked)
        out["episodes_present"] = _count(
            store,
            "MATCH (e:Episode {group_id: $g}) WHERE e.id IN $ids RETURN count(e) AS n",
            g=ingester.group,
            ids=episodes,
        )
        out["episodes_duplicated"] = _count(
            store,
            """
            MATCH (e:Episode {group_id: $g}) WITH e.content AS c, count(*) AS k WHERE k > 1
            RETURN coalesce(sum(k - 1), 0) AS n""",
            g=ingester.group,
        )
        out["episodes_lost"] = len(episodes) - out["episodes_present"]
        out["escaped"] += ingester.escaped[:5]
    return out


def kill9_writes(
    scratch: Scratch,
    embedder: Any,
    *,
    writers: int = 3,
    per_writer: int = 40,
    kill_after: int = 30,
    ingests: int = 10,
    down_s: float = 1.0,
    finish_s: float = 90.0,
    timeout_s: float = 300.0,
    say: Say = _quiet,
) -> dict:
    """kill -9 of Neo4j while ``writers`` clients create memories (and one ingests turns) with keys;
    restart; the clients retry with the same keys and finish with the same client objects (they
    are given ``finish_s`` after the restart)."""
    group = "faults-kill9"
    deadline = time.monotonic() + timeout_s
    stop = threading.Event()
    graphs = [_graph(scratch.settings, embedder) for _ in range(writers + 1)]
    graphs[0].ensure_schema()
    # a client whose retry budget outlasts the restart: its call during the outage just takes longer
    patient_settings = scratch.settings.model_copy(deep=True)
    patient_settings.neo4j.retry_budget_s = timeout_s
    patient = _graph(patient_settings, embedder)
    patient.create_memory(group + "-patient", "I", "fact", "wait for", "the server", request_id="p-0")
    patient_out: dict = {}

    def patient_call() -> None:
        t0 = time.monotonic()
        try:
            patient_out["memory_id"] = patient.create_memory(
                group + "-patient", "I", "fact", "wait for", "the restart", request_id="p-1"
            ).memory_id
        except Exception as exc:  # noqa: BLE001
            patient_out["error"] = f"{type(exc).__name__}: {exc}"[:200]
        patient_out["seconds"] = round(time.monotonic() - t0, 1)

    threads = [_Writer(graphs[i], group, i, per_writer, stop) for i in range(writers)]
    ingester = _Ingester(graphs[-1], f"{group}-ingest", ingests, stop) if ingests else None
    for t in threads + ([ingester] if ingester else []):
        t.start()
    while (
        sum(len(t.acked) for t in threads) < kill_after
        and time.monotonic() < deadline
        and any(t.is_alive() for t in threads)
    ):
        time.sleep(0.01)
    acked_at_kill = sum(len(t.acked) for t in threads)
    pid = scratch.kill9()
    t_kill = time.monotonic()
    say(f"kill -9 of Neo4j (pid {pid}) after {acked_at_kill} acknowledged creates")
    waiter = threading.Thread(target=patient_call, daemon=True)
    waiter.start()
    time.sleep(down_s)
    took = scratch.start()
    restarted = time.monotonic()
    say(f"restarted in {took:.1f} s")
    finish_by = restarted + finish_s
    everyone: list[threading.Thread] = [*threads, *([ingester] if ingester else []), waiter]
    for thread in everyone:
        thread.join(max(0.0, finish_by - time.monotonic()))
    stop.set()
    for t in threads + ([ingester] if ingester else []):
        t.join(30)
    recovered = time.monotonic() - t_kill
    check = _check_writes(graphs[0].store, group, threads, ingester)
    check["patient_call"] = patient_out
    after = [t for w in threads for t in w.acked_at if t > restarted]
    check["first_ack_after_restart_s"] = round(min(after) - restarted, 1) if after else None
    check["writes_done_after_restart_s"] = round(max(after) - restarted, 1) if after else None
    for g in graphs + [patient]:
        g.close()
    finished = check["acknowledged"] == writers * per_writer and (ingester is None or len(ingester.acked) == ingests)
    held = (
        check["lost"] == 0
        and check["partial"] == 0
        and check["duplicates"] == 0
        and finished
        and not check["escaped"]
        and check.get("episodes_lost", 0) == 0
        and check.get("episodes_duplicated", 0) == 0
        and "memory_id" in patient_out
    )
    return {
        "scenario": "kill9_writes",
        "writers": writers,
        "per_writer": per_writer,
        "ingests": ingests,
        "acknowledged_at_kill": acked_at_kill,
        "restart_s": round(took, 1),
        "all_finished_s_after_kill": round(recovered, 1),
        "clients_finished": finished,
        **check,
        "held": held,
    }


def restart_under_load(
    scratch: Scratch, embedder: Any, *, clients: int = 3, timeout_s: float = 240.0, say: Say = _quiet
) -> dict:
    """A clean stop and start while clients search and write; they recover with the same objects."""
    group = "faults-restart"
    stop = threading.Event()
    graphs = [_graph(scratch.settings, embedder) for _ in range(clients)]
    graphs[0].create_memory(group, "I", "fact", "live in", "Lyon")
    stats: list[dict[str, Any]] = [
        {"ok": 0, "ok_after_restart": 0, "unavailable": 0, "other": [], "slowest_failure_s": 0.0}
        for _ in range(clients)
    ]
    restarted = threading.Event()

    def client(i: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            t0 = time.monotonic()
            try:
                if n % 2:
                    graphs[i].search_memories(group, "where do I live?")
                else:
                    graphs[i].create_memory(
                        group, f"client{i}", "event", "tick", f"tick {i}-{n}", request_id=f"c{i}-{n}"
                    )
                stats[i]["ok"] += 1
                stats[i]["ok_after_restart"] += restarted.is_set()
            except Neo4jUnavailableError:
                stats[i]["unavailable"] += 1
                stats[i]["slowest_failure_s"] = max(stats[i]["slowest_failure_s"], time.monotonic() - t0)
                time.sleep(0.1)
            except Exception as exc:  # noqa: BLE001
                stats[i]["other"].append(f"{type(exc).__name__}: {exc}"[:200])
                time.sleep(0.1)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(2.0)
    say("stopping Neo4j under load")
    t0 = time.monotonic()
    scratch.stop()
    took = scratch.start()
    restarted.set()
    say(f"restarted in {took:.1f} s")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not all(s["ok_after_restart"] >= 3 for s in stats):
        time.sleep(0.1)
    recovered = time.monotonic() - t0
    stop.set()
    for t in threads:
        t.join(30)
    for g in graphs:
        g.close()
    budget = scratch.settings.neo4j.retry_budget_s
    slowest = max(s["slowest_failure_s"] for s in stats)
    held = all(s["ok_after_restart"] >= 3 and not s["other"] for s in stats) and (
        slowest <= budget + RECOVERY_GRACE_S + FAILURE_SLACK_S
    )
    return {
        "scenario": "restart_under_load",
        "clients": clients,
        "restart_s": round(took, 1),
        "recovered_s_after_stop": round(recovered, 1),
        "calls_ok": sum(s["ok"] for s in stats),
        "unavailable_errors": sum(s["unavailable"] for s in stats),
        "slowest_failure_s": round(slowest, 2),
        "retry_budget_s": budget,
        "limit_s": budget + RECOVERY_GRACE_S + FAILURE_SLACK_S,
        "other_errors": [e for s in stats for e in s["other"]][:5],
        "held": held,
    }


# --- fuzzed tool calls -------------------------------------------------------------------------


SUBJECTS = ["我", "I", "小明", "user", "Alice", "妈妈", "the team"]
TOPICS = ["吃饭", "go hiking", "工作", "sleep", "买了", "live in", "喜欢"]
OBJECTS = ["白米饭", "bread", "Lyon", "不开心", "a red bike", None]
INJECTIONS = [
    "'}) DETACH DELETE n //",
    '") MATCH (n) DETACH DELETE n //',
    "$group_id",
    "` RETURN 1 //",
    "{group_id: 'other'}",
    "*:* OR group_id:*",
    "MATCH (n) RETURN n",
]
BAD_GROUPS = [
    "",
    " ",
    "alice ",
    " alice",
    "alice\t",
    "a/b",
    "a b",
    "x" * (MAX_ID + 1),
    "bad\x00id",
    "\u202eevil",
    "e\u0301",
    None,
    42,
    ["alice"],
    {"id": "alice"},
]


def _text(rng: random.Random, pool: list) -> Any:
    return rng.choice(INJECTIONS) if rng.random() < 0.1 else rng.choice(pool)


def _valid_call(rng: random.Random, known_ids: list[str]) -> tuple[str, dict]:
    kind = rng.choices(["create_memory", "search_memories", "link_memories", "update_memory_importance"], [4, 3, 2, 1])[
        0
    ]
    if kind == "create_memory":
        args: dict = {
            "subject": _text(rng, SUBJECTS),
            "memory_type": rng.choice(MEMORY_TYPE_VALUES),
            "topic": _text(rng, TOPICS),
        }
        obj = rng.choice(OBJECTS)
        if obj is not None:
            args["object"] = obj
        if rng.random() < 0.5:
            args["attributes"] = dict(
                rng.sample(
                    [
                        ("时间", "昨天"),
                        ("place", "home"),
                        ("地点", "超市"),
                        ("reason", _text(rng, INJECTIONS)),
                        ("time", "last night"),
                    ],
                    rng.randint(1, 3),
                )
            )
        if rng.random() < 0.5:
            args["importance"] = round(rng.random(), 2)
    elif kind == "search_memories":
        args = {"query": _text(rng, TOPICS + SUBJECTS + ["why was I tired?", "我吃了什么"])}
        if rng.random() < 0.3:
            args["max_results"] = rng.randint(1, 50)
        if rng.random() < 0.3:
            args["expand_depth"] = rng.randint(0, 2)
        if rng.random() < 0.2:
            args["memory_types"] = rng.sample(MEMORY_TYPE_VALUES, 2)
        if rng.random() < 0.2:
            args["profile"] = rng.choice(["default", "recall", None])
    elif kind == "link_memories":
        args = {
            "source_memory_description": _text(rng, TOPICS),
            "target_memory_description": _text(rng, OBJECTS[:-1]),
            "relation_type": rng.choice(RELATION_TYPE_VALUES),
        }
    else:
        args = {"importance": round(rng.random(), 2)}
        if known_ids and rng.random() < 0.7:
            args["memory_id"] = rng.choice(known_ids)
        else:
            args["memory_description"] = _text(rng, TOPICS)
    return kind, args


def _invalidate(rng: random.Random, kind: str, args: dict) -> tuple[Any, str]:
    """A call made invalid in one known way: (the tool call, what was broken)."""
    args = dict(args)
    required = {
        "create_memory": ["subject", "memory_type", "topic"],
        "search_memories": ["query"],
        "link_memories": ["source_memory_description", "target_memory_description", "relation_type"],
        "update_memory_importance": ["importance"],
    }[kind]
    how = rng.choice(
        [
            "missing",
            "wrong_type",
            "empty",
            "control",
            "too_long",
            "unknown_arg",
            "bad_enum",
            "bad_number",
            "not_json",
            "not_object",
            "unknown_tool",
            "bad_call",
            "bad_attributes",
            "lone_surrogate",
        ]
    )
    if how == "missing":
        args.pop(rng.choice(required))
    elif how == "wrong_type":
        args[rng.choice(required)] = (
            rng.choice([123, ["x"], {"a": 1}, True])
            if kind != "update_memory_importance"
            else rng.choice([["x"], {"a": 1}, True])
        )
    elif how == "empty":
        field_ = rng.choice(
            [f for f in required if f not in ("memory_type", "relation_type", "importance")] or ["query"]
        )
        if kind == "update_memory_importance":
            args.pop("memory_id", None)
            args.pop("memory_description", None)
            how = "no memory named"
        else:
            args[field_] = rng.choice(["", "   ", "\n\t"])
    elif how == "control":
        if kind == "update_memory_importance":
            args.pop("memory_id", None)
            args["memory_description"] = "bad\x00text"
        else:
            field_ = [f for f in required if f not in ("memory_type", "relation_type")][0]
            args[field_] = "bad\x07text\x00"
    elif how == "too_long":
        field_ = {
            "create_memory": "subject",
            "search_memories": "query",
            "link_memories": "source_memory_description",
            "update_memory_importance": "memory_description",
        }[kind]
        args.pop("memory_id", None)
        args[field_] = "长" * (MAX_NAME + 1 if kind == "create_memory" else 2001)
    elif how == "unknown_arg":
        args[rng.choice(["group_id", "subjectt", "DETACH DELETE n", "id"])] = "x"
    elif how == "bad_enum":
        if kind == "create_memory":
            args["memory_type"] = rng.choice(["EVENTS", "事情", "", "fact!"])
        elif kind == "link_memories":
            args["relation_type"] = rng.choice(["causes!", "因果", "", "unrelated"])
        elif kind == "search_memories":
            args["mode"] = rng.choice(["slow", "", "DEEP!"])
        else:
            args["importance"] = "high"
    elif how == "bad_number":
        if kind == "search_memories":
            if rng.random() < 0.5:
                args["max_results"] = rng.choice([0, -1, 1000, "ten"])
            else:
                args["expand_depth"] = rng.choice([-1, 3, 5, "two"])
        else:
            args["importance"] = rng.choice([-0.1, 1.5, float("nan"), "abc", True, float("inf")])
    elif how == "bad_attributes" and kind == "create_memory":
        args["attributes"] = rng.choice(
            [
                ["时间", "昨天"],
                "时间=昨天",
                {"k": {"nested": 1}},
                {"k": ["a"]},
                {f"k{i}": "v" for i in range(21)},
                {"Time": "a", "time": "b"},
            ]
        )
    elif how == "lone_surrogate":
        textual = [f for f in required if f not in ("memory_type", "relation_type", "importance")]
        if textual:
            args[textual[0]] = "bad\ud800text"
        else:
            args.pop("memory_id", None)
            args["memory_description"] = "bad\ud800text"
    elif how in ("not_json", "not_object", "unknown_tool", "bad_call") or how == "bad_attributes":
        if how == "not_json":
            return {"name": kind, "arguments": rng.choice(['{"subject": "我",', "{'a': 1}", "nope", "[1, 2"])}, how
        if how == "not_object":
            return {"name": kind, "arguments": json.dumps(rng.choice([[1, 2], 3, "text", True]))}, how
        if how == "unknown_tool":
            return {
                "name": rng.choice(["delete_memory", "create_memories", "", "  ", "search"]),
                "arguments": args,
            }, how
        if how == "bad_call":
            return rng.choice([None, 42, [kind], "not json", {"function": "x"}, {"arguments": args}]), how
        args.pop(required[0])  # bad_attributes drawn for a tool without attributes
        how = "missing"
    return {
        "name": kind,
        "arguments": json.dumps(args, ensure_ascii=False) if rng.random() < 0.5 and how != "lone_surrogate" else args,
    }, how


def fuzz(
    graph: Any, *, n: int = 10_000, seed: int = 17, group: str | None = None, say: Say = _quiet, every: int = 1000
) -> dict:
    """``n`` random tool calls through dispatch; a third are valid, the rest broken in a known way."""
    from ..tools import dispatch

    rng = random.Random(seed)
    group = group or f"faults-fuzz-{seed}"
    known_ids: list[str] = []
    created: set[str] = set()
    links = 0
    escaped: list[str] = []
    invalid_succeeded: list[str] = []
    unserialisable = 0
    counts = {"valid": 0, "invalid": 0, "bad_group": 0, "succeeded": 0}
    t0 = time.monotonic()
    for i in range(n):
        roll = rng.random()
        kind, args = _valid_call(rng, known_ids)
        target_group: Any = group
        if roll < 0.35:
            call, broken = {"name": kind, "arguments": args, "id": f"call_{i}"}, None
        elif roll < 0.45:
            call, broken = {"name": kind, "arguments": args}, "group_id"
            target_group = rng.choice(BAD_GROUPS)  # one rule for reads and writes
        else:
            call, broken = _invalidate(rng, kind, args)
        counts["valid" if broken is None else "bad_group" if broken == "group_id" else "invalid"] += 1
        try:
            out = dispatch(graph, call, group_id=target_group)
        except BaseException as exc:  # noqa: BLE001 - an escape is the finding
            escaped.append(f"{kind} {broken}: {type(exc).__name__}: {exc}"[:300])
            continue
        try:
            json.dumps(out)
        except (TypeError, ValueError):
            unserialisable += 1
        if out.get("success"):
            counts["succeeded"] += 1
            if broken is not None:
                invalid_succeeded.append(f"{broken}: {str(call)[:200]}")
            elif out.get("tool") == "create_memory":
                created.add(out["memory_id"])
                known_ids.append(out["memory_id"])
            elif out.get("tool") == "link_memories":
                links += 1
        if every and (i + 1) % every == 0:
            say(f"  {i + 1}/{n} calls, {len(escaped)} escaped, {len(invalid_succeeded)} invalid accepted")
    store = graph.store
    in_db = _count(store, "MATCH (m:Memory {group_id: $g}) RETURN count(m) AS n", g=group)
    partial = _count(
        store,
        """
        MATCH (m:Memory {group_id: $g})
        WHERE NOT (m)-[:HAS_SUBJECT]->() OR NOT (m)-[:HAS_TOPIC]->()
           OR (m.object_name IS NOT NULL AND NOT (m)-[:HAS_OBJECT]->())
           OR count { (m)-[:ATTRIBUTE]->(:Attribute)-[:VALUE]->(:Value) } <> count { (m)-[:ATTRIBUTE]->() }
        RETURN count(m) AS n""",
        g=group,
    )
    strays = _count(
        store,
        "MATCH (n) WHERE n.group_id IN $bad RETURN count(n) AS n",
        bad=[g for g in BAD_GROUPS if isinstance(g, str)],
    )
    return {
        "scenario": "fuzz",
        "calls": n,
        "seconds": round(time.monotonic() - t0, 1),
        **counts,
        "escaped": len(escaped),
        "escaped_examples": escaped[:5],
        "invalid_succeeded": len(invalid_succeeded),
        "invalid_succeeded_examples": invalid_succeeded[:5],
        "unserialisable": unserialisable,
        "memories_created": len(created),
        "memories_in_db": in_db,
        "partial": partial,
        "nodes_in_refused_groups": strays,
        "links": links,
        "held": not escaped
        and not invalid_succeeded
        and not unserialisable
        and partial == 0
        and in_db == len(created)
        and strays == 0,
    }


# --- look-alike groups -------------------------------------------------------------------------

LOOKALIKES = [
    "alice",
    "Alice",
    "alice_",
    "alice.",
    "alice-",
    "alice1",
    "alic\u0435",
    "\uff41\uff4c\uff49\uff43\uff45",
    "alice:x",
    "alice@x",
]


def cross_group(graph: Any, *, n: int = 1_000, seed: int = 23, prefix: str = "faults-x", say: Say = _quiet) -> dict:
    """Random creates, searches, lookups, updates, forgets and links among look-alike groups."""
    from ..tools import dispatch

    rng = random.Random(seed)
    groups = [f"{prefix}-{g}" for g in LOOKALIKES]
    owner: dict[str, str] = {}  # memory id -> group
    crossings: list[str] = []
    ops: dict[str, int] = {}
    t0 = time.monotonic()

    def note(kind: str) -> None:
        ops[kind] = ops.get(kind, 0) + 1

    for g in groups:  # every group starts with the same sentence
        owner[graph.create_memory(g, "I", "fact", "live in", "Lyon").memory_id] = g
    for i in range(n):
        g = rng.choice(groups)
        others = [m for m, og in owner.items() if og != g]
        op = rng.choice(
            [
                "create",
                "search",
                "dispatch_search",
                "get_other",
                "update_other",
                "forget_other",
                "link",
                "list",
                "dispatch_update",
            ]
        )
        note(op)
        try:
            if op == "create":
                r = graph.create_memory(
                    g,
                    rng.choice(["I", "我"]),
                    "fact",
                    rng.choice(["live in", "喜欢", "work at"]),
                    rng.choice(["Lyon", "tea", "a bakery", "猫"]),
                )
                owner[r.memory_id] = g
            elif op in ("search", "dispatch_search"):
                query = rng.choice(["where do I live?", "我喜欢什么", "work", "Lyon"])
                if op == "search":
                    found = [r.memory_id for r in graph.search_memories(g, query, expand_depth=2).results]
                else:
                    out = dispatch(graph, {"name": "search_memories", "arguments": {"query": query}}, group_id=g)
                    found = [r["memory_id"] for r in out.get("results", [])]
                crossings += [f"search in {g!r} returned {m} of {owner.get(m)!r}" for m in found if owner.get(m) != g]
            elif op in ("get_other", "update_other", "forget_other") and others:
                victim = rng.choice(others)
                try:
                    if op == "get_other":
                        graph.get_memory(g, victim)
                    elif op == "update_other":
                        graph.update_memory_importance(g, victim, 0.9)
                    else:
                        graph.forget(g, victim)
                    crossings.append(f"{op} in {g!r} reached {victim} of {owner[victim]!r}")
                except NotFoundError:
                    pass
            elif op == "link":
                try:
                    r = graph.link_memories(
                        g,
                        rng.choice(["live in Lyon", "喜欢 tea", "work at a bakery"]),
                        rng.choice(["喜欢猫", "I live in Lyon", "tea"]),
                        "related",
                    )
                    crossings += [
                        f"link in {g!r} used {m} of {owner.get(m)!r}"
                        for m in (r.source_id, r.target_id)
                        if owner.get(m) != g
                    ]
                except GraphmemError:
                    pass
            elif op == "list":
                crossings += [
                    f"list of {g!r} holds {m.id}" for m in graph.list_memories(g, limit=200) if owner.get(m.id) != g
                ]
            elif op == "dispatch_update":
                out = dispatch(
                    graph,
                    {
                        "name": "update_memory_importance",
                        "arguments": {"memory_description": "live in Lyon", "importance": 0.7},
                    },
                    group_id=g,
                )
                if out.get("success") and owner.get(out.get("id") or "") != g:
                    crossings.append(f"update in {g!r} changed {out.get('id')}")
        except Exception as exc:  # noqa: BLE001
            crossings.append(f"{op} in {g!r} raised {type(exc).__name__}: {exc}"[:200])
        if (i + 1) % 250 == 0:
            say(f"  {i + 1}/{n} operations, {len(crossings)} crossings")
    edges = _count(
        graph.store,
        """
        MATCH (a)-[r]-(b) WHERE a.group_id IN $groups AND (b.group_id <> a.group_id
              OR (r.group_id IS NOT NULL AND r.group_id <> a.group_id))
        RETURN count(r) AS n""",
        groups=groups,
    )
    misplaced = _count(
        graph.store,
        """
        UNWIND $pairs AS p MATCH (m:Memory {id: p[0]}) WHERE m.group_id <> p[1] RETURN count(m) AS n""",
        pairs=[[m, g] for m, g in owner.items()],
    )
    refused = 0
    for bad in ("alice ", " alice", "alice\t"):
        try:
            graph.create_memory(f"{prefix}-{bad}", "I", "fact", "live in", "Lyon")
        except GraphmemError:
            refused += 1
    return {
        "scenario": "cross_group",
        "operations": n,
        "groups": len(groups),
        "ops": ops,
        "seconds": round(time.monotonic() - t0, 1),
        "memories": len(owner),
        "crossings": len(crossings),
        "crossing_examples": crossings[:5],
        "cross_group_edges": edges,
        "misplaced_memories": misplaced,
        "whitespace_ids_refused": f"{refused}/3",
        "held": not crossings and edges == 0 and misplaced == 0 and refused == 3,
    }


# --- deleting a group while other groups write ------------------------------------------------------

BULK = """
UNWIND range(1, $n) AS i
CREATE (m:Memory {group_id: $g, id: $g + '-' + toString(i), status: 'staged', memory_type: 'FACT',
                  text: 'bulk memory ' + toString(i), importance: 0.5})
CREATE (m)-[:ATTRIBUTE {key: 'n'}]->(:Attribute {group_id: $g, id: $g + '-a' + toString(i), key: 'n'})
"""


def delete_under_writes(
    graph: Any, *, bulk: int = 20_000, writers: int = 3, per_writer: int = 20, say: Say = _quiet
) -> dict:
    """``delete_group`` of a large group (real memories, turns, working memory and consolidation
    records, plus ``bulk`` memories written directly) while ``writers`` clients write keyed
    memories into their own groups. Afterwards: no node or relationship carries the deleted id,
    every acknowledged write of the others is present and whole, and a bystander group is unchanged."""
    from ..store.admin import count_group_nodes, delete_group

    victim, bystander = "faults-delete", "faults-delete-bystander"
    for group in (victim, bystander):
        graph.create_memory(group, "我", "事件", "吃饭", "白米饭", {"时间": "今天"}, request_id="k")
        graph.create_memory(group, "I", "fact", "live in", "Lyon", {"since": "2020"})
        graph.ingest(group, [{"role": "user", "content": "I visited Paris with my sister."}], extractor="rules")
        graph.set_note(group, "s", "plan", {"step": 1})
        graph.consolidate(group)
    graph.store.run_text(BULK, write=True, g=victim, n=bulk)
    kept = count_group_nodes(graph.store, bystander)
    size = sum(count_group_nodes(graph.store, victim).values())
    stop = threading.Event()
    threads = [_Writer(graph, f"faults-delete-w{i}", i, per_writer, stop) for i in range(writers)]
    say(f"deleting {size} nodes while {writers} writers write into their own groups")
    for t in threads:
        t.start()
    t0 = time.monotonic()
    report = delete_group(graph.store, victim)
    took = time.monotonic() - t0
    for t in threads:
        t.join(300)
    stop.set()
    left = _count(graph.store, "MATCH (n) WHERE n.group_id = $g RETURN count(n) AS n", g=victim)
    left_edges = _count(graph.store, "MATCH ()-[r]->() WHERE r.group_id = $g RETURN count(r) AS n", g=victim)
    checks = [_check_writes(graph.store, t.group, [t], None) for t in threads]
    unchanged = count_group_nodes(graph.store, bystander) == kept
    for group in [bystander] + [t.group for t in threads]:
        delete_group(graph.store, group)
    lost = sum(c["lost"] + c["partial"] + c["duplicates"] for c in checks)
    acked = sum(c["acknowledged"] for c in checks)
    return {
        "scenario": "delete_under_writes",
        "nodes": size,
        "deleted": report.nodes,
        "seconds": round(took, 1),
        "writers": writers,
        "acknowledged": acked,
        "lost_partial_or_duplicated": lost,
        "left_nodes": left,
        "left_edges": left_edges,
        "bystander_unchanged": unchanged,
        "escaped": [e for t in threads for e in t.escaped][:5],
        "held": left == 0
        and left_edges == 0
        and report.nodes == size
        and lost == 0
        and unchanged
        and acked == writers * per_writer,
    }


# --- a refused password, again and again ---------------------------------------------------------


def refused_password(scratch: Scratch, *, calls: int = 5, say: Say = _quiet) -> dict:
    """Wrong passwords in a row for a user that exists: Neo4j answers the first ones Unauthorized,
    then AuthenticationRateLimit. Every CLI call must print the same one line (and exit 1), every
    API call raise the same named error; nothing may escape as a driver error."""
    from neo4j import GraphDatabase

    user = f"faults_{os.getpid()}"
    admin = GraphDatabase.driver(scratch.uri, auth=scratch.auth)
    try:
        admin.execute_query(
            f"CREATE USER {user} IF NOT EXISTS SET PASSWORD 'the-right-one-1' CHANGE NOT REQUIRED",
            database_="system",
        )
        env = {"NEO4J_URI": scratch.uri, "NEO4J_USER": user, "NEO4J_PASSWORD": "a-wrong-one"}
        cli = [run_cli(["stats", "-g", "x"], env) for _ in range(calls)]
        say("  CLI: " + " | ".join(c["lines"][0][:80] if c["lines"] else "" for c in cli))
        settings = scratch.settings.model_copy(deep=True)
        settings.neo4j.user, settings.neo4j.password = user, "a-wrong-one"
        api = []
        for _ in range(calls):
            from ..store.driver import Store

            store = Store(settings)
            try:
                api.append(_timed(partial(store.read, "server_components")))
            finally:
                store.close()
    finally:
        admin.execute_query(f"DROP USER {user} IF EXISTS", database_="system")
        admin.close()
    lines = {tuple(c["lines"]) for c in cli}
    errors = {(a["error"], a["message"]) for a in api}
    return {
        "scenario": "refused_password",
        "calls": calls,
        "cli_lines": sorted(lines),
        "api_errors": sorted(errors),
        "held": len(lines) == 1
        and all(c["exit_code"] == 1 and len(c["lines"]) == 1 for c in cli)
        and len(errors) == 1
        and next(iter(errors))[0] == "Neo4jAuthError",
    }


# --- an oversized MCP request ------------------------------------------------------------------------

MCP_SHORT_BYTES = 2000  # the longest tool error an oversized value may come back as


def oversized_mcp(scratch: Scratch, *, size: int = 100_000, say: Say = _quiet) -> dict:
    """A ``size``-character value (English, and Chinese: three bytes each) sent to `graphmem mcp`
    over stdio and over streamable HTTP: each must come back as a tool error of at most
    MCP_SHORT_BYTES that names the limit, never echo the value or break the transport."""
    import anyio

    try:
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client
    except ModuleNotFoundError:
        return {"scenario": "oversized_mcp", "skipped": "pip install 'graphmem[mcp]'", "held": False}
    root = str(Path(__file__).resolve().parents[2])
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))},
        "NEO4J_URI": scratch.uri,
        "NEO4J_USER": scratch.settings.neo4j.user,
        "NEO4J_PASSWORD": scratch.settings.neo4j.password or "",
        "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    calls = {
        "create_memory subject (English)": (
            "create_memory",
            {"subject": "x" * size, "memory_type": "fact", "topic": "t"},
        ),
        "ingest_conversation text (Chinese)": ("ingest_conversation", {"text": "长" * size}),
    }
    rows: list[dict] = []

    async def send(session: Any, transport: str) -> None:
        await session.initialize()
        for name, (tool, args) in calls.items():
            t0 = time.monotonic()
            try:
                result = await session.call_tool(tool, args)
                text = json.dumps(result.structured_content, ensure_ascii=False) if result.structured_content else ""
                rows.append(
                    {
                        "transport": transport,
                        "call": name,
                        "tool_error": bool(result.is_error),
                        "bytes": len(text.encode()),
                        "message": (result.structured_content or {}).get("message", "")[:160],
                        "seconds": round(time.monotonic() - t0, 2),
                    }
                )
            except Exception as exc:  # noqa: BLE001 - a broken transport is the finding
                rows.append(
                    {
                        "transport": transport,
                        "call": name,
                        "tool_error": False,
                        "bytes": None,
                        "message": f"{type(exc).__name__}: {exc}"[:160],
                        "seconds": round(time.monotonic() - t0, 2),
                    }
                )

    async def over_stdio() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "graphmem.cli.app", "mcp", "--group", "faults-mcp"], env=env
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await send(session, "stdio")

    async def over_http(url: str) -> None:
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as session:
                await send(session, "http")

    say("  over stdio")
    anyio.run(over_stdio)
    from ..server import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli.app", "mcp", "--http", "--port", str(port), "--group", "faults-mcp"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_port(port, server)
        say("  over streamable HTTP")
        anyio.run(over_http, f"http://127.0.0.1:{port}/mcp")
    finally:
        server.terminate()
        server.wait(30)
    held = len(rows) == 2 * len(calls) and all(
        r["tool_error"] and r["bytes"] is not None and r["bytes"] <= MCP_SHORT_BYTES and str(size) in r["message"]
        for r in rows
    )
    return {"scenario": "oversized_mcp", "size": size, "calls": rows, "limit_bytes": MCP_SHORT_BYTES, "held": held}


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"graphmem mcp --http exited: {proc.stderr.read()[-500:] if proc.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"graphmem mcp --http did not listen on port {port} within {timeout:g} s")


# --- an extraction job stranded by a killed server -----------------------------------------------------


class _KillingExtractor:
    """Rules extraction that, the first time, kills the server in the middle of the job."""

    name = "faults-killing"

    def __init__(self, scratch: Scratch):
        from ..ingest.rules import RuleExtractor

        self.scratch, self.rules, self.armed = scratch, RuleExtractor(), True

    def extract(self, episodes: list) -> Any:
        if self.armed:
            self.armed = False
            self.scratch.kill9()
            raise RuntimeError("the extractor's server went away")
        return self.rules.extract(episodes)


def stranded_job(scratch: Scratch, embedder: Any, *, say: Say = _quiet) -> dict:
    """kill -9 of Neo4j while an ingest's extraction job runs: the job cannot be recorded and stays
    running. The ingest must say so (jobs_running), stats must count it as stranded, and the next
    ingest of the group must take it up and finish it (no 900 s lease, no `extract --retry`)."""
    from ..ingest.jobs import job_counts
    from ..store.admin import delete_group

    graph = _graph(scratch.settings, embedder)
    group = "faults-stranded"
    killer = _KillingExtractor(scratch)
    try:
        graph.ensure_schema()
        delete_group(graph.store, group)
        first = graph.ingest(group, [{"role": "user", "content": "I moved to Lisbon last year."}], extractor=killer)
        say(f"  the server was killed during extraction: jobs_running={first.jobs_running}")
        took = scratch.start()
        counts = _wait_counts(lambda: job_counts(graph.store, group))
        t0 = time.monotonic()
        second = graph.ingest(group, [{"role": "user", "content": "I work at a bakery."}], extractor=killer)
        resumed_s = time.monotonic() - t0
        after = job_counts(graph.store, group)
        memories = [m.text for m in graph.list_memories(group)]
    finally:
        graph.close()
    held = (
        first.jobs_running == 1
        and counts.get("running") == 1
        and counts.get("stranded") == 1
        and second.jobs_resumed == first.jobs
        and after["running"] == 0
        and after["done"] == 2
        and any("Lisbon" in m for m in memories)
    )
    return {
        "scenario": "stranded_job",
        "restart_s": round(took, 1),
        "first_report": {"jobs_running": first.jobs_running, "jobs_pending": first.jobs_pending},
        "counts_after_restart": counts,
        "resumed": second.jobs_resumed,
        "resumed_in_s": round(resumed_s, 1),
        "counts_after": after,
        "memories": memories,
        "held": held,
    }


def _wait_counts(read: Callable[[], dict], timeout: float = 120.0) -> dict:
    """``read()`` once the restarted server answers it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return read()
        except Neo4jUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


# --- the whole bench -----------------------------------------------------------------------------


def run_faults_bench(
    base: Settings,
    embedder: Any,
    *,
    fuzz_calls: int = 10_000,
    cross_ops: int = 1_000,
    writers: int = 3,
    per_writer: int = 60,
    say: Say = _quiet,
) -> dict:
    """Every scenario on one throw-away server (started here, deleted at the end)."""
    import shutil

    from .write import machine

    home = Path(tempfile.mkdtemp(prefix="graphmem-faults-"))
    scratch = Scratch.create(base, home / "neo4j")
    load_before = machine()["load_average"]
    results: list[dict] = []
    try:
        say(f"starting a throw-away Neo4j in {home}")
        scratch.start()
        say("kill -9 during writes")
        results.append(
            kill9_writes(
                scratch,
                embedder,
                writers=writers,
                per_writer=per_writer,
                kill_after=per_writer * writers // 3,
                ingests=10,
                say=say,
            )
        )
        say("restart under load")
        results.append(restart_under_load(scratch, embedder, say=say))
        graph = _graph(scratch.settings, embedder)
        try:
            say(f"{fuzz_calls} fuzzed tool calls")
            results.append(fuzz(graph, n=fuzz_calls, say=say))
            say(f"{cross_ops} cross-group operations")
            results.append(cross_group(graph, n=cross_ops, say=say))
            say("delete a group while other groups write")
            results.append(delete_under_writes(graph, say=say))
        finally:
            graph.close()
        say("wrong passwords in a row")
        results.append(refused_password(scratch, say=say))
        say("an oversized MCP request")
        results.append(oversized_mcp(scratch, say=say))
        say("an extraction job stranded by a killed server")
        results.append(stranded_job(scratch, embedder, say=say))
        say("server stopped")
        results.append(server_stopped(scratch, embedder, say=say))
    finally:
        try:
            scratch.stop()
        finally:
            shutil.rmtree(home, ignore_errors=True)
    return {
        "machine": {
            **machine(),
            "load_average_before": load_before,
            "neo4j": scratch.settings.server.version,
            "embedding_model": getattr(embedder, "name", "?"),
        },
        "scenarios": results,
        "held": all(r["held"] for r in results),
    }


def summary_rows(report: dict) -> list[tuple[str, str, str, bool]]:
    """(scenario, what was tried, what held or not, held) per scenario, for the table."""
    rows = []
    for r in report["scenarios"]:
        s = r["scenario"]
        if s == "kill9_writes":
            tried = (
                f"kill -9 after {r['acknowledged_at_kill']} acks; {r['writers']} writers x {r['per_writer']} "
                f"creates + {r['ingests']} ingests, keyed; restart {r['restart_s']} s"
            )
            result = (
                f"{r['acknowledged']} acked, {r['lost']} lost, {r['partial']} partial, {r['duplicates']} duplicates, "
                f"{r.get('episodes_lost', 0)}/{r.get('episodes_duplicated', 0)} episodes lost/duplicated; "
                f"{r['keys_retried']} keys retried ({r['outcome_unknown_errors']} unknown outcomes); "
                f"clients done {r['all_finished_s_after_kill']} s after the kill; a call with a "
                f"longer retry budget waited {r['patient_call'].get('seconds')} s and "
                f"{'succeeded' if 'memory_id' in r['patient_call'] else 'failed'}"
            )
        elif s == "restart_under_load":
            tried = (
                f"stop + start under {r['clients']} clients (search + keyed create, retry budget "
                f"{r['retry_budget_s']:g} s); restart {r['restart_s']} s"
            )
            result = (
                f"recovered {r['recovered_s_after_stop']} s after the stop, same clients; "
                f"{r['unavailable_errors']} unavailable errors (slowest {r['slowest_failure_s']} s, limit "
                f"{r['limit_s']:g} s), {len(r['other_errors'])} other"
            )
        elif s == "fuzz":
            tried = (
                f"{r['calls']} tool calls: {r['valid']} valid, {r['invalid']} broken, {r['bad_group']} bad "
                f"group ids ({r['seconds']} s)"
            )
            result = (
                f"{r['escaped']} escaped, {r['invalid_succeeded']} invalid accepted, {r['partial']} partial; "
                f"{r['memories_in_db']} memories for {r['memories_created']} created; "
                f"{r['nodes_in_refused_groups']} nodes in refused groups"
            )
        elif s == "cross_group":
            tried = f"{r['operations']} operations among {r['groups']} look-alike groups ({r['seconds']} s)"
            result = (
                f"{r['crossings']} crossings, {r['cross_group_edges']} cross-group edges, "
                f"{r['misplaced_memories']} misplaced; whitespace ids refused {r['whitespace_ids_refused']}"
            )
        elif s == "delete_under_writes":
            tried = (
                f"delete_group of {r['nodes']} nodes (every label) while {r['writers']} writers create keyed "
                f"memories in their own groups"
            )
            result = (
                f"{r['deleted']} deleted in {r['seconds']} s; {r['left_nodes']} nodes and {r['left_edges']} "
                f"relationships left with the id; {r['acknowledged']} writes acked, "
                f"{r['lost_partial_or_duplicated']} lost/partial/duplicated; bystander group "
                f"{'unchanged' if r['bystander_unchanged'] else 'CHANGED'}"
            )
        elif s == "refused_password":
            tried = f"{r['calls']} CLI and {r['calls']} API calls in a row with a wrong password (rate limit after 3)"
            line = r["cli_lines"][0][0] if r["cli_lines"] and r["cli_lines"][0] else ""
            result = (
                f"{len(r['cli_lines'])} distinct CLI line(s), {len(r['api_errors'])} distinct API error(s) "
                f"({r['api_errors'][0][0] if r['api_errors'] else '-'}): {line[:90]}"
            )
        elif s == "oversized_mcp":
            if "skipped" in r:
                tried, result = "a 100 kB MCP value", f"skipped: {r['skipped']}"
            else:
                tried = f"{r['size']}-character values (English; Chinese) to `graphmem mcp` over stdio and HTTP"
                biggest = max((c["bytes"] or 0) for c in r["calls"])
                errors = sum(c["tool_error"] for c in r["calls"])
                result = f"{errors}/{len(r['calls'])} tool errors, largest {biggest} bytes (limit {r['limit_bytes']})"
        elif s == "stranded_job":
            tried = f"kill -9 of Neo4j during an ingest's extraction; restart {r['restart_s']} s; the next ingest"
            c = r["counts_after_restart"]
            result = (
                f"ingest said jobs_running={r['first_report']['jobs_running']}; stats: running {c.get('running')}, "
                f"stranded {c.get('stranded')}; next ingest resumed {len(r['resumed'])} in {r['resumed_in_s']} s; "
                f"then running {r['counts_after']['running']}, done {r['counts_after']['done']}"
            )
        else:
            slowest = max(r["calls"], key=lambda c: c["seconds"])
            tried = f"server stopped: {len(r['calls'])} API, dispatch and CLI calls"
            result = (
                f"all failed in <= {r['max_seconds']} s (slowest: {slowest['name']}), one line naming the "
                f"URI, no driver warnings"
                if r["held"]
                else "; ".join(f"{c['name']}: {c['seconds']} s" for c in r["calls"] if not c["held"])
            )
        rows.append((s, tried, result, r["held"]))
    return rows
