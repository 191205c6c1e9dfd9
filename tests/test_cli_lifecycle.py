"""`graphmem consolidate / unmerge / forget / restore --memory / search --superseded / show` as a user
runs them: in this process, as `main()` runs them, against the real server."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.real_models  # real models: consolidation supersedes and merges by meaning


def test_consolidate_from_the_command_line_supersedes_merges_and_can_be_undone(cli, group_id):
    for topic, obj, when in (
        ("住在", "北京", "2025-01-01"),
        ("搬到", "上海", "2026-01-01"),
        ("去", "臺灣", "2025-03-01"),
        ("去过", "台湾", "2025-04-01"),
    ):
        cli("add", "-g", group_id, "-s", "我", "-t", "事实", "--topic", topic, "-o", obj, "--time-ref", when)
    dry = cli("consolidate", "-g", group_id, "--dry-run")
    assert "dry run" in dry.stdout and "supersede '我 住在 北京' ← '我 搬到 上海'" in dry.stdout
    assert "staged" in cli("stats", "-g", group_id).stdout  # the dry run changed nothing
    report = json.loads(cli("consolidate", "-g", group_id, "--json").stdout)
    assert report["counts"]["conflicts"] == 1 and report["counts"]["concepts_merged"] == 1
    stats = cli("stats", "-g", group_id).stdout
    assert "last consolidation: finished" in stats

    found = json.loads(cli("search", "-g", group_id, "我住在哪里", "--json").stdout)["results"]
    texts = [r["text"] for r in found]
    assert texts.index("我 搬到 上海") < texts.index("我 住在 北京")
    old = next(r for r in found if r["text"] == "我 住在 北京")
    assert not old["current"]
    hidden = json.loads(cli("search", "-g", group_id, "我住在哪里", "--superseded", "hide", "--json").stdout)
    assert "我 住在 北京" not in [r["text"] for r in hidden["results"]]
    shown = cli("show", old["memory_id"], "-g", group_id).stdout
    assert "supersede chain" in shown and "我 搬到 上海" in shown and "superseded" in shown

    merge_id = report["concept_merges"][0]["merge_id"]
    undone = json.loads(cli("unmerge", merge_id, "-g", group_id, "--json").stdout)
    assert undone["restored_name"] in ("臺灣", "台湾") and undone["moved"] >= 2
    again = cli("unmerge", merge_id, "-g", group_id, ok=False)
    assert again.returncode == 1 and "no merge" in again.stderr


def test_forget_and_restore_a_memory_from_the_command_line(cli, group_id, tmp_path):
    added = json.loads(
        cli("add", "-g", group_id, "-s", "我", "-t", "事件", "--topic", "吃", "-o", "火锅", "--json-output").stdout
    )
    memory_id = added[0]["memory_id"] if isinstance(added, list) else added["memory_id"]
    config = tmp_path / "graphmem.toml"
    config.write_text("# the test server comes from NEO4J_*\n")
    forgot = cli("forget", memory_id, "-g", group_id, "--config", str(config)).stdout
    assert f"(restore: graphmem restore --memory {memory_id} --group {group_id} --config {config})" in forgot
    assert json.loads(cli("search", "-g", group_id, "火锅", "--json").stdout)["results"] == []
    assert json.loads(cli("search", "-g", group_id, "火锅", "--archived", "--json").stdout)["results"]
    restored = cli("restore", "--memory", memory_id, "-g", group_id).stdout
    assert "status staged" in restored
    both = cli("restore", "dump.file", "--memory", memory_id, ok=False)
    assert both.returncode == 1 and "not both" in both.stderr


def test_consolidate_refuses_a_bad_interval(cli, group_id):
    bad = cli("consolidate", "-g", group_id, "--every", "soon", ok=False)
    assert bad.returncode == 1 and "6h" in bad.stderr


def test_the_demo_ends_with_the_current_facts_first(cli, group_id):
    out = cli("demo", "-g", group_id).stdout
    assert "我 住在 北京  ←[SUPERSEDES]—  我 搬到 上海" in out
    assert "我 搬到 上海 [current] · 我 住在 北京 [superseded]" in out
    assert "I joined Globex [current] · I work at Acme [superseded]" in out
