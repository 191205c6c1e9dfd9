"""Concurrent writers never duplicate a concept node and never see an error: MERGE on the
uniqueness constraints plus managed transactions retried on deadlocks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

THREADS, PER_THREAD = 10, 50

# spellings that all resolve to the same nodes: the user, one topic, five objects
SUBJECTS = ["我", "I", "me", "用户", "User"]
TOPICS = ["跑步", "跑步 ", "跑步"]
PLACES = ["公园", "操场", "河边", "健身房", "学校"]


def test_ten_threads_one_subject_one_topic(graph, neo4j_driver, group_id):
    def writer(t: int) -> list[str]:
        ids = []
        for i in range(PER_THREAD):
            r = graph.create_memory(
                group_id,
                SUBJECTS[(t + i) % len(SUBJECTS)],
                "事件",
                TOPICS[i % len(TOPICS)],
                PLACES[(t * PER_THREAD + i) % len(PLACES)],
                {"时间": "今天", "次数": str(i)},
                reference_time="2025-11-05T10:00:00+08:00",
            )
            ids.append(r.memory_id)
        return ids

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(writer, t) for t in range(THREADS)]
        ids = [memory_id for f in futures for memory_id in f.result()]  # re-raises any error

    assert len(set(ids)) == THREADS * PER_THREAD
    rows, _, _ = neo4j_driver.execute_query(
        """
        MATCH (n) WHERE n.group_id = $g
        RETURN labels(n)[0] AS label, count(*) AS n""",
        g=group_id,
    )
    counts = {r["label"]: r["n"] for r in rows}
    assert counts["Memory"] == 500
    assert counts["Subject"] == 1 and counts["Topic"] == 1 and counts["Object"] == len(PLACES)
    assert counts["Value"] == 1 + PER_THREAD  # one "2025-11-05", and 次数 0..49
    rows, _, _ = neo4j_driver.execute_query(
        """
        MATCH (m:Memory {group_id: $g})
        RETURN count { (m)-[:HAS_SUBJECT]->() } AS s, count { (m)-[:HAS_TOPIC]->() } AS t,
               count { (m)-[:HAS_OBJECT]->() } AS o, count { (m)-[:ATTRIBUTE]->() } AS a""",
        g=group_id,
    )
    assert all((r["s"], r["t"], r["o"], r["a"]) == (1, 1, 1, 2) for r in rows)
    rows, _, _ = neo4j_driver.execute_query(
        """
        MATCH (s:Subject {group_id: $g})-[e:MEMORY_TYPE]->(t:Topic)
        RETURN s.normalized_name AS s, t.name AS t, count(e) AS n""",
        g=group_id,
    )
    assert [(r["s"], r["t"], r["n"]) for r in rows] == [("@user", "跑步", 500)]


def test_a_deadlock_the_driver_hides_under_a_failed_result_is_retried(graph, group_id):
    """Under load the driver can report a deadlocked query as ``ResultFailedError`` (raised while
    it rolls the transaction back), which it does not retry itself: the write is still retried
    and lands once."""
    import neo4j.exceptions as neo4j_exc

    calls = []

    def work(tx):
        calls.append(1)
        tx.run("CREATE (:Probe {group_id: $g, attempt: $n})", g=group_id, n=len(calls)).consume()
        if len(calls) == 1:
            deadlock = neo4j_exc.Neo4jError._hydrate_neo4j(
                code="Neo.TransientError.Transaction.DeadlockDetected", message="deadlock detected"
            )
            raise neo4j_exc.ResultFailedError(None, "The result has failed.") from deadlock
        return len(calls)

    try:
        assert graph.store.transaction(work) == 2
        rows = graph.store.run_text("MATCH (p:Probe {group_id: $g}) RETURN p.attempt AS n", g=group_id)
        assert [r["n"] for r in rows] == [2]  # the first attempt rolled back whole
    finally:
        graph.store.run_text("MATCH (p:Probe {group_id: $g}) DELETE p", write=True, g=group_id)
