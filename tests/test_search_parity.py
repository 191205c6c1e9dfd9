"""One search, two corpora: the database and the process's copies give the same results.

A process that searches a group again holds the group's memory vectors
(graphmem/store/vector_copy.py) and, for a conversation, its turn and sentence vectors
(graphmem/retriever/turnvectors.py); the search then reads its nearest texts, word hits,
neighbours and cosines from them instead of asking Neo4j. That must change nothing a user can
see: the same results in the same order, at the same distances, with the same paths and
evidence, and scores equal up to the float32 copies against Neo4j's doubles and the fulltext index's drift
(``SCORE_TOLERANCE``). Checked for
Chinese, English and mixed queries, depths 0 to 2, every filter (memory types, subject, a time
range given and one read from the query, as of a past time), every built-in profile, in a group of memories
written and linked by hand and in a conversation ingested with named speakers; and for a group
above the copy's limit, whose float16 lookup copy gives the cosines of what a search names by id.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.graph import MemoryGraph
from graphmem.textsim import cjk_share

# under pytest-xdist, alone on the shared server: the fulltext index's scores (Lucene's BM25) normalise by
# the length of every text in the index, so another group's writes between the two searches of a
# comparison move a word score in its fifth decimal
pytestmark = pytest.mark.exclusive
# the float32 copies against Neo4j's doubles differ below 1e-5; in a CI run with two workers a score and its
# similarity read 7e-6 and 1.7e-5 apart between the two searches of a comparison (word scores: see above)
SCORE_TOLERANCE = 1e-4

REF = datetime(2025, 11, 5, 18, 0, tzinfo=UTC)
NO_ACCESS = {"ranking": {"weights": {"epsilon_access": 0.0}}}  # searches record access: keep it out of scores
# few direct matches per list (k = max(seed_k, max_results) = 8): most turns and memories then lie
# beyond the nearest, and the word hits, the turns around them and the memories' source turns count
SEED_K, MAX_RESULTS = 5, 8

# --- a group of memories, written and linked by hand ------------------------------------------
MEMORIES = [
    ("I", "event", "visited", "the old harbour in Lisbon", {"time": "2025-10-02"}),
    ("I", "fact", "am allergic to", "peanuts", None),
    ("I", "event", "missed", "the last train home", {"time": "2025-10-30"}),
    ("I", "event", "slept", "badly on the station bench", {"time": "2025-10-31"}),
    ("I", "opinion", "feel", "exhausted and grumpy today", {"time": "2025-11-05"}),
    ("Priya", "fact", "plays", "the cello in a quartet", None),
    ("Priya", "event", "repainted", "her kitchen a pale sage green", {"time": "2025-10-29"}),
    ("Priya", "relation", "is the sister of", "Tomasz", None),
    ("Tomasz", "event", "opened", "a bicycle repair shop", {"time": "2025-06-20"}),
    ("Tomasz", "fact", "owns", "a grey whippet named Comet", None),
    ("我", "事件", "买", "一台新电脑", {"时间": "2025-10-30"}),
    ("我", "事实", "喜欢", "爬山", None),
    ("我", "事件", "熬夜", "写报告", {"时间": "2025-11-04"}),
    ("我", "观点", "觉得", "今天头很疼", {"时间": "2025-11-05"}),
    ("小雨", "事实", "喜好", "打羽毛球", None),
    ("小雨", "关系", "是", "阿杰的表妹", None),
    ("阿杰", "事件", "参加", "城市马拉松", {"时间": "2025-10-26"}),
    ("公司", "事实", "位于", "上海浦东", None),
]
LINKS = [
    ("I missed the last train home", "I slept badly on the station bench", "causes"),
    ("I slept badly on the station bench", "I feel exhausted and grumpy today", "causes"),
    ("我熬夜写报告", "我觉得今天头很疼", "导致"),
    ("Priya repainted her kitchen", "Tomasz opened a bicycle repair shop", "related"),
]
MEMORY_QUERIES = [
    "why am I so tired today?",
    "what instrument does Priya play",
    "Tomasz's dog",
    "food allergy",
    "我为什么头疼？",
    "小雨喜欢什么运动",
    "我买了什么",
    "Priya 的厨房是什么颜色",
]
MEMORY_TIME_QUERIES = ["what did I do last week?", "上周我做了什么", "Priya 上周 kitchen"]

# --- a conversation, ingested with named speakers ------------------------------------------------
SESSIONS = [
    [
        (
            "Priya",
            "Last weekend I repainted my kitchen a pale sage green. I kept the old oak shelves. It took three coats!",
        ),
        ("Tomasz", "That sounds lovely. Did you choose the colour yourself?"),
        ("Priya", "Yes, after a month of staring at samples. I love calm colours."),
        ("Tomasz", "I work at my own bicycle repair shop now. My friend Ola helps on Saturdays."),
    ],
    [
        ("Tomasz", "This morning I chased my whippet Comet around the park for an hour."),
        ("Priya", "Oh no! Where did you find him?"),
        ("Tomasz", "Next to the bakery, eating someone's croissant. I live in the flat above that bakery."),
        ("Priya", "I play the cello in a quartet. I am nervous about the concert on Friday."),
    ],
    [
        ("小雨", "我上周去杭州看了西湖，风景特别美。我们还坐船去了三潭印月。"),
        ("阿杰", "真好！你们住在哪里？"),
        ("小雨", "我住在湖边的一家民宿，老板特别热情。我喜欢安静的地方。"),
        ("阿杰", "因为我在准备城市马拉松，所以我每天早上跑十公里。"),
    ],
    [
        ("阿杰", "我昨天学做了红烧肉，第一次就成功了。"),
        ("小雨", "下次请我吃吧。我报名了一个陶艺班。我的朋友小林也去。"),
        ("阿杰", "好啊，周末来我家。Priya 也说想来。"),
        ("小雨", "太好了，我带点水果。我喜欢吃葡萄。"),
    ],
    [
        ("Priya", "Yesterday I baked a lemon drizzle cake for the quartet rehearsal."),
        ("Tomasz", "Was it a hit?"),
        ("Priya", "Everyone asked for the recipe. I prefer baking to cooking, honestly."),
        ("Tomasz", "Last week I fixed forty punctures, a record for the shop."),
    ],
    [
        ("Tomasz", "I am thinking about adopting a second dog, maybe a greyhound."),
        ("Priya", "Comet would love a friend. What does Ola think?"),
        ("Tomasz", "My friend Ola says I should wait until spring."),
        ("Priya", "I love spring, the park near my flat is full of tulips then."),
    ],
    [
        ("阿杰", "我上个月开始学吉他，每天练半小时。"),
        ("小雨", "你喜欢什么样的音乐？"),
        ("阿杰", "我喜欢民谣，尤其是老歌。"),
        ("小雨", "我妹妹在音乐学院学钢琴，她可以教你乐理。"),
    ],
    [
        ("小雨", "我昨天在陶艺班做了一个歪歪的杯子。"),
        ("阿杰", "哈哈，第一次都这样。你用它喝茶吗？"),
        ("小雨", "因为杯子漏水，所以我只能拿它插花。"),
        ("阿杰", "我住在城东，周末可以一起去花市。"),
    ],
]
CONVERSATION_QUERIES = [
    "What colour did Priya paint her kitchen?",
    "Where did Tomasz find his dog?",
    "cello concert",
    "What is Tomasz's shop like?",
    "小雨去了哪里",
    "阿杰学做什么菜",
    "陶艺",
    "Priya 周末去谁家",
]
CONVERSATION_TIME_QUERIES = ["What did Priya do last weekend?", "上周 西湖", "小雨上周住在哪里"]

PROFILES = ["default", "recall"]
DEPTHS = [0, 1, 2]
FILTERS = ["none", "types", "subject", "range", "from_query"]


def memory_group(g: MemoryGraph, group_id: str) -> None:
    g.create_memories(
        group_id,
        [dict(subject=s, memory_type=t, topic=tp, object=o, attributes=a) for s, t, tp, o, a in MEMORIES],
        reference_time=REF,
    )
    for cause, effect, relation in LINKS:
        g.link_memories(group_id, cause, effect, relation)


def conversation_group(g: MemoryGraph, group_id: str) -> None:
    for n, turns in enumerate(SESSIONS):
        when = REF - timedelta(days=38 - 5 * n)
        g.ingest(
            group_id,
            [
                {
                    "role": "user",
                    "content": text,
                    "speaker": who,
                    "timestamp": (when + timedelta(minutes=i)).isoformat(),
                }
                for i, (who, text) in enumerate(turns)
            ],
            session_id=f"s{n}",
            reference_time=when,
            extractor="rules",
        )


GROUPS = {
    "memories": (memory_group, MEMORY_QUERIES, MEMORY_TIME_QUERIES),
    "conversation": (conversation_group, CONVERSATION_QUERIES, CONVERSATION_TIME_QUERIES),
}


def hold(g: MemoryGraph, group_id: str, turns: bool) -> None:
    """Search the group until the process holds its copies (built from the second search on)."""
    for _ in range(2):
        g.search_memories(group_id, "warm up", reference_time=REF)
    retriever = g._retriever
    assert retriever.vectors.wait(group_id, 60) and retriever.vectors.holds(group_id)
    if turns:
        assert retriever.turn_vectors.wait(group_id, 60) and retriever.turn_vectors.holds(group_id)


def held_copies(why: list[str]) -> tuple[bool, bool]:
    """Whether a search read the process's copy of the group's memories, and of its turns."""
    return any("vectors held in memory" in w and "turn" not in w for w in why), any(
        "turn vectors held in memory" in w for w in why
    )


def searched(g: MemoryGraph, group_id: str, query: str, depth: int, profile: str, **filters) -> tuple[list, list]:
    r = g.search_memories(
        group_id,
        query,
        mode="deep" if depth else "fast",
        expand_depth=depth,
        reference_time=REF,
        max_results=MAX_RESULTS,
        profile=profile,
        **filters,
    )
    return [
        (
            x.kind,
            x.memory_id,
            x.distance,
            x.score,
            x.score_parts.similarity,
            tuple((s.from_id, s.to_id, s.edge, s.relation, s.direction) for s in x.path),
            tuple(e.id for e in x.evidence),
            tuple(x.seed_sources),
        )
        for x in r.results
    ] + [
        ("plan", r.plan.depth, r.mode_used, str(r.plan.time_range), str(r.plan.as_of), r.plan.relation_filters)
    ], r.plan.why


def assert_same(got: list[tuple], want: list[tuple], tolerance: float, what: object) -> None:
    """Same results in the same order, at the same distances and paths; scores and similarities
    within ``tolerance``."""
    assert [(x[0], x[1], x[2], *x[5:]) for x in got[:-1]] == [(x[0], x[1], x[2], *x[5:]) for x in want[:-1]], what
    assert got[-1] == want[-1], what
    for g_, w in zip(got[:-1], want[:-1]):
        assert abs(g_[3] - w[3]) <= tolerance and abs(g_[4] - w[4]) <= tolerance, (what, g_, w)


@pytest.fixture(scope="module")
def corpora(make_settings, graph, server_lock):
    """(the database alone, a process holding the groups' copies, the group ids): both graphs
    read the same two groups."""
    limits = {"seed_k": SEED_K}
    plain = MemoryGraph(
        make_settings(retrieval={**NO_ACCESS, "limits": {**limits, "vector_cache_mb": 0}}), embedder=graph.embedder
    )
    held = MemoryGraph(make_settings(retrieval={**NO_ACCESS, "limits": limits}), embedder=graph.embedder)
    groups = {name: "t-" + uuid.uuid4().hex[:12] for name in GROUPS}
    try:
        with server_lock():  # the module's tests are exclusive: so is building what they read
            for name, group_id in groups.items():
                GROUPS[name][0](held, group_id)
                hold(held, group_id, turns=name == "conversation")
        yield plain, held, groups
    finally:
        plain.close()
        held.close()


def _filters(name: str, group: str) -> dict:
    if name == "types":
        return {"memory_types": ["event"]}
    if name == "subject":
        return {"subject": "Priya" if group == "conversation" else "我"}
    if name == "range":
        return {"time_range": {"start": REF - timedelta(days=14), "end": REF - timedelta(days=2)}}
    if name == "as_of":  # what was known and true then: the older half of each group
        return {"as_of": REF - timedelta(days=20)}
    return {}


@pytest.mark.parametrize("filtering", FILTERS)
@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_the_copies_and_the_database_give_the_same_results(corpora, group, profile, depth, filtering):
    plain, held, groups = corpora
    group_id = groups[group]
    _, queries, time_queries = GROUPS[group]
    copies = []
    for query in time_queries if filtering == "from_query" else queries:
        want, plain_why = searched(plain, group_id, query, depth, profile, **_filters(filtering, group))
        got, why = searched(held, group_id, query, depth, profile, **_filters(filtering, group))
        copies.append(held_copies(why))
        assert held_copies(plain_why) == (False, False), plain_why
        assert held_copies(plain_why) == (False, False), plain_why
        assert len(want) > 1 or filtering != "none", (query, want)
        assert_same(got, want, SCORE_TOLERANCE, (group, profile, depth, filtering, query))
    # the nearest memories come from the copy unless a time range or a subject passes few of them
    # (the database filters first); the turns' copy serves every search of the conversation
    # (a range with nothing in it is dropped: then the copy serves)
    if filtering != "from_query":
        assert any(memories for memories, _ in copies) == (filtering in ("none", "types"))
    assert all(turns == (group == "conversation") for _, turns in copies)


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_as_of_a_past_time_the_copies_and_the_database_agree(corpora, group, profile, depth):
    """As of a past time (the older half of each group): the same results from both. (Run after
    the test above: searched before it, they were seen to change six of its recall cases of the
    conversation, which pass alone; see the as-of branch's report.)"""
    plain, held, groups = corpora
    for query in GROUPS[group][1]:
        want, _ = searched(plain, groups[group], query, depth, profile, **_filters("as_of", group))
        got, _ = searched(held, groups[group], query, depth, profile, **_filters("as_of", group))
        assert_same(got, want, SCORE_TOLERANCE, (group, profile, depth, "as_of", query))


def test_the_queries_cover_both_languages_and_their_mix():
    shares = [cjk_share(q) for _, queries, more in GROUPS.values() for q in queries + more]
    assert min(shares) == 0 and max(shares) == 1 and any(0 < s < 1 for s in shares)


def test_a_large_groups_lookup_copy_gives_the_databases_results(make_settings, graph, group_id):
    """A group above ``vector_cache_limit`` is searched through the database, but the cosines
    of what a search names by id (word hits, a subject's memories, the walk's neighbours) come
    from a float16 copy: the same results, scores within its precision."""
    other = group_id + "-conversation"
    limits = {"vector_cache_limit": 5, "seed_k": SEED_K}
    large = MemoryGraph(make_settings(retrieval={**NO_ACCESS, "limits": limits}), embedder=graph.embedder)
    plain = MemoryGraph(
        make_settings(retrieval={**NO_ACCESS, "limits": {**limits, "vector_cache_mb": 0}}), embedder=graph.embedder
    )
    try:
        memory_group(large, group_id)
        conversation_group(large, other)
        for g, queries in ((group_id, MEMORY_QUERIES), (other, CONVERSATION_QUERIES)):
            for _ in range(2):
                large.search_memories(g, "warm up", reference_time=REF)
            assert large._retriever.vectors.wait(g, 60)
            copy = large._retriever.vectors.lookup(g)
            assert copy is not None and copy.lookup_only
            for query in queries:
                for depth in (0, 1):
                    for profile in PROFILES:
                        want, _ = searched(plain, g, query, depth, profile)
                        got, _ = searched(large, g, query, depth, profile)
                        assert_same(got, want, 2e-3, (g, query, depth, profile))
    finally:
        large.close()
        plain.close()
