"""`graphmem markdown` writes MEMORY.md and USER.md a person can read: the seed 004 scenario
plus an update (the user moved: the newer fact first, the older one struck through)."""

from __future__ import annotations

import json
import uuid

import pytest
from analyst_graph import SUPERSEDE

from graphmem.store.admin import delete_group

REF = "2025-11-05T10:00:00+08:00"


@pytest.fixture
def seed_group(graph):
    group = "t-md-" + uuid.uuid4().hex[:10]
    ids = {}

    def add(key, *args, **kwargs):
        ids[key] = graph.create_memory(
            group, *args, reference_time=kwargs.pop("reference_time", REF), **kwargs
        ).memory_id

    # seed 004 §4.2.2 and §4.5.2
    add("rice", "我", "事件", "吃饭", "白米饭", attributes={"时间": "今天"}, importance=0.3)
    add("ming", "小明", "事实", "喜好", "打篮球", importance=0.5)
    add(
        "lying",
        "我",
        "观点",
        "认为撒谎",
        "小明的陈述",
        attributes={"时间": "昨天", "基于": "他的话前后矛盾"},
        importance=0.7,
    )
    add("insomnia", "我", "事件", "失眠", attributes={"时间": "2025-11-04 夜间"}, importance=0.6)
    add("sleepy", "我", "事实", "身体状态", "很困", attributes={"时间": "2025-11-05"}, importance=0.5)
    add("work", "我", "事实", "工作状态", "没心情", attributes={"时间": "2025-11-05"}, importance=0.5)
    graph.link_memory_ids(group, ids["insomnia"], ids["sleepy"], "导致")
    graph.link_memory_ids(group, ids["sleepy"], ids["work"], "导致")
    add("friend", "我", "关系", "朋友", "小明", importance=0.6)
    # the update: the user moved from Beijing to Shanghai (consolidation will write the supersede;
    # here the test does), and a memory the user asked to forget
    add("beijing", "我", "事实", "住在", "北京", importance=0.7, reference_time="2025-01-01T09:00:00+08:00")
    add("shanghai", "我", "事实", "住在", "上海", importance=0.8, reference_time="2025-11-05T11:00:00+08:00")
    graph.store.run_text(
        SUPERSEDE, write=True, group_id=group, pairs=[{"newer": ids["shanghai"], "older": ids["beijing"]}]
    )
    graph.update_memory_importance(group, ids["rice"], 0.4)
    add("secret", "我", "事件", "输入", "银行密码", importance=0.2)
    graph.forget(group, ids["secret"])
    yield group, ids
    delete_group(graph.store, group)


def test_memory_and_user_files(graph, seed_group, tmp_path):
    from graphmem.analyst.markdown import write_markdown

    group, ids = seed_group
    report = write_markdown(graph.store, group, tmp_path)
    assert report["languages"] == ["zh"] and report["memories"] == 9
    memory = (tmp_path / "MEMORY.md").read_text(encoding="utf-8")
    lines = memory.splitlines()
    assert lines[0] == f"# 记忆 — {group}"
    # the user first, then the others; 小明 is a subject of its own
    sections = [ln for ln in lines if ln.startswith("## ")]
    assert sections[0].startswith("## 我 (用户)") and any(s.startswith("## 小明") for s in sections)
    # under 住在: the current fact first, the old one struck through with what replaced it
    i = lines.index("### 住在")
    assert lines[i + 2].startswith("- 我 住在 上海 — 事实 · 2025-11-05") and "重要性 0.8" in lines[i + 2]
    assert lines[i + 3].startswith("- ~~我 住在 北京~~ — 事实") and "已被取代，现为: 我 住在 上海" in lines[i + 3]
    # time, importance (after the update) and causes on each line
    rice = next(ln for ln in lines if "白米饭" in ln)
    assert "2025-11-05" in rice and "重要性 0.4" in rice and rice.startswith("- 我 吃饭 白米饭")
    work = next(ln for ln in lines if "没心情" in ln)
    assert "因为: 我 身体状态 很困" in work
    assert "银行密码" not in memory  # forgotten stays forgotten

    user = (tmp_path / "USER.md").read_text(encoding="utf-8")
    parts = {title: body for title, body in (chunk.split("\n", 1) for chunk in user.split("\n## ")[1:])}
    assert "我 认为撒谎 小明的陈述" in parts["偏好与观点"]
    assert "小明是我的朋友" in parts["关系"]
    assert "我 住在 上海" in parts["事实"] and "北京" not in user  # USER.md: the current profile only
    assert parts["事实"].index("住在 上海") < parts["事实"].index("身体状态")  # most important first
    assert "我 失眠" in parts["近期事件"] and "打篮球" not in user  # 小明's facts are not the user's
    assert report["user_facts"] == 7


def test_english_and_mixed_groups_get_their_headings(graph, tmp_path):
    from graphmem.analyst.markdown import write_markdown

    group = "t-md-en-" + uuid.uuid4().hex[:8]
    try:
        graph.create_memory(group, "I", "OPINION", "like", "green tea", importance=0.6)
        graph.create_memory(group, "I", "FACT", "work at", "Acme", importance=0.7)
        report = write_markdown(graph.store, group, tmp_path / "en")
        assert report["languages"] == ["en"]
        user = (tmp_path / "en" / "USER.md").read_text(encoding="utf-8")
        assert "## Preferences and opinions" in user and "- I like green tea — opinion" in user
        graph.create_memory(group, "我", "事实", "住在", "上海")
        report = write_markdown(graph.store, group, tmp_path / "mixed")
        assert report["languages"] == ["zh", "en"]
        assert "## 事实 / Facts" in (tmp_path / "mixed" / "USER.md").read_text(encoding="utf-8")
    finally:
        delete_group(graph.store, group)


def test_cli_markdown(cli_env, seed_group, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from graphmem.cli.app import app

    for k, v in cli_env.items():
        monkeypatch.setenv(k, v)
    group, _ = seed_group
    out = CliRunner().invoke(app, ["markdown", "-g", group, "--out", str(tmp_path / "files"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["memories"] == 9 and (tmp_path / "files" / "MEMORY.md").is_file()
