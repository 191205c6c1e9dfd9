"""The read path on a real Neo4j: the seed's §12.5 scenario in Chinese and English, ranking
that moves the way the score says, filters and modes, episodes as evidence, tenant isolation,
and prompt formatting within a token budget."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphmem.errors import ValidationError
from graphmem.retriever import estimate_tokens, format_context
from graphmem.tools import dispatch
from graphmem.types import PathStep, ScoreParts, SearchResponse, SearchResult

pytestmark = pytest.mark.real_models  # real models: ranking, recall and search across languages

TZ = timezone(timedelta(hours=8))


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2025, 11, day, hour, minute, tzinfo=TZ)


MORNING, EVENING = at(5, 10), at(5, 18)


def ids(response: SearchResponse) -> list[str]:
    return [r.memory_id for r in response.results]


def by_id(response: SearchResponse) -> dict[str, SearchResult]:
    return {r.memory_id: r for r in response.results}


def write(graph, group_id, subject, memory_type, topic, obj=None, attributes=None, importance=0.5, when=MORNING):
    return graph.create_memory(
        group_id, subject, memory_type, topic, obj, attributes, importance, reference_time=when
    ).memory_id


def recall(graph, group_id, query):
    """What the "recall" profile finds for ``query`` in the evening, without walking the graph."""
    return graph.search_memories(group_id, query, mode="fast", reference_time=EVENING, profile="recall")


def flush_access(graph) -> None:
    graph._get_retriever().recorder.flush()


# --- seed 004 §12.5 -------------------------------------------------------------------------------


def test_why_am_i_unhappy_today_finds_the_cause_through_the_causal_edge(graph, group_id):
    mood = write(graph, group_id, "我", "事实", "心情", "不好", {"时间": "今天"}, when=at(5, 10, 0))
    sleep = write(graph, group_id, "我", "事件", "睡眠", "不好", {"时间": "昨晚"}, when=at(5, 10, 5))
    graph.link_memories(group_id, "睡眠不好", "心情不好", "导致")

    response = graph.search_memories(group_id, "我为什么今天不开心？", reference_time=EVENING)

    assert response.results[0].memory_id == mood
    assert response.results[0].distance == 0 and response.results[0].path == []
    cause = by_id(response)[sleep]
    assert cause.distance == 1
    assert [(s.from_id, s.edge, s.direction, s.to_id) for s in cause.path] == [(mood, "CAUSALITY", "in", sleep)]
    assert response.mode_used == "deep"
    assert "causes" in response.plan.relation_filters
    assert response.plan.time_range.source == "query" and response.plan.time_range.matched == "今天"
    parts = cause.score_parts
    # a step along the link a causal question asks for does not count as distance, and the cause is
    # at least 0.9 x as similar as its effect (rank.Paths): it ranks right below it
    assert parts.distance == pytest.approx(1.0)
    assert parts.similarity >= 0.9 * response.results[0].score_parts.similarity - 1e-6
    assert response.results[1].memory_id == sleep
    assert cause.score == pytest.approx(
        0.4 * parts.similarity
        + 0.2 * parts.importance
        + 0.2 * parts.distance
        + 0.1 * parts.time_decay
        + 0.1 * parts.access,
        abs=1e-5,
    )


def test_why_am_i_unhappy_today_in_english(graph, group_id):
    mood = write(graph, group_id, "I", "fact", "mood", "bad", {"time": "today"}, when=at(5, 10, 0))
    sleep = write(graph, group_id, "I", "event", "sleep", "bad", {"time": "last night"}, when=at(5, 10, 5))
    graph.link_memories(group_id, "I sleep bad", "I mood bad", "causes")

    response = graph.search_memories(group_id, "why am I unhappy today?", reference_time=EVENING)

    assert response.results[0].memory_id == mood
    cause = by_id(response)[sleep]
    assert cause.distance == 1
    assert [(s.from_id, s.edge, s.relation, s.direction) for s in cause.path] == [(mood, "CAUSALITY", "causes", "in")]
    assert response.mode_used == "deep" and response.plan.time_range.matched == "today"


def test_a_search_is_available_through_the_tool_dispatcher(graph, group_id):
    write(graph, group_id, "小明", "事实", "喜好", "打篮球")
    call = {
        "id": "c1",
        "type": "function",
        "function": {
            "name": "search_memories",
            "arguments": json.dumps({"query": "小明喜欢什么运动", "mode": "fast"}, ensure_ascii=False),
        },
    }
    out = dispatch(graph, call, group_id=group_id, reference_time=EVENING.isoformat())
    json.dumps(out, ensure_ascii=False)
    assert out["success"] and out["results"][0]["text"].startswith("小明 喜好 打篮球")
    parts = {"similarity", "importance", "distance", "time_decay", "access", "rerank"}
    assert set(out["results"][0]["score_parts"]) == parts


# --- the score ------------------------------------------------------------------------------------


def test_raising_importance_raises_a_memory(graph, group_id):
    # The same sentence twice: everything but importance is equal.
    a = write(graph, group_id, "Melanie", "fact", "plays", "the violin", {"time": "2025-11-01"})
    b = write(graph, group_id, "Melanie", "fact", "plays", "the violin", {"time": "2025-11-01"})
    query = "what instrument does Melanie play"
    before = graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)
    assert by_id(before)[a].score == pytest.approx(by_id(before)[b].score, abs=1e-4)

    graph.update_memory_importance(group_id, b, 0.9)
    after = graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)

    assert ids(after)[:2] == [b, a]
    assert by_id(after)[b].score_parts.importance == 0.9
    assert by_id(after)[b].score > by_id(before)[b].score


def test_recent_access_raises_a_memory_and_searches_record_it_in_the_background(graph, group_id):
    a = write(graph, group_id, "Caroline", "event", "went to", "a support group", {"time": "2025-11-01"})
    b = write(graph, group_id, "Caroline", "event", "went to", "a support group", {"time": "2025-11-01"})
    query = "when did Caroline go to the support group"
    first = graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)
    assert set(ids(first)) == {a, b}
    assert all(r.score_parts.access == 0 for r in first.results)
    flush_access(graph)
    for memory_id in (a, b):  # the search itself was recorded, off the read path
        record = graph.get_memory(group_id, memory_id)
        assert record.access_count == 1 and record.last_accessed_at is not None

    recorder = graph._get_retriever().recorder
    recorder.record(group_id, [b] * 5)  # b is read five more times
    recorder.flush()
    after = graph.search_memories(group_id, query, mode="fast", reference_time=datetime.now(TZ))

    assert ids(after)[:2] == [b, a]
    assert by_id(after)[b].score_parts.access > by_id(after)[a].score_parts.access > 0


def test_searches_told_not_to_record_access_leave_the_counts_and_the_ranking_as_they_were(
    graph, group_id, make_settings
):
    """retrieval.record_access = false: asking the same question again and again (an evaluation
    asking each case several ways) does not raise what it found in the next answer's ranking."""
    from graphmem.graph import MemoryGraph

    a = write(graph, group_id, "Caroline", "event", "went to", "a support group", {"time": "2025-11-01"})
    query = "when did Caroline go to the support group"
    with MemoryGraph(make_settings(retrieval={"record_access": False}), embedder=graph.embedder) as quiet:
        for _ in range(3):
            found = quiet.search_memories(group_id, query, mode="fast", reference_time=EVENING)
            assert ids(found) == [a] and found.results[0].score_parts.access == 0
        quiet._get_retriever().recorder.flush()
    assert graph.get_memory(group_id, a).access_count == 0
    graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)  # the default records it
    flush_access(graph)
    assert graph.get_memory(group_id, a).access_count == 1


