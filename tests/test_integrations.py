"""The core stays small: importing graphmem and using its API never imports mcp, LangChain or LangGraph."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_import_graphmem_needs_neither_mcp_nor_langchain_nor_fastapi():
    code = (
        "import sys, graphmem, graphmem.graph, graphmem.tools, graphmem.working, graphmem.cli.app\n"
        "graphmem.MemoryGraph, graphmem.dispatch, graphmem.AsyncMemoryGraph\n"
        "loaded = [m for m in ('mcp', 'langchain_core', 'langgraph', 'fastapi', 'uvicorn') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, env={"PYTHONPATH": str(REPO)})
