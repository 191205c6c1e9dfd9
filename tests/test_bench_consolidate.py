"""`graphmem bench consolidate`: the synthetic life log plants what it promises, and the
metrics score hand-made cases right. (The benchmark's run itself is measured, not tested.)"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

import pytest

from graphmem.store.admin import delete_group
from graphmem.types import MemoryInput, normalize_name, validate
from graphmem_bench.consolidate import (
    BURST_SIZE,
    END,
    START,
    TARGET_KINDS,
    TRIVIA_IMPORTANCE,
    Tally,
    alias_pairs,
    concept_nodes,
    duplicate_nodes,
    generate_life_log,
    known_duplicate_pairs,
    meets,
    run_merged_pairs,
)

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def life_log():
    return generate_life_log(users=4, memories_per_user=200, seed=3)


def _names(user, label: str) -> set[str]:
    role = {"Subject": "subject", "Topic": "topic", "Object": "object"}[label]
    return {m[role] for m in user.memories}


def test_the_life_log_is_deterministic_and_half_chinese_half_english(life_log):
    again = generate_life_log(users=4, memories_per_user=200, seed=3)
    assert [u.memories for u in again.users] == [u.memories for u in life_log.users]
    assert generate_life_log(users=4, memories_per_user=200, seed=4).users[0].memories != life_log.users[0].memories
    # a user's log does not depend on how many users there are
    assert generate_life_log(users=1, memories_per_user=200, seed=3).users[0].memories == life_log.users[0].memories
    assert [u.language for u in life_log.users] == ["zh", "en", "zh", "en"]
    assert life_log.memories == 800
    for user in life_log.users:
        texts = " ".join(f"{m['subject']} {m['topic']}" for m in user.memories)
        assert bool(CJK.search(texts)) == (user.language == "zh")


def test_every_memory_is_a_create_memories_argument_said_on_a_day_of_the_six_months(life_log):
    for user in life_log.users:
        assert len(user.memories) == len(user.created_at) == len(user.extra()) == 200
        for memory in user.memories:
            validate(MemoryInput, memory)
        times = [datetime.fromisoformat(t) for t in user.created_at]
        assert times == sorted(times)
        assert START <= times[0] and times[-1] < END
        assert (times[-1] - times[0]).days > 150
        assert user.extra()[0]["created_at"] == user.created_at[0]


def test_duplicate_names_of_every_kind_are_said_in_both_languages(life_log):
    zh, en = life_log.users[0], life_log.users[1]
    kinds = {lang.language: {c.kind for c in lang.duplicate_names} for lang in (zh, en)}
    assert {"normalized", "script", "synonym"} <= kinds["zh"]
    assert {"normalized", "spelling", "synonym"} <= kinds["en"]
    assert {"台湾", "臺灣", "台灣"} <= _names(zh, "Object") and {"ＡＣＭＥ", "ACME"} <= _names(zh, "Object")
    assert {"New York", "new york", "NEW YORK"} <= _names(en, "Object")
    assert {"心情", "情绪"} <= _names(zh, "Topic")
    for user in (zh, en):
        for case in user.duplicate_names:
            assert set(case.names) <= _names(user, case.label), case
            # only the normalized kind is one name to the write path; the others are for consolidation
            keys = {normalize_name(n) for n in case.names}
            assert (len(keys) == 1) == (case.kind == "normalized"), case
    pairs = known_duplicate_pairs(zh.duplicate_names)
    assert pairs[("Object", "台湾", "臺灣")] == "script"
    assert ("Object", "ACME", "ＡＣＭＥ") in pairs and ("Object", "ACME", "Acme") in pairs


def test_lookalikes_are_in_the_log_and_never_known_as_duplicates(life_log):
    zh, en = life_log.users[0], life_log.users[1]
    assert {"苹果", "苹果公司", "苹果手机"} <= _names(zh, "Object")
    assert {"小明", "小红"} <= _names(zh, "Subject")
    assert {"Paris", "Paris, Texas", "iPhone 14", "iPhone 15"} <= _names(en, "Object")
    assert "Paris" in _names(en, "Subject")  # Paris the person
    apple = [m for m in zh.memories if m["object"] == "苹果"]
    assert apple and all(m["topic"] == "吃" for m in apple)
    assert {m["topic"] for m in zh.memories if m["object"] == "苹果公司"} == {"工作单位"}
    for user in (zh, en):
        known = known_duplicate_pairs(user.duplicate_names)
        for look in user.lookalikes:
            assert look.pair not in known
            assert {look.pair[1], look.pair[2]} <= _names(user, look.label)


def test_updates_come_months_later_in_the_users_language(life_log):
    negative = {"不喜欢", "讨厌", "no longer like", "hate"}
    for user in life_log.users:
        assert {u.slot for u in user.updates} == {"residence", "employer", "age", "preference", "correction"}
        for update in user.updates:
            older, newer = user.memories[update.older], user.memories[update.newer]
            assert user.created_at[update.newer] > user.created_at[update.older]
            assert older["subject"] == newer["subject"] == ("我" if user.language == "zh" else "I")
            assert bool(CJK.search(update.question)) == (user.language == "zh")
            if update.slot == "preference":
                assert older["object"] == newer["object"] and newer["topic"] in negative
                assert older["object"] in update.question
            else:
                assert older["object"] != newer["object"]
            if update.slot == "correction":
                assert re.search(r"其实|actually", " ".join(newer["attributes"].values()))
        residence = next(u for u in user.updates if u.slot == "residence")
        assert user.memories[residence.older]["topic"] in ("居住地", "lives in")
        assert user.memories[residence.newer]["topic"] in ("居住地", "搬到", "lives in", "moved to")


def test_the_only_repeated_memories_are_the_planted_duplicates(life_log):
    for user in life_log.users:
        counts = Counter(repr(m) for m in user.memories)
        repeated = {key for key, n in counts.items() if n > 1}
        assert repeated == {repr(user.memories[a]) for a, _ in user.duplicate_memories}
        for later, earlier in user.duplicate_memories:
            assert user.created_at[later][:10] != user.created_at[earlier][:10]
        for newer, older in user.non_conflicts:
            a, b = user.memories[newer], user.memories[older]
            assert user.created_at[newer] > user.created_at[older]
            assert (a["topic"], a["memory_type"]) == (b["topic"], b["memory_type"]) and a["object"] != b["object"]


def test_old_trivia_comes_in_bursts_of_one_subject_and_topic_a_month(life_log):
    for user in life_log.users:
        assert len(user.summary_groups) == 3
        for subject, topic, month in user.summary_groups:
            burst = [
                m
                for m, t in zip(user.memories, user.created_at)
                if (m["subject"], m["topic"]) == (subject, topic)
                and t.startswith(month)
                and m["importance"] == TRIVIA_IMPORTANCE
                and m["memory_type"] == "EVENT"
            ]
            assert len(burst) >= BURST_SIZE
            assert (END - datetime.fromisoformat(f"{month}-01T00:00:00+00:00")).days > 90


def test_a_log_too_small_for_the_planted_cases_is_refused():
    with pytest.raises(ValueError, match="memories_per_user must be at least"):
        generate_life_log(users=1, memories_per_user=20)


# --- metrics on hand-made inputs -----------------------------------------------------------
def _node(node_id: str, *aliases: str, label: str = "Object") -> dict:
    return {"label": label, "id": node_id, "name": aliases[0], "aliases": list(aliases)}


def test_names_are_merged_when_one_node_holds_both():
    nodes = [_node("a", "New York", "new york"), _node("b", "NYC"), _node("c", "小明", "小红", label="Subject")]
    assert alias_pairs(nodes) == {("Object", "New York", "new york"), ("Subject", "小明", "小红")}


def test_the_runs_merges_are_closed_over_chains_and_carry_every_alias():
    before = [_node("a", "台湾", "臺灣"), _node("b", "台灣"), _node("c", "Taiwan"), _node("d", "苹果")]
    # b into a, then a into c: one node holds all four names, but 台湾 + 臺灣 were merged before the run
    merged = run_merged_pairs(before, [("a", "b"), ("c", "a")])
    expected = [("台灣", "台湾"), ("台灣", "臺灣"), ("Taiwan", "台湾"), ("Taiwan", "臺灣"), ("Taiwan", "台灣")]
    assert merged == {("Object", *sorted(pair)) for pair in expected}
    assert run_merged_pairs(before, []) == set()
    assert run_merged_pairs(before, [("x", "y")]) == set()  # ids the run made itself hold no names


def test_duplicate_nodes_count_the_nodes_of_one_thing_beyond_the_first():
    cases = generate_life_log(users=1, memories_per_user=200).users[0].duplicate_names
    taiwan = next(c for c in cases if "台湾" in c.names)
    apart = [_node("a", "臺灣"), _node("b", "台灣"), _node("c", "台湾"), _node("d", "苹果")]
    assert duplicate_nodes(apart, [taiwan]) == 2
    assert duplicate_nodes([_node("a", "臺灣", "台灣"), _node("c", "台湾")], [taiwan]) == 1
    assert duplicate_nodes([_node("a", "臺灣", "台灣", "台湾")], [taiwan]) == 0
    assert duplicate_nodes([_node("a", "臺灣", label="Topic"), _node("b", "台湾")], [taiwan]) == 0


def test_precision_and_recall_on_a_small_case():
    t = Tally()
    t.add({("n1", "o1"), ("n2", "o2"), ("o3", "n3")}, {("n1", "o1"), ("n2", "o2"), ("n3", "o3"), ("n4", "o4")})
    assert (t.hits, t.found, t.known) == (2, 3, 4)
    assert t.precision == pytest.approx(2 / 3, abs=1e-4) and t.recall == 0.5
    t.add(set(), {("n5", "o5")})  # sums over users
    assert t.recall == 0.4
    empty = Tally()
    assert empty.precision is None and empty.recall is None
    assert meets("merge_precision", 0.98) and not meets("merge_precision", 0.97)
    assert meets("seconds_per_10k", 119.0) and not meets("seconds_per_10k", 121.0)
    assert not meets("conflict_recall", None)
    assert set(TARGET_KINDS) == {"normalized", "script", "spelling", "synonym"}


def test_the_concept_query_reads_the_names_the_write_path_put_on_one_node(graph, group_id):
    user = generate_life_log(users=1, memories_per_user=100).users[0]
    try:
        graph.create_memories(group_id, user.memories, extra=user.extra())
        nodes = concept_nodes(graph, group_id)
        assert {n["label"] for n in nodes} == {"Subject", "Topic", "Object"}
        merged = alias_pairs(nodes)
        # the normalized kind is one node from the start: NFKC and case folding at write time
        normalized = {p for p, kind in known_duplicate_pairs(user.duplicate_names).items() if kind == "normalized"}
        assert normalized <= merged
        assert duplicate_nodes(nodes, [c for c in user.duplicate_names if c.kind == "normalized"]) == 0
        assert concept_nodes(graph, group_id + "-other") == []
    finally:
        delete_group(graph.store, group_id)
