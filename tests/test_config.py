"""Settings from graphmem.toml and the environment; `graphmem config show` masks secrets."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from graphmem.config import load_settings
from graphmem.errors import ConfigError


def test_toml_then_environment_override(tmp_path):
    path = tmp_path / "graphmem.toml"
    path.write_text(
        '[neo4j]\nuri = "neo4j://db.example:7687"\npassword = "from-file"\n'
        "[retrieval.ranking.weights]\nalpha_similarity = 0.5\n",
        encoding="utf-8",
    )
    s = load_settings(path, environ={"NEO4J_PASSWORD": "from-env", "GRAPHMEM_RETRIEVAL__LIMITS__SEED_K": "7"})
    assert s.neo4j.uri == "neo4j://db.example:7687"
    assert s.neo4j.password == "from-env"
    assert s.retrieval.ranking.weights.alpha_similarity == 0.5 and s.retrieval.limits.seed_k == 7


@pytest.mark.parametrize(
    "content, environ, needle",
    [
        ("[retrieval.limits]\nseed_k = 'many'\n", {}, "retrieval.limits.seed_k"),
        ("[retrieval.profiles.fresh.weights]\nalpha = 0.1\n", {}, "retrieval.profiles.fresh.weights.alpha"),
        ("[nope]\nx = 1\n", {}, "nope"),
        ("not toml at all [", {}, "not valid TOML"),
        ("", {"GRAPHMEM_FOO": "1"}, "GRAPHMEM_<SECTION>__<KEY>"),
        ("[retrieval]\nseed_k = 30\n", {}, "retrieval.seed_k is now retrieval.limits.seed_k"),
        (
            "[retrieval.ranking.conversation]\nreply_weight = 0.8\n",
            {},
            "retrieval.ranking.conversation.reply_weight was removed: the number is fixed in graphmem/retriever/rank.py",
        ),
        ("[retrieval.profiles.x.time_range]\nslack = 0.2\n", {}, "retrieval.ranking.time_range.slack was removed"),
        # one pair of concept-merging thresholds, for writes and consolidation alike
        (
            "[consolidation]\nmerge_threshold = 0.9\n",
            {},
            "consolidation.merge_threshold is now resolution.merge_threshold",
        ),
        # settings that became constants say which, and that the line goes
        (
            "",
            {"GRAPHMEM_NEO4J__CONNECT_CHECK_TIMEOUT_S": "5"},
            "neo4j.connect_check_timeout_s is no longer a setting: it is the constant CONNECT_CHECK_TIMEOUT_S "
            "in graphmem/store/driver.py; remove it",
        ),
        ("[server]\ncheckpoint_interval = '1m'\n", {}, "db.checkpoint.interval.time in <server.home>/conf/extra.conf"),
        # found among other errors, not only when it is the first
        ("[retrieval.limits]\nseed_k = 'many'\n[consolidation]\nhub_cap = 50\n", {}, "HUB_CAP in graphmem/lifecycle"),
    ],
)
def test_bad_settings_name_the_problem(tmp_path, content, environ, needle):
    path = tmp_path / "graphmem.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_settings(path, environ=environ)
    assert needle in str(err.value)


def test_missing_config_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "absent.toml", environ={})


def test_documented_environment_variables_that_are_not_settings_are_accepted(tmp_path):
    # docs/agents.md tells users to export GRAPHMEM_MCP_TOKEN; bootstrap.sh reads GRAPHMEM_VENV and GRAPHMEM_TEST_WORKERS
    env = {
        **os.environ,
        "GRAPHMEM_MCP_TOKEN": "t0ken",
        "GRAPHMEM_VENV": str(tmp_path / "venv"),
        "GRAPHMEM_TEST_WORKERS": "2",
    }
    out = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "config", "show", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "t0ken" not in out.stdout


def test_config_show_masks_password(tmp_path):
    path = tmp_path / "graphmem.toml"
    path.write_text('[neo4j]\npassword = "s3cret-value"\n[llm]\napi_key = "sk-123"\n', encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "config", "show", "--json", "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "s3cret-value" not in out.stdout and "sk-123" not in out.stdout
    data = json.loads(out.stdout)
    assert data["neo4j"]["password"] == "********" and data["llm"]["api_key"] == "********"


def test_every_setting_is_in_the_configuration_reference():
    # docs/configuration.md is the reference a user reads: a setting added without a line there fails here
    from pathlib import Path

    from graphmem.config import Settings

    reference = (Path(__file__).parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")

    def leaves(model, prefix):
        for name, _field in type(model).model_fields.items():
            value = getattr(model, name)
            if hasattr(type(value), "model_fields"):
                yield from leaves(value, f"{prefix}{name}.")
            else:
                yield f"{prefix}{name}"

    missing = [p for p in leaves(Settings(), "") if f"`{p}`" not in reference]
    assert not missing, missing


def test_every_retired_setting_names_a_constant_that_exists_and_is_gone_from_the_settings():
    import importlib
    import re
    from pathlib import Path

    from graphmem.config import _MOVED, _RETIRED, Settings

    reference = (Path(__file__).parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")
    defaults = Settings().model_dump()
    for old, where in _RETIRED.items():
        section, key = old.split(".")
        assert key not in defaults[section], old
        assert f"`{old}`" in reference, old
        constant, path = re.match(r"(\w+) in (graphmem/[\w/]+)\.py", where).groups()
        assert hasattr(importlib.import_module(path.replace("/", ".")), constant), where
    for old, new in _MOVED.items():
        section, key = old.split(".")
        assert key not in defaults[section], old
        node = defaults
        for part in new.split("."):
            node = node[part]  # the new name is a setting
    fields = [name for cls in (Settings().resolution, Settings().consolidation) for name in type(cls).model_fields]
    assert fields.count("merge_threshold") == fields.count("context_threshold") == 1


def test_consolidation_merges_concepts_by_the_resolution_thresholds(graph, make_settings, group_id):
    """The write path and consolidation read one pair of thresholds: lowered, consolidation merges
    two topics the default keeps apart (情绪 / 心情: cosine about 0.76 with the default pair)."""
    from graphmem.graph import MemoryGraph

    strict, lenient = group_id + "-strict", group_id + "-lenient"
    for g in (strict, lenient):
        graph.create_memory(g, "我", "事实", "情绪", "不好")
        graph.create_memory(g, "我", "事实", "心情", "不好")
    kept = graph.consolidate(strict)
    assert [m for m in kept.concept_merges if m.label == "Topic"] == []
    low = MemoryGraph(make_settings(resolution={"merge_threshold": 0.5, "context_threshold": 0.45}))
    try:
        merged = low.consolidate(lenient)
    finally:
        low.close()
    topics = [(m.label, {m.merged_name, m.survivor_name}) for m in merged.concept_merges]
    assert topics == [("Topic", {"情绪", "心情"})]
    assert merged.concept_merges[0].reason.startswith("meaning 0.")


def test_a_profile_is_the_default_with_its_own_values_over_it():
    s = load_settings(
        environ={},
        retrieval={
            "ranking": {"conversation": {"context_weight": 0.0}},
            "profiles": {"fresh": {"weights": {"delta_time": 0.6}}},
        },
    )
    fresh, recall = s.retrieval.profile("fresh"), s.retrieval.profile("recall")
    assert fresh.weights.delta_time == 0.6 and fresh.weights.alpha_similarity == 0.4
    # a change to the default reaches every profile that does not set it itself
    assert fresh.conversation.context_weight == 0.0 and recall.conversation.context_weight == 0.0
    assert recall.weights.alpha_similarity == 0.85 and recall.seed_min_similarity == 0.0
    with pytest.raises(Exception, match="unknown score profile 'nope'.*default, fresh, recall"):
        s.retrieval.profile("nope")
