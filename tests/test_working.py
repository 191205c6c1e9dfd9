"""Working memory beside the long-term graph: a session's scratchpad (with TTL) and recent-turns
buffer in Neo4j, cleared or promoted at session end, and MemoryGraph.context(...) that fits any
token budget with the best-scored memories first."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import ValidationError
from graphmem.format import estimate_tokens
from graphmem.types import EvidenceEpisode, ScoreParts, SearchResult
from graphmem.working import MEMORIES_HEADING, render_context

REF = "2025-11-05T10:00:00+08:00"


def test_scratchpad_keeps_notes_in_order_overwrites_by_key_and_forgets_after_ttl(graph, group_id):
    graph.set_note(group_id, "s1", "goal", "订火车票")
    graph.set_note(group_id, "s1", "plan", {"step": 1, "todo": ["search", "book"]})
    graph.set_note(group_id, "s1", "otp", "123456", ttl_seconds=0.5)
    graph.set_note(group_id, "s1", "plan", {"step": 2, "todo": ["book"]})  # overwrite keeps its place
    assert list(graph.notes(group_id, "s1").items()) == [
        ("goal", "订火车票"),
        ("plan", {"step": 2, "todo": ["book"]}),
        ("otp", "123456"),
    ]
    assert graph.notes(group_id, "s2") == {}  # sessions are apart
    assert graph.notes("other-" + group_id, "s1") == {}  # and groups
    time.sleep(0.7)
    assert list(graph.notes(group_id, "s1")) == ["goal", "plan"]
    assert graph.delete_note(group_id, "s1", "goal") and list(graph.notes(group_id, "s1")) == ["plan"]
    with pytest.raises(ValidationError, match="ttl_seconds"):
        graph.set_note(group_id, "s1", "x", 1, ttl_seconds=0)
    with pytest.raises(ValidationError, match="value"):
        graph.set_note(group_id, "s1", "x", object())


def test_recent_turns_read_back_in_order_and_promoted_into_memories_at_session_end(graph, group_id):
    graph.add_turns(
        group_id, "s1", [{"role": "user", "content": "我昨晚没睡好"}, {"role": "assistant", "content": "怎么了？"}]
    )
    graph.add_turns(group_id, "s1", [{"role": "user", "content": "I missed the bus this morning."}])
    assert [t["content"] for t in graph.recent_turns(group_id, "s1")] == [
        "我昨晚没睡好",
        "怎么了？",
        "I missed the bus this morning.",
    ]
    assert [t["content"] for t in graph.recent_turns(group_id, "s1", limit=2)] == [
        "怎么了？",
        "I missed the bus this morning.",
    ]
    graph.set_note(group_id, "s1", "k", "v")
    out = graph.end_session(group_id, "s1", reference_time=REF, extractor="rules")
    assert out["cleared"] == 4 and len(out["ingested"]["episodes"]) == 3 and out["ingested"]["memories"]
    assert graph.recent_turns(group_id, "s1") == [] and graph.notes(group_id, "s1") == {}
    found = graph.search_memories(group_id, "我昨晚睡得怎么样？", reference_time=REF)
    assert any("睡" in r.text for r in found.results)  # promoted into long-term memory

    graph.add_turns(group_id, "s2", [{"role": "user", "content": "throw this away"}])
    out = graph.end_session(group_id, "s2", promote=False)
    assert out["ingested"] is None and graph.recent_turns(group_id, "s2") == []


def test_context_puts_scratchpad_turns_and_the_cause_with_its_evidence_in_one_section(graph, group_id):
    graph.ingest(
        group_id,
        [{"role": "user", "content": "我昨晚没睡好。"}],
        session_id="old",
        reference_time=REF,
        extractor="rules",
    )
    graph.create_memory(group_id, "我", "事实", "心情", "不好", {"时间": "今天"}, reference_time=REF)
    graph.link_memories(group_id, "我昨晚没睡好", "我今天心情不好", "导致")
    graph.set_note(group_id, "s1", "task", "cheer the user up")
    graph.add_turns(group_id, "s1", [{"role": "user", "content": "我今天不开心"}])
    text = graph.context(group_id, "s1", "我为什么今天不开心？", max_tokens=300, reference_time=REF)
    assert text.startswith("# CONTEXT") and estimate_tokens(text) <= 300
    assert "- task: cheer the user up" in text and "- user: 我今天不开心" in text
    memories = text.split(MEMORIES_HEADING)[1]
    assert "心情" in memories and "睡好" in memories and 'said: "我昨晚没睡好。"' in memories
    tiny = graph.context(group_id, "s1", "我为什么今天不开心？", max_tokens=20, reference_time=REF)
    assert estimate_tokens(tiny) <= 20


# --- the budget, as a property ---------------------------------------------------------------------

WORDS_ZH = st.text(
    alphabet="我你他心情睡眠不好今天昨晚吃饭白米饭公园散步工作累开心因为所以。，", min_size=1, max_size=60
)
WORDS_EN = st.text(alphabet="abcdefghij klmnop qrstuvwxyz,.'", min_size=1, max_size=120)
TEXT = st.one_of(WORDS_ZH, WORDS_EN, st.tuples(WORDS_ZH, WORDS_EN).map(" ".join)).filter(lambda s: s.strip())


@st.composite
def results(draw):
    n = draw(st.integers(0, 25))
    out = []
    for i in range(n):
        evidence = [{"id": f"e{i}", "content": draw(TEXT)}] if draw(st.booleans()) else []
        out.append(
            {
                "memory_id": f"m{i}",
                "text": draw(TEXT),
                "memory_type": draw(st.sampled_from(["EVENT", "FACT", "RELATION", "OPINION"])),
                "score": draw(st.floats(0, 1, allow_nan=False)),
                "evidence": evidence,
            }
        )
    return out


def search_result(raw: dict) -> SearchResult:
    return SearchResult(
        **{**raw, "evidence": [EvidenceEpisode(**e) for e in raw["evidence"]]},
        importance=0.5,
        score_parts=ScoreParts(similarity=0, importance=0, distance=0, time_decay=0, access=0),
        distance=0,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    notes=st.dictionaries(st.text("abcxyz_", min_size=1, max_size=8), TEXT, max_size=6),
    turns=st.lists(
        st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": TEXT}), max_size=12
    ),
    found=results(),
    max_tokens=st.integers(1, 600),
)
def test_context_never_exceeds_its_budget_and_shows_the_top_of_the_ranking(notes, turns, found, max_tokens):
    found = [search_result(raw) for raw in found]
    text = render_context(notes, turns, found, max_tokens)
    assert estimate_tokens(text) <= max_tokens
    if MEMORIES_HEADING not in text:
        return
    shown = [line for line in text.split(MEMORIES_HEADING + "\n")[1].split("\n") if line.startswith("- ")]
    ranked = sorted(found, key=lambda r: -r.score)
    # what is shown is exactly the best-scored memories, best first
    assert [line[2:].split(' (said: "')[0] for line in shown] == [r.text for r in ranked[: len(shown)]]


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(max_tokens=st.integers(5, 400))
def test_context_on_stored_memories_in_both_languages_fits_every_budget(graph, max_tokens):
    group = "ctx-budget-fixed"
    if not graph.list_memories(group, limit=1):
        graph.create_memories(
            group,
            [
                {
                    "subject": "我",
                    "memory_type": "事件",
                    "topic": "睡眠",
                    "object": "不好",
                    "attributes": {"时间": "昨晚"},
                },
                {
                    "subject": "我",
                    "memory_type": "事实",
                    "topic": "心情",
                    "object": "不好",
                    "attributes": {"时间": "今天"},
                },
                {"subject": "I", "memory_type": "event", "topic": "miss", "object": "the bus"},
                {"subject": "Alice", "memory_type": "opinion", "topic": "like", "object": "green tea and long walks"},
            ],
            reference_time=REF,
        )
    text = graph.context(
        group, None, "我为什么不开心？ why did I miss the bus?", max_tokens=max_tokens, reference_time=REF
    )
    assert estimate_tokens(text) <= max_tokens
