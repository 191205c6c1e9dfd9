"""Faults, on real servers: a stopped server fails fast in one line, kill -9 during keyed writes
loses and duplicates nothing, idempotency keys make a retried write a no-op, fuzzed tool calls
never escape or half-write, look-alike tenants never see each other, and tenant ids are checked,
never rewritten.

Marked ``faults``: ``pytest -m faults`` runs them alone. The module starts a second throw-away
local server (the tests kill, restart and stop it); ``graphmem bench faults`` runs the same
scenarios (graphmem/bench/faults.py) at full size.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest
from typer.testing import CliRunner

from graphmem.bench import faults
from graphmem.errors import (
    Neo4jAuthError,
    Neo4jDatabaseNotFoundError,
    Neo4jPermissionError,
    Neo4jUnavailableError,
    NotFoundError,
    ValidationError,
    WriteOutcomeUnknownError,
)
from graphmem.server import MissingToolError
from graphmem.server.launcher import SHORT_LIVED_JVM
from graphmem.store.admin import delete_group
from graphmem.tools import dispatch

pytestmark = pytest.mark.faults


@pytest.fixture(scope="module")
def scratch(neo4j_settings, tmp_path_factory):
    """A second local Neo4j for this module, which the tests kill -9, restart and finally stop."""
    home = tmp_path_factory.mktemp("scratch") / "neo4j"
    server = faults.Scratch.create(neo4j_settings, home, jvm=SHORT_LIVED_JVM)
    try:
        server.start()
    except MissingToolError as exc:
        pytest.skip(f"no Java/Maven for a second local server: {exc}")
    yield server
    server.stop()


@pytest.fixture
def slow_only(request):
    """Skips a test unless the run selects slow tests (``-m slow`` or ``-m "faults and slow"``)."""
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("slow: run with -m slow")


def _nodes(graph, group_id: str) -> int:
    return graph.store.run_text("MATCH (n {group_id: $g}) RETURN count(n) AS n", g=group_id)[0]["n"]


def _memories(graph, group_id: str) -> int:
    return graph.store.run_text("MATCH (m:Memory {group_id: $g}) RETURN count(m) AS n", g=group_id)[0]["n"]


# --- idempotency keys -------------------------------------------------------------------------------


def test_a_repeated_request_id_writes_once_and_returns_the_first_result(graph, group_id):
    first = graph.create_memory(group_id, "我", "事件", "吃饭", "白米饭", {"时间": "昨天"}, request_id="req-1")
    again = graph.create_memory(group_id, "我", "事件", "吃饭", "白米饭", {"时间": "昨天"}, request_id="req-1")
    assert again == first and _memories(graph, group_id) == 1

    batch = [
        {"subject": "I", "memory_type": "fact", "topic": "live in", "object": "Lyon"},
        {"subject": "I", "memory_type": "fact", "topic": "work at", "object": "a bakery"},
    ]
    ids = [r.memory_id for r in graph.create_memories(group_id, batch, request_id="req-2")]
    assert [r.memory_id for r in graph.create_memories(group_id, batch, request_id="req-2")] == ids
    assert _memories(graph, group_id) == 3

    link = graph.link_memories(group_id, "work at a bakery", "live in Lyon", "related", request_id="req-3")
    assert graph.link_memories(group_id, "work at a bakery", "live in Lyon", "related", request_id="req-3") == link

    turns = [{"role": "user", "content": "I adopted a cat named Miso last week."}]
    report = graph.ingest(group_id, turns, extractor="rules", request_id="req-4")
    repeat = graph.ingest(group_id, turns, extractor="rules", request_id="req-4")
    assert repeat.episodes == report.episodes and repeat.memories == report.memories
    episodes = graph.store.run_text("MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n", g=group_id)[0]["n"]
    assert episodes == 1


def test_request_ids_are_per_group_and_not_reusable_for_another_write(graph, group_id):
    other = group_id + "-other"
    try:
        a = graph.create_memory(group_id, "I", "fact", "like", "tea", request_id="same-key")
        b = graph.create_memory(other, "I", "fact", "like", "tea", request_id="same-key")
        assert a.memory_id != b.memory_id
        assert graph.get_memory(other, b.memory_id).group_id == other
        with pytest.raises(ValidationError, match="request_id: 'same-key' was already used"):
            graph.create_memory(group_id, "I", "fact", "like", "coffee", request_id="same-key")
        assert _memories(graph, group_id) == 1 and _memories(graph, other) == 1
    finally:
        delete_group(graph.store, other)


def test_dispatch_keys_a_write_by_its_tool_call_id(graph, group_id):
    call = {
        "id": "call_7",
        "type": "function",
        "function": {
            "name": "create_memory",
            "arguments": json.dumps({"subject": "I", "memory_type": "fact", "topic": "own", "object": "a red bike"}),
        },
    }
    first, second = dispatch(graph, call, group_id=group_id), dispatch(graph, call, group_id=group_id)
    assert first["success"] and second["memory_id"] == first["memory_id"]
    other_args = json.loads(call["function"]["arguments"]) | {"object": "a blue car"}
    reused_id = {**call, "function": {"name": "create_memory", "arguments": json.dumps(other_args)}}
    third = dispatch(graph, reused_id, group_id=group_id)  # a framework reusing ids: a different call
    assert third["success"] and third["memory_id"] != first["memory_id"]
    assert _memories(graph, group_id) == 2


class _LostAnswer:
    """The real graph, except that the first write's answer is lost after it committed: what a
    connection dropped during the commit does (the driver's IncompleteCommit)."""

    def __init__(self, graph):
        self.graph, self.lost = graph, 0

    def create_memories(self, *args, **kwargs):
        result = self.graph.create_memories(*args, **kwargs)
        if not self.lost:
            self.lost += 1
            raise WriteOutcomeUnknownError("the connection was lost while the write was committing")
        return result

    def __getattr__(self, name):
        return getattr(self.graph, name)


def test_dispatch_retries_a_write_of_unknown_outcome_once_with_its_key(graph, group_id):
    call = {
        "id": "call_lost",
        "function": {
            "name": "create_memory",
            "arguments": {"subject": "I", "memory_type": "event", "topic": "book", "object": "a flight to Oslo"},
        },
    }
    out = dispatch(_LostAnswer(graph), call, group_id=group_id)
    assert out["success"] and _memories(graph, group_id) == 1  # applied once, answered once
    no_id = {"function": call["function"]}
    out = dispatch(_LostAnswer(graph), no_id, group_id=group_id)  # no key: not retried, the caller decides
    assert out["success"] is False and out["error"] == "WriteOutcomeUnknownError"
    assert _memories(graph, group_id) == 2


# --- tenant ids -------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["alice ", " alice", "alice\t", "a/b", "", "x" * 129, "e\u0301"])
def test_group_ids_outside_the_rule_are_refused_not_rewritten(graph, bad):
    with pytest.raises(ValidationError, match="a group id is 1-128 characters") as info:
        graph.create_memory(bad, "I", "fact", "live in", "Lyon")
    assert info.value.field == "group_id"
    out = dispatch(
        graph,
        {"name": "create_memory", "arguments": {"subject": "I", "memory_type": "fact", "topic": "x"}},
        group_id=bad,
    )
    assert out["success"] is False and out["field"] == "group_id"
    if bad.strip():
        assert _nodes(graph, bad) == 0 and _nodes(graph, bad.strip()) == 0


def test_unicode_letters_digits_and_punctuation_make_a_group_id(graph):
    group = f"小明_{uuid.uuid4().hex[:6]}.user:1@example-1"
    try:
        memory = graph.create_memory(group, "我", "事实", "住在", "上海")
        assert graph.get_memory(group, memory.memory_id).group_id == group
    finally:
        delete_group(graph.store, group)


def test_stats_warns_of_stored_group_ids_outside_the_rule_and_how_to_rename_them(graph, cli_env):
    legacy = f"old tenant/{uuid.uuid4().hex[:6]}"  # what the old, trimming check let be stored
    written_as = "t-" + uuid.uuid4().hex[:8]
    graph.create_memory(written_as, "I", "fact", "live in", "Lyon")
    try:
        graph.store.run_text("MATCH (n {group_id: $old}) SET n.group_id = $g", write=True, old=written_as, g=legacy)
        report = graph.stats()["nonconforming_group_ids"]
        assert legacy in [e["group_id"] for e in report["examples"]] or report["count"] > len(report["examples"])
        for call in (lambda: graph.stats(legacy), lambda: graph.create_memory(legacy, "I", "fact", "like", "tea")):
            with pytest.raises(ValidationError, match="group_id"):
                call()

        from graphmem.cli import _common
        from graphmem.cli.app import app

        _common.console.width = 400
        out = CliRunner().invoke(app, ["stats"], env=cli_env).output
        warning = [line for line in out.splitlines() if line.startswith("warning:")]
        assert len(warning) == 1 and "do not follow the group id rule" in warning[0]
        assert "graphmem rename-group" in warning[0] and "graphmem stats --legacy" in warning[0]
    finally:
        delete_group(graph.store, legacy)


# --- errors a user can cause: one named line each ------------------------------------------------


def test_wrong_passwords_in_a_row_give_the_same_one_line_error_from_the_cli(graph, neo4j_settings):
    """Neo4j answers the first wrong passwords Unauthorized and the next ones AuthenticationRateLimit
    (which once escaped as a 111-line traceback): the user sees the same line each time."""
    user = f"t_{uuid.uuid4().hex[:8]}"
    # a user of its own: the rate limit locks only it, never the tests' user
    _system(graph, f"CREATE USER {user} SET PASSWORD 'the-right-one-1' CHANGE NOT REQUIRED")
    try:
        env = {"NEO4J_URI": neo4j_settings.effective_uri(), "NEO4J_USER": user, "NEO4J_PASSWORD": "a-wrong-one"}
        runs = [faults.run_cli(["stats", "-g", "x"], env) for _ in range(5)]
        assert {tuple(r["lines"]) for r in runs} == {tuple(runs[0]["lines"])}, runs  # the same, each time
        assert all(r["exit_code"] == 1 for r in runs) and len(runs[0]["lines"]) == 1
        assert runs[0]["lines"][0].startswith("error: Neo4j at ") and "refused the credentials" in runs[0]["lines"][0]
        settings = neo4j_settings.model_copy(deep=True)
        settings.neo4j.user, settings.neo4j.password = user, "a-wrong-one"
        from graphmem.store.driver import Store

        store = Store(settings)
        try:
            with pytest.raises(Neo4jAuthError, match="refused the credentials"):
                store.read("server_components")  # rate limited by now: the same named error
        finally:
            store.close()
    finally:
        _system(graph, f"DROP USER {user} IF EXISTS")


def _system(graph, text: str) -> None:
    graph.store.driver.execute_query(text, database_="system")


def test_a_missing_database_and_a_missing_privilege_are_named_with_their_fix(neo4j_settings):
    from neo4j.exceptions import Forbidden, Neo4jError

    from graphmem.store.driver import Store, access_error

    settings = neo4j_settings.model_copy(deep=True)
    settings.neo4j.database = "nosuchdb"
    store = Store(settings)
    try:
        with pytest.raises(Neo4jDatabaseNotFoundError, match="NEO4J_DATABASE"):
            store.read("server_components")
    finally:
        store.close()
    # Community Edition has no roles to take a privilege away: the server's error, as it comes
    denied = Neo4jError._hydrate_neo4j(code="Neo.ClientError.Security.Forbidden", message="Permission denied.")
    assert isinstance(denied, Forbidden)
    error = access_error(denied, uri="neo4j://h:7687", user="reader", database="neo4j", credentials_hint="")
    assert isinstance(error, Neo4jPermissionError) and "grant" in str(error)


# --- stranded extraction jobs ------------------------------------------------------------------------

SLOW_INGEST = """
import sys, time
from graphmem.config import load_settings
from graphmem.graph import MemoryGraph
from graphmem.ingest import rules
rules.RuleExtractor.extract = lambda self, episodes, **kw: time.sleep(600)  # killed during the extraction
MemoryGraph(load_settings()).ingest(sys.argv[1], [{"role": "user", "content": sys.argv[2]}], extractor="rules")
"""


def _strand(graph, cli_env, group: str, text: str) -> str:
    """An ingest whose process is killed (kill -9) during its extraction; the job it leaves running."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, **cli_env, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_INGEST, group, text], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    state = None
    while time.monotonic() < deadline and proc.poll() is None:
        rows = graph.store.run_text("MATCH (x:ExtractionJob {group_id: $g}) RETURN x.state AS s, x.id AS id", g=group)
        if rows and rows[0]["s"] == "running":
            state = rows[0]
            break
        time.sleep(0.2)
    assert state is not None, proc.stderr.read()[-2000:] if proc.poll() is not None else "no job ran"
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    return state["id"]


def test_a_job_whose_process_was_killed_is_finished_by_the_next_ingest(graph, cli_env, group_id):
    job = _strand(graph, cli_env, group_id, "I moved to Lisbon last year.")
    counts = graph.stats(group_id)["extraction_jobs"]
    assert counts["running"] == 1 and counts["stranded"] == 1  # stats show it, and why it is stuck

    report = graph.ingest(group_id, [{"role": "user", "content": "I work at a bakery."}], extractor="rules")

    assert report.jobs_resumed == [job] and report.jobs_running == 0
    after = graph.stats(group_id)["extraction_jobs"]
    assert (after["running"], after["stranded"], after["done"]) == (0, 0, 2)
    assert any("Lisbon" in m.text for m in graph.list_memories(group_id))


def test_a_stranded_job_is_finished_by_the_consolidation_scheduler(graph, cli_env, group_id):
    import asyncio

    from graphmem.lifecycle.scheduler import ConsolidationScheduler

    _strand(graph, cli_env, group_id, "我去年搬到了上海。")
    asyncio.run(ConsolidationScheduler(graph, [group_id], interval_s=3600).run_once())
    assert graph.stats(group_id)["extraction_jobs"]["done"] == 1
    assert graph.stats(group_id)["extraction_jobs"]["running"] == 0


@pytest.mark.system
def test_a_job_left_running_by_a_killed_server_is_reported_and_finished_next_time(scratch, graph):
    r = faults.stranded_job(scratch, graph.embedder)  # kills the module's server and restarts it
    assert r["first_report"]["jobs_running"] == 1, r
    assert r["counts_after_restart"]["stranded"] == 1, r
    assert r["held"], r


def test_search_profile_none_means_default(graph, group_id):
    graph.create_memory(group_id, "I", "fact", "live in", "Lyon")
    assert graph.search_memories(group_id, "where do I live?", profile=None).plan.profile == "default"
    out = dispatch(
        graph,
        {"name": "search_memories", "arguments": {"query": "where do I live?", "profile": None}},
        group_id=group_id,
    )
    assert out["success"] and out["plan"]["profile"] == "default"


# --- fuzz and tenants ---------------------------------------------------------------------------------


def test_fuzzed_tool_calls_never_escape_half_write_or_accept_invalid_input(graph, group_id):
    r = faults.fuzz(graph, n=300, seed=5, group=group_id, every=0)
    assert r["escaped"] == 0, r["escaped_examples"]
    assert r["invalid_succeeded"] == 0, r["invalid_succeeded_examples"]
    assert r["unserialisable"] == 0 and r["partial"] == 0 and r["nodes_in_refused_groups"] == 0
    assert r["memories_created"] > 20 and r["memories_in_db"] == r["memories_created"]


def test_lookalike_groups_never_see_each_other(graph):
    prefix = "t-" + uuid.uuid4().hex[:8]
    try:
        r = faults.cross_group(graph, n=150, seed=3, prefix=prefix)
    finally:
        for g in faults.LOOKALIKES:
            delete_group(graph.store, f"{prefix}-{g}")
    assert r["crossings"] == 0, r["crossing_examples"]
    assert r["cross_group_edges"] == 0 and r["misplaced_memories"] == 0
    assert r["whitespace_ids_refused"] == "3/3" and r["memories"] > len(faults.LOOKALIKES)


# --- a second server: killed, restarted, stopped --------------------------------------------------


@pytest.mark.system
def test_kill9_during_keyed_writes_loses_and_duplicates_nothing(scratch, graph):
    r = faults.kill9_writes(scratch, graph.embedder, writers=3, per_writer=10, kill_after=10, ingests=3, finish_s=60)
    assert r["acknowledged_at_kill"] >= 10
    assert r["clients_finished"], r  # the same client objects finished after the restart
    assert r["lost"] == 0 and r["partial"] == 0 and r["duplicates"] == 0 and r["unacknowledged_in_db"] == 0
    assert r["episodes_lost"] == 0 and r["episodes_duplicated"] == 0 and r["ingests_acknowledged"] == 3
    assert r["escaped"] == []
    assert "memory_id" in r["patient_call"], r["patient_call"]  # a restart within the budget is retried


@pytest.mark.system
@pytest.mark.slow
def test_restart_under_load_clients_recover(scratch, graph, slow_only):
    r = faults.restart_under_load(scratch, graph.embedder, clients=3, timeout_s=120)
    assert r["held"], r


@pytest.mark.system
def test_a_consolidation_cut_by_a_killed_server_ends_as_an_uninterrupted_one_when_run_again(scratch, graph):
    """kill -9 of Neo4j in the middle of a consolidation: the run fails, the server comes back (its
    recovery drops the unfinished transaction), a second run finishes the job; the graph equals
    that of a group consolidated without interruption."""
    import threading

    from lifecycle_graph import long_life, snapshot, write_life

    rows = long_life()

    def answering(g):
        """``g`` once its server answers (after the earlier tests' restarts it may still be starting)."""
        deadline = time.monotonic() + 120
        while True:
            try:
                g.store.verify()
                return g
            except Neo4jUnavailableError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    g = answering(faults._graph(scratch.settings, graph.embedder))
    killed, whole = "faults-consolidate-killed", "faults-consolidate-whole"
    for group in (killed, whole):
        delete_group(g.store, group)
        write_life(g, group, rows)
    small = scratch.settings.model_copy(deep=True)
    small.consolidation.batch_size = 3
    small.neo4j.retry_budget_s = 1.0
    runner = faults._graph(small, graph.embedder)
    failure: list[Exception] = []

    def run() -> None:
        try:
            runner.consolidate(killed)
        except Exception as exc:  # noqa: BLE001 - the failure is what this test expects
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and thread.is_alive():
        done = g.store.run_text(
            "MATCH (m:Memory {group_id: $g, status: 'consolidated'}) RETURN count(m) AS n", g=killed
        )[0]["n"]
        if done >= 6:
            break
        time.sleep(0.05)
    assert thread.is_alive(), "the run finished before the server could be killed"
    scratch.kill9()
    thread.join(60)
    assert failure, "the run went on without its server"
    runner.close()
    g.close()
    scratch.start()
    g = answering(faults._graph(scratch.settings, graph.embedder))
    try:
        staged = g.store.run_text("MATCH (m:Memory {group_id: $g, status: 'staged'}) RETURN count(m) AS n", g=killed)[
            0
        ]["n"]
        assert staged > 0
        again = g.consolidate(killed)  # takes over the lock the dead run left
        assert any("took over" in e for e in again.errors)
        g.consolidate(whole)
        assert snapshot(g, killed) == snapshot(g, whole)
    finally:
        for group in (killed, whole):
            delete_group(g.store, group)
        g.close()


@pytest.mark.system
def test_a_stopped_server_fails_every_call_fast_in_one_line(scratch, graph):
    r = faults.server_stopped(scratch, graph.embedder)  # stops the module's server: this test comes last
    for call in r["calls"]:
        assert call["seconds"] < 10, call  # the target is 5 s (graphmem bench faults measures it)
        if call["name"].startswith("cli"):
            assert call["exit_code"] == 1 and len(call["lines"]) == 1, call
            assert call["lines"][0].startswith("error: cannot reach Neo4j at " + scratch.uri), call
            assert "routing" not in call["lines"][0].lower()
        else:
            assert call["error"] == Neo4jUnavailableError.__name__ and scratch.uri in call["message"], call
            assert call["stderr"] == "", call  # no driver warnings on the terminal
    assert r["background_stderr"] == ""  # nor from background threads (access statistics)
    with pytest.raises(NotFoundError):  # the session's own server is untouched
        graph.get_memory("t-untouched", "0" * 32)
