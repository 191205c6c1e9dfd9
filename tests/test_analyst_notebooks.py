"""The analysts' notebooks run against a real Neo4j (executed with nbclient, as a person would)
and draw their pictures; the copies in notebooks/ are saved with those pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
EXPECTED = {
    # notebook: (pictures, words its outputs must show)
    "why_search.ipynb": (2, ["distance 1  我 睡眠 不好", "CAUSALITY causes"]),
    "memory_life.ipynb": (
        2,
        [
            "我 住在 北京 → 我 住在 上海",
            "reused concept nodes: [('我', '我', 'user'), ('住在', '住在', 'exact')]",
            "('我 住在 北京的朋友家 (时间: 2025-03-02)', 'staged')",
        ],
    ),
    "about_me.ipynb": (1, ["FACT 我 住在 上海", "OPINION 我 喜欢喝 绿茶", "## 偏好与观点"]),
}


def _outputs(nb) -> tuple[int, str]:
    images, text = 0, []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            data = out.get("data", {})
            images += "image/png" in data
            text.append(
                "".join(out.get("text", ""))
                + "".join(data.get("text/plain", ""))
                + "".join(data.get("text/markdown", ""))
            )
    return images, "\n".join(text)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_saved_notebook_has_its_pictures(name):
    images, text = _outputs(json.loads((NOTEBOOKS / name).read_text(encoding="utf-8")))
    assert images == EXPECTED[name][0]
    assert "CJK font: None" not in text  # saved from a machine that drew the Chinese labels


@pytest.mark.system
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_runs_and_draws(name, neo4j_settings, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("NEO4J_URI", neo4j_settings.effective_uri())
    monkeypatch.setenv("NEO4J_USER", neo4j_settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_settings.effective_password())
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    images, text = _outputs(nb)
    pictures, words = EXPECTED[name]
    assert images == pictures
    for word in words:
        assert word in text, word
