"""`graphmem bench`: the dataset runners (benchmarks/graphmem_bench, found through the entry point
group graphmem.bench) end to end on a slice of the dev data, on a real Neo4j: the table a reader
sees and the JSON a script reads; the library's own write/search/faults; and the command without
the runners installed. Retrieval quality itself is a benchmark figure (README), not asserted here."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest
from typer.testing import CliRunner

from graphmem.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
# the dev data: $GRAPHMEM_BENCH_DATA, else shared/bench in a folder above the checkout (../shared/bench)
_ABOVE = [p / "shared" / "bench" for p in Path(__file__).resolve().parents]
BENCH = Path(os.environ.get("GRAPHMEM_BENCH_DATA") or next((p for p in _ABOVE if p.is_dir()), _ABOVE[2]))


@pytest.fixture
def bench(cli_env, tmp_path):
    env = {**cli_env, "XDG_CACHE_HOME": str(tmp_path / "cache"), "COLUMNS": "100"}

    def run(*args: str):
        result = CliRunner().invoke(app, ["bench", *args], env=env, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    return run


def declared_runners() -> dict[str, str]:
    """benchmarks/pyproject.toml's entry points of the group graphmem.bench: name -> target."""
    import tomllib

    project = tomllib.loads((ROOT / "benchmarks" / "pyproject.toml").read_text())["project"]
    return project["entry-points"]["graphmem.bench"]


WITHOUT_RUNNERS = """
import importlib.metadata as m, sys
real = m.entry_points
fake = [m.EntryPoint(n, v, "graphmem.bench") for n, v in {extra!r}]
m.entry_points = lambda **kw: fake if kw.get("group") == "graphmem.bench" else real(**kw)
sys.argv = ["graphmem", *sys.argv[1:]]
from graphmem.cli.app import main
main()
"""


