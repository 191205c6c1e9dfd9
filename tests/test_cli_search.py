"""`graphmem search` and `graphmem stats` on a real Neo4j: what an operator sees."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graphmem.cli.app import app
from graphmem.errors import ValidationError

REF = "2025-11-05T18:00:00+08:00"


@pytest.fixture
def cli(cli_env, monkeypatch):
    """Run the CLI against the test server, from a directory without a graphmem.toml."""
    env = cli_env
    from graphmem.cli import _common

    monkeypatch.setattr(_common.console, "width", 200)  # no wrapping of table cells
    runner = CliRunner()

    def run(*args: str):
        result = runner.invoke(app, list(args), env=env, catch_exceptions=True)
        return result

    return run


@pytest.fixture
def scenario(graph, group_id):
    ref = "2025-11-05T10:00:00+08:00"
    mood = graph.create_memory(group_id, "我", "事实", "心情", "不好", {"时间": "今天"}, reference_time=ref).memory_id
    sleep = graph.create_memory(group_id, "我", "事件", "睡眠", "不好", {"时间": "昨晚"}, reference_time=ref).memory_id
    graph.link_memories(group_id, "睡眠不好", "心情不好", "导致")
    return {"mood": mood, "sleep": sleep}


def test_search_prints_rank_score_parts_and_the_path(cli, group_id, scenario):
    result = cli("search", "我为什么今天不开心？", "--group", group_id, "--at", REF)
    assert result.exit_code == 0, result.output
    out = result.output
    header = next(line for line in out.splitlines() if "score" in line and "path" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == [
        "#",
        "score",
        "sim",
        "imp",
        "dist",
        "time",
        "acc",
        "type",
        "memory",
        "d",
        "path",
    ]
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in out.splitlines() if "不好" in line]
    # rank 1: the mood, a direct match; rank 2: the sleep, reached from #1 backwards along CAUSALITY
    assert rows[0][0] == "1" and rows[0][8].startswith("我 心情 不好") and rows[0][10] == "direct match"
    assert rows[1][0] == "2" and rows[1][8].startswith("我 睡眠 不好") and rows[1][10] == "#1 ←causes←"
    # distance 1, along a cause the question asks for: a strong step, which costs no distance part
    assert rows[1][9] == "1" and float(rows[1][4]) == 1.0
    assert "causal words" in out and "mode deep" in out


def test_search_json_is_the_full_response(cli, group_id, scenario):
    result = cli("search", "why am I unhappy today? 我为什么今天不开心", "--group", group_id, "--at", REF, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["group_id"] == group_id and data["plan"]["depth"] == 1
    by_id = {r["memory_id"]: r for r in data["results"]}
    assert by_id[scenario["sleep"]]["distance"] == 1
    assert by_id[scenario["sleep"]]["path"][0]["edge"] == "CAUSALITY"


def test_search_fast_type_and_time_options(cli, group_id, scenario):
    fast = json.loads(cli("search", "我为什么今天不开心", "-g", group_id, "--fast", "--at", REF, "--json").output)
    assert fast["mode_used"] == "fast" and all(r["distance"] == 0 for r in fast["results"])

    events = json.loads(
        cli("search", "心情 睡眠", "-g", group_id, "--type", "事件", "--deep", "--at", REF, "--json").output
    )
    assert [r["memory_id"] for r in events["results"]] == [scenario["sleep"]]

    yesterday = json.loads(
        cli("search", "不好", "-g", group_id, "--since", "昨天", "--until", "昨天", "--at", REF, "--json").output
    )
    assert [r["memory_id"] for r in yesterday["results"]] == [scenario["sleep"]]
    assert yesterday["plan"]["time_range"]["source"] == "argument"


def test_search_refuses_contradictory_options_and_unreadable_times(cli, group_id):
    both = cli("search", "anything", "-g", group_id, "--deep", "--fast")
    assert isinstance(both.exception, ValidationError) and "--deep and --fast" in str(both.exception)
    bad = cli("search", "anything", "-g", group_id, "--since", "whenever")
    assert isinstance(bad.exception, ValidationError) and "--since" in str(bad.exception)
    unknown = cli("search", "anything", "-g", group_id, "--profile", "fastest")
    assert isinstance(unknown.exception, ValidationError) and "recall" in str(unknown.exception)


def test_search_profile_option_changes_the_weights(cli, group_id, scenario):
    data = json.loads(cli("search", "心情", "-g", group_id, "--profile", "recall", "--at", REF, "--json").output)
    assert data["plan"]["profile"] == "recall" and data["plan"]["weights"]["time_decay"] == 0.0


def test_stats_counts_by_type_status_label_and_edge(cli, group_id, scenario):
    data = json.loads(cli("stats", "--group", group_id, "--json").output)
    assert data["memories"]["by_type"] == {"EVENT": 1, "FACT": 1}
    assert data["nodes"]["Memory"] == 2 and data["edges"]["CAUSALITY"] == 1
    text = cli("stats", "--group", group_id)
    assert text.exit_code == 0
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in text.output.splitlines() if "│" in line]
    assert f"2 memories in group '{group_id}'" in text.output
    assert ["EVENT", "1", "1"] in rows and ["FACT", "1", "1"] in rows  # type, staged, total
    assert ["Memory", "2"] in rows and ["Subject", "1"] in rows and ["CAUSALITY", "1"] in rows


def test_stats_shows_extraction_jobs_waiting_for_a_retry(cli, graph, group_id):
    from graphmem.errors import ExtractionError
    from graphmem.ingest.pipeline import Ingestor

    class Down:
        name = "down"

        def extract(self, episodes):
            raise ExtractionError("endpoint unreachable")

    Ingestor(graph, backoff_base_s=3600).ingest(
        group_id, [{"role": "user", "content": "I live in Lyon."}], session_id="s1", extractor=Down()
    )
    data = json.loads(cli("stats", "--group", group_id, "--json").output)
    assert data["extraction_jobs"]["pending"] == 1 and data["extraction_jobs"]["done"] == 0
    text = cli("stats", "--group", group_id).output
    assert "extraction jobs: pending 1" in text and "graphmem extract --retry" in text
