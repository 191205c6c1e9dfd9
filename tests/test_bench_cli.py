"""`graphmem bench locomo|longmemeval` end to end on a slice of the dev data, on a real Neo4j:
the table a reader sees and the JSON a script reads. Retrieval quality itself is a benchmark
figure (README), not asserted here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem.cli.app import app

BENCH = Path(os.environ.get("GRAPHMEM_BENCH_DATA", Path(__file__).resolve().parents[2] / "shared" / "bench"))


@pytest.fixture
def bench(cli_env, tmp_path):
    env = {**cli_env, "XDG_CACHE_HOME": str(tmp_path / "cache"), "COLUMNS": "100"}

    def run(*args: str):
        result = CliRunner().invoke(app, ["bench", *args], env=env, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    return run


def _data(name: str) -> Path:
    path = BENCH / name
    if not path.exists():
        pytest.skip(f"{path} not found: set GRAPHMEM_BENCH_DATA to the folder holding the dev data")
    return path


def test_locomo_prints_recall_per_category_for_every_method(bench, neo4j_driver):
    out = bench("locomo", str(_data("locomo_dev.json")), "--limit", "1", "--no-cache")
    assert "LoCoMo turn-level evidence recall@k" in out and "1 multi-hop" in out
    for method in ("dense", "bm25", "graphmem"):
        assert method in out
    # the dataset's observations as memories (the LLM-quality stand-in), the graph walk off
    report = json.loads(
        bench(
            "locomo",
            str(_data("locomo_dev.json")),
            "--limit",
            "1",
            "--json",
            "--no-cache",
            "--extractor",
            "observations",
            "--depth",
            "0",
        )
    )
    overall = report["results"]["overall"]
    assert report["stats"]["extractor"] == "observations" and report["stats"]["memories"] > 100
    assert report["stats"]["questions"] > 100 and report["stats"]["search_errors"] == 0
    assert report["unit"] == "percent"
    assert all(0.0 <= overall[m]["R@10"] <= 100.0 for m in ("dense", "bm25", "graphmem"))
    assert overall["graphmem"]["R@50"] >= overall["graphmem"]["R@10"]
    # the throw-away groups are gone
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-locomo-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_observations_are_locomo_only(cli_env):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "bench", "longmemeval", "x.json", "--extractor", "observations"],
        capture_output=True,
        text=True,
        env={**os.environ, **cli_env},
        timeout=120,
    )
    assert done.returncode == 1 and "observations: LoCoMo only" in done.stderr and len(done.stderr.splitlines()) == 1


def test_longmemeval_prints_session_recall_and_ndcg(bench):
    out = bench("longmemeval", str(_data("longmemeval_s_dev.json.gz")), "--limit", "2", "--no-cache")
    for title in ("recall_any@k", "recall_all@k", "ndcg_any@k"):
        assert f"LongMemEval-S session-level {title}" in out
    assert "graphmem" in out and "any@1" in out and "…" not in out  # columns are not squashed


def test_madial_prints_recall_beside_the_baselines_and_published_embedders(bench, neo4j_driver):
    out = bench("madial", str(_data("madial_dev")), "--lang", "zh", "--limit", "4", "--no-cache")
    assert "MADial-Bench (zh) memory recall@k" in out
    for method in (
        "dense e5-small+bge-en",
        "dense bge-en",
        "bm25 (char bigrams)",
        "BGE-M3 dense (published)",
        "graphmem",
    ):
        assert method in out
    report = json.loads(
        bench("madial", str(_data("madial_dev")), "--lang", "en", "--limit", "4", "--json", "--no-cache")
    )
    overall = report["results"]["overall"]
    assert report["stats"]["dialogues"] == 4 and report["stats"]["search_errors"] == 0
    assert report["stats"]["episodes"] == report["stats"]["memories"] > 50  # every memory ingested
    assert "BGE-M3 dense (published)" not in overall  # published lists are Chinese
    assert all(0.0 <= overall[m]["R@10"] <= 100.0 for m in report["methods"])
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-madial-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_madial_refuses_a_folder_without_the_language_files(cli_env, tmp_path):
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "graphmem.cli.app", "bench", "madial", *args],
            capture_output=True,
            text=True,
            env={**os.environ, **cli_env},
            timeout=120,
        )

    missing = run(str(tmp_path), "--lang", "zh")
    assert missing.returncode == 1 and "memory_zh.jsonl" in missing.stderr and len(missing.stderr.splitlines()) == 1
    unknown = run(str(tmp_path), "--lang", "fr")
    assert unknown.returncode == 1 and "zh or en" in unknown.stderr


def test_search_bench_prints_latency_per_depth_and_where_the_time_goes(cli_env, tmp_path, neo4j_driver):
    env = {**cli_env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = CliRunner().invoke(
        app,
        ["bench", "search", "--sizes", "200", "--queries", "10", "--scan-queries", "1", "--clients", "2", "--json"],
        env=env,
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # the JSON alone on stdout; warnings may go to stderr
    figures = report["sizes"]["200"]
    for depth in ("depth0", "depth1", "depth2"):
        assert 0 < figures[depth]["p50_ms"] <= figures[depth]["p99_ms"]
        # the retriever's own stages, each a share of the total
        stages = figures[depth]["stages_p50_ms"]
        assert {"embed", "seeds", "expand"} <= set(stages)
        # the query is embedded while the probe and the word queries run: embed overlaps the seeds
        assert sum(v for k, v in stages.items() if k != "embed") <= figures[depth]["p99_ms"] * 1.5
        assert stages["embed"] <= figures[depth]["p99_ms"]
    assert figures["concurrent"]["queries_per_s"] > 0 and figures["exact_scan"]["p50_ms"] > 0
    assert figures["concurrent"]["vs_one_client"] > 0
    assert figures["depth1"]["cpu"]["client_cpu_ms"] > 0  # what a search costs this process
    assert figures["vectors_held"]["held"]  # searched again and again: the group's vectors are held
    # nothing is left behind without --keep
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-search-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_the_cpu_meter_reads_the_local_server_and_the_ceiling_it_sets(graph, group_id):
    """A benchmark's CPU per call: this process's always; the server's when it is graphmem's
    local one (the tests' own server unless NEO4J_URI names another), and then the most calls/s
    the machine's cores allow at that cost."""
    import os

    from graphmem.bench.cpu import CpuMeter

    graph.create_memory(group_id, "小明", "事实", "喜欢", "篮球")
    meter = CpuMeter(graph)
    mark = meter.mark()
    for q in ["小明喜欢什么运动？", "What does Xiaoming like?"] * 10:
        graph.search_memories(group_id, q)
    cpu = meter.per_call(mark, 20)
    assert cpu["client_cpu_ms"] > 0
    if os.environ.get("NEO4J_URI"):  # a server this process did not start: its CPU is not ours to read
        assert meter.pid is None and cpu["server_cpu_ms"] is None and cpu["ceiling_per_s"] is None
    else:
        assert meter.pid is not None and cpu["server_cpu_ms"] > 0
        total = cpu["client_cpu_ms"] + cpu["server_cpu_ms"]
        assert abs(cpu["ceiling_per_s"] - (os.cpu_count() or 1) * 1000 / total) < 0.5


def test_search_bench_times_a_conversation_shaped_group_and_small_tenants(cli_env, tmp_path, neo4j_driver):
    env = {**cli_env, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "search",
            "--shape",
            "conversation",
            "--sizes",
            "60",
            "--tenants",
            "12",
            "--queries",
            "10",
            "--scan-queries",
            "1",
            "--clients",
            "2",
            "--json",
        ],
        env=env,
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["shape"] == "conversation" and "--shape conversation --tenants 12" in report["command"]
    figures = report["sizes"]["60"]
    assert figures["turns"] == 60 and figures["memories"] > 0  # turns ingested, memories extracted
    assert 0 < figures["depth1"]["p50_ms"] <= figures["depth1"]["p99_ms"]
    tenants = report["tenants"]
    assert tenants["tenants"] == 12 and tenants["sampled_groups"] == 10 and tenants["queries"] == 200
    # a small tenant's searches return what an exact scan of the group alone returns
    assert tenants["same_as_alone"] == tenants["queries"]
    assert tenants["beside"] == "60 conversation"
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-search-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_search_bench_refuses_an_unknown_shape(cli_env):
    result = CliRunner().invoke(app, ["bench", "search", "--shape", "graph", "--sizes", "10"], env=cli_env)
    assert result.exit_code == 2 and "--shape" in result.output
