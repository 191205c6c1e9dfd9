"""The graph in recall, on a real Neo4j: a question about someone gathers from all they are known
for (their memories across sessions, in words the question does not use), and a memory reached
only through the graph in a conversation carries its path and the turn it came from."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

pytestmark = pytest.mark.real_models  # real models: recall in words the question does not use

TZ = UTC


def day(n: int) -> datetime:
    return datetime(2023, 5, 1, 12, tzinfo=TZ) + timedelta(days=n)


def write_sessions(graph, group_id, memories) -> list[str]:
    """Each (subject, type, topic, object) written on a day of its own: one session each."""
    return [
        graph.create_memory(group_id, subject, memory_type, topic, obj, reference_time=day(3 * i)).memory_id
        for i, (subject, memory_type, topic, obj) in enumerate(memories)
    ]


# others' activities: close to the question in words and meaning, about someone else
ACTIVITIES_EN = ("weekend", "outdoor", "group", "volunteer", "art", "sports")
ACTIVITIES_ZH = ("社区", "户外", "志愿", "艺术", "集体", "体育", "音乐", "学校", "教会", "俱乐部", "舞蹈", "园艺")
OTHERS_EN = [
    (name, "事实", "partakes in", f"{what} activities with Melanie's family")
    for name in ("Caroline", "Jon", "Gina")
    for what in ACTIVITIES_EN
]
OTHERS_ZH = [
    (name, "事实", "参加", f"{what}活动") for name in ("小红", "小刚", "老王", "阿强", "丽丽") for what in ACTIVITIES_ZH
]

# (name, their memories, others', the question, the places their three must come within)
SUBJECT_CASES = {
    "en": (
        "Melanie",
        [
            ("Melanie", "事件", "painted", "a lake sunrise"),
            ("Melanie", "事件", "signed up for", "a pottery class"),
            ("Melanie", "事件", "went swimming with", "her kids"),
        ],
        OTHERS_EN,
        "What activities does Melanie partake in?",
        10,
    ),
    "zh": (
        "小明",
        [
            ("小明", "事件", "画了", "湖上的日出"),
            ("小明", "事件", "报名了", "陶艺课"),
            ("小明", "事件", "带孩子去", "游泳"),
        ],
        OTHERS_ZH,
        "小明喜欢什么活动？",
        3,
    ),
}


def ask(graph, group_id, lang):
    """Their memories and others', each on a day of its own; (their ids, the response)."""
    name, theirs, others, question, _ = SUBJECT_CASES[lang]
    mine = write_sessions(graph, group_id, theirs)
    write_sessions(graph, group_id, others)
    return mine, graph.search_memories(
        group_id, question, max_results=10, mode="fast", reference_time=day(100), profile="recall"
    )


@pytest.mark.parametrize("lang", sorted(SUBJECT_CASES))
def test_a_question_about_someone_gathers_their_memories_across_sessions(graph, group_id, lang):
    """Their three memories, each from a session of its own and sharing no word with the question
    but their name, come back among the first places, beside others' memories that share the
    question's words (in English, even their name)."""
    name, _, _, _, within = SUBJECT_CASES[lang]
    mine, response = ask(graph, group_id, lang)

    found = [r.memory_id for r in response.results]
    assert set(mine) <= set(found[:within]), [r.text for r in response.results]
    assert len({r.created_at for r in response.results if r.memory_id in mine}) == 3
    assert any(w.startswith(f"subject: the query names {name}") for w in response.plan.why)
    assert all("subject" in r.seed_sources for r in response.results if r.memory_id in mine)


@pytest.mark.parametrize("lang", sorted(SUBJECT_CASES))
def test_with_the_gathering_off_the_nearest_texts_crowd_them_out(make_settings, group_id, lang):
    """The same questions with ``retrieval.limits.subject_cap`` 0: others' memories take places
    above theirs, so it is the gathering that brings them forward."""
    from graphmem.graph import MemoryGraph

    within = SUBJECT_CASES[lang][-1]
    g = MemoryGraph(make_settings(retrieval={"limits": {"subject_cap": 0}}))
    try:
        mine, response = ask(g, group_id, lang)
    finally:
        g.close()

    assert not set(mine) <= {r.memory_id for r in response.results[:within]}
    assert not any(w.startswith("subject:") for w in response.plan.why)


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


