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
    header = next(line for line in out.splitlines() if "score" in line and "found" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == [
        "#",
        "score",
        "sim",
        "imp",
        "dist",
        "time",
        "acc",
        "type",
        "state",
        "memory",
        "found",
    ]
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in out.splitlines() if "不好" in line]
    # rank 1: the mood, a direct match; rank 2: the sleep, reached from #1 backwards along CAUSALITY
    assert rows[0][0] == "1" and rows[0][9].startswith("我 心情 不好") and rows[0][10] == "direct match"
    assert rows[1][0] == "2" and rows[1][9].startswith("我 睡眠 不好") and rows[1][10] == "#1 ←causes← (d 1)"
    assert rows[0][8] == rows[1][8] == "current"
    # distance 1, along a cause the question asks for: a strong step, which costs no distance part
    assert float(rows[1][4]) == 1.0
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


def test_stats_shows_extraction_jobs_waiting_for_a_retry(cli, graph, group_id, tmp_path):
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
    config = tmp_path / "my settings.toml"
    config.write_text("# the test server comes from NEO4J_*\n")
    text = " ".join(cli("stats", "--group", group_id, "--config", str(config)).output.split())
    assert "extraction jobs: pending 1" in text  # and the command to run, with the options given:
    assert f"graphmem extract --retry --group {group_id} --config '{config}'" in text
    assert f"never consolidated (graphmem consolidate --group {group_id} --config '{config}')" in text


def test_the_table_marks_current_and_superseded_and_wraps_chinese_at_a_readable_width(
    graph, group_id, cli_env, monkeypatch
):
    from graphmem.cli import _common

    old = graph.create_memory(group_id, "我", "事实", "住在", "北京", reference_time="2024-01-10T09:00:00+00:00")
    new = graph.create_memory(
        group_id,
        "我",
        "事实",
        "搬到",
        "上海浦东新区张江高科技园区附近的一个小区",
        reference_time="2024-06-01T09:00:00+00:00",
    )
    graph.consolidate(group_id, now="2024-06-02T09:00:00+00:00")
    assert graph.get_memory(group_id, old.memory_id).superseded_by == new.memory_id
    monkeypatch.setattr(_common.console, "width", 80)  # an 80-column terminal
    result = CliRunner().invoke(
        app, ["search", "我现在住哪？", "-g", group_id, "--at", "2024-07-01T09:00:00+00:00"], env=cli_env
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines)
    header = next(line for line in lines if "score" in line and "memory" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == ["#", "score", "type", "state", "memory"]
    rows = [[c.strip() for c in line.rstrip()[1:-1].split("│")] for line in lines if line.startswith("│")]
    assert rows and all(len(row) == 5 for row in rows), result.output
    states = {row[3] for row in rows if row[3]}
    assert {"current", "superseded"} <= states
    # the Chinese memory is wrapped on characters at 18 or more a line, never in slivers
    cells = [row[4] for row in rows if row[4]]
    pieces = [c for c in cells if any("\u4e00" <= ch <= "\u9fff" for ch in c)]
    assert pieces and max(len(c) for c in pieces) >= 18
    assert any(c.startswith("↳ ") for c in cells)  # how it was found, under the text
    assert "上海浦东新区张江高科技园区附近的一个小区" in "".join(cells).replace(" ", "")
    assert "(superseded)" not in result.output  # the state says it, in its own column


def test_the_reasons_read_as_sentences(cli, graph, group_id):
    from graphmem.retriever.search import compared

    assert compared(0.70, "is below", 0.75) == "0.70 is below the 0.75"
    assert compared(0.699, "is below", 0.7) == "0.699 is below the 0.700"  # never "0.70 is below the 0.70"
    assert compared(0.75, "reaches", 0.75) == "0.75 reaches the 0.75"
    graph.create_memory(group_id, "我", "事实", "喜欢", "茶", reference_time=REF)
    result = cli("search", "茶", "--group", group_id, "--at", REF)
    assert result.exit_code == 0, result.output
    assert "threshold" in result.output and " < " not in result.output and " ≥ " not in result.output
    stats = cli("stats", "--group", group_id)
    assert stats.exit_code == 0, stats.output
    assert "1 memory in group" in stats.output


def test_plurals_read_right():
    from graphmem.cli._common import count

    assert [count(1, "episode"), count(0, "episode"), count(2500, "memory", "memories")] == [
        "1 episode",
        "0 episodes",
        "2,500 memories",
    ]


def test_help_names_no_document_a_user_does_not_have():
    import re

    from typer.main import get_command

    def helps(command, path=()):
        yield " ".join(path), command.help or ""
        for param in getattr(command, "params", []):
            yield " ".join(path), getattr(param, "help", None) or ""
        for name, sub in getattr(command, "commands", {}).items():
            yield from helps(sub, (*path, name))

    texts = list(helps(get_command(app)))
    assert len(texts) > 100
    bad = [(where, text) for where, text in texts if re.search(r"seed 00\d|§\d|the seed's", text)]
    assert bad == []


def test_help_paragraphs_run_on_at_the_terminals_width(monkeypatch, capsys):
    """A docstring's line breaks are not the terminal's: `graphmem <command> --help` as a user runs
    it (``run_app``) joins the lines of each paragraph, lists keep their lines, and brackets are text,
    not rich's markup."""
    import sys

    from graphmem.cli._common import prose, run_app

    assert prose("One line\n    and its end.\n\n    - a\n    - b\n") == "One line and its end.\n\n- a\n- b"
    monkeypatch.setenv("COLUMNS", "150")

    def help_of(*words: str) -> str:
        monkeypatch.setattr(sys, "argv", ["graphmem", *words, "--help"])
        run_app(app)
        return capsys.readouterr().out

    # the docstring breaks after "a chunk of about"; at 150 columns the sentence runs on
    assert "or a chunk of about 1,000 characters of a plain text" in help_of("ingest")
    assert "subject -[type]-> topic" in help_of("show")
    assert "[http] tokens in the config" in help_of("serve")


def test_a_suggested_command_carries_the_options_given(cli_env, tmp_path, monkeypatch):
    from graphmem.cli import _common

    monkeypatch.setattr(_common.console, "width", 300)
    home = tmp_path / "my server"
    result = CliRunner().invoke(app, ["neo4j", "status", "--home", str(home)], env=cli_env)
    assert result.exit_code == 3, result.output  # not running, as an init script's status says it
    assert f"start it with `graphmem neo4j start --home '{home}'`" in result.output
