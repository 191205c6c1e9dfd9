"""As-of questions: what was the current fact at a past time.

A fact said in one conversation and changed in a later one (ingest, then consolidate) keeps the
interval in which it held; ``search_memories(as_of=...)``, ``graphmem search --as-of`` and a
question with a past time about a state ("去年三月我住在哪？", "where did I live last March?")
answer with the old value, the newer one left out; each result shows its interval.
"""

from __future__ import annotations

import pytest

from graphmem.errors import ValidationError

pytestmark = pytest.mark.real_models  # real models: questions about a past state answered by search

T_OLD = "2023-05-10T20:00:00+08:00"  # the old fact is said
T_NEW = "2025-06-15T20:00:00+08:00"  # "I moved this month": it held until 2025-06-01
NOW = "2025-10-01T10:00:00+08:00"
CASES = {
    "zh": {
        "old": "我住在北京。",
        "new": "我这个月搬到上海了。",
        "other": "我周末去爬山了。",
        "old_value": "北京",
        "new_value": "上海",
        "ask": "我住在哪？",
        "past": "去年三月我住在哪？",  # March 2024: Beijing
        "event": "去年三月我去了哪？",  # an event in a past period: a time range, not as-of
        "cli_as_of": "去年三月",
    },
    "en": {
        "old": "I live in Boston.",
        "new": "I moved to Denver this month.",
        "other": "I went hiking at the weekend.",
        "old_value": "Boston",
        "new_value": "Denver",
        "ask": "where do I live?",
        "past": "where did I live last March?",  # March 2025: Boston
        "event": "where did I go last March?",
        "cli_as_of": "last March",
    },
}


def moved(graph, group_id: str, lang: str) -> dict:
    case = CASES[lang]
    for n, (text, at) in enumerate(((case["old"], T_OLD), (case["new"], T_NEW), (case["other"], T_NEW))):
        graph.ingest(group_id, messages=[{"role": "user", "content": text}], session_id=f"s{n}", reference_time=at)
    report = graph.consolidate(group_id, now=NOW)
    assert len(report.conflicts) == 1  # the new home supersedes the old one
    return case