FILLER = [
    "The weather was lovely this afternoon.",
    "We watched a film about space last night.",
    "My sister called to talk about her new job.",
    "The café downstairs changed its menu.",
    "Traffic was terrible on the way home.",
    "I finally fixed the squeaky door.",
]


def test_a_memory_reached_through_the_graph_in_a_conversation_carries_its_path_and_turn(graph, group_id):
    """A memory of a conversation that only the walk reaches (its turn matches nothing) is scored
    with the turn it came from and carries the path that reached it."""
    sessions = [["I love hiking in the Alps."], FILLER[:3], ["I adopted a puppy named Max last week."], FILLER[3:]]
    for n, turns in enumerate(sessions):
        graph.ingest(
            group_id,
            [{"role": "user", "content": t} for t in turns],
            session_id=f"s{n}",
            reference_time=day(7 * n),
            extractor="rules",
        )
    graph.link_memories(group_id, "hiking in the Alps", "adopted a puppy named Max", "related")

    # the default profile seeds only what reaches its similarity floor: the puppy's turn does not
    flat = graph.search_memories(group_id, "Where do I love hiking?", mode="fast", reference_time=day(40))
    deep = graph.search_memories(
        group_id, "Where do I love hiking?", mode="deep", expand_depth=1, reference_time=day(40)
    )

    puppy = [r for r in deep.results if "puppy" in r.text]
    # without the walk it is at most a weaker direct match filling the results asked for
    assert puppy and all(r.path == [] for r in flat.results if "puppy" in r.text), [r.text for r in deep.results]
    reached = puppy[0]
    seeds = {r.memory_id for r in deep.results if r.distance == 0}
    assert reached.distance == 1 and reached.path[0].edge == "REFERENCE" and reached.path[0].from_id in seeds
    assert [e.content for e in reached.evidence] == ["I adopted a puppy named Max last week."]
    assert reached.score_parts.distance == 0.5


# more of the user's likes than the walk crosses the user for (retrieval.limits.hub_fanout)
LIKES_EN = "jazz dogs documentaries curry gardening rain museums chess tea cycling poetry sushi snow opera".split()
LIKES_ZH = "爵士乐 狗 纪录片 咖喱 园艺 下雨天 博物馆 象棋 喝茶 骑车 诗歌 寿司 雪天 歌剧".split()
# (what was said of someone over three sessions: the last an event, named by role alone; others' facts; question)
OLD_EVENT_CASES = {
    "en": (
        [
            "My cousin Ruth is a nurse in Leeds.",
            "She just adopted a greyhound.",
            "My cousin went to Iceland last month.",
        ],
        [("like", x) for x in LIKES_EN],
        "What do you know about Ruth?",
    ),
    "zh": (
        ["我表哥阿杰在深圳做程序员。", "他最近买了一辆摩托车。", "我表哥上个月去西藏骑行了。"],
        [("喜欢", x) for x in LIKES_ZH],
        "说说阿杰吧，你都知道什么？",
    ),
}


@pytest.mark.parametrize("lang", sorted(OLD_EVENT_CASES))
def test_what_is_known_of_someone_comes_before_weak_matches_under_the_default_profile(graph, group_id, lang):
    """Under the default profile, whose time decay all but zeroes an event of months ago, each thing
    said of the person the question names — their trip months ago too, said of them by role and
    reached through them — comes before weak matches about other things, which only fill the
    results asked for."""
    said, others, question = OLD_EVENT_CASES[lang]
    me = "I" if lang == "en" else "我"  # the others' facts are the user's likes
    for i, line in enumerate(said):
        graph.ingest(group_id, [{"role": "user", "content": line}], session_id=f"s{i}", reference_time=day(10 * i))
    for i, (topic, obj) in enumerate(others):
        graph.create_memory(group_id, me, "FACT", topic, obj, reference_time=day(100 + i), source="tool")
    response = graph.search_memories(group_id, question, max_results=10, reference_time=day(150))
    texts = [r.text for r in response.results]
    assert len(texts) == 10
    trip = [i for i, t in enumerate(texts) if ("Iceland" if lang == "en" else "西藏") in t]
    weak = [i for i, t in enumerate(texts) if t.startswith(f"{me} {others[0][0]} ")]
    assert trip and weak and trip[0] < min(weak), texts
