"""Conversations in, evidence out, on a real Neo4j: turns become chained, searchable episodes;
extracted memories point back to them; a failed extraction is kept and retried, never lost."""

from __future__ import annotations

from datetime import UTC

import pytest

from graphmem.errors import ExtractionError, ValidationError
from graphmem.ingest.jobs import job_counts
from graphmem.ingest.pipeline import Ingestor
from graphmem.ingest.rules import RuleExtractor

ZH = [
    {"role": "user", "content": "昨晚我失眠了，所以今天很困。", "timestamp": "2025-11-05T09:00:00+08:00"},
    {"role": "assistant", "content": "听起来你需要好好休息。"},
    {"role": "user", "content": "我的朋友小明是医生，他建议我早点睡。"},
]
EN = [
    {
        "role": "user",
        "content": "I love hiking in the Alps. My wife Anna is a doctor.",
        "speaker": "Tom",
        "timestamp": "2023-05-08T13:56:00+00:00",
        "id": "D1:1",
    },
    {"role": "user", "content": "We went to Zermatt last weekend.", "speaker": "Tom", "id": "D1:2"},
]


def episodes(graph, group_id, session_id=None):
    return [
        r["episode"]
        for r in graph.store.read("episodes_list", group_id=group_id, session_id=session_id, skip=0, limit=1000)
    ]


def chain(graph, group_id, session_id):
    rows = graph.store.run_text(
        "MATCH (a:Episode {group_id: $g, session_id: $s})-[:NEXT]->(b:Episode) RETURN a.id AS a, b.id AS b",
        g=group_id,
        s=session_id,
    )
    return {r["a"]: r["b"] for r in rows}


def evidence(graph, group_id):
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) OPTIONAL MATCH (m)-[:EXTRACTED_FROM]->(e:Episode) "
        "RETURN m.id AS m, m.text AS text, collect(e.id) AS episodes",
        g=group_id,
    )
    return {r["m"]: (r["text"], r["episodes"]) for r in rows}


def test_a_chinese_conversation_becomes_chained_episodes_and_memories_with_evidence(graph, group_id):
    report = graph.ingest(group_id, ZH, session_id="s1", extractor="rules")

    eps = episodes(graph, group_id, "s1")
    assert [e["order"] for e in eps] == [0, 1, 2]
    assert [e["role"] for e in eps] == ["user", "assistant", "user"]
    assert [e["id"] for e in eps] == report.episodes
    # a turn without its own time was said with the turn before it
    assert eps[1]["timestamp"] == eps[0]["timestamp"] == "2025-11-05T09:00:00+08:00"
    assert chain(graph, group_id, "s1") == {eps[0]["id"]: eps[1]["id"], eps[1]["id"]: eps[2]["id"]}

    found = evidence(graph, group_id)
    assert len(found) == len(report.memories) >= 3 and report.links == 1
    assert all(episode_ids for _, episode_ids in found.values())  # no memory without its evidence
    texts = {text: episode_ids for text, episode_ids in found.values()}
    assert texts["我 失眠 (时间: 2025-11-04 夜间)"] == [eps[0]["id"]]
    assert texts["小明是我的朋友"] == [eps[2]["id"]]
    assert report.jobs_pending == report.jobs_failed == 0 and report.errors == []

    response = graph.search_memories(group_id, "小明是谁？")
    top = next(r for r in response.results if r.kind == "memory" and "小明" in r.text)
    assert [e.id for e in top.evidence] == [eps[2]["id"]]
    assert "小明是医生" in top.evidence[0].content


def test_an_english_conversation_keeps_speakers_ids_and_is_searchable_by_what_was_said(graph, group_id):
    report = graph.ingest(group_id, EN, session_id="d1", extractor="rules")
    eps = episodes(graph, group_id)
    assert [(e["speaker"], e["external_id"]) for e in eps] == [("Tom", "D1:1"), ("Tom", "D1:2")]
    found = {text for text, _ in evidence(graph, group_id).values()}
    assert "Tom loves hiking in the Alps" in found and "Anna is Tom's wife" in found
    assert any(t.startswith("Tom went to Zermatt (time: 2023-05-06/2023-05-07") for t in found)

    response = graph.search_memories(group_id, "Who is Tom's wife?")
    hit = next(r for r in response.results if "Anna" in r.text)
    assert hit.evidence and hit.evidence[0].id == report.episodes[0] and hit.evidence[0].speaker == "Tom"


