"""The graph in recall, on a real Neo4j: a question about someone gathers from all they are known
for (their memories across sessions, in words the question does not use), and a memory reached
only through the graph in a conversation carries its path and the turn it came from."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

TZ = timezone.utc


def day(n: int) -> datetime:
    return datetime(2023, 5, 1, 12, tzinfo=TZ) + timedelta(days=n)


def write_sessions(graph, group_id, memories) -> list[str]:
    """Each (subject, type, topic, object) written on a day of its own: one session each."""
    return [graph.create_memory(group_id, subject, memory_type, topic, obj, reference_time=day(3 * i)).memory_id
            for i, (subject, memory_type, topic, obj) in enumerate(memories)]


# others' activities: close to the question in words and meaning, about someone else
OTHERS_EN = [(name, "事实", "partakes in", f"{what} activities at the community centre")
             for name in ("Caroline", "Jon", "Gina", "Maria", "John")
             for what in ("weekend", "outdoor", "group", "volunteer", "art")]
OTHERS_ZH = [(name, "事实", "参加", what)
             for name in ("小红", "小刚", "老王", "阿强", "丽丽")
             for what in ("社区的周末活动", "户外活动", "志愿活动", "艺术活动", "集体活动")]


SUBJECT_CASES = {
    "en": ("Melanie", [("Melanie", "事件", "painted", "a lake sunrise"),
                       ("Melanie", "事件", "signed up for", "a pottery class"),
                       ("Melanie", "事件", "went swimming with", "her kids")],
           OTHERS_EN, "What activities does Melanie partake in?"),
    "zh": ("小明", [("小明", "事件", "画了", "湖上的日出"),
                   ("小明", "事件", "报名了", "陶艺课"),
                   ("小明", "事件", "带孩子去", "游泳")],
           OTHERS_ZH, "小明喜欢什么活动？"),
}


@pytest.mark.parametrize("lang", sorted(SUBJECT_CASES))
def test_a_question_about_someone_gathers_their_memories_across_sessions(graph, group_id, lang):
    """Their three memories, each from a session of its own and sharing no word with the question
    but their name, come back beside 25 memories of others that share the question's words."""
    name, theirs, others, question = SUBJECT_CASES[lang]
    mine = write_sessions(graph, group_id, theirs)
    write_sessions(graph, group_id, others)

    response = graph.search_memories(group_id, question, max_results=10, mode="fast", reference_time=day(100),
                                     profile="recall")

    found = {r.memory_id: r for r in response.results}
    assert set(mine) <= set(found), [r.text for r in response.results]
    assert len({found[m].created_at for m in mine}) == 3
    assert any(w.startswith(f"subject: the query names {name}") for w in response.plan.why)
    assert all("subject" in found[m].seed_sources for m in mine)


def test_without_a_named_subject_nothing_is_gathered(graph, group_id):
    write_sessions(graph, group_id, OTHERS_EN[:6])

    response = graph.search_memories(group_id, "What activities are there?", mode="fast", reference_time=day(100))

    assert not any(w.startswith("subject:") for w in response.plan.why)
    assert all("subject" not in r.seed_sources for r in response.results)


def test_a_subject_of_another_group_is_not_gathered(graph, group_id):
    write_sessions(graph, group_id + "-other", [("Melanie", "事件", "painted", "a lake sunrise")])
    write_sessions(graph, group_id, OTHERS_EN[:6])

    response = graph.search_memories(group_id, "What does Melanie paint?", mode="fast", reference_time=day(100))

    assert not any(w.startswith("subject:") for w in response.plan.why)
    assert all(r.text != "Melanie painted a lake sunrise" for r in response.results)


FILLER = ["The weather was lovely this afternoon.", "We watched a film about space last night.",
          "My sister called to talk about her new job.", "The café downstairs changed its menu.",
          "Traffic was terrible on the way home.", "I finally fixed the squeaky door."]


def test_a_memory_reached_through_the_graph_in_a_conversation_carries_its_path_and_turn(graph, group_id):
    """A memory of a conversation that only the walk reaches (its turn matches nothing) is scored
    with the turn it came from and carries the path that reached it."""
    sessions = [["I love hiking in the Alps."], FILLER[:3], ["I adopted a puppy named Max last week."], FILLER[3:]]
    for n, turns in enumerate(sessions):
        graph.ingest(group_id, [{"role": "user", "content": t} for t in turns], session_id=f"s{n}",
                     reference_time=day(7 * n), extractor="rules")
    graph.link_memories(group_id, "hiking in the Alps", "adopted a puppy named Max", "related")

    # the default profile seeds only what reaches its similarity floor: the puppy's turn does not
    flat = graph.search_memories(group_id, "Where do I love hiking?", mode="fast", reference_time=day(40))
    deep = graph.search_memories(group_id, "Where do I love hiking?", mode="deep", expand_depth=1,
                                 reference_time=day(40))

    puppy = [r for r in deep.results if "puppy" in r.text]
    assert puppy and all("puppy" not in r.text for r in flat.results), [r.text for r in deep.results]
    reached = puppy[0]
    seeds = {r.memory_id for r in deep.results if r.distance == 0}
    assert reached.distance == 1 and reached.path[0].edge == "REFERENCE" and reached.path[0].from_id in seeds
    assert [e.content for e in reached.evidence] == ["I adopted a puppy named Max last week."]
    assert reached.score_parts.distance == 0.5
