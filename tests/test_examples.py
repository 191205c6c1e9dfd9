"""The examples an agent developer copies from: the MCP replay runs here for real; the chat loop
(which needs an LLM endpoint) is only checked to compile."""

from __future__ import annotations

import json
import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_replaying_a_recorded_conversation_through_mcp_shows_what_was_stored_and_recalled(cli_env, group_id):
    pytest.importorskip("mcp")
    env = {**os.environ, **cli_env, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, str(REPO / "examples" / "replay_mcp.py"), "--group", group_id, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    refused = [c for c in report["calls"] if not c["ok"]]
    assert len(report["calls"]) == 9 and len(refused) == 1 and "group_id" in refused[0]["message"]
    tool_written = {m["text"].split(" (")[0] for m in report["stored"] if m["source"] == "tool"}
    assert tool_written == {"我 睡眠 不好", "我 心情 不好", "I miss the bus", "I late for work"}
    assert report["ingested"]["episodes"] and any(m["source"].startswith("extract") for m in report["stored"])
    why_sad, why_late = report["recalled"]
    assert why_sad["results"][0]["text"].startswith("我 心情 不好")
    cause = next(r for r in why_sad["results"] if r["text"].startswith("我 睡眠 不好"))
    assert cause["distance"] == 1 and cause["via"][0].startswith("CAUSALITY")
    assert any(r["text"].startswith("I miss the bus") and r["via"] for r in why_late["results"])


def test_the_chat_example_compiles():
    py_compile.compile(str(REPO / "examples" / "chat_openai.py"), doraise=True)


def _one_line(run: subprocess.CompletedProcess) -> str:
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    assert run.returncode == 1 and len(lines) == 1, run.stdout + run.stderr
    return lines[0]


def test_the_examples_fail_in_one_line_when_nothing_answers(cli_env):
    env = {**os.environ, **cli_env, "PYTHONPATH": str(REPO)}
    chat = subprocess.run(
        [sys.executable, str(REPO / "examples" / "chat_openai.py"), "--base-url", "http://127.0.0.1:9/v1"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "no chat endpoint answers at http://127.0.0.1:9/v1" in _one_line(chat)
    replay = subprocess.run(
        [sys.executable, str(REPO / "examples" / "replay_mcp.py")],
        env={**env, "NEO4J_URI": "neo4j://127.0.0.1:9"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "cannot reach Neo4j at neo4j://127.0.0.1:9" in _one_line(replay)


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [("graphmem.integrations.langchain", "langgraph", "langchain"), ("graphmem.integrations.mcp", "mcp", "mcp")],
)
def test_a_missing_extra_names_the_pip_install(module, blocked, extra):
    code = f"import sys; sys.modules[{blocked!r}] = None\nimport {module}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and f"pip install 'graphmem[{extra}]'" in run.stderr.splitlines()[-1], run.stderr