def test_a_shorter_distance_raises_a_memory(graph, group_id):
    seed = write(graph, group_id, "Caroline", "event", "painted", "a sunrise over the lake")
    near = write(graph, group_id, "Melanie", "fact", "owns", "a red bicycle")
    far = write(graph, group_id, "Melanie", "fact", "rides", "a blue scooter")
    # Melanie is in three memories: not a concept that joins just two (which counts as a link, rank.Paths)
    write(graph, group_id, "Melanie", "opinion", "likes", "jazz")
    graph.link_memory_ids(group_id, seed, near, "related")
    query = "Caroline's painting of the sunrise"

    before = graph.search_memories(group_id, query, mode="deep", expand_depth=2, reference_time=EVENING)
    assert ids(before)[0] == seed
    assert by_id(before)[near].distance == 1 and by_id(before)[far].distance == 2
    assert by_id(before)[near].score > by_id(before)[far].score
    assert by_id(before)[far].path[0].from_id == seed and by_id(before)[far].path[-1].from_id == near

    graph.link_memory_ids(group_id, seed, far, "references")
    after = graph.search_memories(group_id, query, mode="deep", expand_depth=2, reference_time=EVENING)

    assert by_id(after)[far].distance == 1
    assert by_id(after)[far].path[0].edge == "REFERENCE" and by_id(after)[far].path[0].direction == "out"
    assert by_id(after)[far].score > by_id(before)[far].score


def test_an_old_event_decays_faster_than_an_old_relation(graph, group_id):
    event = write(graph, group_id, "I", "event", "met", "Tom at the station", {"time": "2025-08-01"})
    relation = write(graph, group_id, "I", "relation", "met", "Tom at the station", {"time": "2025-08-01"})
    response = graph.search_memories(group_id, "meeting Tom at the station", mode="fast", reference_time=EVENING)

    assert ids(response)[:2] == [relation, event]
    ev, rel = by_id(response)[event].score_parts, by_id(response)[relation].score_parts
    days = (EVENING - datetime(2025, 8, 1, tzinfo=TZ)).total_seconds() / 86400
    assert ev.time_decay == pytest.approx(2.718281828 ** (-0.05 * days), rel=1e-3)
    assert rel.time_decay == pytest.approx(2.718281828 ** (-0.005 * days), rel=1e-3)
    assert ev.similarity == pytest.approx(rel.similarity, abs=1e-4)


def test_a_hub_cannot_flood_the_results(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    things = [
        "a kite",
        "the piano",
        "a bonsai tree",
        "chess",
        "a red scooter",
        "sourdough bread",
        "a telescope",
        "salsa dancing",
        "a podcast",
        "a vegetable garden",
        "old coins",
        "a sailing boat",
        "pottery",
        "a chemistry set",
        "winter boots",
        "a film camera",
        "origami",
        "a yoga mat",
        "Spanish verbs",
        "a fish tank",
        "crossword puzzles",
        "a tandem bike",
    ]
    memories = [dict(subject="I", memory_type="fact", topic="own", object=t) for t in things]  # "I": a hub
    memories.append(dict(subject="I", memory_type="fact", topic="collect", object="antique maps", importance=0.5))
    collectors = [
        ("Bob", "stamps", 0.2),
        ("Carol", "seashells", 0.9),
        ("Dan", "vinyl records", 0.3),
        ("Eve", "postcards", 0.8),
        ("Fay", "comic books", 0.7),
        ("Gus", "bottle caps", 0.1),
    ]
    memories += [
        dict(subject=who, memory_type="fact", topic="collect", object=what, importance=imp)
        for who, what, imp in collectors
    ]
    created = graph.create_memories(group_id, memories, reference_time=MORNING)
    seed = created[len(things)].memory_id
    by_text = {c.memory_id: c.text for c in created}
    with MemoryGraph(
        make_settings(retrieval={"limits": {"hub_fanout": 3, "hub_degree_cap": 20}}), embedder=graph.embedder
    ) as small:
        response = small.search_memories(group_id, "antique maps", mode="deep", max_results=50, reference_time=EVENING)
    assert response.results[0].memory_id == seed
    expanded = [r for r in response.results if r.distance == 1]
    assert all(r.path[0].edge == "HAS_TOPIC" and r.path[0].via == "collect" for r in expanded)
    assert sorted(by_text[r.memory_id].split()[0] for r in expanded) == ["Carol", "Eve", "Fay"]  # most important 3


# --- filters and modes ----------------------------------------------------------------------------


@pytest.fixture
def neighbourhood(graph, group_id):
    """A seed with a causal neighbour, a reference neighbour and a neighbour through a shared topic."""
    m = {
        "seed": write(graph, group_id, "Caroline", "event", "adopted", "a puppy named Biscuit", {"time": "2025-10-20"}),
        "cause": write(graph, group_id, "the landlord", "fact", "changed", "the house rules", importance=0.6),
        "ref": write(graph, group_id, "Jon", "opinion", "recommended", "a quiet neighbourhood", {"time": "2025-10-01"}),
        "concept": write(graph, group_id, "the company", "event", "adopted", "a four-day week", {"time": "2025-06-01"}),
        "far": write(graph, group_id, "Jon", "event", "volunteered at", "the old bookshop", {"time": "2025-09-15"}),
    }
    graph.link_memory_ids(group_id, m["cause"], m["seed"], "causes")
    graph.link_memory_ids(group_id, m["seed"], m["ref"], "based_on")
    graph.link_memory_ids(group_id, m["ref"], m["far"], "related")
    return m


def test_fast_never_expands_and_deep_always_does(graph, group_id, neighbourhood):
    query = "Caroline adopted a puppy named Biscuit"  # a near-exact match: auto stays flat
    fast = graph.search_memories(group_id, query, mode="fast", expand_depth=2, reference_time=EVENING)
    assert fast.mode_used == "fast" and fast.plan.depth == 0
    assert all(r.distance == 0 and r.path == [] for r in fast.results)

    auto = graph.search_memories(group_id, query, reference_time=EVENING)
    assert auto.results[0].score_parts.similarity >= 0.7
    assert auto.plan.depth == 0 and all(r.distance == 0 for r in auto.results)

    deep = graph.search_memories(group_id, query, mode="deep", expand_depth=0, reference_time=EVENING)
    assert deep.mode_used == "deep" and deep.plan.depth == 1
    found = by_id(deep)
    assert found[neighbourhood["cause"]].distance == 1 and found[neighbourhood["ref"]].distance == 1
    assert found[neighbourhood["concept"]].path[0].edge == "HAS_TOPIC"
    assert found[neighbourhood["concept"]].path[0].via == "adopted"
    far = found.get(neighbourhood["far"])
    assert far is None or far.path == []  # two hops away, depth 1: at most a weaker direct match

    two = graph.search_memories(group_id, query, mode="deep", expand_depth=2, reference_time=EVENING)
    assert by_id(two)[neighbourhood["far"]].distance == 2


def test_causal_words_walk_causal_edges_only(graph, group_id, neighbourhood):
    response = graph.search_memories(group_id, "why did Caroline adopt a puppy?", reference_time=EVENING)
    found = by_id(response)
    assert response.mode_used == "deep" and set(response.plan.relation_filters) == {"because", "so", "causes"}
    assert found[neighbourhood["cause"]].path[0].edge == "CAUSALITY"
    assert found[neighbourhood["cause"]].path[0].direction == "in"
    # the others are not walked to (the results are filled with weaker direct matches, without a path)
    assert all(found[n].path == [] for n in (neighbourhood["ref"], neighbourhood["concept"]) if n in found)


def test_relation_filters_choose_the_edges_walked(graph, group_id, neighbourhood):
    query = "Caroline adopted a puppy named Biscuit"
    refs = graph.search_memories(group_id, query, mode="deep", relation_filters=["基于"], reference_time=EVENING)
    assert neighbourhood["ref"] in ids(refs)
    walked = {r.memory_id for r in refs.results if r.path}
    assert neighbourhood["cause"] not in walked and neighbourhood["concept"] not in walked

    causal = graph.search_memories(group_id, query, mode="deep", relation_filters=["so"], reference_time=EVENING)
    assert neighbourhood["cause"] in ids(causal)  # so / because / causes: one causal edge
    assert neighbourhood["ref"] not in {r.memory_id for r in causal.results if r.path}


def test_memory_type_filter_applies_to_seeds_and_expanded_memories(graph, group_id, neighbourhood):
    response = graph.search_memories(
        group_id, "Caroline adopted a puppy", memory_types=["事件"], mode="deep", expand_depth=2, reference_time=EVENING
    )
    assert response.results and {r.memory_type for r in response.results} == {"EVENT"}
    assert neighbourhood["cause"] not in ids(response)


def test_time_range_filters_by_occurred_at_or_when_it_was_said(graph, group_id, neighbourhood):
    october = {"start": "2025-10-01T00:00:00+08:00", "end": "2025-11-01T00:00:00+08:00"}
    response = graph.search_memories(
        group_id, "Caroline adopted a puppy", time_range=october, mode="deep", expand_depth=2, reference_time=EVENING
    )
    assert set(ids(response)) == {neighbourhood["seed"], neighbourhood["ref"]}
    assert response.plan.time_range.source == "argument"
    # "the landlord changed the house rules" has no time: it counts from when it was said (the
    # morning of 5 November 2025), not from when the process wrote it (now)
    query = "the landlord changed the house rules"
    that_day = {"start": at(5, 0).isoformat(), "end": at(6, 0).isoformat()}
    said = graph.search_memories(group_id, query, mode="fast", time_range=that_day, reference_time=EVENING)
    assert ids(said)[0] == neighbourhood["cause"]
    now = datetime.now(UTC)
    written = graph.search_memories(
        group_id, query, mode="fast", time_range={"start": (now - timedelta(hours=1)).isoformat()}
    )
    assert neighbourhood["cause"] not in ids(written)


def test_a_memory_without_a_time_decays_from_when_it_was_said(graph, group_id):
    """A backfill (reference_time in the past) is as old as what it says, not as the write."""
    old = write(graph, group_id, "I", "event", "repainted", "the garden fence", when=EVENING - timedelta(days=60))
    new = write(graph, group_id, "I", "event", "repainted", "the garden shed", when=EVENING - timedelta(days=1))
    response = graph.search_memories(group_id, "repainting the garden", mode="fast", reference_time=EVENING)
    parts = {r.memory_id: r.score_parts for r in response.results}
    assert parts[old].time_decay == pytest.approx(2.718281828 ** (-0.05 * 60), rel=1e-3)
    assert parts[new].time_decay == pytest.approx(2.718281828 ** (-0.05 * 1), rel=1e-3)


def test_a_time_expression_in_the_query_narrows_the_seeds(graph, group_id):
    yesterday = write(graph, group_id, "I", "event", "ate", "noodles for lunch", {"time": "yesterday"})
    last_week = write(graph, group_id, "I", "event", "ate", "dumplings for lunch", {"time": "2025-10-29"})
    response = graph.search_memories(
        group_id, "what did I eat for lunch yesterday?", mode="fast", reference_time=EVENING
    )
    assert ids(response) == [yesterday]
    assert response.plan.time_range.source == "query" and response.plan.time_range.matched == "yesterday"
    zh = graph.search_memories(group_id, "我上周吃了什么", mode="fast", reference_time=EVENING)
    assert zh.plan.time_range.matched == "上周" and ids(zh) == [last_week]


def test_a_turn_telling_of_yesterday_today_is_found_by_a_question_about_yesterday(graph, group_id):
    told_today = "Guess what, I finally beat the last boss of Elden Ring yesterday!"
    graph.ingest(
        group_id, [{"role": "user", "content": told_today}], session_id="s1", extractor="none", reference_time=MORNING
    )
    graph.ingest(
        group_id,
        [{"role": "user", "content": "Beat the dough for ten minutes before baking."}],
        session_id="s0",
        extractor="none",
        reference_time=MORNING - timedelta(days=1),
    )
    graph.ingest(
        group_id,
        [{"role": "user", "content": "Next month I will start a new game."}],
        session_id="s2",
        extractor="none",
        reference_time=MORNING + timedelta(days=9),
    )
    response = graph.search_memories(group_id, "Which game did I beat yesterday?", mode="fast", reference_time=EVENING)
    texts = [r.text for r in response.results]
    # said today about yesterday: in; said yesterday: in; said nine days later: out of the range
    assert response.plan.time_range.matched == "yesterday" and texts[0] == told_today
    assert "Next month I will start a new game." not in texts
    explicit = graph.search_memories(
        group_id,
        "Which game did I beat?",
        mode="fast",
        reference_time=EVENING,
        time_range={
            "start": (MORNING - timedelta(days=1)).isoformat(),
            "end": (MORNING - timedelta(hours=1)).isoformat(),
        },
    )
    # an explicit range is taken as asked: only what was said in it
    assert [r.text for r in explicit.results] == ["Beat the dough for ten minutes before baking."]


def test_a_misplaced_time_in_the_question_does_not_hide_the_answer(graph, group_id):
    answer = "I mixed a lavender gin fizz cocktail from a new recipe."
    graph.ingest(
        group_id,
        [{"role": "user", "content": answer}],
        session_id="s1",
        extractor="none",
        reference_time=MORNING - timedelta(days=12),
    )
    graph.ingest(
        group_id,
        [
            {"role": "user", "content": "The dentist appointment got moved to Friday."},
            {"role": "user", "content": "My sister called about the holidays."},
        ],
        session_id="s2",
        extractor="none",
        reference_time=MORNING - timedelta(days=1),
    )
    response = graph.search_memories(
        group_id, "What cocktail recipe did I try yesterday?", mode="fast", reference_time=EVENING
    )
    # nothing said yesterday is about cocktails: the range read from the question gives way
    assert response.results[0].text == answer
    assert response.plan.time_range is None and any("outside that time range" in w for w in response.plan.why)


def test_for_recall_a_time_in_the_question_ranks_what_was_said_then_first_and_hides_nothing(graph, group_id):
    earlier = "I mixed a lavender gin fizz cocktail from a new recipe."
    graph.ingest(
        group_id,
        [{"role": "user", "content": earlier}],
        session_id="s1",
        extractor="none",
        reference_time=MORNING - timedelta(days=12),
    )
    then = "We tried a new cocktail recipe with rum and mint yesterday."
    graph.ingest(
        group_id, [{"role": "user", "content": then}], session_id="s2", extractor="none", reference_time=MORNING
    )
    query = "What cocktail recipe did I try yesterday?"
    narrow = graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)
    assert narrow.plan.time_range.matched == "yesterday"
    assert [r.text for r in narrow.results] == [then]
    recalled = recall(graph, group_id, query)
    texts = [r.text for r in recalled.results]
    # the same range, but what was said before it follows instead of disappearing
    assert recalled.plan.time_range.matched == "yesterday" and texts[:2] == [then, earlier]
    assert any("outside that time range follow" in w for w in recalled.plan.why)
    assert recalled.results[1].score_parts.similarity < narrow.results[0].score_parts.similarity


