"""The memory lifecycle on the real database: consolidation merges, supersede chains in Chinese
and English, decay to archive and back, summaries, the lock, dry runs, events, unmerge, and a
run killed with kill -9 and run again."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from lifecycle_graph import LIFE as LIFE_ROWS
from lifecycle_graph import START, long_life, snapshot, write_life

from graphmem.errors import ConsolidationLockedError, NotFoundError, ValidationError
from graphmem.format import format_context
from graphmem.lexicon.topics import loose_key, slot_of, stance
from graphmem.lifecycle.lock import RunLock
from graphmem.lifecycle.scheduler import ConsolidationScheduler, next_delay
from graphmem.lifecycle.work import Work

pytestmark = pytest.mark.real_models  # real models: consolidation merges by meaning


def _by_text(graph, group_id: str) -> dict[str, dict]:
    rows = graph.store.run_text("MATCH (m:Memory {group_id: $g}) RETURN m {.*, embedding: null} AS m", g=group_id)
    return {r["m"]["text"]: r["m"] for r in rows}


# --- the rules, in both languages --------------------------------------------------------------


def test_loose_keys_join_spellings_widths_and_scripts_but_not_different_names():
    assert loose_key("臺灣") == loose_key("台湾") == loose_key("台灣")
    assert loose_key("New-York") == loose_key("new york") == loose_key("NEW YORK")
    assert loose_key("ＡＣＭＥ") == loose_key("Acme")
    assert loose_key("苹果") != loose_key("苹果公司")
    assert loose_key("Paris") != loose_key("Parish")


def test_single_valued_slots_and_stances_are_read_in_chinese_and_english():
    assert slot_of("住在") == slot_of("搬到") == slot_of("lives in") == slot_of("moved to") == "residence"
    assert slot_of("在腾讯工作") is None or slot_of("在腾讯工作") == "employer"
    assert slot_of("work at") == slot_of("joined") == slot_of("入职") == "employer"
    assert slot_of("去过") is None and slot_of("visited") is None and slot_of("喜欢") is None
    assert stance("喜欢").sign == 1 and stance("不喜欢").sign == -1 and stance("讨厌").sign == -1
    assert stance("like").sign == 1 and stance("no longer like").sign == -1 and stance("hate").sign == -1
    assert stance("don't like").sign == -1 and stance("其实喜欢").sign == 1
    assert stance("喜欢").base == stance("讨厌").base == stance("hate").base


# --- conflicts: what is current --------------------------------------------------------------------


def test_updates_in_chinese_and_english_supersede_the_old_facts_and_search_returns_the_current_first(graph, group_id):
    write_life(graph, group_id)
    report = graph.consolidate(group_id)
    pairs = {(c.older_text, c.newer_text) for c in report.conflicts}
    assert ("我 住在 北京", "我 搬到 上海") in pairs
    assert ("I work at Acme", "I joined Globex") in pairs
    assert ("我 喜欢 咖啡", "我 不喜欢 咖啡") in pairs
    assert ("I like jazz", "I no longer like jazz") in pairs
    # look-alikes that do not contradict: two fruits liked, two cities visited
    texts = {t for p in pairs for t in p}
    assert not texts & {"I like apples", "I like pears", "我 去过 北京", "我 去过 上海"}
    assert len(report.conflicts) == 4

    for query, new, old in (
        ("我住在哪里", "我 搬到 上海", "我 住在 北京"),
        ("where do I work", "I joined Globex", "I work at Acme"),
        ("我喜欢咖啡吗", "我 不喜欢 咖啡", "我 喜欢 咖啡"),
    ):
        results = graph.search_memories(group_id, query, max_results=5).results
        ranks = {r.text: i for i, r in enumerate(results)}
        assert new in ranks and old in ranks, (query, list(ranks))
        assert ranks[new] < ranks[old], (query, list(ranks))
        assert results[ranks[new]].current and not results[ranks[old]].current
        assert results[ranks[old]].superseded_by == results[ranks[new]].memory_id
        hidden = graph.search_memories(group_id, query, max_results=5, superseded="hide").results
        assert old not in {r.text for r in hidden}
        # what an agent's prompt gets says the old fact is no longer true, and what replaced it
        said = format_context(results)
        assert f"- {old} [no longer true 已过时; held " in said and f"; now: {new}]" in said

    memories = _by_text(graph, group_id)
    chain = graph.supersede_chain(group_id, memories["我 住在 北京"]["id"])
    assert [(r["text"], r["depth"]) for r in chain] == [("我 搬到 上海", 0), ("我 住在 北京", 1)]
    assert memories["我 住在 北京"]["invalid_at"] is not None


def test_a_chain_of_updates_keeps_one_current_value(graph, group_id):
    for day, city in ((0, "Boston"), (30, "Denver"), (60, "Austin")):
        graph.create_memory(
            group_id,
            "I",
            "FACT",
            "live in" if day == 0 else "moved to",
            city,
            reference_time=START + timedelta(days=day),
        )
    graph.consolidate(group_id)
    memories = _by_text(graph, group_id)
    assert memories["I live in Boston"]["superseded_by"] == memories["I moved to Denver"]["id"]
    assert memories["I moved to Denver"]["superseded_by"] == memories["I moved to Austin"]["id"]
    assert memories["I moved to Austin"].get("superseded_by") is None
    top = graph.search_memories(group_id, "where do I live", max_results=3).results[0]
    assert top.text == "I moved to Austin" and top.current


def test_an_explicit_correction_replaces_what_it_corrects(graph, group_id):
    graph.create_memory(group_id, "我", "OPINION", "最喜欢的颜色是", "蓝色", reference_time=START)
    graph.create_memory(
        group_id, "我", "OPINION", "其实最喜欢的颜色是", "绿色", reference_time=START + timedelta(days=1)
    )
    report = graph.consolidate(group_id)
    assert [(c.older_text, c.newer_text) for c in report.conflicts] == [
        ("我 最喜欢的颜色是 蓝色", "我 其实最喜欢的颜色是 绿色")
    ]


# --- merges and unmerge ----------------------------------------------------------------------------


def test_duplicate_concepts_merge_within_a_group_and_never_across(graph, group_id):
    other = group_id + "-other"
    graph.create_memory(other, "我", "EVENT", "去", "臺灣", reference_time=START)
    write_life(graph, group_id)
    report = graph.consolidate(group_id)
    merged = {(m.label, frozenset((m.merged_name, m.survivor_name))) for m in report.concept_merges}
    assert ("Object", frozenset(("臺灣", "台湾"))) in merged
    # New York / new-york: one node, whether the write path or the consolidator joined them
    rows = graph.store.run_text(
        "MATCH (o:Object {group_id: $g}) WHERE 'New York' IN o.aliases OR "
        "'new-york' IN o.aliases RETURN o.aliases AS aliases",
        g=group_id,
    )
    assert len(rows) == 1 and {"New York", "new-york"} <= set(rows[0]["aliases"])
    names = {
        r["name"] for r in graph.store.run_text("MATCH (o:Object {group_id: $g}) RETURN o.name AS name", g=group_id)
    }
    assert len(names & {"臺灣", "台湾"}) == 1
    # the other group's 臺灣 is untouched
    assert (
        graph.store.run_text("MATCH (o:Object {group_id: $g, name: '臺灣'}) RETURN count(o) AS n", g=other)[0]["n"] == 1
    )
    survivor = graph.store.run_text(
        "MATCH (o:Object {group_id: $g}) WHERE o.name IN ['臺灣', '台湾'] "
        "RETURN o.aliases AS aliases, o.merged_ids AS merged",
        g=group_id,
    )[0]
    assert set(survivor["aliases"]) >= {"臺灣", "台湾"} and len(survivor["merged"]) == 1
    # the memories of both names now share one node
    shared = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_OBJECT]->(o:Object) "
        "WHERE m.object_name IN ['臺灣', '台湾'] RETURN count(DISTINCT o) AS n",
        g=group_id,
    )[0]["n"]
    assert shared == 1


def test_unmerge_restores_both_nodes_and_their_edges_as_they_were(graph, group_id):
    write_life(graph, group_id)
    before = snapshot(graph, group_id)
    report = graph.consolidate(group_id)
    merge = next(m for m in report.concept_merges if {m.merged_name, m.survivor_name} == {"臺灣", "台湾"})
    gone_id = merge.merged_id
    result = graph.unmerge(group_id, merge.merge_id)
    assert result["restored_id"] == gone_id and result["moved"] >= 2
    after = snapshot(graph, group_id)
    # the two nodes and their edges are back; everything else the run did remains
    assert before["concepts"][("Object", ("臺灣",))] == after["concepts"][("Object", ("臺灣",))] == 1
    assert before["concepts"][("Object", ("台湾",))] == after["concepts"][("Object", ("台湾",))] == 1
    for edge in [e for e in before["edges"] if "Object:臺灣" in e or "Object:台湾" in e]:
        assert after["edges"][edge] == before["edges"][edge], edge
    with pytest.raises(NotFoundError):
        graph.unmerge(group_id, merge.merge_id)  # undone already


def test_duplicate_memories_merge_keeping_the_evidence_of_both(graph, group_id):
    report = graph.ingest(
        group_id, [{"role": "user", "content": "I live in Boston."}], reference_time=START, extractor="rules"
    )
    graph.ingest(
        group_id,
        [{"role": "user", "content": "I live in Boston."}],
        reference_time=START + timedelta(days=3),
        extractor="rules",
    )
    assert report.memories, "the rule extractor wrote nothing to merge"
    run = graph.consolidate(group_id)
    assert len(run.memory_merges) >= 1
    dup = run.memory_merges[0]
    rows = graph.store.run_text(
        "MATCH (k:Memory {group_id: $g, id: $k}) MATCH (d:Memory {group_id: $g, id: $d}) "
        "RETURN d.status AS status, d.duplicate_of AS of, COUNT { (k)-[:EXTRACTED_FROM]->() } AS evidence",
        g=group_id,
        k=dup.survivor_id,
        d=dup.duplicate_id,
    )[0]
    assert rows["status"] == "archived" and rows["of"] == dup.survivor_id and rows["evidence"] == 2


# --- decay, archive, restore, summaries -------------------------------------------------------------


def test_faded_memories_are_archived_hidden_returned_on_request_and_restorable(graph, group_id):
    graph.create_memory(group_id, "我", "EVENT", "吃", "火锅", importance=0.3, reference_time=START)
    graph.create_memory(group_id, "我", "FACT", "过敏", "花生", importance=0.9, reference_time=START)
    report = graph.consolidate(group_id, now=datetime.now(UTC) + timedelta(days=120))
    memories = _by_text(graph, group_id)
    assert memories["我 吃 火锅"]["status"] == "archived" and report.archived == [memories["我 吃 火锅"]["id"]]
    assert memories["我 过敏 花生"]["status"] == "consolidated"  # important: never faded out
    assert "我 吃 火锅" not in {r.text for r in graph.search_memories(group_id, "吃火锅").results}
    assert "我 吃 火锅" in {r.text for r in graph.search_memories(group_id, "吃火锅", include_archived=True).results}
    graph.restore(group_id, memories["我 吃 火锅"]["id"])
    assert _by_text(graph, group_id)["我 吃 火锅"]["status"] == "consolidated"
    assert len(_by_text(graph, group_id)) == 2  # nothing deleted, ever


def test_old_trivia_of_one_subject_and_topic_are_folded_into_a_summary(graph, group_id):
    # four days of one month, three months back (a summary folds one month: days that straddle
    # a month's end would give two)
    old = (datetime.now(UTC) - timedelta(days=90)).replace(day=2, hour=12)
    foods = ["白米饭", "面条", "饺子", "包子"]
    for i, food in enumerate(foods):
        graph.create_memories(
            group_id,
            [{"subject": "我", "memory_type": "EVENT", "topic": "吃", "object": food, "importance": 0.2}],
            reference_time=old + timedelta(days=i),
            extra=[{"created_at": (old + timedelta(days=i)).isoformat()}],
        )
    report = graph.consolidate(group_id, now=datetime.now(UTC))
    assert len(report.summaries) == 1
    summary = report.summaries[0]
    assert all(food in summary.text for food in foods) and len(summary.sources) == 4
    folded = graph.store.run_text(
        "MATCH (s:Memory {group_id: $g, id: $id})-[:SUMMARIZES]->(m:Memory) RETURN m.status AS status",
        g=group_id,
        id=summary.summary_id,
    )
    assert [r["status"] for r in folded] == ["archived"] * 4
    found = graph.search_memories(group_id, "我吃过什么", max_results=3).results
    assert found[0].memory_id == summary.summary_id


# --- safety: dry run, lock, kill -9 -----------------------------------------------------------------


def test_a_dry_run_reports_what_a_run_changes_and_changes_nothing(graph, group_id):
    write_life(graph, group_id)
    before = snapshot(graph, group_id)
    dry = graph.consolidate(group_id, dry_run=True)
    assert snapshot(graph, group_id) == before
    assert graph.consolidation_runs(group_id) == []
    real = graph.consolidate(group_id)
    assert dry.counts == real.counts
    assert {(c.older_text, c.newer_text) for c in dry.conflicts} == {
        (c.older_text, c.newer_text) for c in real.conflicts
    }
    assert snapshot(graph, group_id) != before


def test_a_second_run_on_a_locked_group_is_refused_and_a_dead_owners_lock_is_taken_over(graph, group_id):
    graph.create_memory(group_id, "我", "FACT", "住在", "北京")
    holder = RunLock(Work(graph.store), group_id, "someone-else", ttl_s=600)
    holder.acquire()  # a live process (this one) holds it
    with pytest.raises(ConsolidationLockedError, match="someone-else"):
        graph.consolidate(group_id)
    # the owner's process is gone (a pid that does not exist): the next run takes over
    graph.store.run_text("MATCH (l:ConsolidationLock {group_id: $g}) SET l.pid = 999999999", write=True, g=group_id)
    report = graph.consolidate(group_id)
    assert report.processed == 1 and any("took over" in e for e in report.errors)


def test_a_run_killed_with_kill_9_and_run_again_ends_in_the_graph_of_an_uninterrupted_run(graph, group_id, cli_env):
    killed, whole = group_id + "-killed", group_id + "-whole"
    rows = long_life()
    for g in (killed, whole):
        write_life(graph, g, rows)
    env = {**os.environ, **cli_env, "GRAPHMEM_CONSOLIDATION__BATCH_SIZE": "3"}
    child = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "consolidate", "-g", killed, "--json"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = graph.store.run_text(
            "MATCH (m:Memory {group_id: $g, status: 'consolidated'}) RETURN count(m) AS n", g=killed
        )[0]["n"]
        if done >= 6 or child.poll() is not None:
            break
        time.sleep(0.05)
    assert child.poll() is None, f"the run finished before it could be killed: {child.stderr.read()[-500:]}"
    child.send_signal(signal.SIGKILL)
    child.wait()
    staged = graph.store.run_text("MATCH (m:Memory {group_id: $g, status: 'staged'}) RETURN count(m) AS n", g=killed)[
        0
    ]["n"]
    assert staged > 0, "killed after it had finished"
    again = graph.consolidate(killed)  # takes over the dead run's lock
    assert any("took over" in e for e in again.errors)
    graph.consolidate(whole)
    assert snapshot(graph, killed) == snapshot(graph, whole)
    runs = {r["status"] for r in graph.consolidation_runs(killed)}
    assert runs == {"interrupted", "finished"}


# --- events and the scheduler ------------------------------------------------------------------------


def test_events_reach_registered_callbacks(graph, group_id):
    seen = []
    graph.on("*", lambda e: seen.append((e.kind, e.group_id)) if e.group_id == group_id else None)
    graph.create_memory(group_id, "我", "FACT", "住在", "北京", importance=0.9, reference_time=START)
    graph.create_memory(group_id, "我", "FACT", "搬到", "上海", reference_time=START + timedelta(days=9))
    graph.consolidate(group_id)
    kinds = [k for k, _ in seen]
    assert "conflict_found" in kinds and "important_memory" in kinds and kinds[-1] == "run_finished"
    with pytest.raises(ValidationError):
        graph.on("memory_exploded", print)


def test_the_scheduler_runs_at_its_interval_and_backs_off_after_errors(graph, group_id, make_settings):
    assert next_delay(3600, 0) == 3600 and next_delay(3600, 1, 60) == 60 and next_delay(3600, 2, 60) == 120
    assert next_delay(100, 5, 60) == 100
    graph.create_memory(group_id, "我", "FACT", "住在", "北京")
    from graphmem import MemoryGraph
    from graphmem.server import free_port

    # a server that is down: every run fails at once
    down = MemoryGraph(
        make_settings(neo4j={"uri": f"neo4j://127.0.0.1:{free_port()}", "password": "x"}), embedder=graph.embedder
    )

    async def until(done, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not done() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def run() -> ConsolidationScheduler:
        s = ConsolidationScheduler(graph, [group_id], interval_s=0.2, retry_first_s=0.05)
        s.start()
        await until(lambda: len(s.runs) >= 2)
        await s.stop()
        # a server that is down: failures retried after 0.05 s, 0.1 s, then the 10 s interval
        bad = ConsolidationScheduler(down, [group_id], interval_s=10.0, retry_first_s=0.05)
        bad.start()
        await until(lambda: len(bad.errors) >= 3, timeout_s=5.0)
        await bad.stop()
        return s, bad

    good, bad = asyncio.run(run())
    down.close()
    assert len(good.runs) >= 2 and good.runs[0].processed == 1 and good.runs[-1].processed == 0
    assert not good.errors
    assert len(bad.errors) >= 3 and not bad.runs  # retried sooner than the interval
    assert group_id in graph.memory_groups()  # what a scheduler of every group goes through


def test_what_consolidation_writes_is_declared_in_the_bloom_perspective(graph, group_id):
    from graphmem.analyst.bloom import LABELS, RELATIONSHIPS, VECTOR_LABELS

    write_life(graph, group_id)
    old = datetime.now(UTC) - timedelta(days=90)
    graph.create_memories(
        group_id,
        [
            {"subject": "我", "memory_type": "EVENT", "topic": "吃", "object": food, "importance": 0.2}
            for food in ("面条", "饺子", "包子")
        ],
        reference_time=old,
        extra=[{"created_at": old.isoformat()}] * 3,
    )
    graph.consolidate(group_id)
    nodes = graph.store.run_text(
        "MATCH (n {group_id: $g}) UNWIND keys(n) AS k RETURN labels(n)[0] AS label, collect(DISTINCT k) AS keys",
        g=group_id,
    )
    edges = graph.store.run_text(
        "MATCH (n {group_id: $g})-[r]->() UNWIND keys(r) AS k RETURN type(r) AS type, collect(DISTINCT k) AS keys",
        g=group_id,
    )
    labels = {row["label"] for row in nodes}
    assert {"ConceptMerge", "ConsolidationRun", "ConsolidationLock"} <= labels
    assert {"SUPERSEDES", "SUMMARIZES", "REFERENCE"} <= {row["type"] for row in edges}
    for row in nodes:
        declared = set(LABELS[row["label"]][2]) | ({"embedding"} if row["label"] in VECTOR_LABELS else set())
        assert set(row["keys"]) <= declared, (row["label"], set(row["keys"]) - declared)
    for row in edges:
        assert set(row["keys"]) <= set(RELATIONSHIPS[row["type"]][2]), row


def test_two_runs_started_at_once_on_one_group_do_not_both_run(graph, group_id):
    import threading

    write_life(graph, group_id)
    outcomes: list = []
    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        try:
            outcomes.append(graph.consolidate(group_id))
        except ConsolidationLockedError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    reports = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, ConsolidationLockedError)]
    # one ran the batch; the other was refused, or came after it and found nothing staged
    assert len(outcomes) == 2 and sum(r.processed for r in reports) == len(LIFE_ROWS)
    assert len(refused) == 1 or sorted(r.processed for r in reports) == [0, len(LIFE_ROWS)]
    merged = graph.store.run_text("MATCH (r:ConceptMerge {group_id: $g}) RETURN r.merged_id AS id", g=group_id)
    assert len(merged) == len({r["id"] for r in merged})  # no node merged twice


def test_a_name_merged_away_and_written_again_joins_the_node_it_went_into(graph, group_id):
    graph.create_memory(group_id, "我", "EVENT", "去", "臺灣", reference_time=START)
    graph.create_memory(group_id, "我", "EVENT", "去过", "台湾", reference_time=START + timedelta(days=1))
    merge = graph.consolidate(group_id).concept_merges[0]
    again = graph.create_memory(
        group_id, "我", "EVENT", "想去", merge.merged_name, reference_time=START + timedelta(days=2)
    )
    obj = next(c for c in again.concepts if c.role == "object")
    assert obj.id == merge.survivor_id and obj.reused and obj.reason == "merged name"
    assert graph.store.run_text("MATCH (o:Object {group_id: $g}) RETURN count(o) AS n", g=group_id)[0]["n"] == 1


def test_a_name_merged_into_a_node_merged_again_joins_where_that_went(graph, group_id):
    """臺灣 went into 台湾, and 台湾 since into a third node: 臺灣 written again joins the third."""
    graph.create_memory(group_id, "我", "EVENT", "去", "臺灣", reference_time=START)
    graph.create_memory(group_id, "我", "EVENT", "去过", "台湾", reference_time=START + timedelta(days=1))
    third = graph.create_memory(group_id, "我", "EVENT", "喜欢", "宝岛", reference_time=START + timedelta(days=2))
    first = graph.consolidate(group_id).concept_merges[0]
    keep = next(c.id for c in third.concepts if c.role == "object")
    graph.store.write(  # the lifecycle's own fold of the survivor into the third node
        "lifecycle_merge_concept",
        group_id=group_id,
        label="Object",
        keep_id=keep,
        gone_id=first.survivor_id,
        merge_id="merge-again",
        props_json="{}",
        undoable=True,
        reason="test",
        similarity=None,
        run_id="test",
        now=(START + timedelta(days=3)).isoformat(),
    )
    again = graph.create_memory(
        group_id, "我", "EVENT", "想去", first.merged_name, reference_time=START + timedelta(days=4)
    )
    obj = next(c for c in again.concepts if c.role == "object")
    assert obj.id == keep and obj.reused and obj.reason == "merged name"
    assert graph.store.run_text("MATCH (o:Object {group_id: $g}) RETURN count(o) AS n", g=group_id)[0]["n"] == 1
