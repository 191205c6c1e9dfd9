"""Questions about now: of two statements about the same thing, the newer change answers.

A thing said in one conversation and changed in a later one, in words the extractor reads as no
slot (a car, a broadband provider), is not superseded by consolidation; a question about now
("what car do I drive now?", 我现在开什么车？) still ranks the newer statement of the change above
the older one, whatever their similarity to the question, and leaves alone a newer change about
something else.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.real_models  # real models: ranking against similarity to the question

T_OLD = "2024-03-10T20:00:00+08:00"
T_NEW = "2025-06-15T20:00:00+08:00"
T_OTHER = "2025-09-01T20:00:00+08:00"  # a later change about something else
NOW = "2025-10-01T10:00:00+08:00"
CASES = {
    "zh": {
        "old": "我开的是一辆黑色的大众。",
        "new": "我把大众卖了，换成一辆比亚迪。",
        "other": "我换了新的手机套餐。",
        "filler": ["我周末去爬山了。", "我喜欢喝绿茶。", "我妈妈住在成都。"],
        "now": "我现在开什么车？",
        "plain": "我开什么车？",
    },
    "en": {
        "old": "I drive a black Volkswagen Polo.",
        "new": "I sold the Polo, we bought a Kia instead.",
        "other": "I switched to a new phone plan.",
        "filler": ["I went hiking at the weekend.", "I like green tea.", "My mother lives in Leeds."],
        "now": "What car do I drive now?",
        "plain": "What car do I drive?",
    },
}


def said(graph, group_id: str, lang: str) -> dict:
    case = CASES[lang]
    lines = [(case["old"], T_OLD), (case["new"], T_NEW), (case["other"], T_OTHER)]
    lines += [(text, T_OLD) for text in case["filler"]]
    for n, (text, at) in enumerate(lines):
        graph.ingest(group_id, messages=[{"role": "user", "content": text}], session_id=f"s{n}", reference_time=at)
    graph.consolidate(group_id, now=NOW)
    return case


def place(response, text: str) -> int:
    """The rank of the first result that is, or was extracted from, the turn that said ``text``."""
    for i, r in enumerate(response.results):
        if r.text == text or any(e.content == text for e in r.evidence):
            return i
    return len(response.results)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_newer_change_answers_a_question_about_now(graph, group_id, lang):
    case = said(graph, group_id, lang)
    plain = graph.search_memories(group_id, case["plain"], reference_time=NOW)
    r = graph.search_memories(group_id, case["now"], reference_time=NOW)
    # without a word about now, the closer statement (the old one) leads and no rule moves it
    assert place(plain, case["old"]) < place(plain, case["new"])
    assert not any("question about now" in w for w in plain.plan.why)
    assert place(r, case["new"]) < place(r, case["old"]) < len(r.results)
    assert place(r, case["new"]) == 0
    assert any("question about now" in w for w in r.plan.why)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_newer_change_about_something_else_stays_where_it_ranks(graph, group_id, lang):
    case = said(graph, group_id, lang)
    plain = graph.search_memories(group_id, case["plain"], reference_time=NOW, max_results=10)
    r = graph.search_memories(group_id, case["now"], reference_time=NOW, max_results=10)
    # the phone plan is newer than the car and says a change, but not of the car
    assert place(r, case["other"]) > place(r, case["old"])
    assert (place(plain, case["other"]) > place(plain, case["old"])) == (
        place(r, case["other"]) > place(r, case["old"])
    )