def test_a_second_call_continues_the_session_and_long_texts_are_split(graph, group_id):
    graph.ingest(group_id, ZH[:1], session_id="s1", extractor="none")
    text = "我今天去了图书馆。" * 150 + "我喜欢安静的地方。"
    report = graph.ingest(group_id, text=text, session_id="s1", extractor="rules")
    eps = episodes(graph, group_id, "s1")
    assert len(eps) == 1 + len(report.episodes) and len(report.episodes) > 2
    assert {e["order"] for e in eps[1:]} == {1} and [e["chunk"] for e in eps[1:]] == list(range(len(eps) - 1))
    assert all(e["content"].endswith("。") for e in eps[1:])
    assert chain(graph, group_id, "s1")[eps[0]["id"]] == eps[1]["id"]
    assert any("安静的地方" in text for text, _ in evidence(graph, group_id).values())
    with pytest.raises(ValidationError):
        graph.ingest(group_id, [{"role": "user", "content": 42}])
    with pytest.raises(ValidationError):
        graph.ingest(group_id, ZH, text="both")


def test_a_long_turn_is_also_embedded_sentence_by_sentence(graph, group_id):
    from graphmem.ingest.episodes import sentences

    long_en = (
        "I'm looking for some healthy meal ideas for my busy weekdays, with lots of vegetables and little "
        "prep time. By the way, I've been relying on food delivery services a lot lately, Uber Eats mostly."
    )
    long_zh = "我最近在找一些适合工作日的健康食谱，最好准备时间短一点。顺便说一下，我上周点了三次外卖，大多是披萨。"
    graph.ingest(
        group_id,
        [
            {"role": "user", "content": long_en},
            {"role": "assistant", "content": "Sure! Ideas:"},
            {"role": "user", "content": long_zh},
        ],
        session_id="s1",
        extractor="none",
    )
    rows = graph.store.run_text(
        "MATCH (s:Sentence {group_id: $g})-[:PART_OF]->(e:Episode {group_id: $g}) "
        "RETURN e.content AS turn, s.text AS sentence, size(s.embedding) AS dims ORDER BY e.order, s.position",
        g=group_id,
    )
    assert [(r["turn"], r["sentence"]) for r in rows] == [(long_en, x) for x in sentences(long_en)] + [
        (long_zh, x) for x in sentences(long_zh)
    ]
    assert len(sentences(long_en)) == 2 and len(sentences(long_zh)) == 2 and sentences("Sure! Ideas:") == []
    assert sentences(long_zh)[1].startswith("顺便说一下") and all(r["dims"] == graph.embedder.dimension for r in rows)
    counted = graph.stats(group_id)
    assert counted["nodes"]["Sentence"] == 4 and counted["edges"]["PART_OF"] == 4
    from graphmem.store.admin import delete_group

    delete_group(graph.store, group_id)
    assert graph.store.run_text("MATCH (n {group_id: $g}) RETURN count(n) AS n", g=group_id)[0]["n"] == 0


class Flaky:
    """An extractor that fails ``failures`` times, then extracts with the rules."""

    name = "flaky-test"

    def __init__(self, failures: int):
        self.failures = failures
        self.calls = 0

    def extract(self, eps):
        self.calls += 1
        if self.calls <= self.failures:
            raise ExtractionError(f"boom {self.calls}")
        return RuleExtractor().extract(eps)


def test_a_failed_extraction_keeps_the_turns_and_a_retry_extracts_them(graph, group_id):
    ingestor = Ingestor(graph, max_attempts=3, backoff_base_s=3600)
    flaky = Flaky(failures=1)
    report = ingestor.ingest(group_id, ZH, session_id="s1", extractor=flaky)
    assert report.memories == [] and report.jobs_pending == 1 and "boom 1" in report.errors[0]
    assert len(episodes(graph, group_id)) == 3  # nothing said is lost
    [job] = ingestor.queue.list(group_id)
    assert (job["state"], job["attempts"]) == ("pending", 1) and "boom 1" in job["last_error"]
    assert job["next_attempt_at"] > job["updated_at"]  # backoff
    assert job_counts(graph.store, group_id)["pending"] == 1

    assert ingestor.retry(group_id).attempted == 0  # not due yet
    retried = ingestor.retry(group_id, force=True)
    assert (retried.attempted, retried.done) == (1, 1) and retried.memories
    assert all(eps for _, eps in evidence(graph, group_id).values())
    assert job_counts(graph.store, group_id) == {"pending": 0, "running": 0, "done": 1, "failed": 0, "stranded": 0}


