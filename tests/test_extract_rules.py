"""The offline rule-based extractor, Chinese and English: what a speaker says about themselves
becomes memories with the speaker as subject, times read against the turn's own timestamp."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from graphmem.ingest.episodes import split_text
from graphmem.ingest.models import EpisodeView
from graphmem.ingest.rules import RuleExtractor

TZ = timezone(timedelta(hours=8))
SAID_AT = datetime(2025, 11, 5, 9, 0, tzinfo=TZ)


def extract(content: str, speaker: str | None = None, role: str = "user", when: datetime = SAID_AT):
    ep = EpisodeView(id="ep1", session_id="s1", role=role, content=content, timestamp=when, order=0, speaker=speaker)
    return RuleExtractor().extract([ep])


def triples(plan) -> list[tuple]:
    return [(m.memory["subject"], m.memory["memory_type"], m.memory["topic"], m.memory["object"])
            for m in plan.memories]


def test_chinese_preferences_facts_and_relations_have_the_user_as_subject():
    plan = extract("我叫李雷，我在腾讯工作，我住在深圳。我最喜欢的水果是芒果。我讨厌下雨天。小明是我的好朋友。")
    found = triples(plan)
    assert ("我", "FACT", "名字", "李雷") in found
    assert ("我", "FACT", "工作单位", "腾讯") in found
    assert ("我", "FACT", "居住地", "深圳") in found
    assert ("我", "OPINION", "最喜欢的水果", "芒果") in found
    assert ("我", "OPINION", "讨厌", "下雨天") in found
    assert ("我", "RELATION", "朋友", "小明") in found
    assert all(m.episode_ids == ["ep1"] for m in plan.memories)


def test_english_preferences_facts_and_relations():
    plan = extract("My name is Alice and I work at Google. I live in Berlin. I love hiking in the Alps, "
                   "but I hate crowded beaches. My favourite food is sushi. My wife Anna is a doctor.")
    found = triples(plan)
    for expected in [("I", "FACT", "name", "Alice"), ("I", "FACT", "works at", "Google"),
                     ("I", "FACT", "lives in", "Berlin"), ("I", "OPINION", "love", "hiking in the Alps"),
                     ("I", "OPINION", "hate", "crowded beaches"), ("I", "OPINION", "favorite food", "sushi"),
                     ("I", "RELATION", "wife", "Anna")]:
        assert expected in found


def test_a_named_speaker_is_the_subject():
    plan = extract("I'm a big fan of pottery. My friend Jolene paints too.", speaker="Caroline")
    found = triples(plan)
    assert ("Caroline", "OPINION", "is a fan of", "pottery") in found
    assert ("Caroline", "RELATION", "friend", "Jolene") in found


def test_an_event_with_a_time_expression_is_dated_from_the_turns_own_timestamp():
    said = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    plan = extract("I went to a LGBTQ support group yesterday and it was so powerful.", speaker="Caroline",
                   when=said)
    [event] = [m for m in plan.memories if m.memory["memory_type"] == "EVENT"]
    assert event.memory["subject"] == "Caroline"
    assert "support group" in f"{event.memory['topic']} {event.memory['object']}"
    assert event.memory["attributes"] == {"time": "2023-05-07"}     # yesterday, said on 8 May 2023

    [zh] = extract("我昨天去超市买了苹果和香蕉").memories
    assert zh.memory["memory_type"] == "EVENT" and zh.memory["attributes"] == {"时间": "2025-11-04"}


def test_because_and_so_make_two_memories_and_a_link_from_cause_to_effect():
    plan = extract("昨晚我失眠了，所以今天很困")
    cause, effect = plan.memories
    assert "失眠" in cause.memory["topic"] and cause.memory["attributes"] == {"时间": "2025-11-04 夜间"}
    assert "困" in effect.memory["topic"]
    [link] = plan.links
    assert (link.source, link.target) == (cause.key, effect.key)

    plan = extract("I was late for work because the train broke down.")
    [link] = plan.links
    by_key = {m.key: m.memory for m in plan.memories}
    cause = by_key[link.source]
    assert (cause["subject"], cause["topic"], cause["object"]) == ("train", "broke", "down")
    assert "late" in f"{by_key[link.target]['topic']} {by_key[link.target]['object']}"

    plan = extract("我很讨厌下雨天，因为会影响我的心情")
    [link] = plan.links
    by_key = {m.key: m.memory for m in plan.memories}
    assert (by_key[link.target]["topic"], by_key[link.target]["object"]) == ("讨厌", "下雨天")


def test_assistant_turns_and_small_talk_give_nothing():
    assert extract("I love helping you plan trips!", role="assistant").memories == []
    assert extract("好的，谢谢。").memories == []
    assert extract("Sounds great, thanks!").memories == []


def test_long_text_splits_at_chinese_and_english_sentence_ends():
    zh = "我今天很开心。" * 200
    chunks = split_text(zh, chunk_size=200, chunk_overlap=0)
    assert len(chunks) > 1 and all(c.endswith("。") for c in chunks)
    en = "It was a long day. " * 200
    chunks = split_text(en, chunk_size=300, chunk_overlap=0)
    assert len(chunks) > 1 and all(c.endswith(".") for c in chunks)
    assert split_text("short") == ["short"]
