"""The benchmark metrics on hand-made cases, and the benchmarks' own parsing rules."""

from __future__ import annotations

import gzip
import json
import math
from datetime import timedelta

import pytest

from graphmem_bench.common import dedupe, fill, ndcg_any, recall_all, recall_any, recall_at_k, result_episode_ids, rrf
from graphmem_bench.locomo import evidence_ids
from graphmem_bench.locomo import parse_date as locomo_date
from graphmem_bench.longmemeval import load as load_lme


def test_turn_recall_counts_the_share_of_evidence_in_the_top_k():
    ranked = ["D1:3", "D2:1", "D1:4", "D5:2"]
    assert recall_at_k(ranked, ["D1:3", "D5:2"], 1) == 0.5
    assert recall_at_k(ranked, ["D1:3", "D5:2"], 3) == 0.5
    assert recall_at_k(ranked, ["D1:3", "D5:2"], 4) == 1.0
    assert recall_at_k(ranked, ["D9:9"], 50) == 0.0


def test_session_recall_any_and_all():
    ranked = ["s3", "s1", "s7", "s2"]
    assert recall_any(ranked, {"s1", "s2"}, 1) == 0.0
    assert recall_any(ranked, {"s1", "s2"}, 2) == 1.0
    assert recall_all(ranked, {"s1", "s2"}, 3) == 0.0
    assert recall_all(ranked, {"s1", "s2"}, 4) == 1.0


def test_ndcg_follows_longmemevals_dcg():
    # LongMemEval's DCG weighs ranks 1 and 2 by 1, then 1/log2(rank)
    assert ndcg_any(["g", "x", "y"], {"g"}, 3) == 1.0
    assert ndcg_any(["x", "g", "y"], {"g"}, 3) == 1.0
    assert ndcg_any(["x", "y", "g"], {"g"}, 3) == pytest.approx(1 / math.log2(3))
    assert ndcg_any(["x", "g1", "y", "g2"], {"g1", "g2"}, 5) == pytest.approx((1 + 1 / math.log2(4)) / 2)
    assert ndcg_any(["x", "y"], {"g"}, 2) == 0.0


def test_a_session_ranks_by_its_best_turn_and_short_rankings_are_filled():
    assert dedupe(["s2", "s1", "s2", "s3", "s1"]) == ["s2", "s1", "s3"]
    ranked, filled = fill(["a", "b"], ["b", "c", "d", "e"], 4)
    assert ranked == ["a", "b", "c", "d"] and filled == 2
    assert rrf([["a", "b", "c"], ["b", "c", "a"]]) == ["b", "a", "c"]  # 2nd + 1st beats 1st + 3rd


def test_episode_ids_come_from_each_results_evidence_in_order():
    response = {
        "results": [
            {"kind": "memory", "memory_id": "m1", "evidence": [{"id": "e2"}, {"id": "e1"}]},
            {"kind": "episode", "memory_id": "e3", "evidence": []},
            {"kind": "memory", "memory_id": "m2", "evidence": [{"id": "e1"}]},
        ]
    }
    assert result_episode_ids(response) == ["e2", "e1", "e3"]


