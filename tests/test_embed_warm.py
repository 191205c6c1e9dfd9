"""A process that embeds one query loads only the models that query needs: with the default
three-reader model, a Chinese question never loads the English model (nor an English one the
Chinese model), so `graphmem search` without a server spends no CPU on a session it will not
run. Each case runs in a new process, as the CLI does: an embedder is loaded once per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # the real models, in a process of their own

REPO = Path(__file__).resolve().parents[1]

LOADED = """
import json, sys
from graphmem.embed import DEFAULT_MODEL, get_embedder
query = sys.argv[1]
dual = get_embedder(DEFAULT_MODEL, warm_for=[query])
vector = dual.embed_query([query])[0]
for model in (dual.primary, *(m for m, _, _ in dual.readers)):
    model.__dict__.get("_warming") and model._warming.result()  # what was started has finished
print(json.dumps({
    "sessions": sorted(m.name for m in (dual.primary, *(m for m, _, _ in dual.readers)) if m.__dict__.get("_sessions")),
    "vector": vector,
}))
"""


def loaded(query: str, *, warm_all: bool = False) -> dict:
    code = LOADED.replace("warm_for=[query]", "warm_for=None") if warm_all else LOADED
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", code, query], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize(
    "query, needed",
    [
        ("我现在住哪？", ["bge-small-zh-v1.5-q", "multilingual-e5-small"]),
        ("where do I live now?", ["bge-small-en-v1.5", "multilingual-e5-small"]),
        ("我在 Berlin 住了多久？", ["bge-small-en-v1.5", "bge-small-zh-v1.5-q", "multilingual-e5-small"]),
    ],
)
def test_one_query_loads_only_the_models_its_script_needs(query, needed):
    assert loaded(query)["sessions"] == needed


def test_the_query_vector_is_the_same_whichever_models_were_loaded_first():
    query = "我现在住哪？"
    every = loaded(query, warm_all=True)  # a server warms every model: it will be asked anything
    assert len(every["sessions"]) == 3
    assert loaded(query)["vector"] == every["vector"]
