"""The table of readings (graphmem/lexicon/readings.py) is the one place the kinds and slots are declared:
the output schema, consolidation's slot and stance words, and the LLM's prompt agree with it."""

from __future__ import annotations

import pytest

from graphmem.ingest.llm import SYSTEM_PROMPT
from graphmem.ingest.schema import Kind, Slot
from graphmem.lexicon.readings import BY_ID, KINDS, READINGS, marked_slots
from graphmem.lexicon.topics import NEGATIVE, POSITIVE, SLOTS, STOPS, slot_of, stance

pytestmark = pytest.mark.unit


def test_the_schemas_kinds_and_slots_are_the_tables() -> None:
    assert [k.value for k in Kind] == list(KINDS)
    assert {s.value for s in Slot} == {r.slot for r in marked_slots()}
    assert {r.kind for r in READINGS} == set(KINDS)
    assert len(BY_ID) == len(READINGS), "a reading's id is declared twice"


def test_every_reading_has_a_topic_word_in_each_language_and_a_confidence() -> None:
    for r in READINGS:
        assert set(r.topic) == {"zh", "en"}, r.id
        assert 0 < r.confidence <= 1, r.id
        # what ends a reading without a slot ends it by its object: a liking, a thing had
        assert not r.ends or r.slot or r.kind in ("preference", "possession"), f"{r.id} ends but fills no slot"


def test_consolidation_reads_each_slot_by_its_readings_words() -> None:
    assert set(SLOTS) == {r.slot for r in READINGS if r.single and r.words}
    for r in READINGS:
        if r.slot and r.words:
            assert slot_of(r.words[0]) == r.slot, r.id
    assert (POSITIVE, NEGATIVE, STOPS) == (BY_ID["like"].words, BY_ID["dislike"].words, BY_ID["stop"].words)
    assert stance(BY_ID["like"].topic["zh"]).sign == 1 and stance(BY_ID["dislike"].topic["en"]).sign == -1


def test_the_llm_prompt_lists_every_kind_and_every_slot_an_extractor_names() -> None:
    kinds = next(line for line in SYSTEM_PROMPT.splitlines() if line.startswith("- kind:"))
    slots = next(line for line in SYSTEM_PROMPT.splitlines() if line.startswith("- slot:"))
    assert all(k in kinds for k in KINDS)
    assert all(f"{r.slot} ({r.gloss})" in slots for r in marked_slots())
