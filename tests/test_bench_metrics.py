"""The benchmark metrics on hand-made cases, and the benchmarks' own parsing rules."""

from __future__ import annotations

import gzip
import json
import math

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