ROLLING_WINDOW = {
    "en": (
        "How many pieces of furniture did I buy or assemble in the past few months?",
        [
            "I finally assembled the bookshelf for my home office.",
            "We bought a new coffee table and two chairs for the living room last week.",
        ],
        "I've spent around $2,300 on cameras in the past six months.",
        "The weather has been rainy all month.",
    ),
    "zh": (
        "我最近几个月买了哪些家具？",
        ["我们上周从宜家买了一张新茶几。", "我终于把书房的书架组装好了。"],
        "我最近几个月在相机上花了两万块。",
        "这个月一直在下雨。",
    ),
}


@pytest.mark.parametrize("language", sorted(ROLLING_WINDOW))
def test_a_rolling_window_in_the_question_says_when_not_what(graph, group_id, language):
    question, furniture, cameras, weather = ROLLING_WINDOW[language]
    for day, text in enumerate(furniture + [cameras, weather]):
        graph.ingest(
            group_id,
            [{"role": "user", "content": text}],
            session_id=f"s{day}",
            extractor="none",
            reference_time=EVENING - timedelta(days=20 + day),
        )
    response = recall(graph, group_id, question)
    texts = [r.text for r in response.results]
    # the window still narrows the search, but a turn sharing its words ("in the past six months")
    # is not taken for an answer: both pieces of furniture come first
    assert response.plan.time_range.source == "query" and response.plan.time_range.matched in question
    assert sorted(texts[:2]) == sorted(furniture) and cameras in texts[2:]
    assert any("rolling window" in w for w in response.plan.why)


def test_a_question_that_is_only_a_rolling_window_is_searched_as_it_is(graph, group_id):
    graph.ingest(
        group_id,
        [{"role": "user", "content": "最近三天我一直在修自行车。"}],
        session_id="s1",
        extractor="none",
        reference_time=MORNING,
    )
    response = recall(graph, group_id, "最近三天")
    assert [r.text for r in response.results] == ["最近三天我一直在修自行车。"]
    assert response.plan.time_range.matched == "最近三天"
    assert not any("rolling window" in w for w in response.plan.why)


