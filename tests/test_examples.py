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
