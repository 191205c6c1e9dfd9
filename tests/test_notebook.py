"""The researcher notebook runs against a real Neo4j, shows the causal path it explains, and
leaves nothing of its group behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.graph import MemoryGraph
from graphmem.store.admin import count_group_nodes, delete_group

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "relation_debugging.ipynb"


@pytest.mark.system
def test_relation_debugging_notebook_runs(neo4j_settings, monkeypatch, capsys):
    monkeypatch.setenv("NEO4J_URI", neo4j_settings.effective_uri())
    monkeypatch.setenv("NEO4J_USER", neo4j_settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_settings.effective_password())
    monkeypatch.chdir(NOTEBOOK.parent)
    cells = [c for c in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    scope: dict = {}
    try:
        for cell in cells:
            source = "".join(cell["source"])
            if "matplotlib" in source:  # drawing is for people; the data behind it is checked below
                continue
            exec(compile(source, str(NOTEBOOK), "exec"), scope)
        out = capsys.readouterr().out
        sub = scope["sub"]
        names = {sub.nodes[n]["name"] for n in sub}
        assert any("睡眠" in n for n in names) and any("心情" in n for n in names)
        causal = [d for _, _, d in sub.edges(data=True) if d["type"] == "CAUSALITY"]
        assert causal and causal[0]["relation"] == "causes"
        assert "-[CAUSALITY causes]->" in out
        distances = {r.text.split(" ")[1]: r.distance for r in scope["response"].results}
        assert distances.get("心情") == 0 and distances.get("睡眠") == 1
        # one node per name: Marco joins the two facts, and the walk crosses it
        reached = {r.text: r for r in scope["bridge"].results}["Marco 周末开 滑翔机"]
        assert reached.distance == 1 and reached.path[-1].via == "Marco"
        marco = [n for n in scope["bridge_sub"] if scope["bridge_sub"].nodes[n]["name"] == "Marco"]
        assert len(marco) == 1 and scope["bridge_sub"].in_degree(marco[0]) == 2
        with MemoryGraph(neo4j_settings, embedder=scope["g"].embedder) as fresh:
            assert count_group_nodes(fresh.store, scope["group"]) == {}  # its last cell cleaned up
    finally:
        if "g" in scope:
            with MemoryGraph(neo4j_settings, embedder=scope["g"].embedder) as fresh:
                delete_group(fresh.store, scope["group"])  # when a cell failed before the cleanup
            scope["g"].close()
