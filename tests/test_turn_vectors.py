"""The retriever's copy of a conversation group's turn and sentence vectors
(graphmem/retriever/turnvectors.py), on the real database.

A process that searches a conversation again finds the nearest turns (and their closest
sentences) with matrix products, and ranks the turns the words match with the copy. It must
change nothing a user can see: the same results as the database's exact scan of the turns, in
English and Chinese, with a speaker named and with a time expression; a turn said a moment
ago found at once; never a turn of another group.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.graph import MemoryGraph

REF = datetime(2025, 11, 5, 18, 0, tzinfo=UTC)
SESSIONS = [
    [
        (
            "Melanie",
            "I painted a sunrise over the lake last weekend. It was calm and the colours were wild. "
            "I will show you the canvas when we meet.",
        ),
        ("Caroline", "That sounds amazing! I went to a support group for the first time."),
        ("Melanie", "How did the support group go?"),
        ("Caroline", "It helped a lot. Everyone there was kind."),
    ],
    [
        ("Caroline", "I am thinking about studying psychology next year."),
        ("Melanie", "My kids and I went camping near the mountains. We roasted marshmallows by the fire."),
        ("Caroline", "That sounds amazing!"),
        ("Melanie", "I also started running in the mornings to clear my head."),
    ],
    [
        ("小红", "我上周去杭州看了西湖，风景特别美。"),
        ("小明", "真好！我最近在学做红烧肉，第一次就成功了。"),
        ("小红", "下次请我吃吧。我还报名了一个陶艺班。"),
        ("小明", "好啊，周末来我家。"),
    ],
]
QUERIES = [
    "What did Melanie paint?",
    "Where did Melanie and her kids go camping?",
    "support group",
    "What is Caroline thinking about studying?",
    "What did Melanie do last weekend?",
    "小红去了哪里",
    "小明学做什么菜",
    "上周 西湖",
    "陶艺",
]
NO_ACCESS = {"ranking": {"weights": {"epsilon_access": 0.0}}}  # searches record access: keep it out of scores


def held_graph(make_settings, graph, **limits) -> MemoryGraph:
    return MemoryGraph(make_settings(retrieval={**NO_ACCESS, "limits": limits}), embedder=graph.embedder)


def converse(g: MemoryGraph, group_id: str, sessions=SESSIONS, first_day: int = 0) -> None:
    for n, turns in enumerate(sessions):
        when = REF - timedelta(days=30 - 7 * (n + first_day))
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
            session_id=f"s{n + first_day}",
            reference_time=when,
            extractor="rules",
        )


def hold(g: MemoryGraph, group_id: str) -> None:
    """Search the group until the process holds its turn vectors (built from the second search on)."""
    for _ in range(2):
        g.search_memories(group_id, "warm up", reference_time=REF)
    assert g._retriever.turn_vectors.wait(group_id, 60) and g._retriever.turn_vectors.holds(group_id)


def results(g: MemoryGraph, group_id: str, query: str, depth: int = 1) -> tuple[list, list[str]]:
    r = g.search_memories(
        group_id, query, mode="deep" if depth else "fast", expand_depth=depth, reference_time=REF, max_results=10
    )
    return [(x.memory_id, x.score, x.distance) for x in r.results], r.plan.why


def same(got: list, want: list) -> bool:
    """The same results in the same order, at the same scores (the copy's float32 cosines and the
    database's doubles differ in the sixth decimal)."""
    return len(got) == len(want) and all(
        g[0] == w[0] and g[2] == w[2] and abs(g[1] - w[1]) < 1e-5 for g, w in zip(got, want)
    )


def held_turns(why: list[str]) -> bool:
    return any("turn vectors held in memory" in w for w in why)


def test_held_turns_return_what_the_database_returns(make_settings, graph, group_id):
    held = held_graph(make_settings, graph)
    plain = held_graph(make_settings, graph, vector_cache_mb=0)  # nothing held: the turns' exact scan
    try:
        converse(held, group_id)
        hold(held, group_id)
        for query in QUERIES:
            for depth in (0, 1):
                got, why = results(held, group_id, query, depth)
                want, want_why = results(plain, group_id, query, depth)
                assert held_turns(why) and not held_turns(want_why), (why, want_why)
                assert got and same(got, want), (query, depth, got, want)
        # the name is matched against who spoke, the time expression against when: both as the database does
        _, why = results(held, group_id, "What did Melanie do last weekend?")
        assert any("Melanie matched as speaker" in w for w in why) and any("time expression" in w for w in why)
    finally:
        held.close()
        plain.close()


def test_a_turn_said_after_the_copy_is_found_at_once(make_settings, graph, group_id):
    g = held_graph(make_settings, graph)
    try:
        converse(g, group_id)
        hold(g, group_id)
        converse(g, group_id, [[("Melanie", "Guess what, I adopted a grey kitten called Luna!")]], first_day=3)
        got, why = results(g, group_id, "What is the name of Melanie's kitten?")
        assert not held_turns(why)  # the copy was stale: not used
        texts = [
            r.text
            for r in g.search_memories(group_id, "What is the name of Melanie's kitten?", reference_time=REF).results[
                :3
            ]
        ]
        assert any("Luna" in t for t in texts), texts
        assert g._retriever.turn_vectors.wait(group_id, 60)  # ... and it is read again
        r = g.search_memories(group_id, "What is the name of Melanie's kitten?", reference_time=REF)
        assert held_turns(r.plan.why) and any("Luna" in x.text for x in r.results[:3]), [x.text for x in r.results]
    finally:
        g.close()


def test_held_turns_never_cross_groups(make_settings, graph, group_id):
    other = group_id + "-other"
    g = held_graph(make_settings, graph)
    try:
        converse(g, group_id)
        converse(g, other)  # the same conversation, word for word
        hold(g, group_id)
        hold(g, other)
        own = {group_id: _ids(g, group_id), other: _ids(g, other)}
        for query in QUERIES:
            for group, foreign in ((group_id, other), (other, group_id)):
                r = g.search_memories(group, query, reference_time=REF, max_results=20)
                ids = {x.memory_id for x in r.results} | {e.id for x in r.results for e in x.evidence}
                assert held_turns(r.plan.why) and r.results, query
                assert ids <= own[group] and not ids & own[foreign], query
    finally:
        g.close()


def _ids(g: MemoryGraph, group_id: str) -> set[str]:
    """Every memory and turn id of a group."""
    rows = g.store.run_text("MATCH (n) WHERE (n:Memory OR n:Episode) AND n.group_id = $g RETURN n.id AS id", g=group_id)
    return {r["id"] for r in rows}
