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
    path.write_text('[neo4j]\nuri = "neo4j://db.example:7687"\npassword = "from-file"\n'
                    '[retrieval]\nalpha_similarity = 0.5\n', encoding="utf-8")
    s = load_settings(path, environ={"NEO4J_PASSWORD": "from-env", "GRAPHMEM_RETRIEVAL__SEED_K": "7"})
    assert s.neo4j.uri == "neo4j://db.example:7687"
    assert s.neo4j.password == "from-env"
    assert s.retrieval.alpha_similarity == 0.5 and s.retrieval.seed_k == 7


@pytest.mark.parametrize("content, environ, needle", [
    ("[retrieval]\nseed_k = 'many'\n", {}, "retrieval.seed_k"),
    ("[nope]\nx = 1\n", {}, "nope"),
    ("not toml at all [", {}, "not valid TOML"),
    ("", {"GRAPHMEM_FOO": "1"}, "GRAPHMEM_<SECTION>__<KEY>"),
])
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
    out = subprocess.run([sys.executable, "-m", "graphmem.cli.app", "config", "show", "--json", "--config", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "s3cret-value" not in out.stdout and "sk-123" not in out.stdout
    data = json.loads(out.stdout)
    assert data["neo4j"]["password"] == "********" and data["llm"]["api_key"] == "********"
