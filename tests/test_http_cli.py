"""The CLI and a running `graphmem serve`: search, add, show, stats and ingest go through the server
(and the process loads neither the Neo4j driver nor a model), and work directly again once it is
gone. Also: the CLI's reading of the settings equals the settings' own, and its quick reading of
`graphmem search`'s arguments equals typer's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphmem.config import load_settings
from graphmem.http.runtime import client_config, find_server, runtime_file, write_runtime
from graphmem.paths import user_cache_dir
from graphmem.server import free_port

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def serve_env(neo4j_settings, tmp_path) -> dict[str, str]:
    """The environment of a user on this machine: the test database, an empty config, a cache of
    their own (where the server leaves its file) holding the models this machine has fetched (as a
    user's cache would: without them each process fetches and unpacks ~500 MB again)."""
    config = tmp_path / "graphmem.toml"
    config.write_text("# empty\n")
    (tmp_path / "cache" / "graphmem").mkdir(parents=True)
    (tmp_path / "cache" / "graphmem" / "models").symlink_to(user_cache_dir() / "models", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    n = neo4j_settings.neo4j
    env.update(
        NEO4J_URI=n.uri,
        NEO4J_USER=n.user,
        NEO4J_PASSWORD=n.password or "",
        NEO4J_DATABASE=n.database,
        GRAPHMEM_CONFIG=str(config),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    return env


def cli(env: dict, *args: str, ok: bool = True, importtime: bool = False) -> subprocess.CompletedProcess:
    flags = ["-X", "importtime"] if importtime else []
    proc = subprocess.run(
        [sys.executable, *flags, "-m", "graphmem.cli", *args], env=env, capture_output=True, text=True, timeout=600
    )
    if ok:
        assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def imported(stderr: str) -> set[str]:
    """The top-level packages a process imported (from python -X importtime)."""
    return {
        line.rsplit("|", 1)[-1].strip().split(".")[0] for line in stderr.splitlines() if line.startswith("import time:")
    }


def test_the_cli_goes_through_a_running_server_and_works_directly_without_it(
    serve_env, neo4j_settings, group_id, tmp_path
):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
        env=serve_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    where = runtime_file(neo4j_settings.effective_uri(), neo4j_settings.neo4j.database)
    where = Path(serve_env["XDG_CACHE_HOME"]) / "graphmem" / "serve" / where.name
    try:
        deadline = time.monotonic() + 900  # the model loads first: minutes on a busy machine
        while not where.exists():
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            assert time.monotonic() < deadline, "graphmem serve did not come up"
            time.sleep(0.2)
        found = json.loads(where.read_text())
        assert found["url"] == f"http://127.0.0.1:{port}" and found["pid"] == server.pid
        assert where.stat().st_mode & 0o077 == 0  # its admin token: this user only

        added = cli(
            serve_env, "add", "-g", group_id, "-s", "我", "-t", "事实", "--topic", "住在", "-o", "杭州", "--json-output"
        )
        memory_id = json.loads(added.stdout)["memory_id"]
        shown = json.loads(cli(serve_env, "show", memory_id, "-g", group_id, "--json").stdout)
        assert shown["source"] == "http" and shown["group_id"] == group_id  # written by the server
        assert "杭州" in cli(serve_env, "show", memory_id, "-g", group_id).stdout

        searched = cli(serve_env, "search", "-g", group_id, "我住在哪里？", "--json", importtime=True)
        data = json.loads(searched.stdout)
        assert data["group_id"] == group_id and data["results"][0]["memory_id"] == memory_id
        heavy = {"neo4j", "onnxruntime", "numpy", "tokenizers", "fastapi", "dateparser", "pydantic", "typer", "rich"}
        loaded = imported(searched.stderr) & heavy
        assert not loaded, f"a search sent to the server imported {loaded}"
        table = cli(serve_env, "search", "-g", group_id, "我住在哪里？", importtime=True)
        assert "杭州" in table.stdout and "direct" in table.stdout
        assert "typer" not in imported(table.stderr)  # the table is rich's, the arguments read without typer

        stats = json.loads(cli(serve_env, "stats", "-g", group_id, "--json").stdout)
        assert stats["memories"]["total"] == 1
        whole = json.loads(cli(serve_env, "stats", "--json").stdout)  # the local admin token: every group
        assert whole["memories"]["total"] >= 1

        chat = tmp_path / "chat.jsonl"
        chat.write_text(
            "\n".join(
                json.dumps(m, ensure_ascii=False)
                for m in (
                    {"role": "user", "content": "我上周去了成都。"},
                    {"role": "assistant", "content": "成都好玩吗？"},
                )
            )
        )
        report = json.loads(cli(serve_env, "ingest", str(chat), "-g", group_id, "-x", "rules", "--json").stdout)
        assert report["episodes"] == 2
        missing = cli(serve_env, "show", "no-such-id", "-g", group_id, ok=False)
        assert missing.returncode == 1 and "no memory 'no-such-id'" in missing.stderr  # the server's named error
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    assert not where.exists()  # a stopped server leaves no file behind
    direct = cli(serve_env, "search", "-g", group_id, "我住在哪里？", "--json")
    assert json.loads(direct.stdout)["results"][0]["memory_id"] == memory_id


def test_a_dead_servers_file_is_ignored(serve_env, group_id, neo4j_settings, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", serve_env["XDG_CACHE_HOME"])
    where = runtime_file(neo4j_settings.effective_uri(), neo4j_settings.neo4j.database)
    write_runtime(where, url=f"http://127.0.0.1:{free_port()}", token="t" * 32, uri="x", database="y")
    data = json.loads(where.read_text())
    data["pid"] = 999_999_999  # no such process
    where.write_text(json.dumps(data))
    assert find_server(environ=serve_env) is None
    out = cli(serve_env, "search", "-g", group_id, "anything", "--json")
    assert json.loads(out.stdout)["results"] == []


def test_a_configured_server_that_does_not_answer_is_an_error(serve_env, group_id):
    env = {**serve_env, "GRAPHMEM_HTTP__URL": f"http://127.0.0.1:{free_port()}"}
    out = cli(env, "search", "-g", group_id, "anything", ok=False)
    assert out.returncode == 1 and "http.url" in out.stderr and "no graphmem server answers" in out.stderr
    off = cli({**env, "GRAPHMEM_HTTP__CLIENT": "off"}, "search", "-g", group_id, "anything", "--json")
    assert json.loads(off.stdout)["results"] == []


def test_serve_refuses_an_open_bind_without_a_token_and_names_its_extra(serve_env):
    out = cli(serve_env, "serve", "--host", "0.0.0.0", "--port", str(free_port()), ok=False)
    assert out.returncode == 1 and "--token" in out.stderr
    code = "import sys; sys.modules['fastapi'] = None; sys.argv = ['graphmem', 'serve']; from graphmem.cli import main; main()"
    missing = subprocess.run([sys.executable, "-c", code], env=serve_env, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1 and "pip install 'graphmem[http]'" in missing.stderr


@pytest.mark.parametrize(
    "files, environ",
    [
        ("", {}),
        ("", {"GRAPHMEM_SERVER__BOLT_PORT": "7999"}),
        ("[server]\nbolt_port = 7811\n", {}),
        ('[neo4j]\nuri = "neo4j://db.example:7687"\ndatabase = "mem"\n', {}),
        ('[neo4j]\nuri = "neo4j://db.example:7687"\n', {"NEO4J_URI": "bolt://other:7687", "NEO4J_DATABASE": "x"}),
        ("", {"NEO4J_URI": "bolt://a:1", "GRAPHMEM_NEO4J__URI": "bolt://b:2"}),
        ("", {"GRAPHMEM_NEO4J__URI": ""}),
    ],
)
def test_the_clis_reading_of_the_database_equals_the_settings(tmp_path, files, environ):
    config = tmp_path / "graphmem.toml"
    config.write_text(files)
    settings = load_settings(config, environ=environ)
    quick = client_config(config, environ)
    assert (quick.uri, quick.database) == (settings.effective_uri(), settings.neo4j.database)


@pytest.mark.parametrize(
    "args",
    [
        ["我住哪？"],
        ["-g", "alice", "where do I live?", "--json"],
        ["q", "--group=bob", "-n", "3", "--depth", "2", "--deep", "-t", "事实", "--type", "event", "-r", "导致"],
        ["q", "--fast", "--no-rerank", "--as-of", "2024-03-01", "--superseded", "hide", "-p", "recall"],
        ["q", "--rerank", "--since", "昨天", "--until", "today", "--at", "2025-01-01", "--subject", "我", "--archived"],
        ["q", "-c", "some.toml", "--max", "200"],
    ],
)
def test_the_quick_reading_of_search_arguments_equals_typers(args):
    import functools

    import typer
    from typer.testing import CliRunner

    from graphmem.cli import search_cmd
    from graphmem.cli.fast import read_arguments
    from graphmem.cli.options import typed

    seen: dict = {}
    app = typer.Typer()
    app.command("search")(typed(functools.wraps(search_cmd.search)(lambda **kwargs: seen.update(kwargs))))
    app.command("other")(lambda: None)  # two commands: typer then expects the command's name
    result = CliRunner().invoke(app, ["search", *args])
    assert result.exit_code == 0, result.output
    quick = read_arguments(search_cmd.search, args)
    assert quick is not None

    def same(kwargs: dict) -> dict:  # a repeatable option typer reads as () or [] when not given
        return {k: (list(v) or None if isinstance(v, (list, tuple)) else v) for k, v in kwargs.items()}

    assert same(seen) == same(quick)


@pytest.mark.parametrize(
    "args", [["--help"], [], ["q", "-n", "0"], ["q", "--depth", "9"], ["q", "--bogus"], ["a", "b"]]
)
def test_search_arguments_typer_must_answer_are_left_to_it(args):
    from graphmem.cli import search_cmd
    from graphmem.cli.fast import read_arguments

    assert read_arguments(search_cmd.search, args) is None