def _graphmem(*args: str, entry_points: list[tuple[str, str]], env: dict) -> subprocess.CompletedProcess:
    """`graphmem ARGS` in a process whose installed runners are ``entry_points`` (name, target)."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_RUNNERS.format(extra=entry_points), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env, "COLUMNS": "200"},
        timeout=120,
    )


def test_the_runners_are_bench_commands_through_their_entry_points():
    result = CliRunner().invoke(app, ["bench", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^│ (\w+) ", result.output, re.MULTILINE)
    assert listed == ["write", "search", "http", "faults", *sorted(declared_runners())]
    assert {"locomo", "longmemeval", "madial", "consolidate"} <= set(listed)
    assert "graphmem-bench package" not in result.output  # installed: nothing to ask for


def test_every_runner_module_is_declared_and_every_declaration_is_a_command():
    """A runner is a module of graphmem_bench with a command function and one entry-point line."""
    declared = declared_runners()
    folder = ROOT / "benchmarks" / "graphmem_bench"
    modules = sorted(p.stem for p in folder.glob("*.py") if "\ndef command(" in p.read_text(encoding="utf-8"))
    assert sorted(declared) == modules
    assert all(target == f"graphmem_bench.{name}:command" for name, target in declared.items())
    installed = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="graphmem.bench")}
    assert installed == declared  # the checkout's own runners are the ones installed (./bootstrap.sh)


def test_without_the_runners_bench_offers_the_library_commands_and_says_how_to_get_more(cli_env):
    helped = _graphmem("bench", "--help", entry_points=[], env=cli_env)
    assert helped.returncode == 0, helped.stderr
    assert re.findall(r"^│ (\w+) ", helped.stdout, re.MULTILINE) == ["write", "search", "http", "faults"]
    assert "graphmem-bench package: pip install -e ./benchmarks" in helped.stdout
    asked = _graphmem("bench", "locomo", "data.json", entry_points=[], env=cli_env)
    assert asked.returncode == 1 and len(asked.stderr.splitlines()) == 1
    assert "graphmem bench locomo: no such command" in asked.stderr and "graphmem-bench" in asked.stderr


def test_a_runner_that_cannot_be_imported_is_listed_and_says_why_when_run(cli_env):
    broken = [("broken", "graphmem_bench_no_such_module:command")]
    helped = _graphmem("bench", "--help", entry_points=broken, env=cli_env)
    assert helped.returncode == 0, helped.stderr
    assert re.search(r"│ broken +Not available: its entry point graphmem_bench_no_such_module:command", helped.stdout)
    run = _graphmem("bench", "broken", "--any", "thing", entry_points=broken, env=cli_env)
    assert run.returncode == 1 and len(run.stderr.splitlines()) == 1
    assert "ModuleNotFoundError" in run.stderr and "reinstall the package that provides it" in run.stderr


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


def test_memdaily_asks_each_question_in_its_own_group_beside_the_baselines(bench, neo4j_driver):
    folder = str(_data("memdaily_dev"))
    out = bench("memdaily", folder, "--limit", "1", "--types", "simple", "--scenarios", "roles", "--no-cache")
    assert "MemDaily target-message recall@k and all@5" in out
    for row in ("overall (n=1)", "simple (n=1)", "roles (n=1)", "dense", "bm25", "graphmem default", "graphmem recall"):
        assert row in out
    report = json.loads(
        bench(
            "memdaily",
            folder,
            "--limit",
            "1",
            "--types",
            "conditional,simple",
            "--scenarios",
            "items",
            "--json",
            "--details",
            "--no-cache",
        )
    )
    assert report["stats"]["questions"] == 2 and report["stats"]["search_errors"] == 0
    assert report["buckets"] == ["overall", "type:simple", "type:conditional", "scenario:items"]
    asked = report["questions"]
    assert [q["file"] for q in asked] == ["01_simple_items", "02_conditional_items"]
    for q in asked:  # its four messages and 40 noise events, each one turn of its own
        ranked = q["top10"]["graphmem recall"]
        assert len(ranked) == 10 and all(t.startswith(("m", "noise-")) for t in ranked)
        assert q["graphmem_results"]["graphmem default"]
    assert report["stats"]["turns"] == 2 * (4 + 40)
    overall = report["results"]["overall"]
    assert all(0.0 <= overall[m][k] <= 100.0 for m in report["methods"] for k in report["metrics"])
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-memdaily-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_memdaily_says_what_folder_it_wants(cli_env, tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "graphmem.cli.app", "bench", "memdaily", *args],
            capture_output=True,
            text=True,
            env={**os.environ, **cli_env},
            timeout=120,
        )

    wrong = run(str(tmp_path))
    assert wrong.returncode == 1 and len(wrong.stderr.splitlines()) == 1
    assert "no MemDaily files" in wrong.stderr and "memdaily_dev" in wrong.stderr
    (tmp_path / "01_simple_roles.json").write_text("[]", encoding="utf-8")
    no_noise = run(str(tmp_path))
    assert no_noise.returncode == 1 and "memory_zh.jsonl" in no_noise.stderr
    unknown = run(str(_data("memdaily_dev")), "--types", "trivia")
    assert unknown.returncode == 1 and "trivia" in unknown.stderr and "conditional" in unknown.stderr


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
        # each step's own time, none overlapping: together they make the search's time
        own = figures[depth]["own_p50_ms"]
        assert {"plan", "embed_wait", "seeds_own", "rank", "expand", "evidence", "other"} <= set(own)
        assert all(v >= 0 for k, v in own.items() if k != "other")
        assert sum(own.values()) <= figures[depth]["p99_ms"] * 1.5
    assert figures["concurrent"]["queries_per_s"] > 0 and figures["exact_scan"]["p50_ms"] > 0
    assert figures["concurrent"]["vs_one_client"] > 0
    assert figures["depth1"]["cpu"]["client_cpu_ms"] > 0  # what a search costs this process
    # the command reaches the server through NEO4J_URI (as with one started by `neo4j start --home`):
    # a server on this machine is found by its port, and its CPU counted
    if not os.environ.get("NEO4J_URI"):
        assert report["machine"]["neo4j_pid"] is not None
        assert all(figures[d]["cpu"]["server_cpu_ms"] > 0 for d in ("depth0", "depth1", "depth2"))
    # the query's embedding alone: its latency and CPU
    assert 0 < figures["embedding"]["p50_ms"] and figures["embedding"]["cpu_ms"] > 0
    assert figures["vectors_held"]["held"]  # searched again and again: the group's vectors are held
    # nothing is left behind without --keep
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-search-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_the_cpu_meter_reads_the_local_server_and_the_ceiling_it_sets(graph, group_id):
    """A benchmark's CPU per call: this process's always; the server's when it is graphmem's
    local one (the tests' own server unless NEO4J_URI names another), and then the most calls/s
    the machine's cores allow at that cost."""
    from graphmem.bench.cpu import LOCAL_HOSTS, CpuMeter

    graph.create_memory(group_id, "小明", "事实", "喜欢", "篮球")
    meter = CpuMeter(graph)
    mark = meter.mark()
    for q in ["小明喜欢什么运动？", "What does Xiaoming like?"] * 10:
        graph.search_memories(group_id, q)
    cpu = meter.per_call(mark, 20)
    assert cpu["client_cpu_ms"] > 0
    if os.environ.get("NEO4J_URI") and urlparse(os.environ["NEO4J_URI"]).hostname not in LOCAL_HOSTS:
        # a server on another machine: its CPU cannot be read from here
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
    # a small tenant's searches return what an exact scan of the group alone returns: all of them on a server
    # nothing else writes to; here other tests write at the same time, and Lucene's length statistics for word
    # scores are the whole index's, so one in a hundred may move between the two runs of a search
    assert tenants["same_as_alone"] >= tenants["queries"] * 0.99
    assert tenants["beside"] == "60 conversation"
    left = neo4j_driver.execute_query("MATCH (n) WHERE n.group_id STARTS WITH 'bench-search-' RETURN count(n) AS n")
    assert left.records[0]["n"] == 0


def test_search_bench_refuses_an_unknown_shape(cli_env):
    result = CliRunner().invoke(app, ["bench", "search", "--shape", "graph", "--sizes", "10"], env=cli_env)
    assert result.exit_code == 2 and "--shape" in result.output
