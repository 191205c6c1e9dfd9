"""The retriever's copy of a group's vectors (graphmem/store/vector_copy.py), on the real database.

A process that searches a group more than once holds its memory vectors and finds the
nearest memories with a matrix product. It must change nothing a user can see: the same
results as the exact scan of the group (two memories of the same text tie in the copy as in the
database, wherever their rows sit), a memory written or forgotten a moment ago found or
not found at once, never a memory of another group, and searches that work when nothing is
held (a budget too small, or the copy turned off).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from graphmem.graph import MemoryGraph
from graphmem.store.vector_copy import GroupVectors, unit

REF = datetime(2025, 11, 5, 18, 0, tzinfo=timezone(timedelta(hours=8)))
MEMORIES = [
    ("I", "event", "visited", "the Louvre in Paris", {"time": "2025-04-02"}),
    ("I", "fact", "am allergic to", "peanuts", None),
    ("Melanie", "fact", "plays", "the clarinet", None),
    ("Melanie", "event", "painted", "a sunrise over the lake", {"time": "2025-05-08"}),
    ("Jon", "event", "opened", "a dance studio", {"time": "2025-06-20"}),
    ("Tom", "fact", "owns", "a golden retriever named Max", None),
    ("我", "事件", "买", "一台新电脑", {"时间": "2025-10-30"}),
    ("我", "事实", "喜欢", "爬山", None),
    ("小明", "事实", "喜好", "打篮球", None),
    ("小红", "观点", "认为", "北京的冬天太冷", None),
    ("妈妈", "观点", "觉得", "我应该早点睡觉", None),
    ("公司", "事实", "位于", "上海浦东", None),
]
QUERIES = [
    "what instrument does Melanie play",
    "Tom's dog",
    "food allergy",
    "我买了什么",
    "小明喜欢什么运动",
    "which museum did I visit in Paris?",
    "北京的天气怎么样",
]
NO_ACCESS = {"ranking": {"weights": {"epsilon_access": 0.0}}}  # searches record access: keep it out of scores


def held_graph(make_settings, graph, **limits) -> MemoryGraph:
    return MemoryGraph(make_settings(retrieval={**NO_ACCESS, "limits": limits}), embedder=graph.embedder)


def write(g: MemoryGraph, group_id: str) -> list[str]:
    created = g.create_memories(
        group_id,
        [dict(subject=s, memory_type=t, topic=tp, object=o, attributes=a) for s, t, tp, o, a in MEMORIES],
        reference_time=REF,
    )
    return [c.memory_id for c in created]


def hold(g: MemoryGraph, group_id: str) -> None:
    """Search the group until the process holds its vectors (built from the second search on)."""
    for _ in range(2):
        g.search_memories(group_id, "warm up", reference_time=REF)
    assert g._retriever.vectors.wait(group_id, 60), "the group's vectors were not held"


def results(g: MemoryGraph, group_id: str, query: str, depth: int) -> tuple[list, list[str]]:
    r = g.search_memories(group_id, query, mode="deep" if depth else "fast", expand_depth=depth, reference_time=REF)
    return [(x.memory_id, x.score_parts.similarity, x.distance) for x in r.results], r.plan.why


def same_results(got: list, want: list) -> bool:
    """The same memories in the same order at the same distances, similarities within 1e-5 (the
    copy's float32 products against Neo4j's own)."""
    return [(i, d) for i, _, d in got] == [(i, d) for i, _, d in want] and all(
        abs(a[1] - b[1]) <= 1e-5 for a, b in zip(got, want)
    )


@pytest.mark.parametrize("rows", [3, 7, 13, 39])
def test_equal_vectors_get_one_cosine_wherever_they_sit(rows):
    """The database gives two memories of one text the same cosine, and ranking then breaks the tie
    by age; a float32 product gives the last rows of a block another rounding, which would break it
    by position instead (the copy and the database then disagree on the order)."""
    rng = np.random.default_rng(rows)
    same = unit(rng.standard_normal(384))
    matrix = np.stack([same] * rows)
    copy = GroupVectors(count=rows, latest=None, ids=tuple(f"m{i}" for i in range(rows)), matrix=matrix)
    for _ in range(20):
        query = unit(rng.standard_normal(384))
        assert len(set(copy.cosine_of(query, list(copy.ids)))) == 1
        ids, cosines = copy.nearest(query, rows)
        assert len(set(cosines)) == 1 and ids == list(copy.ids)  # equal: in the order of the rows


@pytest.mark.parametrize("zero", [slice(768, 1280), slice(384, 768), slice(0, 0)])
def test_a_question_in_one_language_finds_what_its_whole_vector_finds(zero):
    """The default model's question is zero in the block of the language it is not written in (an
    English one has no Chinese block); the copy's product then reads only the other columns. The
    nearest memories and their cosines are those the whole rows give, in English, Chinese and mixed
    groups alike."""
    rng = np.random.default_rng(zero.start)
    matrix = rng.standard_normal((500, 1280)).astype(np.float32)
    matrix[:200, 768:] = 0  # English memories: no Chinese block
    matrix[200:400, 384:768] = 0  # Chinese memories: no English block
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    copy = GroupVectors(count=500, latest=None, ids=tuple(f"m{i}" for i in range(500)), matrix=matrix)
    for _ in range(10):
        query = rng.standard_normal(1280).astype(np.float32)
        query[zero] = 0
        query = unit(query)
        whole = matrix.astype(np.float64) @ query.astype(np.float64)
        ids, cosines = copy.nearest(query, 60)
        assert ids == [f"m{r}" for r in np.argsort(-whole, kind="stable")[:60]]
        assert np.allclose(cosines, np.sort(whole)[::-1][:60], atol=1e-6)


@pytest.mark.parametrize("depth", [0, 1])
def test_held_vectors_return_what_the_exact_scan_returns(make_settings, graph, group_id, depth):
    held = held_graph(make_settings, graph)
    scanned = held_graph(make_settings, graph, vector_cache_mb=0)
    try:
        write(held, group_id)
        hold(held, group_id)
        for query in QUERIES:
            got, why = results(held, group_id, query, depth)
            want, want_why = results(scanned, group_id, query, depth)
            assert any("vectors held in memory" in w for w in why), why
            assert any("exact scan of the group" in w for w in want_why), want_why
            assert got and same_results(got, want), (query, got, want)
    finally:
        held.close()
        scanned.close()


def test_a_memory_written_or_forgotten_after_the_copy_is_seen_at_once(make_settings, graph, group_id):
    g = held_graph(make_settings, graph)
    try:
        write(g, group_id)
        hold(g, group_id)
        new = g.create_memory(group_id, "Melanie", "event", "adopted", "a grey kitten called Luna", reference_time=REF)
        got, why = results(g, group_id, "Melanie's new kitten", 0)
        assert got[0][0] == new.memory_id
        assert not any("vectors held in memory" in w for w in why)  # the copy was stale: not used
        assert g._retriever.vectors.wait(group_id, 60)  # ... and is built again
        got, why = results(g, group_id, "Melanie's new kitten", 0)
        assert got[0][0] == new.memory_id and any("vectors held in memory" in w for w in why)

        g.forget(group_id, new.memory_id)
        got, _ = results(g, group_id, "Melanie's new kitten", 0)
        assert new.memory_id not in [x[0] for x in got]
    finally:
        g.close()


def test_a_held_groups_search_is_three_round_trips(make_settings, graph, group_id):
    """With the group's vectors held and current, the memories' word and subject queries go with the
    probe: a search at depth 1 asks the server three times (the probe with them, the copy's nearest
    memories, the walk's level), and finds what the exact scan finds."""
    g = held_graph(make_settings, graph)
    scanned = held_graph(make_settings, graph, vector_cache_mb=0)
    asked: list[str] = []
    try:
        write(g, group_id)
        hold(g, group_id)
        run = g.store.run

        def counted(name: str, /, *, write: bool = False, **params):
            if not write:  # (the access statistics are written later, in the background)
                asked.append(name)
            return run(name, write=write, **params)

        g.store.run = counted  # the real server answers: only the statements are counted
        got, why = results(g, group_id, "what instrument does Melanie play", 1)
        assert asked == [
            "search_probe+search_fulltext_terms+search_subject_memories",
            "search_memories_by_ids",
            "search_expand",
        ], asked
        assert any("subject: the query names melanie" in w.casefold() for w in why), why
        assert same_results(got, results(scanned, group_id, "what instrument does Melanie play", 1)[0])
    finally:
        g.close()
        scanned.close()


def test_held_vectors_never_cross_groups(make_settings, graph, group_id):
    other = group_id + "-other"
    g = held_graph(make_settings, graph)
    try:
        mine, theirs = set(write(g, group_id)), set(write(g, other))
        hold(g, group_id)
        hold(g, other)
        for query in QUERIES:
            ids = {x[0] for x in results(g, group_id, query, 1)[0]}
            assert ids and ids <= mine and not ids & theirs, query
            ids = {x[0] for x in results(g, other, query, 1)[0]}
            assert ids and ids <= theirs and not ids & mine, query
    finally:
        g.close()


def test_searches_work_when_nothing_can_be_held(make_settings, graph, group_id):
    tiny = held_graph(make_settings, graph, vector_cache_mb=0.001)  # ~1 KB: not even one group
    scanned = held_graph(make_settings, graph, vector_cache_mb=0)
    try:
        write(tiny, group_id)
        for _ in range(3):
            tiny.search_memories(group_id, "warm up", reference_time=REF)
        assert not tiny._retriever.vectors.wait(group_id, 60)
        for query in QUERIES:
            assert results(tiny, group_id, query, 1)[0] == results(scanned, group_id, query, 1)[0], query
    finally:
        tiny.close()
        scanned.close()


def test_a_large_groups_copy_gives_cosines_and_lacks_nothing(make_settings, graph, group_id):
    # a limit of 5 makes these 12 memories a "large" group: seeds from the index, cosines from the copy
    large = held_graph(make_settings, graph, vector_cache_limit=5)
    scanned = held_graph(make_settings, graph, vector_cache_mb=0, vector_scan_limit=1000)
    try:
        write(large, group_id)
        hold(large, group_id)
        copy = large._retriever.vectors.lookup(group_id)
        assert copy is not None and copy.lookup_only
        new = large.create_memory(
            group_id, "Melanie", "event", "adopted", "a grey kitten called Luna", reference_time=REF
        )
        assert new.memory_id not in copy.row  # written after the copy: its cosine comes from the database
        for query in QUERIES + ["Melanie's new kitten"]:
            for depth in (0, 1):
                got, _ = results(large, group_id, query, depth)
                want, _ = results(scanned, group_id, query, depth)
                assert [x[0] for x in got] == [x[0] for x in want], query
                assert [x[1] for x in got] == pytest.approx([x[1] for x in want], abs=2e-3), query
    finally:
        large.close()
        scanned.close()