def test_a_job_that_keeps_failing_ends_failed_and_visible(graph, group_id):
    ingestor = Ingestor(graph, max_attempts=2, backoff_base_s=0)
    report = ingestor.ingest(group_id, EN, session_id="d1", extractor=Flaky(failures=99))
    assert report.jobs_pending == 1
    retried = ingestor.retry(group_id)
    assert (retried.attempted, retried.failed) == (1, 1)
    [job] = ingestor.queue.list(group_id, state="failed")
    assert job["attempts"] == 2 and "boom 2" in job["last_error"]
    assert job_counts(graph.store, group_id)["failed"] == 1
    assert graph.stats(group_id)["extraction_jobs"]["failed"] == 1  # what `graphmem stats` shows
    assert ingestor.retry(group_id, force=True).attempted == 0  # failed jobs stay put
    assert len(episodes(graph, group_id)) == 2


def test_a_retry_after_a_crash_between_writes_does_not_write_memories_twice(graph, group_id, monkeypatch):
    ingestor = Ingestor(graph, backoff_base_s=0)
    crash = {"armed": True}
    real_link = graph.linker.link_by_id

    def crash_once(*args, **kwargs):
        if crash.pop("armed", False):
            raise RuntimeError("process died between the memories and the link")
        return real_link(*args, **kwargs)

    monkeypatch.setattr(graph.linker, "link_by_id", crash_once)
    report = ingestor.ingest(group_id, ZH[:1], session_id="s1", extractor="rules")
    assert report.jobs_pending == 1 and len(report.memories) == 0
    before = evidence(graph, group_id)
    assert len(before) == 2  # written, with their evidence

    retried = ingestor.retry(group_id)
    assert retried.done == 1 and retried.memories == [] and retried.links == 1
    assert evidence(graph, group_id).keys() == before.keys()
    links = graph.store.run_text(
        "MATCH (:Memory {group_id: $g})-[c:CAUSALITY]->(:Memory) RETURN count(c) AS n", g=group_id
    )
    assert links[0]["n"] == 1


def test_groups_are_isolated_and_deleted_whole(graph, group_id):
    other = group_id + "-other"
    graph.ingest(group_id, EN, session_id="d1", extractor="rules")
    graph.ingest(other, EN, session_id="d1", extractor="rules")
    assert len(episodes(graph, group_id)) == 2
    from graphmem.store.admin import delete_group

    assert delete_group(graph.store, group_id, batch=3).nodes > 0
    left = graph.store.run_text("MATCH (n {group_id: $g}) RETURN count(n) AS n", g=group_id)
    assert left[0]["n"] == 0
    assert len(episodes(graph, other)) == 2 and evidence(graph, other)
    delete_group(graph.store, other)


def test_the_async_api_ingests_too(async_graph, group_id):
    import asyncio

    report = asyncio.run(async_graph.ingest(group_id, ZH, extractor="rules"))
    assert len(report.episodes) == 3 and report.memories
    assert asyncio.run(async_graph.retry_extractions(group_id)).attempted == 0


def test_observations_become_memories_linked_to_the_turns_they_came_from(graph, group_id):
    # LoCoMo's observations through the LLM extractor's path (the benchmark's LLM-quality stand-in)
    from datetime import datetime

    from graphmem_bench.observations import Observation, ObservationExtractor, parse_fact

    assert parse_fact("Melanie painted a lake sunrise last year.", "Melanie") == {
        "subject": "Melanie",
        "memory_type": "EVENT",
        "topic": "painted",
        "object": "a lake sunrise last year",
        "attributes": {},
        "importance": 0.5,
    }
    assert parse_fact("Caroline loves pottery.", "Caroline")["memory_type"] == "OPINION"
    turns = [
        {
            "speaker": "Melanie",
            "role": "user",
            "content": "Look, I did this one at the lake last year!",
            "external_id": "D1:1",
        },
        {
            "speaker": "Caroline",
            "role": "user",
            "content": "Wow, the colours! Is that the sunrise?",
            "external_id": "D1:2",
        },
        {"speaker": "Melanie", "role": "user", "content": "Yes, it means a lot to me.", "external_id": "D1:3"},
    ]
    facts = [
        Observation(
            "Melanie", "Melanie painted a lake sunrise last year which holds special meaning to her.", ("D1:1", "D1:3")
        )
    ]
    report = graph.ingest(
        group_id,
        turns,
        session_id="s1",
        extractor=ObservationExtractor(facts),
        reference_time=datetime(2023, 5, 8, tzinfo=UTC),
    )
    assert len(report.memories) == 1
    top = graph.search_memories(group_id, "What did Melanie paint?", profile="recall").results[0]
    assert "painted a lake sunrise" in top.text
    assert {e.content for e in top.evidence} >= {turns[0]["content"], turns[2]["content"]}