def memories(response) -> list:
    return [r for r in response.results if r.kind == "memory"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_as_of_after_a_supersede_returns_the_old_value_with_its_interval(graph, group_id, lang):
    case = moved(graph, group_id, lang)
    now = graph.search_memories(group_id, case["ask"], reference_time=NOW)
    assert case["new_value"] in now.results[0].text  # today: the new home first

    then = graph.search_memories(group_id, case["ask"], reference_time=NOW, as_of="2024-03-01")
    assert then.plan.as_of is not None and then.plan.as_of.source == "argument"
    top = memories(then)[0]
    assert case["old_value"] in top.text and top.superseded_by is not None
    assert (top.valid_from[:10], top.valid_until[:10]) == ("2023-05-10", "2025-06-01")
    # nothing said or true only later: neither the new home nor the turn that told it
    assert all(case["new_value"] not in r.text for r in then.results), [r.text for r in then.results]

    # a current memory has its start and no end
    current = next(r for r in memories(now) if case["new_value"] in r.text)
    assert current.valid_from[:10] == "2025-06-01" and current.valid_until is None
    # once it held, it shows in the as-of results of a later time
    later = graph.search_memories(group_id, case["ask"], reference_time=NOW, as_of="2025-08-01T00:00:00+08:00")
    assert case["new_value"] in memories(later)[0].text
    assert all(case["old_value"] not in r.text for r in later.results)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_question_about_a_past_state_answers_with_what_held_then(graph, group_id, lang):
    case = moved(graph, group_id, lang)
    r = graph.search_memories(group_id, case["past"], reference_time=NOW)
    assert r.plan.as_of is not None and r.plan.as_of.source == "query" and r.plan.time_range is None
    top = memories(r)[0]
    assert case["old_value"] in top.text and top.valid_until[:10] == "2025-06-01"
    assert all(case["new_value"] not in x.text for x in r.results)
    # what happened in a past period stays a time range (dropped here: nothing happened in it)
    event = graph.search_memories(group_id, case["event"], reference_time=NOW)
    assert event.plan.as_of is None and any(w.startswith("time expression") for w in event.plan.why)


CARS = {
    "zh": (
        ["我开一辆捷达。", "我把捷达卖了，换了一辆比亚迪。", "我又换成了理想L6。"],
        "2023年底我开的是什么车？",
        "比亚迪",
        "理想",
    ),
    "en": (
        ["I drive a Ford Focus.", "I replaced the Focus with a Toyota Yaris.", "Now I drive an electric Kia."],
        "What car did I drive at the end of 2023?",
        "Yaris",
        "Kia",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_change_no_slot_holds_answers_a_past_moment_with_the_last_said_before_it(graph, group_id, lang):
    """A car changed in conversation is not a slot consolidation supersedes: asked about the end of
    2023, the change said in mid-2023 goes before the car said years earlier, and the one said
    later is not searched."""
    turns, question, then, later = CARS[lang]
    for n, (text, at) in enumerate(zip(turns, ("2021-03-12", "2023-06-08", "2025-11-02"), strict=True)):
        graph.ingest(
            group_id, [{"role": "user", "content": text}], session_id=f"s{n}", reference_time=f"{at}T10:00:00+08:00"
        )
    graph.consolidate(group_id, now=NOW)
    r = graph.search_memories(group_id, question, reference_time=NOW)
    assert r.plan.as_of is not None and r.plan.as_of.start.startswith("2023-10-01")
    # the change said in mid-2023 first: its memory, read with the turn that said it (我把捷达卖了，换了一辆比亚迪
    # stands as 我 卖掉 捷达, with 我 换成 比亚迪 beside it)
    top = r.results[0]
    assert then in top.text or any(then in e.content for e in top.evidence), [x.text for x in r.results]
    assert top.valid_from.startswith("2023-06-08"), top
    assert all(later not in x.text for x in r.results)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_as_of_before_anything_was_said_finds_nothing(graph, group_id, lang):
    case = moved(graph, group_id, lang)
    r = graph.search_memories(group_id, case["ask"], reference_time=NOW, as_of="2020-01-01")
    assert r.results == []


@pytest.mark.parametrize("bad", ["last spring", "2024-13-01", 12345, ""])
def test_a_bad_as_of_is_refused_naming_the_format(graph, group_id, bad):
    with pytest.raises(ValidationError) as err:
        graph.search_memories(group_id, "where do I live?", as_of=bad)
    assert err.value.field == "as_of"
    assert "ISO 8601 date or datetime" in str(err.value) and "2024-03-01" in str(err.value)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cli_as_of_prints_the_old_value_and_its_interval(graph, group_id, cli_env, monkeypatch, lang):
    from typer.testing import CliRunner

    from graphmem.cli.app import app

    case = moved(graph, group_id, lang)
    for k, v in cli_env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("COLUMNS", "250")
    runner = CliRunner()
    for as_of in ("2024-03-01", case["cli_as_of"]):
        out = runner.invoke(app, ["search", case["ask"], "-g", group_id, "--at", NOW, "--as-of", as_of])
        assert out.exit_code == 0, out.output
        assert case["old_value"] in out.stdout and "valid 2023-05-10 → 2025-06-01" in out.stdout, out.stdout
        assert case["new_value"] not in out.stdout
    out = runner.invoke(app, ["search", case["ask"], "-g", group_id, "--as-of", "sometime"])
    assert isinstance(out.exception, ValidationError) and out.exception.field == "as_of"
    assert "--as-of: cannot read 'sometime'" in str(out.exception) and "ISO 8601" in str(out.exception)


def test_the_tool_call_takes_as_of_and_returns_the_interval(graph, group_id):
    from graphmem.tools import SEARCH_MEMORIES, dispatch

    assert "as_of" in SEARCH_MEMORIES["function"]["parameters"]["properties"]
    case = moved(graph, group_id, "zh")
    call = {"name": "search_memories", "arguments": {"query": case["ask"], "as_of": "2024-03-01"}}
    out = dispatch(graph, call, group_id=group_id, reference_time=NOW)
    assert out["success"], out
    top = next(r for r in out["results"] if r["kind"] == "memory")
    assert case["old_value"] in top["text"] and top["valid_until"][:10] == "2025-06-01"
    bad = dispatch(graph, {**call, "arguments": {"query": "x", "as_of": "soon"}}, group_id=group_id)
    assert not bad["success"] and "ISO 8601" in bad["message"]
