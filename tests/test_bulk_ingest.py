"""`graphmem ingest FILE` on the real database: a file read in parts, each stored exactly once
however the run ends (Ctrl-C, a stop half-way) and however often it is run again."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from graphmem.cli import ingest_cmd
from graphmem.cli.app import app
from graphmem.ingest.bulk import ingest_file, read_parts

COUNT = """MATCH (e:Episode {group_id: $g})
RETURN count(e) AS episodes, count(DISTINCT e.part_key) AS keys, collect(DISTINCT e.session_id) AS sessions"""
IN_ORDER = "MATCH (e:Episode {group_id: $g}) RETURN e.content AS content ORDER BY e.order, e.chunk"


def _text(paragraphs: int) -> str:
    """Paragraphs of about 900 characters, each its own: a part each."""
    return "\n\n".join(
        " ".join(
            f"Paragraph {p} sentence {s}: the lighthouse keeper logged the tide at {p * 7 + s} o'clock."
            for s in range(12)
        )
        for p in range(paragraphs)
    )


def _counts(graph, group_id: str) -> dict:
    return graph.store.run_text(COUNT, g=group_id)[0]


def test_an_ingest_interrupted_with_ctrl_c_resumes_and_stores_every_part_once(
    graph, group_id, tmp_path, neo4j_settings
):
    path = tmp_path / "logbook.txt"
    path.write_text(_text(12), encoding="utf-8")
    parts = list(read_parts(path))
    assert len(parts) >= 12
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    n = neo4j_settings.neo4j
    env.update(NEO4J_URI=n.uri, NEO4J_USER=n.user, NEO4J_PASSWORD=n.password or "", NEO4J_DATABASE=n.database)
    command = [
        sys.executable,
        "-m",
        "graphmem.cli.app",
        "ingest",
        str(path),
        "-g",
        group_id,
        "-x",
        "rules",
        "--batch",
        "2",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    deadline = time.monotonic() + 600
    while _counts(graph, group_id)["episodes"] < 4:  # a few batches stored: half-way, or so
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, (out, err)
    stored = _counts(graph, group_id)
    assert 4 <= stored["episodes"] < len(parts) and stored["episodes"] == stored["keys"]
    assert "interrupted:" in err and "nothing is stored twice" in err
    resume = shlex.split(err.split("Resume with:", 1)[1].strip().splitlines()[0])
    assert resume[:3] == ["graphmem", "ingest", str(path)] and "--session" in resume
    assert resume[resume.index("--extractor") + 1] == "rules" and resume[resume.index("--batch") + 1] == "2"
    assert resume[resume.index("--session") + 1] == stored["sessions"][0]

    again = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", *resume[1:]], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert again.returncode == 0, again.stderr
    final = _counts(graph, group_id)
    assert final["episodes"] == final["keys"] == len(parts)  # every part once: none lost, none twice
    assert final["sessions"] == stored["sessions"]  # one session, continued
    contents = [r["content"] for r in graph.store.run_text(IN_ORDER, g=group_id)]
    assert contents == [p.message.content for p in parts]  # in the file's order
    jobs = graph.store.run_text(
        "MATCH (x:ExtractionJob {group_id: $g}) RETURN x.state AS state, count(*) AS n", g=group_id
    )
    assert {r["state"] for r in jobs} == {"done"}  # the interrupted run's extraction was finished too


def test_a_run_stopped_half_way_and_run_again_stores_each_part_exactly_once(graph, group_id, tmp_path):
    path = tmp_path / "notes.jsonl"
    turns = [
        {"role": "user" if i % 2 else "assistant", "content": f"Turn {i}: we moved the piano to room {i}."}
        for i in range(40)
    ]
    turns.insert(7, {"role": "user", "content": "   "})  # an empty turn: no part, and no gap in the keys
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    first = ingest_file(graph.ingestor, path, group_id, extractor="none", batch_parts=6, stop_after=20)
    assert first.stored == 20 and _counts(graph, group_id)["episodes"] == 20
    second = ingest_file(graph.ingestor, path, group_id, extractor="none", batch_parts=6)
    assert (second.skipped, second.stored, second.session_id) == (20, 20, first.session_id)
    third = ingest_file(graph.ingestor, path, group_id, extractor="none", session_id="another", batch_parts=50)
    assert (third.skipped, third.stored) == (40, 0)  # the key is the group's: another session stores nothing again
    final = _counts(graph, group_id)
    assert final["episodes"] == final["keys"] == 40 and final["sessions"] == [first.session_id]
    contents = [r["content"] for r in graph.store.run_text(IN_ORDER, g=group_id)]
    assert contents == [t["content"] for t in turns if t["content"].strip()]


def test_the_same_part_twice_is_refused_by_the_database(graph, group_id):
    """The key's uniqueness is the database's (episode_part_key), not only the run's look-up."""
    import neo4j.exceptions

    create = "CREATE (:Episode {group_id: $g, id: randomUUID(), part_key: 'part:x', content: 'hi'})"
    graph.store.run_text(create, write=True, g=group_id)
    with pytest.raises(neo4j.exceptions.ConstraintError):
        graph.store.run_text(create, write=True, g=group_id)
    graph.store.run_text(create, write=True, g=group_id + "-other")  # another group's part is its own
    graph.store.run_text("MATCH (e:Episode {group_id: $g}) DETACH DELETE e", write=True, g=group_id + "-other")


def test_without_a_terminal_progress_is_a_line_per_thousand_parts(cli_env, group_id, tmp_path, monkeypatch):
    monkeypatch.setattr(ingest_cmd, "PROGRESS_LINE_PARTS", 5)  # a thousand parts, scaled down
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps({"role": "user", "content": f"line {i} about tea"}) for i in range(12)))
    result = CliRunner().invoke(app, ["ingest", str(path), "-g", group_id, "-x", "none", "--batch", "5"], env=cli_env)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("ingest chat.jsonl:")]
    assert [line.split(": ", 1)[1].split(",")[0] for line in lines] == ["5 parts", "10 parts", "12 parts"]
    assert "of 240 characters" in lines[-1] or "(100%)" in lines[-1]
    assert "stored 12 episodes in session" in result.output


def test_a_file_of_one_part_says_so_in_the_singular(cli_env, group_id, tmp_path):
    path = tmp_path / "note.txt"
    path.write_text("I moved to Lisbon last year.")
    result = CliRunner().invoke(app, ["ingest", str(path), "-g", group_id, "-x", "none"], env=cli_env)
    assert result.exit_code == 0, result.output
    assert "ingest note.txt: 1 part, " in result.output


def test_a_bad_line_names_its_place_and_what_came_before_is_kept(cli_env, group_id, tmp_path, graph):
    path = tmp_path / "chat.jsonl"
    path.write_text('{"role": "user", "content": "first"}\n{"role": "user", "content": "second"}\nnot json\n')
    result = CliRunner().invoke(app, ["ingest", str(path), "-g", group_id, "-x", "none", "--batch", "1"], env=cli_env)
    assert result.exit_code != 0
    assert f"{path}:3: not valid JSON" in str(result.exception)
    assert "stopped: 2 parts of chat.jsonl handled" in result.output and "Resume with:" in result.output
    assert _counts(graph, group_id)["episodes"] == 2  # the turns before the bad line are stored