def test_locomo_evidence_ids_keep_only_wellformed_existing_turns():
    known = {"D8:6", "D9:17", "D1:3", "D30:5"}
    assert evidence_ids(["D8:6; D9:17"], known) == ["D8:6", "D9:17"]
    assert evidence_ids(["D:11:26", "D30:05", ""], known) == []
    assert evidence_ids(["D1:3, D1:3", "D2:2"], known) == ["D1:3"]
    assert locomo_date("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08T13:56:00+00:00"


def test_longmemeval_gold_sessions_and_dropped_questions(tmp_path):
    def session(has_answer: bool):
        return [
            {"role": "user", "content": "I adopted a cat", **({"has_answer": True} if has_answer else {})},
            {"role": "assistant", "content": "Nice!", "has_answer": True},
        ]

    data = [
        {
            "question_id": "q1",
            "question_type": "single-session-user",
            "question": "What pet?",
            "question_date": "2023/05/30 (Tue) 23:40",
            "answer": "a cat",
            "haystack_session_ids": ["answer_a", "answer_b", "noise"],
            "haystack_dates": ["2023/05/20 (Sat) 02:21"] * 3,
            "haystack_sessions": [session(True), session(False), session(True)],
            "answer_session_ids": ["answer_a"],
        },
        {
            "question_id": "q2_abs",
            "question_type": "single-session-user",
            "question": "?",
            "question_date": "2023/05/30 (Tue) 23:40",
            "answer": "",
            "haystack_session_ids": ["answer_x"],
            "haystack_dates": ["2023/05/20 (Sat) 02:21"],
            "haystack_sessions": [session(True)],
            "answer_session_ids": ["answer_x"],
        },
    ]
    path = tmp_path / "lme.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(data, f)
    items, dropped = load_lme(path)
    assert dropped == 1
    [item] = items
    # only sessions whose id contains "answer" AND that have a user turn with has_answer
    assert item.gold == {"answer_a"}
    assert [len(texts) for _, _, texts in item.sessions] == [1, 1, 1]  # user turns only
    assert item.question_date.isoformat() == "2023-05-30T23:40:00+00:00"


def _memdaily_question(file: str, tid: int, targets: set[str]):
    from datetime import UTC, datetime

    from graphmem_bench.memdaily import Question, Turn, file_kind

    qtype, scenario = file_kind(f"{file}.json")
    day = datetime(2024, 4, 1, 8, 0, tzinfo=UTC)
    messages = [Turn(f"m{i}", f"消息{i}", day.replace(day=1 + i)) for i in range(4)]
    return Question(file, qtype, scenario, tid, 0, "问题？", day.replace(day=9), targets, messages)


def test_memdaily_files_name_their_type_and_scenario_and_times_read_as_written():
    from graphmem_bench.memdaily import file_kind, parse_time

    assert file_kind("02_conditional_roles.json") == ("conditional", "roles")
    assert file_kind("05_post_processing_items.json") == ("post_processing", "items")
    with pytest.raises(ValueError):
        file_kind("README.json")
    when = parse_time("2024年04月01日 周一 08:39")
    assert (when.year, when.month, when.day, when.hour, when.minute) == (2024, 4, 1, 8, 39)


def test_memdaily_default_sample_takes_the_first_questions_of_every_file():
    from graphmem_bench.memdaily import sample

    questions = [_memdaily_question(f, tid, {"m0"}) for f in ("01_simple_roles", "02_noisy_items") for tid in range(5)]
    taken = sample(questions, 2)
    assert [(q.file, q.tid) for q in taken] == [
        ("01_simple_roles", 0),
        ("01_simple_roles", 1),
        ("02_noisy_items", 0),
        ("02_noisy_items", 1),
    ]
    assert sample(questions, 0) == questions  # 0: every question


def test_memdaily_noise_is_earlier_seeded_and_days_are_sessions():
    from graphmem_bench.memdaily import NOISE_DAYS, sessions, with_noise

    q = _memdaily_question("01_simple_roles", 0, {"m1"})
    events = [(f"noise-{i}", f"事件{i}") for i in range(83)]
    turns = with_noise(q, events, n=40)
    assert turns == with_noise(q, events, n=40)  # the same every run
    assert turns != with_noise(q, events, n=40, seed=1)
    noise = [t for t in turns if t.id.startswith("noise-")]
    first = min(m.time for m in q.messages)
    assert len(noise) == 40 and len({t.id for t in noise}) == 40
    assert all(first - timedelta(days=NOISE_DAYS) <= t.time < first for t in noise)
    days = sessions(turns)
    assert len(days) == len({t.time.date() for t in turns})
    assert all(len({m.timestamp.date() for m in c.messages}) == 1 for c in days)
    assert sum(len(c.messages) for c in days) == 44


def test_memdaily_results_map_through_their_evidence_and_all_at_5_needs_every_target():
    from graphmem_bench.common import Scores
    from graphmem_bench.memdaily import message_ranking, score

    response = {
        "results": [
            {"kind": "memory", "memory_id": "x", "evidence": [{"id": "ep-noise"}]},
            {"kind": "memory", "memory_id": "y", "evidence": [{"id": "ep2"}, {"id": "ep1"}]},
            {"kind": "memory", "memory_id": "z", "evidence": [{"id": "ep2"}]},
            {"kind": "episode", "memory_id": "ep3", "evidence": []},
        ]
    }
    to_turn = {"ep1": "m1", "ep2": "m2", "ep3": "m3", "ep-noise": "noise-7"}
    ranking = message_ranking(response, to_turn)
    assert ranking == ["noise-7", "m2", "m1", "m3"]
    q = _memdaily_question("04_aggregative_hybrid", 0, {"m1", "m3"})
    scores = Scores(["graphmem"])
    score(scores, "graphmem", ranking, q)
    assert scores.mean("graphmem", "R@1", "overall") == 0.0
    assert scores.mean("graphmem", "R@3", "type:aggregative") == 0.5
    assert scores.mean("graphmem", "R@5", "scenario:hybrid") == 1.0
    assert scores.mean("graphmem", "all@5", "overall") == 1.0
    score(scores, "graphmem", ["m1", "noise-1", "noise-2", "noise-3", "noise-4", "m3"], q)
    assert scores.mean("graphmem", "all@5", "overall") == 0.5  # m3 sixth: not all in the top 5


def _results(*pairs: tuple[str, float]) -> list:
    from graphmem.types import ScoreParts, SearchResult

    parts = ScoreParts(similarity=0.0, importance=0.0, distance=0.0, time_decay=0.0, access=0.0)
    return [
        SearchResult(memory_id=i, text=i, memory_type="FACT", importance=0.5, score=s, score_parts=parts, distance=0)
        for i, s in pairs
    ]


def test_a_tenants_search_is_the_same_as_alone_up_to_ties_in_the_last_bits():
    from graphmem.bench.search import same_ranking

    alone = _results(("a", 0.9), ("b", 0.7), ("c", 0.7), ("d", 0.5))
    # two memories whose scores differ only in float error may come in either order
    assert same_ranking(_results(("a", 0.9), ("c", 0.7 + 1e-7), ("b", 0.7), ("d", 0.5)), alone)
    # a tie that runs past the end of the list may be cut on either member
    assert same_ranking(_results(("a", 0.9), ("b", 0.7), ("c", 0.5)), _results(("a", 0.9), ("b", 0.7), ("e", 0.5)))
    # a different memory, a different order of clearly different scores, or a missing result is a difference
    assert not same_ranking(_results(("a", 0.9), ("b", 0.7), ("e", 0.7), ("d", 0.5)), alone)
    assert not same_ranking(_results(("b", 0.9), ("a", 0.7), ("c", 0.7), ("d", 0.5)), alone)
    assert not same_ranking(alone[:3], alone)
