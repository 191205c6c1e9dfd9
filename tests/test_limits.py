"""Bounded inputs on the real database: every free-text input has a cap named in its refusal,
blank fields are refused alike, and a long ingest is taken in segments (linear, with progress)."""

from __future__ import annotations

import time

import pytest

from graphmem.errors import ValidationError
from graphmem.ingest.episodes import text_length
from graphmem.ingest.models import Message
from graphmem.ingest.pipeline import SEGMENT_UNITS, segments
from graphmem.types import MAX_INGEST_CHARS, MAX_NAME, MAX_TEXT

SCAN = "MATCH (n) WHERE n.group_id = $g RETURN count(n) AS n"


def test_a_one_megabyte_ingest_is_refused_at_once_naming_the_limit(graph, group_id):
    for text in ("a" * 1_000_000, "长" * 1_000_000):
        t0 = time.monotonic()
        with pytest.raises(ValidationError, match=f"at most {MAX_INGEST_CHARS}") as info:
            graph.ingest(group_id, text=text, extractor="rules")
        assert time.monotonic() - t0 < 5 and info.value.field == "text"  # refused, never silently slow
    turns = [{"role": "user", "content": "x" * 50_000} for _ in range(5)]  # each fine, together too long
    with pytest.raises(ValidationError, match="250000 characters in one ingest call"):
        graph.ingest(group_id, turns, extractor="rules")
    assert graph.store.run_text(SCAN, g=group_id)[0]["n"] == 0  # nothing was written