def test_archived_memories_are_hidden_unless_asked_and_subject_filters(graph, group_id):
    mine = write(graph, group_id, "我", "观点", "喜欢", "下雨天")
    his = write(graph, group_id, "小明", "观点", "喜欢", "下雨天")
    assert set(ids(graph.search_memories(group_id, "喜欢下雨天", mode="fast"))) == {mine, his}
    assert ids(graph.search_memories(group_id, "喜欢下雨天", mode="fast", subject="I")) == [mine]
    graph.forget(group_id, his)
    assert ids(graph.search_memories(group_id, "喜欢下雨天", mode="fast")) == [mine]
    assert his in ids(graph.search_memories(group_id, "喜欢下雨天", mode="fast", include_archived=True))


@pytest.mark.parametrize(
    "bad",
    [
        {"max_results": 0},
        {"expand_depth": 3},
        {"mode": "slow"},
        {"memory_types": ["memory"]},
        {"relation_filters": ["likes"]},
        {"query": "  "},
        {"time_range": {"start": "yesterday-ish"}},
    ],
)
def test_bad_arguments_are_refused_with_the_field_named(graph, group_id, bad):
    args = {"query": "anything", **bad}
    with pytest.raises(ValidationError) as err:
        graph.search_memories(group_id, **args)
    assert err.value.field.split(".")[0] == next(iter(bad))


def test_the_async_api_searches_the_same_way(async_graph, graph, group_id):
    memory = write(graph, group_id, "Alice", "relation", "is the manager of", "me")
    response = asyncio.run(async_graph.search_memories(group_id, "who is my manager", reference_time=EVENING))
    assert ids(response)[0] == memory


def test_the_recall_profile_ranks_by_relevance_whatever_the_age(graph, group_id):
    old = write(graph, group_id, "I", "event", "adopted", "a grey cat named Pixel", {"time": "2023-01-15"})
    new = write(graph, group_id, "I", "event", "fed", "my cat Pixel some tuna", importance=0.9)
    query = "when did I adopt my cat Pixel"
    default = graph.search_memories(group_id, query, mode="fast", reference_time=EVENING)
    recalled = recall(graph, group_id, query)

    # the default weights let a recent, important memory win; recall asks only what answers
    assert ids(default)[0] == new and ids(recalled)[0] == old
    assert recalled.plan.profile == "recall" and recalled.plan.weights["time_decay"] == 0.0
    assert default.plan.weights == {
        "similarity": 0.4,
        "importance": 0.2,
        "distance": 0.2,
        "time_decay": 0.1,
        "access": 0.1,
    }
    with pytest.raises(ValidationError) as err:
        graph.search_memories(group_id, query, profile="fastest")
    assert err.value.field == "profile" and err.value.allowed == ["default", "recall"]


def test_the_recall_profile_returns_weak_matches_too_best_first(graph, group_id):
    things = [
        ("I", "event", "repaired", "the bicycle chain"),
        ("I", "fact", "allergic to", "peanuts"),
        ("Anna", "relation", "sister of", "me"),
        ("I", "opinion", "dislike", "early mornings"),
        ("I", "event", "planted", "tomatoes"),
        ("Bob", "fact", "works at", "the harbour"),
        ("I", "event", "painted", "the fence"),
        ("I", "fact", "owns", "a red kayak"),
    ]
    for subject, kind, topic, obj in things:
        write(graph, group_id, subject, kind, topic, obj)
    query = "a lecture on quantum chromodynamics"
    default = graph.search_memories(group_id, query, mode="fast", max_results=8, reference_time=EVENING)
    recalled = graph.search_memories(
        group_id, query, mode="fast", max_results=8, reference_time=EVENING, profile="recall"
    )
    # nothing is about physics: the default floor seeds only the three closest and fills the results
    # asked for with the rest; recall ranks everything
    assert any("no direct match" in w for w in default.plan.why)
    assert len(default.results) == 8 and any("fill the results" in w for w in default.plan.why)
    assert len(recalled.results) == 8
    sims = [r.score_parts.similarity for r in recalled.results]
    assert sims == sorted(sims, reverse=True)
    assert [r.memory_id for r in recalled.results[:3]] == [r.memory_id for r in default.results[:3]]


def test_the_walk_keeps_what_the_profile_asked_for_ranks_highest(make_settings, graph, group_id):
    # A level of the walk keeps only its best few neighbours (by α·cosine + β·importance), so the
    # cut must use the profile the search asked for. Here "important" ranks by importance alone:
    # the neighbour that matters is the one least like the query, and the default profile's cut
    # (mostly similarity) would drop it before it could be scored.
    from graphmem.graph import MemoryGraph

    settings = make_settings(
        retrieval={
            "limits": {"seed_k": 1, "expand_keep": 1},
            "profiles": {
                "important": {
                    "weights": {
                        "alpha_similarity": 0.0,
                        "beta_importance": 1.0,
                        "gamma_distance": 0.0,
                        "delta_time": 0.0,
                        "epsilon_access": 0.0,
                    }
                }
            },
        }
    )
    for food in ("tuna", "salmon", "sardines", "chicken"):
        write(graph, group_id, "Pixel", "fact", "likes to eat", food, importance=0.3)
    insured = write(graph, group_id, "Pixel", "fact", "is insured with", "the Allianz pet plan", importance=0.4)
    with MemoryGraph(settings, embedder=graph.embedder) as g:
        found = g.search_memories(
            group_id,
            "What does Pixel like to eat?",
            mode="deep",
            expand_depth=1,
            max_results=1,
            reference_time=EVENING,
            profile="important",
        )
        default = g.search_memories(
            group_id, "What does Pixel like to eat?", mode="deep", expand_depth=1, max_results=1, reference_time=EVENING
        )
    assert ids(found) == [insured], [r.text for r in found.results]
    assert ids(default) != [insured]


