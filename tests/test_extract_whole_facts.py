"""What the rule extractor writes, read back from a real Neo4j as a user sees it: each memory's
text is a whole fact from one clause (subject, predicate, object, time as a date), and a
negated clause is never stored as its opposite, in English and in Chinese."""

from __future__ import annotations

SAID = "2023-05-08T13:56:00+00:00"  # a Monday: "last week" is 1–7 May 2023


def stored(graph, group_id) -> list[str]:
    rows = graph.store.run_text("MATCH (m:Memory {group_id: $g}) RETURN m.text AS text", g=group_id)
    return sorted(r["text"] for r in rows)


def test_a_chatty_turn_is_stored_as_whole_facts_dated_from_the_turn(graph, group_id):
    turns = [
        {
            "role": "user",
            "speaker": "Melanie",
            "timestamp": SAID,
            "content": "Hey Caroline! I just signed up for a pottery class last week, it's so therapeutic. "
            "[image: a photo of a bowl made in a class in 2019]",
        },
        {
            "role": "user",
            "speaker": "Caroline",
            "timestamp": SAID,
            "content": "Wow! I adopted a puppy named Max last week. My colleagues and I went to a pride parade "
            "yesterday - it was amazing!",
        },
        {"role": "user", "timestamp": SAID, "content": "我上周领养了一只叫旺财的小狗。"},
    ]
    graph.ingest(group_id, turns, session_id="s1", extractor="rules")
    assert stored(graph, group_id) == [
        "Caroline adopted a puppy named Max (time: 2023-05-01/2023-05-07)",
        "Caroline went to a pride parade (with: Caroline's colleagues; time: 2023-05-07)",
        "Melanie signed up for a pottery class (time: 2023-05-01/2023-05-07)",
        "我 领养了 叫旺财的小狗 (时间: 2023-05-01/2023-05-07)",
    ]
    hit = graph.search_memories(group_id, "When did Caroline adopt her puppy?", profile="recall").results[0]
    assert hit.text.startswith("Caroline adopted a puppy named Max")


def test_a_negated_clause_is_never_stored_as_its_opposite(graph, group_id):
    turns = [
        {
            "role": "user",
            "timestamp": SAID,
            "content": "I don't eat meat anymore. I didn't go to the gym yesterday. I don't really like jazz.",
        },
        {
            "role": "user",
            "timestamp": SAID,
            "content": "我不喜欢香菜。我再也不喜欢榴莲了。小明不是我的朋友。我昨晚没睡好。",
        },
    ]
    graph.ingest(group_id, turns, session_id="s1", extractor="rules")
    texts = stored(graph, group_id)
    assert texts == [
        "I dislike jazz",
        "I no longer eat meat",  # what stopped, never "I eat meat"
        "小明 不是 我的朋友",
        "我 不再喜欢 榴莲",
        "我 不喜欢 香菜",
        "我 没睡好 (时间: 2023-05-07 夜间)",
    ]
    assert not any("gym" in t or "朋友 小明" in t for t in texts)


def test_plans_and_feelings_of_a_named_speaker_read_as_whole_sentences(graph, group_id):
    """What a named speaker plans, hopes and feels is stored as a sentence about them: a verb
    phrase after "plans to", the verb agreeing with the name, nothing cut inside a word or left
    hanging on "the"; a hope that names nothing to do ("I hope so") is no plan."""
    said = [
        "I'm thinking of taking a pottery course.",
        "I'm going to a jazz festival next month!",
        "I've always had a soft spot for old trains.",
        "I hope so! I'm going for it!",
        "I'm planning a trip to Lisbon.",
        "I'm over the moon because my sister got engaged.",
        "I'm thinking of teaming up with a few local bakeries and farmers in the area to sell bread.",
        'I loved "The Night Circus" by Erin Morgenstern.',
        "I'm starting a dance school 'cause I love teaching.",
    ]
    turns = [{"role": "user", "speaker": "Ivy", "timestamp": SAID, "content": line} for line in said]
    graph.ingest(group_id, turns, session_id="s1", extractor="rules")
    texts = stored(graph, group_id)
    assert "Ivy plans to take a pottery course" in texts
    assert "Ivy plans to go to a jazz festival (time: 2023-06)" in texts
    assert "Ivy plans a trip to Lisbon" in texts
    assert "Ivy is over the moon" in texts
    assert "Ivy plans to team up with a few local bakeries and farmers" in texts
    assert not [t for t in texts if " a lways" in t or "plans to for" in t or "wants to so" in t], texts
    assert not [t for t in texts if t.split(" (")[0].endswith((" the", " in", " and", ","))], texts
    assert "Ivy loves The Night Circus by Erin Morgenstern" in texts  # no quote left without its pair
    assert not [t for t in texts if "joined" in t or "'cause" in t], texts  # she founds it, she does not join it
