"""One vocabulary for the user and the agent, on the write path (ingest, concept resolution) and
the read path (the subject filter): a turn said by "Human", a memory about 用户 and a search
for subject "me" all mean the same person."""

from __future__ import annotations

import pytest

from graphmem.lang import AGENT_KEY, USER_KEY, person_key, read_together, role_name

SAID = "2025-11-05T09:00:00+08:00"


@pytest.mark.parametrize(
    "name, key",
    [
        ("我", USER_KEY),
        ("The User", USER_KEY),
        ("ＭＥ", USER_KEY),
        ("助手", AGENT_KEY),
        ("You", AGENT_KEY),
        ("小明", None),
        ("Tom", None),
    ],
)
def test_names_of_the_user_and_the_agent(name, key):
    assert person_key(name) == key


def test_message_roles_as_chat_apis_spell_them():
    assert [role_name(r) for r in ("Human", "person", "AI", "model", "user", "tool")] == [
        "user",
        "user",
        "assistant",
        "assistant",
        "user",
        "tool",
    ]


def test_turns_are_read_together_in_a_dialogue_or_one_sitting_and_notes_apart():
    morning, minute, evening = "2025-11-05T09:00:00+08:00", "2025-11-05T09:01:00+08:00", "2025-11-05T21:00:00+08:00"
    # two named speakers in the user role (a dataset of two people talking), a user and the agent: hours apart too
    assert read_together([("Mel", "user", morning), ("Jo", "user", evening)])
    assert read_together([(None, "user", morning), (None, "assistant", evening), (None, "user", evening)])
    # one person's messages in one sitting ("I got a new car." / "It's red."), or without a time
    assert read_together([(None, "user", morning), (None, "user", minute)])
    assert read_together([(None, "user", None), (None, "user", evening)])
    # one person's notes written hours apart: unnamed, named as the user ("我", "I") or by another spelling
    assert not read_together([(None, "user", morning), (None, "user", evening)])
    assert not read_together([("我", "user", morning), (None, "user", evening), ("I", "human", evening)])
    assert not read_together([("Mel", "user", morning), ("mel", "user", evening)])


def test_the_user_is_one_subject_whether_written_as_a_speaker_a_subject_or_a_filter(graph, group_id):
    turns = [
        {"role": "user", "speaker": "Human", "content": "I love hiking in the Alps.", "timestamp": SAID},
        {"role": "user", "speaker": "Tom", "content": "I love sailing.", "timestamp": SAID},
    ]
    graph.ingest(group_id, turns, session_id="s1", extractor="rules")
    graph.create_memory(group_id, "用户", "观点", "喜欢", "下雨天", reference_time=SAID)

    subjects = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_SUBJECT]->(s:Subject) RETURN m.text AS text, s.id AS subject", g=group_id
    )
    by_text = {r["text"]: r["subject"] for r in subjects}
    hiking = next(s for t, s in by_text.items() if "hiking" in t)
    sailing = next(s for t, s in by_text.items() if "sailing" in t)
    rain = next(s for t, s in by_text.items() if "下雨天" in t)
    assert hiking == rain != sailing  # "Human" and 用户 are the user; Tom is Tom

    found = graph.search_memories(group_id, "what do I love", subject="me", mode="fast")
    texts = [r.text for r in found.results if r.kind == "memory"]
    assert texts and all("sailing" not in t for t in texts) and any("hiking" in t for t in texts)


@pytest.mark.parametrize(
    "word, text, said",
    [
        ("ruth", "关于ruth你记得什么", True),  # Chinese may touch a name written in letters
        ("ruth", "what about ruth?", True),
        ("ruth", "ruth", True),
        ("ruth", "the truth about it", False),  # not inside a longer word
        ("ruth", "ruthless", False),
        ("ann", "joann and ann", True),  # a later whole occurrence counts
        ("leo", "leo's bike", True),
        ("tom", "tom1 and _tom", False),
        ("", "anything", False),
    ],
)
def test_a_name_is_said_as_whole_words(word, text, said):
    """What the walk asks of every concept it meets: does the question name it (``Paths.names``)."""
    from graphmem.textsim import says_word

    assert says_word(word, text) is said
