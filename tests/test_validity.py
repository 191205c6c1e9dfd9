"""A superseded fact keeps when it was valid: from its own time (else when it was said) until the
fact that replaced it (that one's own time when it has one, else when it was said); get_memory,
the supersede chain and `graphmem show` show the interval."""

from __future__ import annotations

import pytest

T_OLD, T_NEW = "2024-01-10T09:00:00+00:00", "2024-06-01T09:00:00+00:00"
CASES = {
    # (old fact, new fact with its own time, new fact without one)
    "zh": (
        ("我", "事实", "住在", "北京"),
        ("我", "事实", "搬到", "上海", {"时间": "2024年3月"}),
        ("我", "事实", "搬到", "上海"),
    ),
    "en": (
        ("I", "FACT", "live in", "Boston"),
        ("I", "FACT", "moved to", "Denver", {"time": "March 2024"}),
        ("I", "FACT", "moved to", "Denver"),
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("own_time", [True, False])
def test_a_superseded_fact_keeps_the_interval_it_was_current(graph, group_id, lang, own_time):
    old_fact, timed, untimed = CASES[lang]
    old = graph.create_memory(group_id, *old_fact, reference_time=T_OLD)
    new_fact = timed if own_time else untimed
    new = graph.create_memory(
        group_id, *new_fact[:4], attributes=new_fact[4] if own_time else None, reference_time=T_NEW
    )
    assert graph.get_memory(group_id, old.memory_id).valid_from == T_OLD  # written with the memory
    graph.consolidate(group_id, now="2024-06-02T09:00:00+00:00")

    was = graph.get_memory(group_id, old.memory_id)
    now = graph.get_memory(group_id, new.memory_id)
    assert was.superseded_by == new.memory_id and now.superseded_by is None
    assert was.valid_from == T_OLD
    # "I moved in March" told in June: the old fact held until March; without a time, until June
    assert was.valid_until[:10] == ("2024-03-01" if own_time else T_NEW[:10])
    assert now.valid_until is None and now.valid_from[:10] == ("2024-03-01" if own_time else T_NEW[:10])
    chain = graph.supersede_chain(group_id, old.memory_id)
    assert [(r["id"], r["valid_until"]) for r in chain] == [(new.memory_id, None), (old.memory_id, was.valid_until)]


def test_show_prints_the_interval(graph, group_id, cli_env, monkeypatch):
    from typer.testing import CliRunner

    from graphmem.cli.app import app

    old_fact, timed, _ = CASES["zh"]
    old = graph.create_memory(group_id, *old_fact, reference_time=T_OLD)
    graph.create_memory(group_id, *timed[:4], attributes=timed[4], reference_time=T_NEW)
    graph.consolidate(group_id, now="2024-06-02T09:00:00+00:00")
    for k, v in cli_env.items():
        monkeypatch.setenv(k, v)
    out = CliRunner().invoke(app, ["show", old.memory_id, "-g", group_id])
    assert out.exit_code == 0, out.output
    assert "valid 2024-01-10 → 2024-03-01 (replaced)" in out.stdout
    assert "我 搬到 上海" in out.stdout and "valid 2024-03-01 → now" in out.stdout
