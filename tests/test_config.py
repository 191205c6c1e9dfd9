"""Settings from graphmem.toml and the environment; `graphmem config show` masks secrets."""

from __future__ import annotations

import json
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