def test_a_profile_from_the_config_is_used(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    settings = make_settings(
        retrieval={
            "profiles": {
                "fresh": {
                    "weights": {
                        "alpha_similarity": 0.1,
                        "beta_importance": 0.0,
                        "gamma_distance": 0.0,
                        "delta_time": 0.9,
                        "epsilon_access": 0.0,
                    }
                }
            }
        }
    )
    old = write(graph, group_id, "I", "event", "adopted", "a grey cat named Pixel", {"time": "2023-01-15"})
    new = write(graph, group_id, "I", "event", "fed", "the neighbour's cat")
    with MemoryGraph(settings, embedder=graph.embedder) as other:
        fresh = other.search_memories(group_id, "my cat Pixel", mode="fast", reference_time=EVENING, profile="fresh")
        recalled = recall(other, group_id, "my cat Pixel")  # the built-in profiles stay
    assert ids(fresh)[0] == new and ids(recalled)[0] == old


# --- episodes -------------------------------------------------------------------------------------


def add_episode(graph, group_id, content, memory_ids=(), session="s1", speaker="Caroline", when=MORNING):
    episode_id = uuid.uuid4().hex
    graph.store.write(
        "synthetic_episode",
        group_id=group_id,
        id=episode_id,
        session_id=session,
        role="user",
        speaker=speaker,
        content=content,
        timestamp=when.isoformat(),
        order=0,
        embedding=graph.embedder.embed([content])[0],
        memory_ids=list(memory_ids),
    )
    return episode_id


def test_episodes_are_evidence_and_answer_when_nothing_was_extracted(graph, group_id):
    plain = write(graph, group_id, "Caroline", "fact", "likes", "hiking in the mountains")
    said = add_episode(graph, group_id, "I went hiking in the Alps with my sister last summer.", [plain])
    lonely = add_episode(graph, group_id, "My dog Biscuit learned to fetch the newspaper this week!")

    hiking = graph.search_memories(group_id, "Caroline hiking", mode="fast", reference_time=EVENING)
    assert hiking.results[0].memory_id == plain
    assert [e.id for e in hiking.results[0].evidence] == [said]
    assert hiking.results[0].evidence[0].speaker == "Caroline"

    dog = graph.search_memories(group_id, "what trick did the dog learn?", mode="fast", reference_time=EVENING)
    top = dog.results[0]
    assert (top.kind, top.memory_id, top.memory_type) == ("episode", lonely, "EPISODE")
    assert "episode_vector" in top.seed_sources and top.evidence[0].content.startswith("My dog Biscuit")
    typed = graph.search_memories(group_id, "what trick did the dog learn?", memory_types=["fact"], mode="fast")
    assert all(r.kind == "memory" for r in typed.results)


def own_cosine(graph, group_id: str, query: str, text: str) -> float:
    """The cosine of a stored turn to a query, as the search reads it before any lift."""
    import numpy as np

    from graphmem.embed import embed_query

    stored = "MATCH (e:Episode {group_id: $g}) WHERE e.content = $text RETURN e.embedding AS v"
    t = np.asarray(graph.store.run_text(stored, g=group_id, text=text)[0]["v"])
    q = np.asarray(embed_query(graph.embedder, [query])[0])
    return float(q @ t / (np.linalg.norm(q) * np.linalg.norm(t)))


MEANING_ONLY = {"ranking": {"similarity": {"lexical_weight": 0.0}}}  # a similarity read without words


def said(*lines: tuple[str, str]) -> list[dict]:
    """Conversation turns from (speaker, text) pairs, all in the user role."""
    return [{"role": "user", "speaker": who, "content": text} for who, text in lines]


def test_an_answer_is_found_next_to_the_turn_that_names_the_topic(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    turns = said(
        ("Mel", "Guess what, we finally adopted a puppy from the shelter!"),
        ("Jo", "No way! What did you call the little one?"),
        ("Mel", "Biscuit, after my grandpa's favourite snack."),
        ("Jo", "Love it. I spent the weekend repainting my kitchen."),
        ("Mel", "Which colour did you choose in the end?"),
        ("Jo", "A pale sage green, it looks so calm now."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    query, answer = "What name did Mel give the puppy she adopted?", "Biscuit, after my grandpa's favourite snack."
    with MemoryGraph(make_settings(retrieval=MEANING_ONLY), embedder=graph.embedder) as g:
        found = recall(g, group_id, query)
    rank, hit = next((i, r) for i, r in enumerate(found.results) if r.text == answer)
    # the answer names no puppy: the turns around it (the puppy, "what did you call") lift it well
    # above what its own words mean
    assert rank < 3
    assert hit.score_parts.similarity > own_cosine(graph, group_id, query, answer) + 0.05


def test_an_english_question_matches_other_forms_of_its_words_and_the_speakers_name(graph, group_id):
    turns = said(
        ("Caroline", "Researching adoption agencies has kept me busy lately."),
        ("Melanie", "My research on adoption agencies is only starting."),
        ("Caroline", "The weather was lovely at the lake."),
        ("Melanie", "We baked bread and watched a film on Sunday."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    response = recall(graph, group_id, "What did Caroline research?")
    fulltext = [r for r in response.results if "episode_fulltext" in r.seed_sources]
    texts = [r.text for r in fulltext]
    # "research" finds "Researching" (the cjk analyzer does not stem), and Caroline's own turn
    # ranks above Melanie's (the speaker is indexed beside the content)
    assert texts[0] == turns[0]["content"] and turns[1]["content"] in texts
    assert response.results[0].text == turns[0]["content"]


def test_a_speakers_name_in_the_question_matches_who_spoke_not_who_was_addressed(graph, group_id):
    turns = said(
        ("Caroline", "Glad it helped, Melanie! Relaxing matters, Melanie."),
        ("Melanie", "I paint landscapes to relax after work."),
        ("Caroline", "The weather was lovely at the lake."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    response = recall(graph, group_id, "How does Melanie relax?")
    assert any("melanie matched as speaker" in line.lower() for line in response.plan.why)
    fulltext = [r.text for r in response.results if "episode_fulltext" in r.seed_sources]
    # Caroline's turn says "Melanie" twice, but it is spoken to her: Melanie's own turn ranks first
    assert fulltext[0] == turns[1]["content"]
    assert response.results[0].text == turns[1]["content"]


# (speakers, what each says in turn, the question, its line in plan.why, questions that name no one
#  speaker); the first turn names the second speaker and their painting, the second is their answer
NAMED_SPEAKER = {
    "en": (
        ("Caroline", "Melanie"),
        (
            "Melanie, is that a new painting of yours?",
            "Yes, a horse in a meadow, my latest canvas.",
            "I went to a support group yesterday.",
            "The kids loved the camping trip.",
        ),
        "What has Melanie painted?",
        "Melanie matched as speaker, not in what was said; turns by anyone else at 0.9",
        ("Whose painting is new?", "What did Caroline and Melanie paint?"),
    ),
    # no word boundaries to probe: the question holds 小明's whole name
    "zh": (
        ("小红", "小明"),
        (
            "小明，你的新画真漂亮！是你画的吗？",
            "是的，上周末画了一匹马。",
            "我昨天去了一个支持小组。",
            "孩子们很喜欢那次露营。",
        ),
        "小明画了什么？",
        "小明 matched as speaker; turns by anyone else at 0.9",
        ("谁的画很漂亮？",),
    ),
}


@pytest.mark.parametrize("language", sorted(NAMED_SPEAKER))
def test_a_question_naming_a_speaker_prefers_what_that_speaker_said(make_settings, graph, group_id, language):
    from graphmem.graph import MemoryGraph

    (asker, named), lines, query, why, unnamed = NAMED_SPEAKER[language]
    turns = said(*(((asker, named)[i % 2], text) for i, text in enumerate(lines)))
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    with MemoryGraph(
        make_settings(retrieval={"ranking": {"conversation": {"speaker_weight": 1.0}}}), embedder=graph.embedder
    ) as anyone:

        def both(question):
            responses = [recall(g, group_id, question) for g in (graph, anyone)]
            return responses, [{r.text: r.score_parts.similarity for r in x.results} for x in responses]

        (ranked, unweighed), (weighed, plain) = both(query)
        assert any(why in line for line in ranked.plan.why)
        # the asker's question names the speaker and the painting and is closest to the words;
        # who said what decides: the named speaker's own answer comes first
        assert unweighed.results[0].text == lines[0]
        assert ranked.results[0].text == lines[1]
        assert weighed[lines[0]] == pytest.approx(0.9 * plain[lines[0]], abs=1e-5)
        assert weighed[lines[1]] == pytest.approx(plain[lines[1]], abs=1e-5)
        # a question that names nobody, or both speakers, prefers no one
        for question in unnamed:
            weighed, plain = both(question)[1]
            assert weighed == pytest.approx(plain, abs=1e-5)


def test_a_memory_is_found_by_what_was_said_when_it_was_formed(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    turns = said(
        (
            "Caroline",
            "I'm so tired today. Wednesday was a late night, bed at 2 AM, so I'm thinking of "
            "trying to meal prep for the rest of the week.",
        ),
        ("Caroline", "I wake up at 6:30 am on weekdays and usually go for a run."),
        ("Caroline", "My favourite breakfast is oatmeal with berries."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="rules", reference_time=MORNING)
    query = "What time did I go to bed on Wednesday?"
    ranked = recall(graph, group_id, query)
    with MemoryGraph(
        make_settings(retrieval={"ranking": {"conversation": {"source_weight": 0.5}}}), embedder=graph.embedder
    ) as g:
        halved = recall(g, group_id, query)
    # the rules keep a fragment of the first turn that says nothing of bed: the turn it came from answers
    top = ranked.results[0]
    assert top.kind == "memory" and "meal prep" in top.text and "bed" not in top.text
    assert [e.content for e in top.evidence] == [turns[0]["content"]]
    # at the mean of its own text and the turn's, the fragment fell behind a turn about getting up
    # (read as the habit it states: Caroline wakes up at 6:30 am on weekdays); now the memory that
    # stands for a turn scores at least as the turn would alone, whatever share it borrows
    assert [e.content for e in halved.results[0].evidence] == [turns[0]["content"]]


def test_the_memories_of_one_turn_do_not_crowd_the_top(graph, group_id):
    turns = said(
        ("小红", "我今天好累。周三我凌晨两点才睡觉，所以我打算这周开始备餐。"),
        ("小红", "我工作日早上六点半起床，然后去跑步。"),
        ("小红", "我最喜欢的早餐是燕麦粥配浆果。"),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="rules", reference_time=MORNING)
    ranked = recall(graph, group_id, "我周三几点睡觉的？").results
    first = [r for r in ranked if [e.content for e in r.evidence] == [turns[0]["content"]]]
    assert len(first) >= 3  # the first turn's fragments: tired, bedtime, meal prep
    # the one closest to the question stands for the turn; the other turns follow before its siblings
    assert ranked[0].memory_id == first[0].memory_id and "睡觉" in ranked[0].text
    assert ranked[1].text == turns[1]["content"]
    assert all(first[0].score_parts.similarity - r.score_parts.similarity > 0.1 for r in first[1:])


@pytest.mark.parametrize(
    "lang, turns, question, answers",
    [
        (
            "zh",
            [
                "我表妹小雯是木匠，她特别喜欢做小板凳，还养了一只猫，最近在学钢琴。",
                "今天天气不错。",
                "小雯下周要去北京出差。",
                "我昨天吃了火锅。",
                "小雯上周末在公园跑步了。",
                "小雯最近在装修房子。",
            ],
            "小雯最近做了什么？",
            ["小雯上周末在公园跑步了。", "小雯最近在装修房子。"],
        ),
        (
            "en",
            [
                "My cousin Ruth is a carpenter, she loves building stools, she has a cat named Tom and she is "
                "learning the piano.",
                "The weather was nice today.",
                "Ruth is flying to Berlin next week for work.",
                "I had pizza yesterday.",
                "Ruth went running in the park last weekend.",
                "Ruth is renovating her house.",
            ],
            "What has Ruth been doing lately?",
            ["Ruth went running in the park last weekend.", "Ruth is renovating her house."],
        ),
    ],
)
def test_a_turn_is_not_buried_by_another_turns_memories(graph, group_id, lang, turns, question, answers):
    """One turn read into four memories (a cousin, her job, her hobby, her cat) takes one of the
    first results, not four: the turns that say what she did lately come before its other
    memories, as they would if every turn were one result."""
    graph.ingest(
        group_id,
        [{"role": "user", "content": t, "timestamp": at(1 + i, 9).isoformat()} for i, t in enumerate(turns)],
        extractor="rules",
    )
    results = graph.search_memories(group_id, question, max_results=4, reference_time=at(9, 9)).results
    said_in = [[e.content for e in r.evidence] for r in results]
    assert sum(turns[0] in e for e in said_in) >= 1  # the long turn is there, once
    assert len({tuple(e) for e in said_in}) == len(said_in)  # no turn takes two of the four slots
    assert all(any(a in e for e in said_in) for a in answers)
    everything = graph.search_memories(group_id, question, max_results=20, reference_time=at(9, 9)).results
    assert sum(turns[0] in [e.content for e in r.evidence] for r in everything) >= 3  # its other memories follow


def test_a_turn_cut_into_fragments_ranks_no_higher_than_its_closest_one():
    """Two fragments of one long turn, both closer to the query than the turn: the turn's place
    is its closest fragment's, not lifted further by the other (whose smaller source share would
    otherwise put it above the fragment that stands for the turn)."""
    from graphmem.config import RetrievalSettings
    from graphmem.retriever.evidence import Candidate
    from graphmem.retriever.rank import Similarity, seed_similarities

    similarity = Similarity("What did Caroline buy for her kitten?", RetrievalSettings().profile("recall"))
    lead = Candidate("m1", "memory", {"text": "Caroline bought her kitten a scratching post"}, 0.62, support=["t1"])
    sibling = Candidate("m2", "memory", {"text": "Caroline adopted a kitten"}, 0.58, support=["t1"])
    turn_alone = 0.30  # a long turn about a bad week at work that ends with the kitten
    sims = seed_similarities([sibling, lead], {"t1": turn_alone}, similarity)[0]
    assert sims["m1"] > turn_alone  # the closer fragment lifts its turn a little
    assert sims["m2"] <= sims["m1"]


def test_a_reply_is_found_through_the_question_it_answers(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    turns = said(
        ("Jo", "Your cats are adorable! What are their names?"),
        ("Mel", "Luna and Oliver, they liven up the house."),
        ("Mel", "I started a pottery class on Tuesday evenings."),
        ("Jo", "Pottery sounds relaxing, is it hard?"),
        ("Jo", "We repainted the kitchen a pale sage green."),
        ("Mel", "My neighbour's cat keeps sleeping on our porch."),
        ("Jo", "Picking names for a band is harder than picking names for pets."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    query, answer = "What are the names of the cats?", turns[1]["content"]
    # meaning only, and the neighbouring turns' share off, to see the reply's own lift
    alone = {"ranking": {**MEANING_ONLY["ranking"], "conversation": {"context_weight": 0.0}}}
    with MemoryGraph(make_settings(retrieval=alone), embedder=graph.embedder) as g:
        replies = recall(g, group_id, query)

    def found(text):
        return next(r for r in replies.results if r.text == text)

    hit, question = found(answer), found(turns[0]["content"])
    # the answer names neither cats nor names: Jo's question right before it does. Lifted to 0.9 x
    # the question's similarity, far above what its own words mean, it follows the question
    assert hit.score_parts.similarity == pytest.approx(0.9 * question.score_parts.similarity, abs=1e-5)
    assert hit.score_parts.similarity > own_cosine(graph, group_id, query, answer) + 0.1
    assert [r.text for r in replies.results[:2]] == [question.text, answer]
    # a turn after one's own question is no reply: Jo's green kitchen gains nothing from "is it hard?"
    kitchen = turns[4]["content"]
    assert found(kitchen).score_parts.similarity == pytest.approx(own_cosine(graph, group_id, query, kitchen), abs=1e-5)


def test_a_reply_reads_the_same_whether_or_not_a_memory_was_drawn_from_its_question(graph, group_id):
    # said in May; "the summer" the question names is June to August, so the turns lie outside it,
    # while the camping plan drawn from Mel's question is dated June, inside it
    turns = said(
        (
            "Mel",
            "My kids are so excited about summer break! We're thinking about going camping next month. "
            "Any fun plans for the summer?",
        ),
        ("Cam", "Researching adoption agencies, it's been a dream to have a family and give kids a loving home."),
        ("Mel", "That's wonderful. I just finished a painting of a lake at sunrise."),
        ("Cam", "Lovely! I went to a support group meeting yesterday, it was powerful."),
        ("Mel", "We repainted the kitchen a pale sage green last weekend."),
    )
    july = said(
        ("Cam", "The hike with my friends was so much fun, the view from the top was amazing."),
        ("Mel", "We're back from the lake and the kids already miss the tent. Summer holidays are the best!"),
        ("Cam", "Summer here is hot, I spend my afternoons at the library planning what comes next."),
    )
    may, july_8 = datetime(2025, 5, 20, 15, tzinfo=UTC), datetime(2025, 7, 8, 15, tzinfo=UTC)
    asked = datetime(2025, 10, 1, 12, tzinfo=UTC)
    groups = {x: f"{group_id}-{x}" for x in ("rules", "none")}
    for x, g in groups.items():
        graph.ingest(g, turns, session_id="s1", extractor=x, reference_time=may)
        graph.ingest(g, july, session_id="s2", extractor=x, reference_time=july_8)
    camping = [m for m in graph.list_memories(groups["rules"]) if "camping" in m.text]
    assert camping and camping[0].occurred_at.startswith("2025-06")  # inside the summer asked about
    query, reply = "What are Cam's plans for the summer?", turns[1]["content"]
    found = {
        x: graph.search_memories(g, query, mode="fast", reference_time=asked, profile="recall")
        for x, g in groups.items()
    }
    for response in found.values():
        assert response.plan.time_range is not None  # the range is kept; the turns outside it follow
    # the reply is read as the answer to Mel's question in both groups, though in one that question
    # also stands for the camping plan the search found inside the range
    sims = {x: next(r for r in f.results if r.text == reply).score_parts.similarity for x, f in found.items()}
    # (to float rounding: in a CI run with two workers the two read 1.8e-5 apart)
    assert sims["rules"] == pytest.approx(sims["none"], abs=1e-4)
    ranked = [r.text for r in found["rules"].results]
    may_said = [r.text for r in found["rules"].results if r.evidence and r.evidence[0].timestamp.startswith("2025-05")]
    assert may_said[:2] == [next(t for t in ranked if "camping" in t), reply]  # the plan asked about, then the answer


def test_a_time_range_is_judged_alike_whether_or_not_memories_were_drawn_from_the_turns(graph, group_id):
    # the plan Maria stated in May, against what she said on the evening the question names
    may = said(
        (
            "Maria",
            "Yep, John! Keep going and we'll make a difference! I'm currently planning a ring-toss tournament "
            "for the homeless shelter's fundraiser later this month, I can't wait to see the impact it will make.",
        ),
        ("John", "That sounds like a lot of work, good luck with it."),
    )
    july = said(
        ("John", "The council meeting ran long again today, so many speakers."),
        ("Maria", "Tonight's plan: dinner with my friends from the gym, then an early night."),
        ("John", "Enjoy your evening, talk soon."),
    )
    query, asked = "What did Maria plan to do on the evening of 7 July, 2025?", datetime(2025, 10, 1, tzinfo=UTC)
    plans, firsts = {}, {}
    for x in ("rules", "none"):
        g = f"{group_id}-{x}"
        graph.ingest(g, may, session_id="s1", extractor=x, reference_time=datetime(2025, 5, 20, 15, tzinfo=UTC))
        graph.ingest(g, july, session_id="s2", extractor=x, reference_time=datetime(2025, 7, 7, 19, tzinfo=UTC))
        found = graph.search_memories(g, query, mode="fast", reference_time=asked, profile="recall")
        plans[x], firsts[x] = found.plan, found.results[0].text
    assert any("ring-toss" in m.text for m in graph.list_memories(f"{group_id}-rules"))
    # the short memory "Maria is planning a ring-toss tournament" is far closer to the question than the
    # turn it came from; judged as the ranking reads it (by that turn), it weighs what the turn weighs
    assert plans["none"].time_range is not None and plans["rules"].time_range == plans["none"].time_range
    for x in ("rules", "none"):  # what she planned that evening comes first; the May plan follows
        assert firsts[x] == july[1]["content"]
    assert "seeds from 2025-07-07 17:00 to 21:00" in " ".join(plans["rules"].why)  # the evening, not the day


def test_a_long_turn_is_found_by_the_one_sentence_that_answers(make_settings, graph, group_id):
    from graphmem.graph import MemoryGraph

    turns = [
        {
            "role": "user",
            "content": "I'm looking for some healthy lunch recipes with lots of vegetables and very "
            "little prep time, ideally under twenty minutes. By the way, I've had Domino's "
            "pizza delivered three times this week.",
        },
        {"role": "user", "content": "Can you suggest a good stretching routine before running in the morning?"},
        {"role": "user", "content": "Our team is switching project management tools next month."},
    ]
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    query = "Which pizza place have I ordered delivery from?"
    with MemoryGraph(
        make_settings(retrieval={"ranking": {"conversation": {"context_weight": 0.0}}}), embedder=graph.embedder
    ) as g:
        found = recall(g, group_id, query)

    def hit(response):
        return next(r for r in response.results if r.text == turns[0]["content"])

    # the group searched as a large one: through the vector indexes of turns and of sentences
    # (meaning only: a large group's word matches count as a share of its best hit's, a small one's absolutely)
    dense = {"ranking": {"conversation": {"context_weight": 0.0}, "similarity": {"lexical_weight": 0.0}}}
    with MemoryGraph(
        make_settings(retrieval={**dense, "limits": {"exact_scan_limit": 1}}), embedder=graph.embedder
    ) as g:
        indexed = recall(g, group_id, query)
    with MemoryGraph(make_settings(retrieval=dense), embedder=graph.embedder) as g:
        scanned = recall(g, group_id, query)
    # the turn is mostly about lunch recipes; its last sentence is the answer
    assert found.results[0].text == turns[0]["content"] == indexed.results[0].text
    whole = own_cosine(graph, group_id, query, turns[0]["content"])  # the whole turn's meaning
    assert hit(scanned).score_parts.similarity > whole + 0.05
    assert abs(hit(indexed).score_parts.similarity - hit(scanned).score_parts.similarity) < 0.01  # index: approximate
    assert any("vector indexes of turns and sentences" in line for line in indexed.plan.why)


def test_question_words_do_not_decide_a_lexical_match():
    from graphmem.textsim import content_words

    assert content_words("What did Caroline do after the parade?") == "Caroline parade"
    # "how many" / "how much" ask for a count, like "how" asks for a way: "many" is no topic
    assert content_words("How many model kits have I bought?") == "model kits bought"
    assert content_words("How much did I spend on coffee?") == "spend coffee"
    # "different" says the count is of distinct things: a turn full of "different" is not about doctors
    assert content_words("How many different doctors did I visit?") == "doctors visit"
    assert content_words("What various hobbies have I tried in total?") == "hobbies tried"
    assert content_words("Who is it?") == "Who is it?"  # nothing left: the text itself
    assert content_words("我为什么今天不开心？") == "我为什么今天不开心"
    assert content_words("我一共去过多少个不同的国家？") == "我 去过 国家"
    assert content_words("我看过几位医生？") == "我看过 医生"
    assert content_words("几乎每天都跑步") == "几乎每天都跑步"  # 几乎 (almost) frames nothing


def test_each_word_of_a_query_is_weighed_on_its_own():
    from graphmem.store.fulltext import query_terms, term_probes

    assert query_terms("Caroline's AND hiking 我喜欢咖啡 iPhone手机") == [
        "caroline",
        "s",
        "and",
        "hiking",
        "我喜",
        "喜欢",
        "欢咖",
        "咖啡",
        "iphone",
        "手机",
    ]
    probes = term_probes("Caroline hiking", "g-1", ("content", "speaker"), names=["Caroline"])
    assert [p["lucene"] for p in probes] == [
        'speaker:(caroline) AND group_id:"g\\-1"^0',
        '(content:(hiking) OR speaker:(hiking)) AND group_id:"g\\-1"^0',
    ]


# --- tenant isolation -----------------------------------------------------------------------------


def test_no_search_ever_returns_another_groups_memory(graph):
    rng = random.Random(20251105)
    sentences = [
        ("我", "事件", "吃饭", "白米饭", {"时间": "昨天"}),
        ("我", "事实", "心情", "不好", {"时间": "今天"}),
        ("I", "event", "missed", "the train", {"time": "this morning"}),
        ("小明", "事实", "喜好", "打篮球", None),
        ("Alice", "relation", "is the manager of", "me", None),
        ("I", "opinion", "dislike", "rainy days", None),
    ]
    queries = [
        "我昨天吃了什么",
        "为什么不开心",
        "why did I miss the train",
        "小明喜欢什么",
        "who is Alice",
        "rainy days",
        "train",
        "manager",
        "我",
        "I",
    ]
    groups = {}
    for _ in range(3):
        gid = "iso-" + uuid.uuid4().hex[:10]
        chosen = rng.sample(sentences, k=rng.randint(3, len(sentences)))
        created = graph.create_memories(
            gid,
            [dict(subject=s, memory_type=t, topic=tp, object=o, attributes=a) for s, t, tp, o, a in chosen],
            reference_time=MORNING,
        )
        groups[gid] = {c.memory_id for c in created}
        a, b = rng.sample(sorted(groups[gid]), 2)
        graph.link_memory_ids(gid, a, b, rng.choice(["causes", "related"]))
    for _ in range(24):
        gid = rng.choice(sorted(groups))
        response = graph.search_memories(
            gid,
            rng.choice(queries),
            mode=rng.choice(["auto", "fast", "deep"]),
            expand_depth=rng.randint(0, 2),
            max_results=rng.randint(1, 20),
            reference_time=EVENING,
        )
        assert response.group_id == gid
        assert set(ids(response)) <= groups[gid], (gid, response.query)


def test_another_groups_texts_never_move_a_groups_scores(graph, group_id):
    """Word matches are weighed by how rare a word is in the group, not in the whole index: what
    another tenant writes changes nothing in this group's ranking or similarities."""
    from graphmem.store.admin import delete_group

    brand = "zq" + uuid.uuid4().hex[:6]  # a word no other group has used yet
    turns = said(
        ("Ana", f"In the end I picked the {brand} one, it was on sale."),
        ("Ben", "Did the safari guide let you photograph the lions?"),
        ("Ana", "I bought a new telephoto lens before the trip."),
        ("Ben", "We are repainting the kitchen a pale sage green."),
        ("Ana", "My sister adopted a grey cat called Pebble."),
    )
    graph.ingest(group_id, turns, session_id="s1", extractor="none", reference_time=MORNING)
    query = f"Which {brand} lens did Ana buy for the safari?"

    def search():
        response = recall(graph, group_id, query)
        return [(r.memory_id, r.score_parts.similarity) for r in response.results], response

    before, response = search()
    matched = {r.text: r for r in response.results if "episode_fulltext" in r.seed_sources}
    assert turns[0]["content"] in matched and turns[1]["content"] in matched  # the words were scored
    other = "t-" + uuid.uuid4().hex[:12]
    try:  # another tenant for whom the brand is an everyday word
        graph.ingest(
            other,
            [
                {"role": "user", "content": f"{brand} order {i}: the {brand} strap and the {brand} cap."}
                for i in range(150)
            ],
            session_id="s1",
            extractor="none",
            reference_time=MORNING,
        )
        after, _ = search()
    finally:
        delete_group(graph.store, other)
    assert after == before


def test_a_word_the_whole_group_uses_counts_for_little_and_a_rare_one_in_full(graph, group_id):
    """Lexical evidence is absolute: the same turn, the same query, the same cosine, but its word
    is said in every turn of one group and only in this turn in the other."""
    from graphmem.store.admin import delete_group

    target = "We danced all night at my cousin's wedding in Lyon."
    everyday = [f"The wedding cake order {i} is confirmed for the {i}th." for i in range(20)]
    elsewhere = [f"The birthday cake order {i} is confirmed for the {i}th." for i in range(20)]
    rare = "t-" + uuid.uuid4().hex[:12]

    def similarity(group):
        response = graph.search_memories(
            group, "wedding", mode="fast", reference_time=EVENING, max_results=50, profile="recall"
        )
        return next(r for r in response.results if r.text == target).score_parts.similarity

    try:
        for group, others in ((group_id, everyday), (rare, elsewhere)):
            # a session of its own: no neighbour turn reaches its vector or its similarity
            graph.ingest(
                group, [{"role": "user", "content": target}], session_id="s0", extractor="none", reference_time=MORNING
            )
            graph.ingest(
                group,
                [{"role": "user", "content": t} for t in others],
                session_id="s1",
                extractor="none",
                reference_time=MORNING,
            )
        common, alone = similarity(group_id), similarity(rare)
    finally:
        delete_group(graph.store, rare)
    # the word said once is worth (nearly) the whole lexical share, the word everyone says next to
    # nothing (before: the best hit's share, about the same in both groups)
    assert alone - common > 0.8 * graph.settings.retrieval.ranking.similarity.lexical_weight, (alone, common)


# --- format_context -------------------------------------------------------------------------------


def result(memory_id, text, memory_type, score, path=(), kind="memory"):
    parts = ScoreParts(similarity=score, importance=0.5, distance=1.0, time_decay=1.0, access=0.0)
    return SearchResult(
        kind=kind,
        memory_id=memory_id,
        text=text,
        memory_type=memory_type,
        importance=0.5,
        score=score,
        score_parts=parts,
        distance=len(path),
        path=list(path),
    )


def test_format_context_groups_by_type_within_the_budget():
    results = [
        result("m1", "我 心情 不好 (时间: 2025-11-05)", "FACT", 0.9),
        result(
            "m2",
            "我 睡眠 不好 (时间: 2025-11-04 夜间)",
            "EVENT",
            0.7,
            [PathStep(from_id="m1", to_id="m2", edge="CAUSALITY", relation="causes", direction="in")],
        ),
        result("m3", "Alice is the manager of me", "RELATION", 0.6),
        result("m4", "I dislike rainy days", "OPINION", 0.5),
        result("m5", "I went hiking in the Alps with my sister last summer, it was wonderful", "FACT", 0.2),
    ]
    full = format_context(results, max_tokens=1000)
    assert full.startswith("# USER MEMORY")
    headings = [line for line in full.splitlines() if line.startswith("## ")]
    assert headings == ["## Facts", "## Events", "## Relations", "## Opinions"]
    facts = full.split("## Facts\n")[1].split("\n\n")[0].splitlines()
    assert facts == [
        "- 我 心情 不好 (时间: 2025-11-05)",
        "- I went hiking in the Alps with my sister last summer, it was wonderful",
    ]
    assert "[cause of: 我 心情 不好 (时间: 2025-11-05)]" in full

    for budget in (10, 25, 40, 60, 90):
        text = format_context(results, max_tokens=budget)
        assert estimate_tokens(text) <= budget
    tight = format_context(results, max_tokens=40)
    assert "心情" in tight and "hiking" not in tight  # the best-scored memories go in first
    assert format_context(results, max_tokens=3) == ""


def test_token_estimate_counts_cjk_characters_and_english_words():
    assert estimate_tokens("我心情不好") == 5
    assert estimate_tokens("the quick brown fox") == 6  # 4 words × 1.3, rounded up
    assert estimate_tokens("") == 0


def test_format_context_renders_a_real_search(graph, group_id):
    write(graph, group_id, "我", "事实", "心情", "不好", {"时间": "今天"})
    write(graph, group_id, "我", "事件", "睡眠", "不好", {"时间": "昨晚"})
    graph.link_memories(group_id, "睡眠不好", "心情不好", "导致")
    response = graph.search_memories(group_id, "我为什么今天不开心？", reference_time=EVENING)
    text = format_context(response, max_tokens=200)
    assert "## Facts\n- 我 心情 不好" in text and "## Events\n- 我 睡眠 不好" in text
    assert "cause of: 我 心情 不好" in text


# --- stats ----------------------------------------------------------------------------------------


def test_stats_count_a_groups_memories_nodes_and_edges(graph, group_id):
    write(graph, group_id, "我", "事实", "心情", "不好", {"时间": "今天"})
    b = write(graph, group_id, "我", "事件", "睡眠", "不好", {"时间": "昨晚"})
    graph.link_memories(group_id, "睡眠不好", "心情不好", "导致")
    graph.forget(group_id, b)
    stats = graph.stats(group_id)
    assert stats["memories"]["total"] == 2
    assert stats["memories"]["by_type"] == {"EVENT": 1, "FACT": 1}
    assert stats["memories"]["by_status"] == {"archived": 1, "staged": 1}
    assert stats["nodes"]["Memory"] == 2 and stats["nodes"]["Subject"] == 1 and stats["nodes"]["Object"] == 1
    assert stats["edges"]["CAUSALITY"] == 1 and stats["edges"]["HAS_SUBJECT"] == 2
    everything = graph.stats()
    assert everything["memories"]["total"] >= 2 and everything["nodes"]["Memory"] >= 2


_FREEZE_PROBE = """
import gc, json, sys, weakref
from graphmem import MemoryGraph
g = MemoryGraph()
before = gc.get_freeze_count()
found = g.search_memories(sys.argv[1], "小明喜欢什么运动？")
frozen = gc.get_freeze_count()
class Node: pass
a, b = Node(), Node()
a.other, b.other = b, a                  # a reference cycle made after the first search
alive = weakref.ref(a)
del a, b
gc.collect()
print(json.dumps({"before": before, "frozen": frozen, "cycle_collected": alive() is None,
                  "first": found.results[0].text if found.results else None}))
g.close()
"""


@pytest.mark.parametrize("setting", ["true", "false", None])
def test_the_first_search_moves_what_the_process_holds_out_of_the_collectors_way(
    graph, neo4j_settings, group_id, tmp_path, setting
):
    """Asked to (retrieval.freeze_gc), after a process's first search a full garbage collection no
    longer walks the tens of thousands of objects the process holds for good, and what is made
    later is still collected; off, and by default (a library leaves its host's collector alone),
    the collector is left alone."""
    import os
    import subprocess
    import sys

    write(graph, group_id, "小明", "事实", "喜欢", "篮球")
    n = neo4j_settings.neo4j
    (tmp_path / "graphmem.toml").write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    env.update(
        NEO4J_URI=n.uri,
        NEO4J_USER=n.user,
        NEO4J_PASSWORD=n.password or "",
        NEO4J_DATABASE=n.database,
        GRAPHMEM_CONFIG=str(tmp_path / "graphmem.toml"),
        **({"GRAPHMEM_RETRIEVAL__FREEZE_GC": setting} if setting else {}),
    )
    done = subprocess.run(
        [sys.executable, "-c", _FREEZE_PROBE, group_id],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["first"] and out["first"].startswith("小明")
    assert out["before"] == 0
    if setting == "true":
        assert out["frozen"] > 10000
    else:
        assert out["frozen"] == 0
    assert out["cycle_collected"]