def test_a_long_text_is_stored_in_segments_with_progress_and_a_key_covers_them_all(graph, group_id):
    sentence = "我昨天和妹妹去了博物馆，看了很多画。"  # 18 CJK characters: 72 length units
    text = sentence * (SEGMENT_UNITS // 72 + 40)  # a little over one segment
    seen = []
    report = graph.ingestor.ingest(
        group_id, text=text, extractor="rules", progress=lambda *step: seen.append(step), request_id="doc-1"
    )
    assert seen == [("segments", 1, 2), ("segments", 2, 2)]
    assert len(report.jobs) >= 2 and report.jobs_pending == report.jobs_failed == report.jobs_running == 0
    stored = graph.store.run_text(
        "MATCH (e:Episode {group_id: $g}) RETURN e.content AS c ORDER BY e.order, e.chunk", g=group_id
    )
    assert "".join(r["c"] for r in stored).count("博物馆") >= text.count("博物馆")  # every sentence kept
    again = graph.ingest(group_id, text=text, extractor="rules", request_id="doc-1")
    assert again.episodes == report.episodes  # the repeat stores nothing new
    assert graph.store.run_text("MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n", g=group_id)[0]["n"] == len(
        report.episodes
    )


def test_segments_keep_order_and_cut_a_long_turn_at_sentence_ends():
    english = "I went to the market and bought some apples. " * 800  # 36,000 units
    short = Message(role="assistant", content="Nice!")
    parts = segments([Message(role="user", content=english, speaker="Ann"), short])
    assert len(parts) == 3 and parts[-1][-1] is short
    pieces = [m for part in parts for m in part]
    assert all(text_length(m.content) <= SEGMENT_UNITS for m in pieces)
    assert all(m.speaker == "Ann" for m in pieces[:-1]) and all(m.content.endswith(".") for m in pieces[:-1])
    assert " ".join(m.content for m in pieces[:-1]).count("apples") == 800


@pytest.mark.parametrize(
    ("field", "value"), [("topic", "   "), ("object", "   "), ("subject", "\u3000"), ("topic", "\t\n")]
)
def test_blank_fields_are_refused_alike(graph, group_id, field, value):
    memory = {"subject": "I", "memory_type": "fact", "topic": "like", "object": "tea", field: value}
    with pytest.raises(ValidationError, match=f"{field}: must not be empty or only whitespace"):
        graph.create_memory(group_id, **memory)
    assert graph.create_memory(group_id, "I", "fact", "like", "").text  # "" is "no object", as null


def test_every_free_text_input_has_a_cap_named_in_its_refusal(graph, group_id):
    calls = {
        "subject": lambda: graph.search_memories(group_id, "tea", subject="x" * (MAX_NAME + 1)),
        "query": lambda: graph.search_memories(group_id, "长" * 2001),
        "topic": lambda: graph.create_memory(group_id, "I", "fact", "t" * (MAX_NAME + 1)),
        "content": lambda: graph.add_turns(group_id, "s1", [{"role": "user", "content": "x" * (MAX_TEXT + 1)}]),
        "request_id": lambda: graph.create_memory(group_id, "I", "fact", "like", request_id="k" * 129),
    }
    for field, call in calls.items():
        with pytest.raises(ValidationError, match=r"at most \d+") as info:
            call()
        assert field in str(info.value)
        assert len(str(info.value)) < 400  # the value itself is never echoed


def test_a_refused_identifier_is_quoted_short(graph, group_id):
    with pytest.raises(ValidationError) as info:
        graph.create_memory(group_id, "I", "fact", "like", session_id="s\n" + "x" * 100_000)
    assert len(str(info.value)) < 300 and "100002 characters" in str(info.value)


def test_the_cli_reads_a_long_file_in_parts_of_one_chunk_each(tmp_path):
    from graphmem.ingest.bulk import read_parts
    from graphmem.ingest.episodes import CHUNK_SIZE

    path = tmp_path / "museum.txt"
    path.write_text("The museum was great. " * 20_000)  # 440,000 characters
    parts = list(read_parts(path))
    assert all(text_length(p.message.content) <= CHUNK_SIZE for p in parts)
    assert [p.index for p in parts] == list(range(len(parts))) and len({p.key for p in parts}) == len(parts)
    assert parts[-1].end == 440_000 and [p.end for p in parts] == sorted(p.end for p in parts)
    assert sum(p.message.content.count("museum") for p in parts) >= 20_000  # every sentence kept
    assert [p.key for p in read_parts(path)] == [p.key for p in parts]  # the same parts in every run


FIVE_MB = 5 * 1024 * 1024


def test_a_five_megabyte_value_is_refused_before_any_other_work_with_the_cap_named(graph, group_id):
    """create_memory, search_memories, dispatch and ingest refuse it as a ValidationError naming the
    field and its cap (the time it takes is measured by `python -m graphmem_bench.oversize`)."""
    from graphmem.tools import MAX_ARGUMENTS_CHARS, dispatch

    big, chinese = "x" * FIVE_MB, "长" * FIVE_MB
    with pytest.raises(ValidationError, match=f"subject: must be at most {MAX_NAME} characters") as info:
        graph.create_memory(group_id, big, "FACT", "likes", "tea")
    assert info.value.field == "subject"
    with pytest.raises(ValidationError, match=r"attributes: must be at most 500 characters \(got 5242880\)"):
        graph.create_memory(group_id, "I", "FACT", "like", "tea", attributes={"place": chinese})
    with pytest.raises(ValidationError, match="query: must be at most 2000 characters"):
        graph.search_memories(group_id, chinese)
    with pytest.raises(ValidationError, match=f"at most {MAX_INGEST_CHARS}"):
        graph.ingest(group_id, [{"role": "user", "content": "a" * 1000} for _ in range(FIVE_MB // 1000)])
    call = {"id": "c1", "function": {"name": "search_memories", "arguments": '{"query": "' + big + '"}'}}
    out = dispatch(graph, call, group_id=group_id)
    assert (out["success"], out["error"], out["field"]) == (False, "ValidationError", "arguments")
    assert (
        f"{FIVE_MB + 13} characters; a search_memories call's arguments may have at most {MAX_ARGUMENTS_CHARS}"
        in (out["message"])
    )
    parsed = {"id": "c2", "function": {"name": "create_memory", "arguments": {"subject": big, "memory_type": "FACT"}}}
    assert dispatch(graph, parsed, group_id=group_id)["field"] == "arguments"
    assert graph.store.run_text(SCAN, g=group_id)[0]["n"] == 0  # nothing was written


def test_a_long_value_with_a_control_character_is_refused_for_its_length_first():
    from graphmem.types import MemoryInput, validate

    with pytest.raises(ValidationError, match="must be at most 200 characters"):
        validate(MemoryInput, {"subject": "\x00" + "x" * 300, "memory_type": "FACT", "topic": "likes"})
    with pytest.raises(ValidationError, match="control characters"):  # a short one still names its fault
        validate(MemoryInput, {"subject": "\x00x", "memory_type": "FACT", "topic": "likes"})
